"""Streamable HTTP on 127.0.0.1: uvicorn started and stopped by each test; token, Host and Origin
rules; each client's own default session."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from typing import Any

import httpx
import pytest
from mcp import Client

from dialstack.agent.toolclient import ToolClient
from dialstack.cli import main
from dialstack.serve.http import BindError, check_bind, http_app, security_settings, uvicorn_server
from dialstack.serve.server import build_server

from .conftest import DEMO_PACK

TOKEN = "s3cret-token-for-tests-0123456789"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


async def _serve(server, token: str | None, **app: Any) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    """Serve on 127.0.0.1; ``app`` (``host`` = the address the app believes it binds, allowed hosts and
    origins) configures the app's Host/Origin checks, since other addresses cannot be bound here."""
    app.setdefault("host", "127.0.0.1")
    userver = uvicorn_server(http_app(server, token=token, **app), host="127.0.0.1", port=0)
    task = asyncio.create_task(userver.serve())
    try:
        async with asyncio.timeout(20):
            while not userver.started:
                assert not task.done(), "uvicorn exited before it started"
                await asyncio.sleep(0.01)
        port = userver.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        userver.should_exit = True
        await asyncio.wait_for(task, 20)


@pytest.fixture
async def url(server) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    async for u in _serve(server, None):
        yield u


@pytest.fixture
async def token_url(server) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    async for u in _serve(server, TOKEN):
        yield u


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_http_server_serves_tool_calls_in_both_eras(url: str, mode: str) -> None:
    async with ToolClient(url, mode=mode) as tools:
        result = await tools.call("echo", {"text": "over http"}, session="h1")
        refused = await tools.call("untagged", {"token": "http"}, session="h1")
    assert result.ok and result.data["session"] == "h1"
    assert not refused.ok and refused.approval == "unsupported"


async def test_request_without_the_bearer_token_gets_401(token_url: str) -> None:
    async with httpx.AsyncClient() as http:
        missing = await http.post(token_url, json=INIT, headers=HEADERS)
        wrong = await http.post(token_url, json=INIT, headers={**HEADERS, "authorization": "Bearer nope"})
    assert missing.status_code == wrong.status_code == 401


async def test_client_with_the_token_is_served(token_url: str) -> None:
    async with ToolClient(token_url, token=TOKEN) as tools:
        result = await tools.call("echo", {"text": "authorized"}, session="h2")
    assert result.ok


async def test_foreign_origin_gets_403_even_with_the_token(token_url: str) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(
            token_url, json=INIT, headers={**HEADERS, "authorization": f"Bearer {TOKEN}", "origin": "https://evil.example"}
        )
    assert response.status_code == 403


async def test_foreign_origin_gets_403_without_a_token_on_loopback(url: str) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(url, json=INIT, headers={**HEADERS, "origin": "http://attacker.test"})
    assert response.status_code == 403


