"""``Agent``: the orchestrator's public API and its turn loop.

::

    from dialstack import Agent

    with Agent("travel", db="chat.db") as agent:
        result = agent.handle("s1", "I want to book a flight")
        print(result.reply)           # Where would you like to fly from?
        print(result.to_dict())       # the same record as `dialstack chat --json`

One turn: load the state -> understand -> apply the act to the stack -> PEX (policy of the
active flow, tools through the MCP client) -> RES (pop completed flows, compose the reply)
-> repeat while ``keep_going`` -> commit the turn in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..domain import DomainPack, load_domain
from ..state.dialogue import DialogueState
from ..state.factory import FlowFactory
from ..state.pending import dump_pending
from ..state.flows import FlowState
from ..state.slots import SlotContext
from ..store import open_store
from ..store.protocol import HeadMovedError, Store, TurnContext, TurnRecord
from ..tools import gate, vocabulary
from ..tools.prepare import prepare_domain
from ..tools.sessions import Written, claim_session, record_user_text
from ..tools.wire import is_session_id, session_id_error
from . import lexicon as lx
from . import res
from .result import Clock, TurnResult, call_view, flags_of, flow_view
from .settings import with_settings
from .acts import ActHandler
from .deps import TurnDeps
from .llm.offline import OfflineSkillRunner
from .nlu import Understander, Understanding
from .outcomes import ToolDescriptor
from .pex import PolicyExecutor
from .policy_registry import PolicyRegistry
from .recovery import Recovery
from .toolclient import Approver, ToolClient
from .turn import Turn, grant_key
from .understanding import Interpreter

log = logging.getLogger("dialstack.agent")

MAX_STEPS_PER_TURN = 12
LIVE_SESSIONS = 256  # sessions whose live state an agent keeps between turns
BACKGROUND_EVERY = 10  # turns between background session summaries
MAX_TEXT = 4000
LATE_RESULT_GRACE_S = 10.0  # how long close() waits for timed-out tool calls still running



class Agent:
    """A dialogue agent for one domain: state in a store, tools over MCP, a backend for skills."""

    def __init__(
        self,
        domain: str | DomainPack | None = None,
        *,
        pack: str | Path | None = None,
        db: str | Path | None = None,
        store: Store | None = None,
        llm: str = "offline",
        mcp: str = "memory",
        clock: Clock | None = None,
        approver: Approver | None = None,
        data_dir: str | Path | None = None,
        settings: dict[str, Any] | None = None,
        user_id: str = "default",
        flow_ids: Callable[[], str] | None = None,
        api_key: str | None = None,
        anthropic_base_url: str | None = None,
        mcp_token: str | None = None,
        skill_runner: Any = None,
    ) -> None:
        loaded = domain if isinstance(domain, DomainPack) else load_domain(domain, pack)
        self.domain = with_settings(loaded, settings or {})
        self.pack = Path(pack) if pack else None
        self.db_path = Path(db) if db else None
        self.clock = clock or Clock()
        self.store = store or open_store(db, clock=self.clock)  # a store passed in keeps the clock it was given
        self.data_dir = Path(data_dir) if data_dir else _data_dir_for(self.store, self.db_path)
        if mcp == "memory":  # before the first turn, outside any tool timeout; a served domain prepares its own
            try:
                prepare_domain(self.domain, self.data_dir, self.clock.now().date())
            except BaseException:
                self.store.close()
                raise
        self.user_id = user_id
        self.interactive_approver = approver
        self.mcp = mcp
        self.mcp_token = mcp_token
        self.factory = FlowFactory(self.domain.ontology, ids=flow_ids)
        self.understander = Understander(self.domain, self.factory.slots.make)
        self.policies = PolicyRegistry(self.domain)
        self.pex = PolicyExecutor()
        self.acts = ActHandler()
        self.recovery = Recovery()
        self.templates = {**res.DEFAULT_TEMPLATES, **self.domain.ontology.templates}
        # One lock per session (its turns run one after the other); approvals live on each Turn.
        self._session_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._connect_lock: asyncio.Lock | None = None
        self._running: dict[int, Turn] = {}  # turns in progress, for a server's approval questions
        self.vocabularies: dict[str, list[dict[str, Any]]] = {}
        self.tool_descriptors: list[ToolDescriptor] = []
        self.tool_names: set[str] = set()
        self.skill_runner: Any = OfflineSkillRunner()
        self.reasoner: Any = None
        self.phraser: Any = None
        self.slot_reasoner: Any = None
        if llm == "anthropic":
            from .llm.anthropic import anthropic_backend

            backend = anthropic_backend(api_key=api_key, base_url=anthropic_base_url)
            self.skill_runner, self.reasoner, self.phraser = backend.runner, backend.reasoner, backend.phraser
        elif llm != "offline":
            raise ValueError(f"unknown --llm {llm!r}: expected 'offline' or 'anthropic'")
        self.interpreter = Interpreter(self.domain, self.reasoner)
        if self.reasoner is not None:
            self.slot_reasoner = self.interpreter.reason_slots
        if skill_runner is not None:
            self.skill_runner = skill_runner
        self._spinner: Callable[[str], contextlib.AbstractContextManager[None]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: ToolClient | None = None
        self._served: Any = None  # the in-process served domain (serve.server.ServedDomain), when --mcp memory
        self._background_tasks: set[asyncio.Future[Any]] = set()
        self._lock = threading.Lock()
        self._live: OrderedDict[str, tuple[int, DialogueState]] = OrderedDict()  # session -> (head version, state)
        self._claimed: set[str] = set()  # sessions this agent's user owns (a session's owner never changes)
        self._written = Written()  # provenance rows of the user's text already in the store

    # -- lifecycle ------------------------------------------------------------------------
    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="dialstack-agent", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def _run(self, coro: Awaitable[Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._ensure_loop()).result()  # type: ignore[arg-type]

    async def _drain(self) -> None:
        if self._background_tasks:
            await asyncio.gather(*self._background_tasks, return_exceptions=True)

    def close(self) -> None:
        if self._loop is not None:
            self._run(self._drain())
            if self._client is not None:
                with contextlib.suppress(RuntimeError):
                    self._run(self._client.__aexit__(None, None, None))
                self._client = None
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=10)
            self._loop.close()
            self._loop = None
        if self._served is not None:
            self._served.close(LATE_RESULT_GRACE_S)  # waits for timed-out calls (their late results need the store)
        self.store.close()

    @property
    def client(self) -> ToolClient:
        if self._client is None:
            raise RuntimeError("the MCP client is not connected yet")
        return self._client

    async def _connect(self) -> None:
        if self._client is not None:
            return
        if self._connect_lock is None:
            self._connect_lock = asyncio.Lock()
        async with self._connect_lock:  # turns of several sessions may start together: one client
            if self._client is not None:
                return
            client = ToolClient(self._mcp_target(), store=self.store, approver=self.approve, token=self.mcp_token)
            await client.__aenter__()
            self.tool_descriptors = await client.list_tools()
            self.tool_names = {t.name for t in self.tool_descriptors}
            self._client = client

    def _mcp_target(self) -> Any:
        if self.mcp == "memory":
            from ..serve.server import serve_domain

            self._served = serve_domain(self.domain, self.store, clock=self.clock.now, data_dir=self.data_dir,
                                        default_session="agent", principal=self.user_id, isolate_sessions=True)
            return self._served.server
        if self.mcp == "stdio":
            command = [sys.executable, "-m", "dialstack", "serve", "--domain", self.domain.name, "--user", self.user_id]
            if self.pack:
                command += ["--pack", str(self.pack)]
            if self.db_path:
                command += ["--db", str(self.db_path)]
            return command
        if self.mcp.startswith(("http://", "https://")):
            return self.mcp
        raise ValueError(f"unknown --mcp {self.mcp!r}: expected 'memory', 'stdio' or an http(s):// URL")

    async def _load_vocabularies(self, session_id: str) -> None:
        """Read each vocabulary once (on the first turn), through its read-only tool."""
        for name, spec in self.domain.ontology.vocabularies.items():
            if name in self.vocabularies:
                continue
            result = await self.client.call(spec.tool, dict(spec.args), session=session_id)
            if not result.ok or result.data is None:
                log.warning("vocabulary %s: %s failed: %s", name, spec.tool, result.text)
                continue
            self.vocabularies[name] = vocabulary.items(result.data, spec)

    async def approve(self, tool: str, args: dict[str, Any], reason: str) -> bool:
        """The MCP client's approver: a server's question about a call is answered by the turn
        making that call (:meth:`Turn.approve`); a question no single turn is asking is declined."""
        key = grant_key(tool, args)
        asking = [turn for turn in self._running.values() if turn.calling == key]
        if len(asking) != 1:
            log.warning("the server asked to approve %s, which %d running turns are calling; declined", tool, len(asking))
            return False
        return await asking[0].approve(tool, args, reason)

    def _deps(self) -> TurnDeps[Turn]:
        return TurnDeps(
            domain=self.domain, factory=self.factory, policies=self.policies, understander=self.understander,
            store=self.store, templates=self.templates, clock=self.clock, tools=self.client,
            tool_descriptors=self.tool_descriptors, tool_names=self.tool_names, skill_runner=self.skill_runner,
            reasoner=self.reasoner, slot_reasoner=self.slot_reasoner, approver=self.interactive_approver,
            spinner=self.spinner, pex=self.pex, recovery=self.recovery, interpreter=self.interpreter,
        )

    @contextlib.contextmanager
    def spinner(self, label: str) -> Iterator[None]:
        if self._spinner is None:
            yield
        else:
            with self._spinner(label):
                yield

    def set_spinner(self, factory: Callable[[str], contextlib.AbstractContextManager[None]] | None) -> None:
        self._spinner = factory

    # -- the public API ------------------------------------------------------------------
    def handle(self, session_id: str, text: str) -> TurnResult:
        """Handle one user message in ``session_id`` and return the turn's result."""
        return self._run(self._handle(session_id, text))

    async def ahandle(self, session_id: str, text: str) -> TurnResult:
        """The async variant of :meth:`handle` (runs on the agent's own event loop)."""
        future = asyncio.run_coroutine_threadsafe(self._handle(session_id, text), self._ensure_loop())
        return await asyncio.wrap_future(future)

    def inspect(self, session_id: str) -> dict[str, Any]:
        """The session's current stack and every flow instance (stack and archive), oldest first."""
        state = self.load(session_id)
        flows = list(state.stack.archive) + list(state.stack.flows)
        ordered = sorted(
            enumerate(flows),
            key=lambda pair: (pair[1].created_at, pair[1].turn_ids[0] if pair[1].turn_ids else float("inf"), pair[0]),
        )
        return {
            "stack": [flow_view(f) for f in state.stack.flows],
            "flows": [flow_view(f) for _, f in ordered],
            "digression_depth": state.digression_depth,
            "waiting_for_slot": state.waiting_for_slot,
            "pending": dump_pending(state.pending),
        }

    def load(self, session_id: str) -> DialogueState:
        raw = self.store.load_state(session_id)
        if raw is None:
            return DialogueState.new(self.domain.settings)
        return DialogueState.from_dict(raw, self.factory)

    # -- one turn -------------------------------------------------------------------------
    async def _handle(self, session_id: str, text: str) -> TurnResult:
        if not is_session_id(session_id):
            raise ValueError(session_id_error(session_id))
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, not {type(text).__name__}")
        lock = self._session_locks.get(session_id)
        if lock is None:
            lock = self._session_locks[session_id] = asyncio.Lock()
        async with lock:  # a session's turns one after the other: no lost updates; other sessions run
            try:
                return await self._handle_turn(session_id, text)
            except _HeadMoved as moved:
                if moved.changed:
                    return self._refuse_moved(session_id, text, moved.changed)
                log.info("session %s moved on during a turn; computing the turn again from the new head", session_id)
                try:
                    return await self._handle_turn(session_id, text)
                except _HeadMoved as again:
                    return self._refuse_moved(session_id, text, again.changed)

    async def _handle_turn(self, session_id: str, text: str) -> TurnResult:
        await self._connect()
        if session_id not in self._claimed:
            claim_session(self.store, session_id, self.domain.name, self.user_id)  # refused if another user's
            self._claimed.add(session_id)
        await self._load_vocabularies(session_id)
        context = self._turn_context(session_id)
        state = self._live_state(session_id, context)
        cleaned = text.strip()
        if not cleaned or len(cleaned) > MAX_TEXT:
            self._keep_live(session_id, context.version, state)  # untouched: still the head's state
            why = "I didn't get any text." if not cleaned else f"That message is too long ({len(cleaned)} characters; the limit is {MAX_TEXT})."
            return self._uncommitted(session_id, state, text, why)
        record_user_text(self.store, session_id, cleaned, self._written)  # provenance: values the user typed
        turn = self._begin(session_id, cleaned, state, context)
        self._running[id(turn)] = turn
        try:
            return await self._run_turn(turn, context.version)
        finally:
            self._running.pop(id(turn), None)

    async def _run_turn(self, turn: Turn, started_from: int) -> TurnResult:
        state, cleaned = turn.state, turn.text
        abandoned = state.stack.abandon_stale(turn.now)
        if abandoned:
            turn._note(abandoned)
            turn.replies.extend(turn.template("abandoned", phrase=f.label) for f in abandoned if f.natural_birth)
        understanding = await self.interpreter.understand(turn)
        state.intent = self.domain.flow(understanding.flow).intent if understanding.flow in self.domain.flows else None
        state.set_confidence(understanding.confidence)
        try:
            run = await self.acts.apply(turn, understanding)
        except Exception as exc:  # top-level: a failing digression or hook must not lose the turn
            log.exception("applying %s failed", understanding.act)
            turn.replies.append(turn.template("error", phrase="answering that", reason=str(exc) or type(exc).__name__))
            state.has_issues = True
            run = False
        if state.stack.waiting_parts and lx.STOPS_EVERYTHING.search(turn.text):
            self.acts.drop_waiting_parts(turn)  # 'stop everything, cancel both': the parts waiting go too
        if run or self._plan_waiting(state) or state.stack.queued is not None:
            await self._run_flows(turn)  # (a part queued below a task just cancelled starts now)
        if turn.side_parts:
            await self.acts.answer_side_parts(turn)
        if state.active is None and state.stack.top is None:
            state.has_plan = False
        reply = res.compose(turn.replies) or turn.template("fallback")
        if self.phraser is not None:
            reply = await self.phraser.phrase(reply, {"domain": self.domain.name, "user": cleaned})
        return self._commit(turn, reply, understanding, started_from)

    def _turn_context(self, session_id: str) -> TurnContext:
        """Everything a turn reads from the store, in one read transaction; the state is left
        out when the head is still the one this agent committed (its live state is current)."""
        live = self._live.get(session_id)
        return self.store.turn_context(session_id, self.user_id, known_version=live[0] if live else None, recent=3)

    def _live_state(self, session_id: str, context: TurnContext) -> DialogueState:
        """The session's state at the head: the one kept from this agent's last commit when no
        other writer (or a rollback) moved the head since, else rebuilt from the store."""
        live = self._live.pop(session_id, None)  # the turn changes it in place: kept again only once committed
        if live is not None and context.state is None and live[0] == context.version:
            return live[1]
        if context.state is None:
            return DialogueState.new(self.domain.settings)
        return DialogueState.from_dict(context.state, self.factory)

    def _keep_live(self, session_id: str, version: int, state: DialogueState) -> None:
        self._live[session_id] = (version, state)
        self._live.move_to_end(session_id)
        while len(self._live) > LIVE_SESSIONS:
            self._live.popitem(last=False)

    def _begin(self, session_id: str, text: str, state: DialogueState, context: TurnContext | None = None) -> Turn:
        if context is None:
            context = self.store.turn_context(session_id, self.user_id, known_version=None, recent=3)
        state.turn += 1
        state.keep_going = False
        now = self.clock.now()
        prefs = context.preferences
        history = [m for user, agent in context.recent for m in ({"role": "user", "text": user}, {"role": "agent", "text": agent})]
        turn = Turn(
            deps=self._deps(), session_id=session_id, text=text, state=state,
            slot_ctx=SlotContext(now=now, vocabularies=self.vocabularies, preferences=prefs),
            now=now.timestamp(), preferences=prefs, history=history,
            context_kinds=gate.session_kinds(context.context_kinds), recorded_kinds=frozenset(context.context_kinds),
        )
        turn.slot_snapshot = {f.flow_id: {n: s.value for n, s in f.slots.items()} for f in state.stack.flows}
        return turn

    @staticmethod
    def _plan_waiting(state: DialogueState) -> bool:
        top = state.stack.top
        return state.active is None and top is not None and top.state is FlowState.PENDING and top.plan_id is not None

    async def _run_flows(self, turn: Turn) -> None:
        state = turn.state
        for _ in range(MAX_STEPS_PER_TURN):
            active = state.active
            if active is None and state.stack.queued is not None:
                # the next part of a multi-part request, once the part above it has ended (with what
                # the parts before saved: 'save window seat as my preference, then book me ...')
                self._refresh_preferences(turn)
                started = state.stack.start_queued(turn.slot_ctx)
                turn.replies.append(turn.template("plan_next", step=started.label))
                continue
            if active is None:
                if not self._plan_waiting(state):
                    break
                top = state.stack.top
                plan = state.stack.find(top.plan_id) if top and top.plan_id else None
                if plan is None:
                    break
                self.policies.get(plan.spec).replan(turn, plan)
                continue
            active.record_turn(state.turn)
            state.keep_going = False
            try:
                execution = await self.pex.execute(turn, active)
            except Exception as exc:  # top-level: a policy bug must not lose the conversation
                log.exception("policy of %s raised", active.name)
                turn._note(state.stack.fail(active.flow_id, now=turn.now, reason=f"{type(exc).__name__}: {exc}"))
                turn.replies.append(turn.template("error", phrase=active.label, reason=str(exc) or type(exc).__name__))
                state.has_issues = True
                break
            if execution.reply:
                turn.replies.append(execution.reply)
            turn.warnings.extend(execution.issues)
            res.pre_hook(turn)
            if state.keep_going or (execution.status in ("completed", "declined")
                                    and (self._plan_waiting(state) or state.stack.queued is not None)):
                continue
            break
        offer = res.offer_resume(turn)
        if offer:
            turn.replies.append(offer)

    def _refresh_preferences(self, turn: Turn) -> None:
        """The user's saved preferences as they are now, for the slots filled from them."""
        prefs = self.store.preferences(self.user_id)
        if prefs != turn.preferences:
            turn.preferences = prefs
            turn.slot_ctx = replace(turn.slot_ctx, preferences=prefs)

    def _commit(self, turn: Turn, reply: str, understanding: Understanding, started_from: int) -> TurnResult:
        state = turn.state
        self._prune_state(state)
        calls = [call_view(c) for c in turn.tool_calls]
        result = TurnResult(
            session_id=turn.session_id, turn=state.turn, user=turn.text, reply=reply,
            stack=[flow_view(f) for f in state.stack.flows], flags=flags_of(state), frame=turn.frame,
            tool_calls=calls, approval_requested=turn.approval_requested, transitions=turn.transitions,
            understanding=understanding.to_dict(), digression_depth=state.digression_depth,
            waiting_for_slot=state.waiting_for_slot, warnings=turn.warnings,
        )
        record = TurnRecord(
            user_text=turn.text, reply=reply, state=state.serialize(), frame=turn.frame,
            audit=[*turn.audit, *({"kind": "tool_call", **c} for c in calls)], snapshot=turn.snapshot,
            meta={"understanding": result.understanding, "flags": result.flags, "transitions": turn.transitions},
            # the kinds the store does not hold yet (the private conversation with the first outside kind)
            context_kinds=turn.context_kinds - turn.recorded_kinds if turn.context_kinds - gate.INITIAL_KINDS else frozenset(),
        )
        try:  # only onto the head this turn started from: another writer's turn is never overwritten
            number = self.store.commit_turn(turn.session_id, record, expected_version=started_from)
        except HeadMovedError as exc:
            raise _HeadMoved(self._state_changing_calls(turn)) from exc
        self._keep_live(turn.session_id, started_from + 1, state)
        result.turn = number
        self._schedule_background(turn.session_id, number)
        limit = self.domain.settings.memory_management.max_history_messages
        if number % limit == 0:
            self.store.prune(turn.session_id, limit)
        return result

    def _schedule_background(self, session_id: str, number: int) -> None:
        """Every few turns, summarize the session in the background (Internal flows only)."""
        names = [n for n, f in self.domain.flows.items() if f.intent == "Internal" and "summar" in n]
        if not names or number % BACKGROUND_EVERY:
            return
        task = asyncio.ensure_future(self._background(session_id, names))
        self._background_tasks.add(task)
        task.add_done_callback(self._background_tasks.discard)

    async def _background(self, session_id: str, names: list[str]) -> None:
        state = self.load(session_id)
        turn = self._begin(session_id, "(background)", state)
        self._running[id(turn)] = turn
        try:
            await self.recovery.run_internal(turn, names)
        except Exception:  # background housekeeping must never break the conversation
            log.exception("background internal flows %s failed", names)
        finally:
            self._running.pop(id(turn), None)

    def _prune_state(self, state: DialogueState) -> None:
        memory = self.domain.settings.memory_management
        archive = state.stack.archive
        if len(archive) > memory.archive_completed_flows_after:
            del archive[: len(archive) - memory.archive_completed_flows_after]
        if len(state.plan_decisions) > memory.max_trace_events:
            del state.plan_decisions[: len(state.plan_decisions) - memory.max_trace_events]

    def _state_changing_calls(self, turn: Turn) -> list[str]:
        """The tools this turn ran that changed something and would run again if it were redone."""
        tools = self.domain.tools
        return [c.tool for c in turn.tool_calls if c.ok and c.tool in tools and not tools[c.tool].idempotent]

    def _refuse_moved(self, session_id: str, text: str, changed: list[str]) -> TurnResult:
        ran = f" It had already run {', '.join(sorted(set(changed)))}, so it was not redone." if changed else ""
        why = (
            "This conversation was changed from somewhere else while I was answering, so I did not save "
            f"this turn.{ran} Please check where things stand and send your message again."
        )
        return self._uncommitted(session_id, self.load(session_id), text, why)

    def _uncommitted(self, session_id: str, state: DialogueState, text: str, why: str) -> TurnResult:
        return TurnResult(
            session_id=session_id, turn=state.turn, user=text, reply=why,
            stack=[flow_view(f) for f in state.stack.flows], flags=flags_of(state),
            digression_depth=state.digression_depth, waiting_for_slot=state.waiting_for_slot, committed=False,
        )


class _HeadMoved(Exception):
    """A turn's commit found the head moved; ``changed`` lists the state-changing tools it ran."""

    def __init__(self, changed: list[str]) -> None:
        super().__init__(changed)
        self.changed = changed


def _data_dir_for(store: Store, db: Path | None) -> Path:
    if db is not None:
        return db.resolve().parent
    path = getattr(store, "path", None)
    if isinstance(path, (str, Path)) and str(path) != ":memory:":
        return Path(path).resolve().parent
    from ..store import default_db_path

    return default_db_path().parent
