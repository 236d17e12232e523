"""Audit entries are batched off the call path, yet every call is in the store once the server closes."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

from mcp import Client

from dialstack.agent.toolclient import ToolClient
from dialstack.domain.models import DomainPack
from dialstack.serve.server import build_server
from dialstack.store import SQLiteStore
from dialstack.tools.runtime import CallOutcome

from .conftest import DEMO_PACK

READ_TIMEOUT = 30.0
SESSIONS = ("a1", "b2", "c3", "d4")


def tool_calls(db: Path, session: str) -> list[dict]:
    with SQLiteStore(db) as store:  # a fresh connection: only what reached the database file counts
        return [e for e in store.audit_log(session) if e["kind"] == "tool_call"]


async def test_every_concurrent_call_is_audited_once_the_in_process_server_closes(demo: DomainPack, tmp_path: Path) -> None:
    db = tmp_path / "audit.db"
    store = SQLiteStore(db)
    server = build_server(demo, store, default_session="default")

    async with Client(server) as client:
        async def call(session: str, i: int) -> None:
            result = await client.call_tool("echo", {"text": f"{session}-{i}"}, meta={"dialstack/session": session})
            assert not result.is_error

        await asyncio.gather(*(call(session, i) for session in SESSIONS for i in range(25)))
        rejected = await client.call_tool("echo", {"text": 5}, meta={"dialstack/session": "a1"})
        assert rejected.is_error
    server.dialstack.runtime.close()  # type: ignore[attr-defined]
    store.close()

    for session in SESSIONS:
        calls = tool_calls(db, session)
        assert len(calls) == 25 + (session == "a1")
        assert all(e["session"] == session for e in calls)
    assert [e["ok"] for e in tool_calls(db, "a1")].count(False) == 1


def test_entries_written_after_close_still_reach_the_store(demo: DomainPack, tmp_path: Path) -> None:
    db = tmp_path / "late.db"
    store = SQLiteStore(db)
    server = build_server(demo, store, default_session="default")
    runtime = server.dialstack.runtime  # type: ignore[attr-defined]
    runtime.ensure_session("late")
    runtime.close()
    finished = CallOutcome(tool="echo", ok=True, data={"text": "late"}, attempts=1)  # a call in flight at shutdown
    runtime.audit_call("late", runtime.tools["echo"], {"text": "late"}, finished, None, 0.001)
    store.close()
    assert len(tool_calls(db, "late")) == 1


def serve_command(db: Path) -> list[str]:
    return [sys.executable, "-m", "dialstack", "serve", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", str(db)]


async def test_every_call_is_audited_when_a_stdio_host_closes_the_server(tmp_path: Path) -> None:
    db = tmp_path / "stdio.db"
    async with ToolClient(serve_command(db)) as tools:
        for i in range(30):
            assert (await tools.call("echo", {"text": str(i)}, session="s1")).ok
    assert len(tool_calls(db, "s1")) == 30


async def test_every_call_is_audited_when_a_stdio_server_gets_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "sigterm.db"
    proc = await asyncio.create_subprocess_exec(
        *serve_command(db), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None

    async def send(message: dict) -> None:
        proc.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
        await proc.stdin.drain()  # type: ignore[union-attr]

    async def answer(request_id: int) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(proc.stdout.readline(), READ_TIMEOUT))  # type: ignore[union-attr]
            if message.get("id") == request_id:
                return message

    try:
        await send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "host", "version": "1"}}})
        await answer(0)
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for i in range(1, 21):
            await send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": str(i)}, "_meta": {"dialstack/session": "s1"}}})
        for i in range(1, 21):
            assert (await answer(i))["result"]["isError"] is False
        proc.send_signal(signal.SIGTERM)  # with stdin still open: the host stops the server the hard way
        await asyncio.wait_for(proc.wait(), READ_TIMEOUT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert len(tool_calls(db, "s1")) == 20
