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
