"""Streamable HTTP for the dialstack MCP server: the SDK's app under uvicorn, made safe.

- Binds 127.0.0.1 by default; a non-loopback bind is refused unless a bearer token is set.
- With tokens, every request without ``Authorization: Bearer <token>`` (the scheme in any
  case, RFC 7235) gets 401; the token's principal (:mod:`dialstack.serve.principal`) is
  who the request runs as. Without tokens (loopback only) requests run as the server's user.
- Host and Origin are compared case-insensitively (DNS names are).
- The SDK's Host/Origin (DNS-rebinding) protection stays on for every bind address:
  a foreign ``Origin`` gets 403, an unexpected ``Host`` 421. Allowed ``Host`` values are
  the loopback names, the bind address itself when it is a specific one, and every
  ``--allowed-host``; allowed ``Origin`` values are ``http(s)://`` of those hosts plus
  every ``--allowed-origin``. A wildcard bind (``0.0.0.0``, ``::``) answers to any name of
  this machine, so it is refused unless ``--allowed-host`` says which names clients use.

The bind checks import nothing heavy: ``dialstack serve`` refuses a bad bind before it
loads the MCP SDK.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .principal import PRINCIPAL_SCOPE_KEY

if TYPE_CHECKING:
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


def is_wildcard(host: str) -> bool:
    """Whether binding ``host`` listens on every address of the machine (``0.0.0.0``, ``::``)."""
    if host.strip() in ("", "*"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def check_bind(host: str, token: str | Mapping[str, str] | None, allowed_hosts: Sequence[str] = ()) -> None:
    """Refuse to expose the server beyond this machine without a bearer token, and to bind a
    wildcard address without being told which host names clients will use."""
    if not is_loopback(host) and not token:
        raise BindError(
            f"refusing to bind {host}: it is reachable from other machines and no token is set. "
            "Pass --token-file FILE (a file holding a secret bearer token), or bind 127.0.0.1"
        )
    if is_wildcard(host) and not allowed_hosts:
        raise BindError(
            f"refusing to bind {host} without --allowed-host: the Host-header check (DNS-rebinding protection) "
            "would answer every remote request with 421 Invalid Host header, because a wildcard bind does not say "
            "which names clients use. Pass --allowed-host HOST[:PORT] (repeatable) with the names clients use: each "
            "name or address they put in the URL, e.g. --allowed-host mcp.example.com --allowed-host 192.0.2.10:8765, "
            "or bind that specific address with --host"
        )


def normalize_host(value: str) -> str:
    """``HOST[:PORT]`` as the Host header carries it (IPv6 in brackets, name lowercased); BindError if malformed."""
    text = value.strip()
    port = ""
    if "/" in text:
        raise BindError(f"--allowed-host {value!r}: expected HOST[:PORT], the way it appears in the Host header (no scheme, no path)")
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise BindError(f"--allowed-host {value!r}: unclosed '[' (expected [IPV6] or [IPV6]:PORT)")
        name, rest = text[1:end], text[end + 1:]
        if rest and not rest.startswith(":"):
            raise BindError(f"--allowed-host {value!r}: expected [IPV6]:PORT")
        port = rest[1:]
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            raise BindError(f"--allowed-host {value!r}: {name!r} is not an IPv6 address") from None
        name = f"[{name}]"
    elif text.count(":") > 1:  # a bare IPv6 address, no port
        try:
            name = f"[{ipaddress.IPv6Address(text)}]"
        except ValueError:
            raise BindError(f"--allowed-host {value!r}: not HOST[:PORT] (write an IPv6 address as [ADDR]:PORT)") from None
    else:
        name, _, port = text.partition(":")
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise BindError(f"--allowed-host {value!r}: the port must be a number from 1 to 65535")
    if not name or "/" in name or "@" in name or any(c.isspace() for c in name) or name in ("[", "*"):
        raise BindError(f"--allowed-host {value!r}: expected a host name or address, optionally with :PORT (no scheme, no path)")
    name = name.lower()
    return f"{name}:{port}" if port else name


def normalize_origin(value: str) -> str:
    """An ``Origin`` value (``scheme://host[:port]``, ``:*`` for any port); BindError if malformed."""
    text = value.strip().rstrip("/")
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or not rest or "/" in rest or "@" in rest:
        raise BindError(f"--allowed-origin {value!r}: expected http(s)://HOST[:PORT] (as browsers send it, no path)")
    return f"{scheme.lower()}://{rest.lower()}"


def security_settings(
    host: str, allowed_hosts: Sequence[str] = (), allowed_origins: Sequence[str] = (),
) -> TransportSecuritySettings:
    """Host/Origin checks for a server bound to ``host`` (protection always on).

    Hosts: the loopback names, the bind address itself unless it is a wildcard, and
    ``allowed_hosts`` (``HOST`` allows any port, ``HOST:PORT`` only that one). Origins:
    ``http(s)://`` of each of those, plus ``allowed_origins``.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    names = ["127.0.0.1", "localhost", "[::1]"]
    if not is_loopback(host) and not is_wildcard(host):
        names.append(normalize_host(host))
    hosts: list[str] = []
    for name in [*names, *(normalize_host(h) for h in allowed_hosts)]:
        with_port = name.rsplit("]", 1)[-1].count(":") == 1
        for entry in ([name] if with_port else [name, f"{name}:*"]):
            if entry not in hosts:
                hosts.append(entry)
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    origins += [o for o in (normalize_origin(o) for o in allowed_origins) if o not in origins]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


class BearerTokenMiddleware:
    """401 for any HTTP request without a known ``Authorization: Bearer`` token; else its principal goes in the scope."""

    def __init__(self, app: ASGIApp, tokens: Mapping[str, str]) -> None:
        self.app = app
        self._tokens = [(token.encode(), principal) for token, principal in tokens.items()]

    def principal(self, header: bytes) -> str | None:
        scheme, _, credentials = header.strip().partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        given = credentials.strip()
        found = None
        for token, principal in self._tokens:  # every token compared, in constant time each
            if hmac.compare_digest(given, token):
                found = principal
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            principal = self.principal(dict(scope.get("headers") or []).get(b"authorization", b""))
            if principal is None:
                body = b'{"error": "unauthorized", "error_description": "send Authorization: Bearer <token>"}'
                await send({
                    "type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b'Bearer realm="dialstack"'),
                                (b"content-length", str(len(body)).encode())],
                })
                await send({"type": "http.response.body", "body": body})
                return
            scope[PRINCIPAL_SCOPE_KEY] = principal
        await self.app(scope, receive, send)


class CaseInsensitiveHostMiddleware:
    """Lower-cases the Host and Origin headers, so that ``LOCALHOST`` is ``localhost`` to the SDK's check."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope["headers"] = [
                (name, value.lower() if name in (b"host", b"origin") else value) for name, value in scope.get("headers") or []
            ]
        await self.app(scope, receive, send)


