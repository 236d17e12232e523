"""``ToolClient``: the only way the orchestrator reaches tools, through the real MCP client.

::

    async with ToolClient(domain, store=store, approver=ask_user) as tools:
        listed = await tools.list_tools()
        result = await tools.call("search_flights", {...}, session="s1")

Targets: a :class:`DomainPack` (a server built in-process, connected in memory -- the
default), an ``MCPServer`` already built, an ``http(s)://`` URL (Streamable HTTP, with an
optional bearer token), or a command line (``["dialstack", "serve", ...]``) spawned over
stdio. When the server asks for approval (an input-required result or an elicitation
request), ``approver(tool, args, reason)`` decides; without an approver the client
declares no elicitation support and gated calls come back ``approval="unsupported"``.

The MCP SDK is imported when a connection is opened, not with this module: ``from dialstack
import Agent`` stays light. A server this client built in-process (a dialstack server, which
validates every result against its output schema before returning it) is trusted: its results
are not validated a second time on the client side.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

from ..domain.models import DomainPack
from ..store.protocol import Store
from ..tools.gate import parse_approval_message
from ..tools.wire import IDEMPOTENCY_KEY, SESSION_KEY
from .outcomes import ToolCallResult, ToolDescriptor

if TYPE_CHECKING:  # annotations only: the SDK itself is imported when a connection opens
    import mcp_types as types
    from mcp import Client

log = logging.getLogger("dialstack.agent.toolclient")

Approver = Callable[[str, dict[str, Any], str], Awaitable[bool]]


class ToolClient:
    """An async context manager around ``mcp.Client`` speaking dialstack's conventions."""

    def __init__(
        self,
        target: DomainPack | Any | str | Sequence[str],
        *,
        store: Store | None = None,
        approver: Approver | None = None,
        mode: str = "auto",
        token: str | None = None,
        env: dict[str, str] | None = None,
        read_timeout_s: float | None = 120.0,
    ) -> None:
        self.approver = approver
        self._target = target
        self._store = store
        self._mode = mode
        self._token = token
        self._env = env
        self._read_timeout_s = read_timeout_s
        self._client: Client | None = None
        self._stack: AsyncExitStack | None = None
        self._built: Any = None  # the in-process server this client built, closed with it

    def _server_target(self) -> Any:
        target = self._target
        if isinstance(target, DomainPack):
            if self._store is None:
                raise ValueError("ToolClient(domain) builds an in-process server and needs store=...")
            from ..serve.server import build_server  # the in-process default only

            self._built = build_server(target, self._store)
            return self._built
        if isinstance(target, str):
            if not target.startswith(("http://", "https://")):
                raise ValueError(f"ToolClient target {target!r}: expected an http(s):// URL, a DomainPack, a server or a command list")
            if self._token is None:
                return target
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            http = create_mcp_http_client(headers={"Authorization": f"Bearer {self._token}"})
            return streamable_http_client(target, http_client=http)
        if isinstance(target, (list, tuple)):
            from mcp import StdioServerParameters

            return StdioServerParameters(command=target[0], args=list(target[1:]), env=self._env)
        return target  # an MCPServer / Server / Transport / StdioServerParameters

    async def __aenter__(self) -> ToolClient:
        from mcp import Client

        stack = AsyncExitStack()
        try:
            client = Client(
                self._server_target(),
                mode=self._mode,
                elicitation_callback=self._on_elicitation if self.approver is not None else None,
                read_timeout_seconds=self._read_timeout_s,
                cache=None,
            )
            self._client = await stack.enter_async_context(client)
            if self._validated_by_server():
                _trust_results(self._client)
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._stack is not None:
            await self._stack.aclose()
        if self._built is not None:
            self._built.dialstack.runtime.close()  # flushes its audit entries into the store
            self._built = None
        self._client = None
        self._stack = None

    @property
    def client(self) -> Client:
        if self._client is None:
            raise RuntimeError("use ToolClient inside 'async with'")
        return self._client

    @property
    def protocol_version(self) -> str:
        return self.client.protocol_version

    async def list_tools(self) -> list[ToolDescriptor]:
        tools: list[ToolDescriptor] = []
        cursor: str | None = None
        while True:
            page = await self.client.list_tools(cursor=cursor)
            tools.extend(
                ToolDescriptor(name=t.name, description=t.description or "", input_schema=t.input_schema, meta=dict(t.meta or {}))
                for t in page.tools
            )
            cursor = page.next_cursor
            if cursor is None:
                break
        return tools

    async def call(
        self, tool: str, args: dict[str, Any], *, session: str, idempotency_key: str | None = None
    ) -> ToolCallResult:
        """Call ``tool`` in dialogue ``session``; tool errors come back as ``ok=False``, never raise."""
        meta: dict[str, Any] = {SESSION_KEY: session}
        if idempotency_key is not None:
            meta[IDEMPOTENCY_KEY] = idempotency_key
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        try:
            result = await self.client.call_tool(tool, args, meta=meta)  # type: ignore[arg-type]
        except MCPError as exc:
            return ToolCallResult(tool=tool, arguments=args, ok=False, text=f"{tool}: {exc}")
        text = "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
        rmeta = result.meta or {}
        approval = rmeta.get("dialstack/approval")
        data = result.structured_content if isinstance(result.structured_content, dict) else None
        return ToolCallResult(
            tool=tool,
            arguments=args,
            ok=not result.is_error,
            data=data if not result.is_error else None,
            text=text,
            approval=approval if approval in ("approved", "declined", "unsupported") else None,
            category=rmeta.get("dialstack/error_category") if result.is_error else None,
        )

    def _validated_by_server(self) -> bool:
        """Whether the server is a dialstack server in this process (it validated every result)."""
        built = self._built if self._built is not None else self._target
        return getattr(built, "dialstack", None) is not None

    async def _on_elicitation(self, context: Any, params: Any) -> types.ElicitResult | types.ErrorData:
        import mcp_types as types

        assert self.approver is not None
        message = getattr(params, "message", "")
        parsed = parse_approval_message(message)
        if parsed is None:  # not a dialstack approval prompt: nothing here can answer it
            return types.ElicitResult(action="decline")
        tool, args, reason = parsed
        try:
            approved = await self.approver(tool, args, reason)
        except Exception:  # the approver is caller code: a crash there must read as a refusal
            log.exception("approver failed for %s; treating as declined", tool)
            approved = False
        if approved:
            return types.ElicitResult(action="accept", content={"approve": True})
        return types.ElicitResult(action="decline")


def _trust_results(client: Client) -> None:
    """Skip the SDK's client-side output-schema check for this connection only.

    ``ClientSession.call_tool`` calls ``self.validate_tool_result``; an instance attribute
    answers that call. Only for an in-process dialstack server, whose runtime has already
    validated the result strictly (the same schema, the same process).
    """

    async def already_validated(name: str, result: Any) -> None:
        return None

    client.session.validate_tool_result = already_validated  # type: ignore[method-assign]
