"""stdio for the dialstack server: a line-level JSON-RPC check in front of the SDK's reader.

The SDK's stdio reader drops a line it cannot parse into a message, so a client whose
request was malformed waits forever. :class:`LineCheck` looks at each line first and
answers, when the line's ``id`` can be read:

- ``-32700`` (parse error): not JSON, or a string with a lone UTF-16 surrogate;
- ``-32600`` (invalid request): not an object (MCP has no batches), ``jsonrpc`` not
  ``"2.0"``, a non-string ``method``, ``params`` not an object, an ``id`` that is neither
  a string nor an integer, nesting deeper than :data:`MAX_DEPTH`;
- ``-32602`` with the reason spelled out: a request for a method the server serves,
  naming no protocol version of its own (2026-07-28 requests do, and need no handshake),
  before ``initialize`` (a method it does not serve, and a newer client's
  ``server/discover`` probe, are left to the SDK).

A line without a readable id (a malformed notification) gets no answer (JSON-RPC
forbids answering notifications) and is logged. Good lines go to the SDK unchanged.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("dialstack.serve.stdio")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
MAX_DEPTH = 64
_ID = re.compile(r'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
_BEFORE_INIT = ("initialize", "ping", "server/discover")  # discover: a newer client's probe, the SDK's to answer
PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"


@dataclass(frozen=True)
class Reply:
    """A JSON-RPC error to send instead of passing the line on (``id`` None: nothing can be sent)."""

    id: str | int | None
    code: int
    message: str


def _readable_id(line: str) -> str | int | None:
    match = _ID.search(line)
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (str, int)) else None


def _depth_and_surrogates(value: Any) -> tuple[int, bool]:
    """The nesting depth of ``value`` and whether a string in it holds a lone surrogate (iteratively)."""
    deepest, lone = 0, False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, str):
            lone = lone or any("\ud800" <= ch <= "\udfff" for ch in item)
        elif isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest, lone


def _names_its_version(params: Any) -> bool:
    """Whether a request carries its protocol version itself (2026-07-28: no handshake needed)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_META in meta


class LineCheck:
    """Checks stdio lines one by one; remembers whether ``initialize`` was requested."""

    def __init__(self, serves: Callable[[str], bool] = lambda method: True) -> None:
        self.initialized = False
        self.serves = serves

    def check(self, line: str) -> Reply | None:
        """None to pass the line to the SDK; else the error to answer with."""
        try:
            message = json.loads(line)
        except RecursionError:
            return Reply(_readable_id(line), INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels")
        except ValueError:
            return Reply(_readable_id(line), PARSE_ERROR, "Parse error: the line is not valid JSON")
        depth, lone = _depth_and_surrogates(message)
        if not isinstance(message, dict):
            return Reply(None, INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object a line (MCP has no batches)")
        raw_id = message.get("id")
        known_id = raw_id if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else _readable_id(line)
        if lone:
            return Reply(known_id, PARSE_ERROR, "Parse error: a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff)")
        if depth > MAX_DEPTH:
            return Reply(known_id, INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels")
        if message.get("jsonrpc") != "2.0":
            return Reply(known_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
        if "id" in message and (isinstance(raw_id, bool) or not isinstance(raw_id, (str, int))):
            return Reply(None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
        if "method" not in message:
            return None  # a response to one of our requests: the SDK matches it
        method = message["method"]
        if not isinstance(method, str):
            return Reply(known_id, INVALID_REQUEST, 'Invalid Request: "method" must be a string')
        if "params" in message and not isinstance(message["params"], dict):
            return Reply(known_id, INVALID_REQUEST, 'Invalid Request: "params" must be an object')
        if method == "initialize":
            self.initialized = True
        elif ("id" in message and not self.initialized and method not in _BEFORE_INIT and self.serves(method)
              and not _names_its_version(message.get("params"))):
            return Reply(known_id, INVALID_PARAMS, f"Invalid request parameters: {method!r} before initialize; "
                         "the server is not initialized yet: send initialize first (the MCP lifecycle)")
        return None


class CheckedLines:
    """The process's stdin as the lines :class:`LineCheck` passes; answers the others through ``reply``."""

    def __init__(self, fd: int, serves: Callable[[str], bool]) -> None:
        import anyio

        self._file = anyio.wrap_file(os.fdopen(fd, "r", encoding="utf-8", errors="surrogateescape", closefd=False))
        self.check = LineCheck(serves)
        self.replies: Any = None  # the SDK's write stream, set once the transport is up
        self._ready: Any = anyio.Event()

    def attach(self, write_stream: Any) -> None:
        self.replies = write_stream
        self._ready.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._file:
            if not line.strip():
                continue
            reply = self.check.check(line)
            if reply is None:
                yield line
                continue
            log.info("answered a JSON-RPC line the SDK would drop or not explain (%s): %s", reply.code, reply.message)
            if reply.id is not None:
                await self._ready.wait()
                await self.replies.send(_error_message(reply))


def _error_message(reply: Reply) -> Any:
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=reply.id, error=types.ErrorData(code=reply.code, message=reply.message)))


async def run_stdio(server: Any) -> None:
    """Serve ``server`` (an SDK ``MCPServer``) over stdin/stdout with the line check in front."""
    from mcp.server.stdio import stdio_server

    private = os.dup(0)  # the wire; fd 0 then reads EOF, so a handler reading stdin cannot steal requests
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    low = server._lowlevel_server
    lines = CheckedLines(private, lambda method: low.get_request_handler(method) is not None)
    try:
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.attach(write_stream)
            await low.run(read_stream, write_stream, low.create_initialization_options())
    finally:
        os.dup2(private, 0)
        os.close(private)