def http_app(
    server: MCPServer, *, host: str = "127.0.0.1", token: str | Mapping[str, str] | None = None,
    allowed_hosts: Sequence[str] = (), allowed_origins: Sequence[str] = (),
) -> ASGIApp:
    """The ASGI app serving ``server`` at ``/mcp`` (its lifespan runs the session manager).

    ``token``: one bearer token (the server's own user's) or ``{token: principal}``.
    """
    check_bind(host, token, allowed_hosts)
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security_settings(host, allowed_hosts, allowed_origins)
    )
    if token:
        tokens = {token: server.dialstack.principal} if isinstance(token, str) else dict(token)  # type: ignore[attr-defined]
        app = BearerTokenMiddleware(app, tokens)
    return CaseInsensitiveHostMiddleware(app)


def uvicorn_server(app: ASGIApp, *, host: str, port: int) -> Any:
    import uvicorn  # imported only for the http transport

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on", access_log=False)
    return uvicorn.Server(config)


async def serve_http(
    server: MCPServer, *, host: str, port: int, token: str | Mapping[str, str] | None,
    on_ready: Callable[[str], None] | None = None,
    allowed_hosts: Sequence[str] = (), allowed_origins: Sequence[str] = (),
) -> None:
    """Serve until interrupted; ``on_ready(url)`` runs once the socket listens."""
    app = http_app(server, host=host, token=token, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins)
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
