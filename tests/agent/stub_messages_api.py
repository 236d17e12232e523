"""A local stub of the Anthropic Messages API (``POST /v1/messages``) for backend tests.

It serves scripted replies in order, records every request body, and runs in-process on
127.0.0.1 (uvicorn + a tiny Starlette app in a background thread). Point the real SDK at
it: ``AsyncAnthropic(base_url=stub.url, api_key="test", max_retries=0)``.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

_ids = itertools.count(1)


@dataclass(frozen=True)
class Scripted:
    status: int
    body: dict[str, Any]


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(name: str, arguments: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": id or f"toolu_{next(_ids):04d}", "name": name, "input": arguments}


def reply(*blocks: dict[str, Any], stop_reason: str | None = None) -> Scripted:
    """A 200 reply; ``stop_reason`` defaults to tool_use when a block calls a tool, else end_turn."""
    reason = stop_reason or ("tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn")
    return Scripted(
        200,
        {
            "id": f"msg_{next(_ids):04d}",
            "type": "message",
            "role": "assistant",
            "model": "claude-stub",
            "content": list(blocks),
            "stop_reason": reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10},
        },
    )


def finish(**outcome: Any) -> Scripted:
    return reply(tool_use("finish", outcome))


def api_error(status: int, kind: str, message: str) -> Scripted:
    return Scripted(status, {"type": "error", "error": {"type": kind, "message": message}})


@dataclass
class MessagesStub:
    script: deque[Scripted] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    unexpected: int = 0
    url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def push(self, *items: Scripted) -> None:
        with self._lock:
            self.script.extend(items)

    def reset(self) -> None:
        with self._lock:
            self.script.clear()
            self.requests.clear()
            self.unexpected = 0

    async def _messages(self, request: Request) -> JSONResponse:
        body = await request.json()
        with self._lock:
            self.requests.append(body)
            if not self.script:
                self.unexpected += 1
                return JSONResponse({"type": "error", "error": {"type": "api_error", "message": "stub script exhausted"}}, 500)
            item = self.script.popleft()
        return JSONResponse(item.body, item.status)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/messages", self._messages, methods=["POST"])])


@dataclass
class _Running:
    server: uvicorn.Server
    thread: threading.Thread


def start(stub: MessagesStub, ready_timeout_s: float = 10.0) -> _Running:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(stub.app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="messages-stub", daemon=True)
    thread.start()
    deadline = time.monotonic() + ready_timeout_s
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the Messages API stub exited before it was ready")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Messages API stub was not ready within {ready_timeout_s}s")
        thread.join(0.005)  # waits on the thread, so a crash ends the wait at once
    stub.url = f"http://127.0.0.1:{port}"
    return _Running(server, thread)


def stop(running: _Running, timeout_s: float = 10.0) -> None:
    running.server.should_exit = True
    running.thread.join(timeout_s)
    if running.thread.is_alive():
        raise TimeoutError(f"the Messages API stub did not stop within {timeout_s}s")


@pytest.fixture(scope="module")
def messages_server() -> Iterator[MessagesStub]:
    stub = MessagesStub()
    running = start(stub)
    yield stub
    stop(running)


@pytest.fixture
def messages_stub(messages_server: MessagesStub) -> Iterator[MessagesStub]:
    """A fresh script and request log per test; a request beyond the script fails the test."""
    messages_server.reset()
    yield messages_server
    assert messages_server.unexpected == 0, f"{messages_server.unexpected} request(s) beyond the script"
    assert not messages_server.script, f"{len(messages_server.script)} scripted repl(ies) never requested"
