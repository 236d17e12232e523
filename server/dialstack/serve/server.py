"""Build the MCP server of a domain: manifest tools, component tools, skills, the gate.

``build_server(domain, store)`` returns an SDK ``MCPServer``. Tools are served by our own
``tools/list`` / ``tools/call`` handlers (manifest tools carry arbitrary JSON Schemas, which
the SDK's function-signature tools cannot express); skills are SDK resources and prompts.

Every call runs as a *principal*: over HTTP the one its bearer token maps to (a token
file may hold several), over stdio and in process the server's configured user
(``--user``, default the OS user). A session belongs to the principal that created it;
any other principal naming it is refused, and ``ToolContext.user_id`` is the principal
(preferences and bookings are per user).

A call names its dialogue session in request ``_meta["dialstack/session"]`` (the rule is
:mod:`dialstack.tools.wire`'s, matched whole); without one it uses its connection's
default session, never one shared between clients:

- stdio and in-process clients: the server's default session (one connection per process
  or per in-process server);
- Streamable HTTP, legacy (2025-11-25) handshake: ``http-<Mcp-Session-Id>``, the transport
  session the SDK assigned at ``initialize`` (and checks on every request);
- Streamable HTTP, 2026-07-28: every request stands alone (no ``Mcp-Session-Id``, a fresh
  SDK ``Connection`` per request), so nothing identifies the client. A call naming no
  session is refused (``session_required``) unless the tool is session-free: not a
  component tool, no handler ``ctx`` (which could reach the session's store), no
  idempotency key (receipts are per session), and nothing the gate tracks per session (no
  ``communicates_externally``, ``accesses_private_data`` or ``receives_untrusted_input``).

``_meta["dialstack/idempotency_key"]`` makes a repeated call return the recorded result.

Approval (when :func:`dialstack.tools.gate.decide` says ``needs_approval``):

- modern protocol (2026-07-28) and a client declaring form elicitation: the first round
  answers an ``InputRequiredResult`` carrying an elicitation request; the client retries
  with the answer and the (SDK-sealed) ``request_state`` naming the exact call;
- legacy protocol (2025-11-25) and elicitation declared: an ``elicitation/create``
  request is sent mid-call;
- neither: ``isError`` saying approval is required and exactly what would have run.

An approval answer is good for one call: the modern round's ``request_state`` carries a
nonce the store consumes when the answer is used, so the same sealed state and answer
sent again ask again.

The gate's taint is kept per session and per connection (the stdio connection, the HTTP
transport session, or, for stateless HTTP requests, the principal): a connection that
has received untrusted data taints every session it uses afterwards.

Nothing runs without approval. This module must not import ``dialstack.agent``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import Prompt, UserMessage
from mcp.server.mcpserver.resources.types import TextResource
from mcp.shared.exceptions import MCPError

from .. import __version__
from ..domain.models import DomainPack, SkillSpec, ToolSpec
from ..store.protocol import Store
from ..tools import gate, host
from ..tools.components import COMPONENT_SPECS
from ..tools.context import utc_now
from ..tools.runtime import DEFAULT_MAX_INPUT_BYTES, CallOutcome, ToolRuntime
from ..tools.sessions import Caller, SessionRefused
from .principal import PRINCIPAL_SCOPE_KEY, os_user
from ..tools.wire import APPROVAL_KEY, IDEMPOTENCY_KEY, MAX_IDEMPOTENCY_KEY, SESSION_ID_RULE, SESSION_KEY, is_session_id

log = logging.getLogger("dialstack.serve")

MCP_SESSION_HEADER = "mcp-session-id"
TRANSPORT_PREFIX = "http-"  # http-<Mcp-Session-Id>: the default session of one legacy HTTP connection
APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Run this tool call?", "description": "true runs it; false refuses"},
    },
    "required": ["approve"],
}


def _modern(protocol_version: str | None) -> bool:
    return bool(protocol_version) and protocol_version >= "2026-07-28"  # ISO dates sort as strings


def tool_annotations(spec: ToolSpec) -> types.ToolAnnotations:
    tags = spec.tags
    read_only = "changes_state" not in tags
    return types.ToolAnnotations(
        title=spec.name,
        read_only_hint=read_only,
        destructive_hint=None if read_only else not spec.idempotent,
        idempotent_hint=spec.idempotent,
        open_world_hint="communicates_externally" in tags,
    )


def tool_meta(spec: ToolSpec, timeout_ms: int) -> dict[str, Any]:
    return {
        "dialstack/capabilities": sorted(spec.tags),
        "dialstack/requires_approval": spec.needs_approval,
        "dialstack/timeout_ms": timeout_ms,
        "dialstack/idempotent": spec.idempotent,
    }


class DialstackTools:
    """The ``tools/list`` and ``tools/call`` handlers over one :class:`ToolRuntime`."""

    def __init__(
        self, runtime: ToolRuntime, *, default_session: str, denied: frozenset[str] = frozenset(), principal: str = "default",
        isolate_sessions: bool = False, host_tools: bool = False,
    ) -> None:
        self.runtime = runtime
        self.host_tools = host_tools  # the client's model runs the flow stack: irreversible tools wait for its yes
        self.default_session = default_session
        self.denied = denied
        self.principal = principal
        self.isolate_sessions = isolate_sessions
        # stdio serves one client per process, an in-process server the one that built it; the SDK
        # gives modern requests a fresh ServerSession each, so the server itself names the connection
        self.connection = f"conn-{uuid.uuid4().hex}"
        self.listing = types.ListToolsResult(tools=[self._describe(spec) for spec in runtime.tools.values()])
        self._session_free: dict[str, bool] = {}  # per tool, computed on first need (resolving handlers costs imports)

    def _describe(self, spec: ToolSpec) -> types.Tool:
        return types.Tool(
            name=spec.tool_id,
            title=spec.name,
            description=spec.description,
            input_schema=spec.input_schema,
            output_schema=spec.output_schema,
            annotations=tool_annotations(spec),
            _meta=tool_meta(spec, int(self.runtime.timeout_s(spec) * 1000)),
        )

    def input_schema(self, name: str) -> dict[str, Any] | None:
        spec = self.runtime.tools.get(name)
        return None if spec is None else spec.input_schema

    async def list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return self.listing

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult | dict[str, Any] | types.InputRequiredResult:
        spec = self.runtime.tools.get(params.name)
        if spec is None:
            known = ", ".join(sorted(self.runtime.tools))
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool {params.name!r}; known tools: {known}")
        args = params.arguments or {}
        meta = dict(params.meta or {})
        key = meta.get(IDEMPOTENCY_KEY)
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY):
            return _error(spec.tool_id, f"_meta {IDEMPOTENCY_KEY!r} must be a string of 1-{MAX_IDEMPOTENCY_KEY} characters")
        named = meta.get(SESSION_KEY)
        session = named if named is not None else self._connection_session(ctx, spec, key)
        if isinstance(session, CallOutcome):
            return _result(session, None)
        if not is_session_id(session):
            return _error(spec.tool_id, f"_meta {SESSION_KEY!r} must be {SESSION_ID_RULE}, matched whole (got {session!r})")
        caller = self.caller(ctx)
        if named is not None and session.startswith(TRANSPORT_PREFIX) and caller.connection != session:
            return _error(spec.tool_id, f"was not run: {session!r} is another HTTP connection's own session; "
                          f"sessions named {TRANSPORT_PREFIX}* belong to the connection the server gave them to")
        try:
            self.runtime.open_session(session, caller)
        except SessionRefused as exc:
            return _error(spec.tool_id, f"was not run: {exc}")

        rejected = self.runtime.check_arguments(spec, args)
        if rejected is not None:
            self.runtime.audit_call(session, spec, args if isinstance(args, dict) else {}, rejected, key, 0.0)
            return _result(rejected, session)
        replayed = self.runtime.replay(spec, args, session_id=session, idempotency_key=key)
        if replayed is not None:  # a recorded result: nothing runs, so nothing needs approving
            self.runtime.delivered(session, spec, replayed, caller)
            self.runtime.audit_call(session, spec, args, replayed, key, 0.0)
            return _result(replayed, session)

        if self.host_tools and (why := host.unconfirmed(self.runtime.domain, self.runtime.store, session, spec)):
            return _result(CallOutcome.failed(spec.tool_id, "confirmation_required", why), session)
        untrusted_args, private_args = self.runtime.sessions.argument_origins(session, spec, args)
        decision = gate.decide(
            spec, args, self.runtime.context_kinds(session, spec, caller), denied=self.denied,
            untrusted_args=untrusted_args, private_args=private_args,
        )
        approval: str | None = None
        approved_by: str | None = None
        if decision.action == "deny":
            self.runtime.audit_gate(session, spec, args, decision)
            return _result(CallOutcome.failed(spec.tool_id, "denied", f"{spec.tool_id} was not run: {decision.reason}"), session)
        if decision.needs_approval:
            answer = await self._approve(ctx, params, spec, args, session, decision)
            if isinstance(answer, types.InputRequiredResult):
                self.runtime.audit_gate(session, spec, args, decision, approval="requested")
                return answer
            approval, approved_by = answer
            if approval != "approved":
                self.runtime.audit_gate(session, spec, args, decision, approval=approval, approved_by=approved_by)
                return _result(_refusal(spec, args, decision, approval), session, approval)
        # the call's own audit entry records the decision that let it run (and who approved)
        outcome = await self.runtime.run(
            spec, args, session_id=session, idempotency_key=key, meta=meta, decision=decision, approval=approval,
            approved_by=approved_by, caller=caller,
        )
        return _result(outcome, session, approval)

    def caller(self, ctx: Any) -> Caller:
        """The calling principal and connection (see the module docstring)."""
        request = getattr(ctx, "request", None)
        scope = getattr(request, "scope", None)
        if not isinstance(scope, dict):  # stdio or in-process: the server's one client
            return Caller(self.principal, None if self.isolate_sessions else self.connection)
        principal = scope.get(PRINCIPAL_SCOPE_KEY) or self.principal
        transport_session = request.headers.get(MCP_SESSION_HEADER)  # type: ignore[union-attr]
        # stateless requests (2026-07-28) have no connection: the principal's taint stands for it
        return Caller(principal, f"{TRANSPORT_PREFIX}{transport_session}" if transport_session else f"principal:{principal}")

    def session_free(self, spec: ToolSpec) -> bool:
        """Whether calls to ``spec`` neither read nor write anything kept per session."""
        free = self._session_free.get(spec.tool_id)
        if free is None:
            free = self._session_free[spec.tool_id] = _session_free(self.runtime, spec)
        return free

    def _connection_session(self, ctx: Any, spec: ToolSpec, key: str | None) -> str | CallOutcome:
        """The default session of the calling connection (see the module docstring), or a refusal."""
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        if headers is None:  # stdio or in-process: one connection per server
            return self.default_session
        transport_session = headers.get(MCP_SESSION_HEADER)
        if transport_session:  # validated by the SDK's session manager, bound to this client
            session = f"{TRANSPORT_PREFIX}{transport_session}"
            if is_session_id(session):
                return session
        if key is None and self.session_free(spec):
            return self.default_session  # reads and writes nothing of a session: nothing to share
        why = "carries an idempotency key (receipts are kept per session)" if key is not None else (
            "reads or writes per-session state (scratchpad, history, flow stack, the gate's record of what entered "
            "the context, or the session store through its handler's ctx)"
        )
        return CallOutcome.failed(
            spec.tool_id, "session_required",
            f"{spec.tool_id} was not run: this call names no dialogue session and {why}, but over this HTTP "
            f"connection (protocol {getattr(ctx, 'protocol_version', None) or 'unknown'}) each request stands alone, "
            "so there is no connection to give it a session of its own, and the server never puts different "
            f"clients in one shared session. Pass _meta[\"{SESSION_KEY}\"] with your dialogue session id "
            f"({SESSION_ID_RULE}) on every call.",
        )

    async def _approve(
        self, ctx: Any, params: types.CallToolRequestParams, spec: ToolSpec, args: dict[str, Any], session: str,
        decision: gate.GateDecision,
    ) -> tuple[str, str | None] | types.InputRequiredResult:
        """``("approved" | "declined" | "unsupported", who)``, or the modern first round."""
        caps = ctx.session.client_capabilities
        elicitation = caps.elicitation if caps is not None else None
        if elicitation is None or (elicitation.form is None and elicitation.url is not None):
            return "unsupported", None
        who = _client_name(ctx, params)
        message = gate.approval_message(spec.tool_id, args, decision.reason)
        if _modern(ctx.protocol_version):
            call = {"tool": spec.tool_id, "args": gate.args_digest(args), "session": session}
            answer = (params.input_responses or {}).get(APPROVAL_KEY)
            nonce = _nonce_for(params.request_state, call)
            # an answer counts once: its nonce is consumed here, so a replayed state and answer ask again
            if answer is None or nonce is None or not self.runtime.guard.consume_nonce(nonce, session):
                state = json.dumps({**call, "nonce": self.runtime.guard.issue_nonce(session)}, sort_keys=True)
                request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=APPROVAL_SCHEMA))
                return types.InputRequiredResult(input_requests={APPROVAL_KEY: request}, request_state=state)
            if not isinstance(answer, types.ElicitResult):
                return "declined", who
            return _verdict(answer), who
        try:
            answer = await ctx.session.elicit_form(message=message, requested_schema=APPROVAL_SCHEMA, related_request_id=ctx.request_id)
        except MCPError as exc:  # the client declared elicitation but could not show it
            log.info("approval elicitation for %s failed: %s", spec.tool_id, exc)
            return "unsupported", who
        return _verdict(answer), who


def _nonce_for(request_state: str | None, call: dict[str, str]) -> str | None:
    """The approval nonce in ``request_state`` if the state names exactly ``call``, else None."""
    try:
        state = json.loads(request_state) if request_state else None
    except json.JSONDecodeError:
        return None
    if not isinstance(state, dict) or {k: state.get(k) for k in call} != call or not isinstance(state.get("nonce"), str):
        return None
    return state["nonce"]


def _session_free(runtime: ToolRuntime, spec: ToolSpec) -> bool:
    """Whether a call to ``spec`` neither reads nor writes anything kept per session."""
    if any(c.tool_id == spec.tool_id for c in COMPONENT_SPECS):
        return False
    if "communicates_externally" in spec.tags or gate.kinds_added(spec):
        return False
    try:
        _fn, wants_ctx, _is_async = runtime._handler(spec)
    except Exception:  # an unresolvable handler fails at call time anyway; be strict meanwhile
        return False
    return not wants_ctx


def _verdict(answer: types.ElicitResult) -> str:
    approved = answer.action == "accept" and bool((answer.content or {}).get("approve") is True)
    return "approved" if approved else "declined"


def _client_name(ctx: Any, params: types.CallToolRequestParams) -> str:
    info = (params.meta or {}).get("io.modelcontextprotocol/clientInfo")
    if isinstance(info, dict) and info.get("name"):
        return f"user via {info['name']} (elicitation)"
    client = ctx.session.client_params
    if client is not None and client.client_info is not None:
        return f"user via {client.client_info.name} (elicitation)"
    return "user via MCP client (elicitation)"


def _refusal(spec: ToolSpec, args: dict[str, Any], decision: gate.GateDecision, approval: str) -> CallOutcome:
    shown = json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)
    if approval == "declined":
        return CallOutcome.failed(spec.tool_id, "approval_declined", f"{spec.tool_id} was not run: the user declined approval ({decision.reason}). Would have run: {spec.tool_id}({shown})")
    return CallOutcome.failed(
        spec.tool_id, "approval_unsupported",
        f"{spec.tool_id} was not run: approval is required ({decision.reason}), and this client supports "
        f"neither input-required results nor elicitation, so no one could approve it. "
        f"Would have run: {spec.tool_id}({shown})",
    )


def _error(tool: str, message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{tool}: {message}")], is_error=True)


def _result(outcome: CallOutcome, session: str | None, approval: str | None = None) -> dict[str, Any]:
    """The ``CallToolResult`` of ``outcome`` in wire form.

    A plain dict: the SDK validates and shapes every result against the negotiated
    protocol version before sending it, so building (and then dumping) a model here would
    only cost time.
    """
    meta: dict[str, Any] = {"dialstack/session": session} if session is not None else {}
    if approval:
        meta["dialstack/approval"] = approval
    if outcome.replayed:
        meta["dialstack/replayed"] = True
    if outcome.error:
        meta["dialstack/error"] = outcome.error
    if outcome.category:
        meta["dialstack/error_category"] = outcome.category
    if not outcome.ok:
        return {"_meta": meta, "content": [{"type": "text", "text": outcome.message}], "isError": True, "resultType": "complete"}
    text = json.dumps(outcome.data, ensure_ascii=False, default=str)
    return {
        "_meta": meta, "content": [{"type": "text", "text": text}], "structuredContent": outcome.data, "isError": False,
        "resultType": "complete",
    }


def _add_skills(server: MCPServer, domain: DomainPack, extra: tuple[SkillSpec, ...] = ()) -> None:
    for name, skill in [*sorted(domain.skills.items()), *((s.name, s) for s in extra)]:
        text = Path(skill.path).read_text(encoding="utf-8")
        server.add_resource(TextResource(
            uri=f"skill://{domain.name}/{name}/SKILL.md", name=f"{domain.name}/{name}", description=skill.description,
            mime_type="text/markdown", text=text,
        ))

        server.add_prompt(_skill_prompt(name, skill.description, skill.body))


@functools.lru_cache(maxsize=1024)
def _skill_prompt(name: str, description: str, body: str) -> Prompt:
    """A skill as an MCP prompt, built once per process (an agent's in-process server serves the
    same skills as every other agent's: building a prompt builds a pydantic model)."""
    def render() -> list[UserMessage]:
        return [UserMessage(body)]

    return Prompt.from_function(render, name=name, description=description)


SHUTDOWN_GRACE_S = 10.0  # how long closing waits for timed-out tool calls still running (their late results)


@dataclass(frozen=True)
class ServedDomain:
    """A domain served over MCP, owning its tool runtime: ``server`` goes to a transport
    or an in-process client; ``close`` / ``aclose`` stop it without losing an audit row.

    Built only by :func:`serve_domain`. The store stays open: its owner closes it after.
    """

    server: MCPServer
    tools: DialstackTools

    @property
    def runtime(self) -> ToolRuntime:
        return self.tools.runtime

    def close(self, grace_s: float = SHUTDOWN_GRACE_S) -> bool:
        """Wait up to ``grace_s`` seconds for abandoned (timed-out, still running) calls so
        their late results are audited, then flush the audit and stop the runtime. False
        (and a warning) when calls were still running: their late results are not recorded."""
        finished = self.runtime.wait_abandoned(timeout=grace_s)
        if not finished:
            log.warning("%d timed-out tool call(s) still running after %.0f s; their late results are not recorded",
                        self.runtime.abandoned_calls, grace_s)
        self.runtime.close()
        return finished

    async def aclose(self, grace_s: float = SHUTDOWN_GRACE_S) -> bool:
        """``close`` without blocking the event loop (the late calls run in worker threads)."""
        return await asyncio.to_thread(self.close, grace_s)


def build_server(domain: DomainPack, store: Store, **options: Any) -> MCPServer:
    """The MCP server of :func:`serve_domain`, for a caller that never closes it apart
    from its process (tests, an in-process client of its own)."""
    return serve_domain(domain, store, **options).server


def serve_domain(
    domain: DomainPack,
    store: Store,
    *,
    default_session: str | None = None,
    denied: frozenset[str] = frozenset(),
    clock: Callable[[], datetime] = utc_now,
    data_dir: Path | None = None,
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES,
    background_audit: bool = True,
    principal: str | None = None,
    isolate_sessions: bool = False,
    host_tools: bool = False,
) -> ServedDomain:
    """``domain`` served over MCP, backed by ``store`` (see the module docstring).

    ``principal``: who stdio and in-process callers (and HTTP callers without a token)
    are; default the OS user. ``isolate_sessions``: the client keeps each session's
    context apart (dialstack's own orchestrator), so taint is not carried between its
    sessions through the connection. ``host_tools``: add the stack operations of
    :mod:`dialstack.tools.host`, for a client whose own model runs the conversation.
    """
    server = MCPServer(
        f"dialstack-{domain.name}",
        title=f"dialstack: {domain.name}",
        description=domain.ontology.description or None,
        instructions=(
            f"Tools of the {domain.name} domain plus context_coordinator, memory_manager and flow_stack. "
            f"Name the dialogue session in request _meta {SESSION_KEY!r}."
            + (" Run each conversation with the dialogue_* tools (see the dialogue-host prompt): read "
               "dialogue_stack before you answer." if host_tools else "")
        ),
        version=__version__,
        log_level="WARNING",
    )
    runtime = ToolRuntime(
        domain, store, clock=clock, data_dir=data_dir, max_input_bytes=max_input_bytes, background_audit=background_audit,
        extra_tools=COMPONENT_SPECS + (host.host_specs(domain) if host_tools else ()),
    )
    tools = DialstackTools(
        runtime, default_session=default_session or f"mcp-{uuid.uuid4().hex[:12]}", denied=denied,
        principal=principal or os_user(), isolate_sessions=isolate_sessions, host_tools=host_tools,
    )
    low = server._lowlevel_server  # the SDK exposes no public setter for raw tools/* handlers
    low.add_request_handler("tools/list", types.PaginatedRequestParams, tools.list_tools)
    low.add_request_handler("tools/call", types.CallToolRequestParams, tools.call_tool)
    low.get_tool_input_schema = tools.input_schema
    skill = host.host_skill(domain) if host_tools else None
    _add_skills(server, domain, (skill,) if skill is not None else ())
    server.dialstack = tools  # type: ignore[attr-defined]  # for tests and the benchmark
    return ServedDomain(server, tools)
