"""``dialstack serve`` as a subprocess over stdio, launched the way Claude Desktop launches it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from dialstack.agent.toolclient import ToolClient

from .conftest import DEMO_PACK

READ_TIMEOUT = 30.0


def command(tmp_path: Path) -> list[str]:
    return [sys.executable, "-m", "dialstack", "serve", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", str(tmp_path / "d.db")]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_stdio_server_lists_and_calls_tools_in_both_eras(tmp_path: Path, mode: str) -> None:
    async with ToolClient(command(tmp_path), mode=mode, approver=lambda *a: _yes()) as tools:
        names = {t.name for t in await tools.list_tools()}
        echoed = await tools.call("echo", {"text": "over stdio"}, session="s1")
        gated = await tools.call("exfiltrate", {"token": "stdio"}, session="s1")
    assert {"echo", "flow_stack"} <= names
    assert echoed.ok and echoed.data == {"text": "over stdio", "session": "s1"}
    assert gated.ok and gated.approval == "approved"


async def _yes() -> bool:
    return True


async def _line(proc: asyncio.subprocess.Process) -> dict:
    assert proc.stdout is not None
    raw = await asyncio.wait_for(proc.stdout.readline(), READ_TIMEOUT)
    assert raw, "the server closed stdout"
    return json.loads(raw)  # anything but JSON-RPC on stdout fails here


async def test_malformed_json_rpc_leaves_the_server_answering_ping_and_stdout_stays_json_rpc(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *command(tmp_path), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert proc.stdin is not None

    async def send(message: dict | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        proc.stdin.write(text.encode() + b"\n")  # type: ignore[union-attr]
        await proc.stdin.drain()  # type: ignore[union-attr]

    try:
        await send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "desktop-like", "version": "1"}}})
        assert (await _line(proc))["id"] == 1
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await send("{this is not json")
        await send({"jsonrpc": "2.0", "id": "x", "method": 42})
        await send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        await send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "still here"}}})
        answers: dict = {}
        while not {2, 3} <= answers.keys():
            message = await _line(proc)
            assert message.get("jsonrpc") == "2.0"
            answers[message.get("id")] = message
        assert answers[2]["result"] == {}
        assert answers[3]["result"]["structuredContent"]["text"] == "still here"
    finally:
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), READ_TIMEOUT)


PROBE_LINES = [  # the probe's malformed lines whose id is readable, and the code each must get
    ('{"id": 10, "method": "ping"}', -32600),
    ('{"jsonrpc": "1.0", "id": 11, "method": "ping"}', -32600),
    ('{"jsonrpc": "2.0", "id": 12, "method": "tools/list", "params": "all"}', -32600),
    ('{"jsonrpc": "2.0", "id": 13, "method": "tools/list", "params": [1, 2]}', -32600),
    ('{"jsonrpc": "2.0", "id": 14, "method": 42}', -32600),
    ('{"jsonrpc": "2.0", "id": 15, "method": "ping", "params": {"a": "\\ud800"}}', -32700),
    ('{"jsonrpc": "2.0", "id": 16, "method": "ping", "params": ' + '{"a": ' * 1000 + "1" + "}" * 1001, -32600),
    ('{"jsonrpc": "2.0", "id": 17, "method": "ping", ', -32700),
]


@pytest.mark.parametrize("line, code", PROBE_LINES)
def test_a_malformed_line_with_a_readable_id_gets_a_json_rpc_error(line: str, code: int) -> None:
    from dialstack.serve.stdio import LineCheck

    check = LineCheck()
    check.initialized = True
    reply = check.check(line)
    assert reply is not None and reply.code == code and reply.id == json.loads(line.split('"id": ')[1].split(",")[0])


def test_a_request_before_initialize_is_told_to_initialize_first() -> None:
    from dialstack.serve.stdio import LineCheck

    check = LineCheck()
    early = check.check('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
    assert early is not None and early.code == -32602 and "initialize first" in early.message
    assert check.check('{"jsonrpc": "2.0", "id": 2, "method": "ping"}') is None
    assert check.check('{"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {}}') is None
    assert check.check('{"jsonrpc": "2.0", "id": 4, "method": "tools/list"}') is None


def test_a_method_the_server_does_not_serve_is_left_to_the_sdk_before_initialize() -> None:
    from dialstack.serve.stdio import LineCheck

    check = LineCheck(serves=lambda method: method == "tools/list")
    modern = '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}'
    assert check.check(modern) is None  # a 2026-07-28 request names its version: no handshake
    assert check.check('{"jsonrpc": "2.0", "id": 1, "method": "server/discover"}') is None  # "method not found" from the SDK
    assert check.check('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}') is not None


async def test_the_stdio_server_answers_every_malformed_line_that_has_an_id(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *command(tmp_path), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n')
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}).encode() + b"\n")
        for line, _code in PROBE_LINES:
            proc.stdin.write(line.encode() + b"\n")
        proc.stdin.write(b'{"jsonrpc": "2.0", "id": 99, "method": "ping"}\n')
        await proc.stdin.drain()
        answers: dict = {}
        while 99 not in answers:
            message = await _line(proc)
            answers[message["id"]] = message
        assert answers[1]["error"]["code"] == -32602 and "initialize first" in answers[1]["error"]["message"]
        assert [answers[10 + n]["error"]["code"] for n in range(len(PROBE_LINES))] == [code for _, code in PROBE_LINES]
        assert answers[99]["result"] == {}
    finally:
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), READ_TIMEOUT)


async def test_a_modern_stdio_client_calls_tools_without_a_handshake(tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    cmd = command(tmp_path)
    async with Client(StdioServerParameters(command=cmd[0], args=cmd[1:]), cache=None) as client:
        result = await client.call_tool("echo", {"text": "modern"}, meta={"dialstack/session": "m1"})
    assert not result.is_error and result.structured_content["text"] == "modern"