def test_non_loopback_bind_without_a_token_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BindError, match="--token-file"):
        check_bind("0.0.0.0", None)
    with pytest.raises(BindError, match="--token-file"):
        check_bind("192.0.2.7", None, ["mcp.example.com"])
    check_bind("0.0.0.0", TOKEN, ["mcp.example.com"])  # with a token (and the names clients use) it is allowed
    check_bind("192.0.2.7", TOKEN)
    code = main(["serve", "--transport", "http", "--host", "0.0.0.0", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"])
    assert code == 2
    assert "refusing to bind 0.0.0.0" in capsys.readouterr().err


def test_short_token_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t").write_text("short")
    code = main(["serve", "--transport", "http", "--token-file", str(tmp_path / "t"), "--domain", "demo", "--pack", str(DEMO_PACK)])
    assert code == 2 and "at least 16" in capsys.readouterr().err


# -- Host / Origin for non-loopback binds --------------------------------------------------------


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]"])
def test_wildcard_bind_without_allowed_host_is_refused(host: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BindError, match="--allowed-host"):
        check_bind(host, TOKEN)
    (tmp_path / "token").write_text(TOKEN)
    code = main(["serve", "--transport", "http", "--host", host, "--token-file", str(tmp_path / "token"),
                 "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"refusing to bind {host} without --allowed-host" in err
    assert "421 Invalid Host header" in err and "Pass --allowed-host HOST[:PORT] (repeatable) with the names clients use" in err


def test_allowed_hosts_and_origins_in_the_settings() -> None:
    wildcard = security_settings("0.0.0.0", ["MCP.example.com", "192.0.2.10:8765", "fe80::1"], ["https://app.example.com/"])
    assert wildcard.enable_dns_rebinding_protection is True
    assert {"mcp.example.com", "mcp.example.com:*", "192.0.2.10:8765", "[fe80::1]", "[fe80::1]:*"} <= set(wildcard.allowed_hosts)
    assert "192.0.2.10:*" not in wildcard.allowed_hosts  # HOST:PORT allows that port only
    assert not any(h.startswith("0.0.0.0") for h in wildcard.allowed_hosts)
    assert "https://app.example.com" in wildcard.allowed_origins
    assert "https://mcp.example.com:*" in wildcard.allowed_origins
    specific = security_settings("192.0.2.7")  # a specific non-loopback bind allows its own address
    assert {"192.0.2.7", "192.0.2.7:*", "127.0.0.1:*", "localhost:*"} <= set(specific.allowed_hosts)
    assert "http://192.0.2.7:*" in specific.allowed_origins
    v6 = security_settings("2001:db8::5")
    assert "[2001:db8::5]:*" in v6.allowed_hosts


@pytest.mark.parametrize("bad", ["http://mcp.example.com", "mcp.example.com/mcp", "host:port", "[zz]:1", ""])
def test_malformed_allowed_host_is_refused_before_serving(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--transport", "http", "--allowed-host", bad, "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"])
    assert code == 2 and "--allowed-host" in capsys.readouterr().err


def test_allowed_host_outside_http_and_session_over_http_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--allowed-host", "x.example", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"]) == 2
    assert "--transport http only" in capsys.readouterr().err
    assert main(["serve", "--transport", "http", "--session", "shared", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"]) == 2
    assert "one shared session" in capsys.readouterr().err


@pytest.fixture
async def lan_url(server) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    """The app configured as if bound to 192.0.2.7 with --allowed-host mcp.example.com (served on loopback)."""
    async for u in _serve(server, TOKEN, host="192.0.2.7", allowed_hosts=["mcp.example.com"],
                          allowed_origins=["https://console.example.com"]):
        yield u


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        ({"host": "192.0.2.7:8765"}, 200),  # the specific bind address, allowed by default
        ({"host": "mcp.example.com"}, 200),  # --allowed-host
        ({"host": "mcp.example.com:8765", "origin": "https://console.example.com"}, 200),  # --allowed-origin
        ({"host": "mcp.example.com", "origin": "https://mcp.example.com"}, 200),  # same origin as an allowed host
        ({"host": "evil.example"}, 421),  # a foreign Host: DNS rebinding
        ({"host": "mcp.example.com", "origin": "https://evil.example"}, 403),
    ],
)
async def test_host_check_allows_the_bind_address_and_allowed_hosts_only(lan_url: str, extra: dict[str, str], status: int) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(lan_url, json=INIT, headers={**HEADERS, "authorization": f"Bearer {TOKEN}", **extra})
    assert response.status_code == status, response.text


async def test_loopback_server_refuses_a_foreign_host_header(url: str) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(url, json=INIT, headers={**HEADERS, "host": "mcp.example.com"})
    assert response.status_code == 421


# -- sessions of clients naming none ---------------------------------------------------------------


@pytest.fixture
async def shared_url(demo, store) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    """A server built as `dialstack serve --transport http` builds it: no --session."""
    server = build_server(demo, store)
    try:
        async for u in _serve(server, None):
            yield u
    finally:
        server.dialstack.runtime.close()


WRITE = {"action": "write_scratchpad", "key": "canary", "text": ""}
READ = {"action": "read_scratchpad"}


async def test_legacy_http_clients_naming_no_session_each_get_their_own(shared_url: str) -> None:
    async with Client(shared_url, mode="legacy") as a, Client(shared_url, mode="legacy") as b:
        wrote_a = await a.call_tool("memory_manager", {**WRITE, "text": "canary-A"})
        wrote_b = await b.call_tool("memory_manager", {**WRITE, "text": "canary-B"})
        read_a = await a.call_tool("memory_manager", READ)
        read_b = await b.call_tool("memory_manager", READ)
    assert not wrote_a.is_error and not wrote_b.is_error
    session_a, session_b = wrote_a.meta["dialstack/session"], wrote_b.meta["dialstack/session"]
    assert session_a.startswith("http-") and session_b.startswith("http-") and session_a != session_b
    assert read_a.meta["dialstack/session"] == session_a  # the same connection keeps its session
    assert [e["text"] for e in read_a.structured_content["entries"]] == ["canary-A"]
    assert [e["text"] for e in read_b.structured_content["entries"]] == ["canary-B"]


async def test_modern_http_call_naming_no_session_to_a_session_scoped_tool_is_refused(shared_url: str, store) -> None:  # type: ignore[no-untyped-def]
    async with Client(shared_url, mode="auto") as a, Client(shared_url, mode="auto") as b:
        assert a.protocol_version == "2026-07-28"
        wrote = await a.call_tool("memory_manager", {**WRITE, "text": "canary-A"})
        read = await b.call_tool("memory_manager", READ)
        echoed = await b.call_tool("echo", {"text": "x"})  # its handler takes ctx: it could reach the session
        sent = await b.call_tool("send_message", {"to": "x", "body": "y"})  # the gate keeps per-session state for it
        keyed = await b.call_tool("add_note", {"token": "http-keyed"}, meta={"dialstack/idempotency_key": "k"})
        free = await b.call_tool("add_note", {"token": "http-free"})  # session-free: runs
        named = await a.call_tool("memory_manager", READ, meta={"dialstack/session": "mine"})
    for refused in (wrote, read, echoed, sent, keyed):
        assert refused.is_error and refused.meta["dialstack/error"] == "session_required"
        assert '_meta["dialstack/session"]' in refused.content[0].text and "was not run" in refused.content[0].text
    assert not free.is_error and free.structured_content["token"] == "http-free"
    assert not named.is_error and named.structured_content["entries"] == []
    assert store.scratchpad(free.meta["dialstack/session"]) == []  # the refused write went nowhere


ALICE = "alice-token-0123456789abcdef"
BOB = "bob-token-0123456789abcdef0"


@pytest.fixture
async def team_url(server) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    async for u in _serve(server, {ALICE: "alice", BOB: "bob"}):
        yield u


async def test_each_token_runs_as_its_principal_and_cannot_read_another_principals_session(team_url: str, store) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(team_url, token=ALICE) as alice:
        wrote = await alice.call("memory_manager", {"action": "write_scratchpad", "key": "k", "text": "alice only"}, session="trip")
    async with ToolClient(team_url, token=BOB) as bob:
        read = await bob.call("memory_manager", {"action": "read_scratchpad"}, session="trip")
        own = await bob.call("memory_manager", {"action": "read_scratchpad"}, session="bobs-trip")
    assert wrote.ok and store.session_info("trip")["user_id"] == "alice"
    assert not read.ok and "belongs to another user" in read.text and "alice only" not in read.text
    assert own.ok and own.data["entries"] == [] and store.session_info("bobs-trip")["user_id"] == "bob"


async def test_the_bearer_scheme_is_case_insensitive(token_url: str) -> None:
    async with httpx.AsyncClient() as http:
        for scheme in ("bearer", "BEARER", "BeArEr"):
            response = await http.post(token_url, json=INIT, headers={**HEADERS, "authorization": f"{scheme} {TOKEN}"})
            assert response.status_code == 200, scheme
        other = await http.post(token_url, json=INIT, headers={**HEADERS, "authorization": f"Basic {TOKEN}"})
    assert other.status_code == 401


async def test_host_names_are_case_insensitive(url: str) -> None:
    port = url.split(":")[2].split("/")[0]
    async with httpx.AsyncClient() as http:
        upper = await http.post(url, json=INIT, headers={**HEADERS, "host": f"LOCALHOST:{port}", "origin": f"HTTP://LocalHost:{port}"})
        foreign = await http.post(url, json=INIT, headers={**HEADERS, "host": f"EVIL.EXAMPLE:{port}"})
    assert upper.status_code == 200
    assert foreign.status_code == 421


async def test_a_legacy_http_client_cannot_name_another_connections_own_session(shared_url: str) -> None:
    async with Client(shared_url, mode="legacy") as a, Client(shared_url, mode="legacy") as b:
        wrote = await a.call_tool("memory_manager", {**WRITE, "text": "canary-A"})
        session_a = wrote.meta["dialstack/session"]
        stolen = await b.call_tool("memory_manager", READ, meta={"dialstack/session": session_a})
        own = await a.call_tool("memory_manager", READ, meta={"dialstack/session": session_a})
    assert stolen.is_error and "another HTTP connection's own session" in stolen.content[0].text
    assert "canary-A" not in stolen.content[0].text
    assert not own.is_error and [e["text"] for e in own.structured_content["entries"]] == ["canary-A"]
