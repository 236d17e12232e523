"""Streamable HTTP for the dialstack MCP server: the SDK's app under uvicorn, made safe.

- Binds 127.0.0.1 by default; a non-loopback bind is refused unless a bearer token is set.
- With a token, every request without ``Authorization: Bearer <token>`` gets 401.
- The SDK's Host/Origin (DNS-rebinding) protection stays on for every bind address:
  a foreign ``Origin`` gets 403, an unexpected ``Host`` 421.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("dialstack.serve.http")

MCP_PATH = "/mcp"


class BindError(Exception):
    """An HTTP bind that would be unsafe; the message says how to make it safe."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to expose the server beyond this machine without a bearer token."""
    if not is_loopback(host) and not token:
        raise BindError(
            f"refusing to bind {host}: it is reachable from other machines and no token is set. "
            "Pass --token-file FILE (a file holding a secret bearer token), or bind 127.0.0.1"
        )


def read_token(path: Path) -> str:
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise BindError(f"cannot read --token-file {path}: {exc.strerror}") from exc
    if len(token) < 16:
        raise BindError(f"the token in {path} is {len(token)} characters long; use at least 16 random characters")
    return token


def security_settings(host: str, extra_hosts: Sequence[str] = ()) -> TransportSecuritySettings:
    """Host/Origin checks for ``host``: loopback names always, plus the bind address itself."""
    hosts = ["127.0.0.1", "localhost", "[::1]"]
    if not is_loopback(host) and host not in ("0.0.0.0", "::"):
        hosts.append(f"[{host}]" if ":" in host else host)
    hosts.extend(extra_hosts)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{h}:*" for h in hosts] + list(hosts),
        allowed_origins=[f"{scheme}://{h}:*" for h in hosts for scheme in ("http", "https")]
        + [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")],
    )


class BearerTokenMiddleware:
    """401 for any HTTP request without the right ``Authorization: Bearer`` header."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = b'{"error": "unauthorized", "error_description": "send Authorization: Bearer <token>"}'
                await send({
                    "type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b'Bearer realm="dialstack"'),
                                (b"content-length", str(len(body)).encode())],
                })
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None, extra_hosts: Sequence[str] = ()) -> ASGIApp:
    """The ASGI app serving ``server`` at ``/mcp`` (its lifespan runs the session manager)."""
    check_bind(host, token)
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security_settings(host, extra_hosts)
    )
    return BearerTokenMiddleware(app, token) if token else app


def uvicorn_server(app: ASGIApp, *, host: str, port: int) -> Any:
    import uvicorn  # imported only for the http transport

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on", access_log=False)
    return uvicorn.Server(config)


async def serve_http(
    server: MCPServer, *, host: str, port: int, token: str | None, on_ready: Callable[[str], None] | None = None
) -> None:
    """Serve until interrupted; ``on_ready(url)`` runs once the socket listens."""
    app = http_app(server, host=host, token=token)
    userver = uvicorn_server(app, host=host, port=port)
    if on_ready is None:
        await userver.serve()
        return
    import asyncio

    task = asyncio.ensure_future(userver.serve())
    while not userver.started and not task.done():
        await asyncio.sleep(0.01)
    if userver.started:
        sock = userver.servers[0].sockets[0].getsockname()
        shown = f"[{sock[0]}]" if ":" in sock[0] else sock[0]
        on_ready(f"http://{shown}:{sock[1]}{MCP_PATH}")
    await task
