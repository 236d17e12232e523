"""Streamable HTTP on 127.0.0.1: uvicorn started and stopped by each test; token and Origin rules."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from dialstack.agent.toolclient import ToolClient
from dialstack.cli import main
from dialstack.serve.http import BindError, check_bind, http_app, uvicorn_server

from .conftest import DEMO_PACK

TOKEN = "s3cret-token-for-tests-0123456789"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


async def _serve(server, token: str | None) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    userver = uvicorn_server(http_app(server, host="127.0.0.1", token=token), host="127.0.0.1", port=0)
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
    check_bind("0.0.0.0", TOKEN)  # with a token it is allowed
    code = main(["serve", "--transport", "http", "--host", "0.0.0.0", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", ":memory:"])
    assert code == 2
    assert "refusing to bind 0.0.0.0" in capsys.readouterr().err


def test_short_token_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t").write_text("short")
    code = main(["serve", "--transport", "http", "--token-file", str(tmp_path / "t"), "--domain", "demo", "--pack", str(DEMO_PACK)])
    assert code == 2 and "at least 16" in capsys.readouterr().err
