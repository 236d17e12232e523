"""Run one tool call safely: validate, time out, retry once if allowed, record receipts and audit.

Nothing here knows MCP. The server (and tests) call :meth:`ToolRuntime.check_arguments`,
:meth:`ToolRuntime.replay` and :meth:`ToolRuntime.run`; the gate decision sits between
the first two and the last, in the server. Its parts live beside it, one concern each:
``outcome`` (``CallOutcome``), ``validation`` (strict schemas, error texts), ``failures``
(transient errors, timeouts), ``idempotency`` (receipts, claims) and ``audit`` (the
batched ``AuditWriter``); this module runs the call and records its late result.

- Arguments are validated with JSON Schema 2020-12, strictly: no coercion, and an
  object schema that does not say otherwise rejects unknown properties.
- Arguments larger than ``max_input_bytes`` (as compact JSON) are refused.
- ``timeout_ms`` is enforced. An async handler is cancelled at its timeout (it stops at
  its next ``await``). A sync handler runs in a thread pool, so a hung one costs a thread,
  never the event loop; Python cannot stop a running thread, so at its timeout the call
  answers ``isError`` saying the handler *may still complete*, and the thread is
  abandoned, not killed. When it finishes, its late result is audited
  (``kind: "late_result"``) and, if the call carried an idempotency key and succeeded,
  recorded as that key's receipt: a retry with the key returns it instead of running the
  tool again, and a retry while it is still running answers ``still_running`` without
  starting it. A timed-out call is not retried.
- Idempotent tools are retried once on :class:`TransientToolError`, ``TimeoutError`` or
  ``ConnectionError`` raised by the handler. Non-idempotent tools never are.
- A call carrying an idempotency key returns the recorded result of the first
  successful call with that key (same session, tool and arguments) without running.
  The key is claimed in the store (a unique row, in the transaction that checks for
  its receipt) before the handler runs, so two processes on one database never both
  run it: the second sees ``still_running`` or the recorded result. A claim whose
  process died is taken over after :data:`CLAIM_STALE_S` seconds.
- Whatever a tool's output brings into the context (``gate.kinds_added``) is recorded
  on the session and the calling connection when the result *or its error text*
  reaches the client; values of untrusted output are recorded as provenance digests
  (:mod:`dialstack.tools.sessions`).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..domain.loader import resolve
from ..domain.models import DomainPack, ToolSpec
from ..domain.schemacheck import Check, compile_check
from ..store.protocol import Store
from . import arguments, gate, provenance
from ..store.guard import Claim, Guard
from .audit import AuditWriter
from .components import COMPONENT_SPECS
from .context import Resources, ToolContext, utc_now
from .failures import failure, timed_out
from .idempotency import CLAIM_STALE_S, claim_outcome, make_receipt, receipt_key
from .outcome import CallOutcome
from .sessions import Caller, SessionGuard
from .validation import DEFAULT_MAX_INPUT_BYTES, size_bound, describe_error, strict_schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

log = logging.getLogger("dialstack.tools")

LOCAL = Caller(principal="default")  # a caller of the runtime itself (tests, benchmarks): one session's taint
_HANDLER_RAN = ("handler_error", "invalid_output")  # failures whose text comes from the handler or its output

class ToolRuntime:
    """Validates and runs a domain's tools (its manifest plus the component tools).

    With ``background_audit`` (the default) audit entries are written by an
    :class:`AuditWriter` thread; call :meth:`flush` before reading the audit log.
    """

    def __init__(
        self,
        domain: DomainPack,
        store: Store,
        *,
        clock: Callable[[], datetime] = utc_now,
        data_dir: Path | None = None,
        max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES,
        max_threads: int = 32,
        extra_tools: Sequence[ToolSpec] = COMPONENT_SPECS,
        background_audit: bool = True,
    ) -> None:
        self.domain = domain
        self.store = store
        self.clock = clock
        self.data_dir = data_dir
        self.max_input_bytes = max_input_bytes
        self.tools: dict[str, ToolSpec] = {**domain.tools, **{t.tool_id: t for t in extra_tools}}
        self._validators: dict[str, tuple[Draft202012Validator, Draft202012Validator]] = {}
        self._fast_checks: dict[str, tuple[Check, Check]] = {}
        self._integers: dict[str, bool] = {}  # per tool: does its input schema say "integer" anywhere
        self._added: dict[str, frozenset[str]] = {}  # gate.kinds_added per tool (a function of its static spec)
        self._system: dict[str, frozenset[str]] = {}  # provenance.system_fields per tool (likewise)
        self._external = {t.tool_id for t in self.tools.values() if "communicates_externally" in t.tags}
        self._handlers: dict[str, tuple[Callable[..., Any], bool, bool]] = {}
        self._executor = ThreadPoolExecutor(max_workers=max_threads, thread_name_prefix="dialstack-tool")
        self.resources = Resources()  # what handlers keep open between calls; closed by close()
        self._sessions: set[str] = set()
        self.guard = Guard(store)  # type: ignore[arg-type]
        self.sessions = SessionGuard(self.guard, domain.name)
        self.owner_id = f"{os.getpid()}-{id(self):x}"  # names this runtime's idempotency claims
        self._key_locks: dict[str, asyncio.Lock] = {}
        self._audit_writer = AuditWriter(store) if background_audit else None
        # Timed-out sync calls whose thread still runs. ``_running_keys``: receipt key ->
        # (tool, args digest) of such calls carrying an idempotency key; written on the
        # event loop when a call is abandoned, removed by the thread that records its late
        # result (after saving the receipt, so a reader checking it first never misses both).
        self._running_keys: dict[str, tuple[str, str]] = {}
        self._abandoned = 0
        self._closed = False
        self._abandoned_cond = threading.Condition(threading.Lock())

    def _audit(self, session_id: str, entry: dict[str, Any]) -> None:
        if self._audit_writer is None:
            self.store.audit(session_id, entry)
        else:
            self._audit_writer.write(session_id, entry)

    def flush(self) -> None:
        """Wait until every audit entry of finished calls is in the store."""
        if self._audit_writer is not None:
            self._audit_writer.flush()

    @property
    def abandoned_calls(self) -> int:
        """How many timed-out sync handlers are still running in their threads."""
        return self._abandoned

    def wait_abandoned(self, timeout: float | None = None) -> bool:
        """Block until every abandoned (timed-out, still running) sync call has finished and
        its late result is recorded; False if ``timeout`` seconds passed first."""
        with self._abandoned_cond:
            return self._abandoned_cond.wait_for(lambda: self._abandoned == 0, timeout)

    def close(self) -> None:
        self._closed = True  # a call finishing later must not reach the store, which closes next
        if self._audit_writer is not None:
            self._audit_writer.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.resources.close()

    # -- lookups -----------------------------------------------------------
    def timeout_s(self, spec: ToolSpec) -> float:
        ms = spec.timeout_ms or self.domain.manifest.defaults.get("timeout_ms", 5000)
        return ms / 1000.0

    def _validator(self, spec: ToolSpec) -> tuple[Draft202012Validator, Draft202012Validator]:
        """The full validators, built (and ``jsonschema`` imported) only when a fast check is unsure."""
        pair = self._validators.get(spec.tool_id)
        if pair is None:
            pair = (arguments.validator(strict_schema(spec.input_schema)), arguments.validator(spec.output_schema))
            self._validators[spec.tool_id] = pair
        return pair

    def _fast_check(self, spec: ToolSpec) -> tuple[Check, Check]:
        """Checks that are True only for certainly valid arguments / outputs (see ``schemacheck``)."""
        pair = self._fast_checks.get(spec.tool_id)
        if pair is None:
            unsure: Check = lambda value: False  # noqa: E731
            pair = (compile_check(strict_schema(spec.input_schema)) or unsure, compile_check(spec.output_schema) or unsure)
            self._fast_checks[spec.tool_id] = pair
        return pair

    def _handler(self, spec: ToolSpec) -> tuple[Callable[..., Any], bool, bool]:
        """The handler, whether it takes ``ctx``, whether it is a coroutine function."""
        entry = self._handlers.get(spec.tool_id)
        if entry is None:
            fn = resolve(spec.handler)
            params = inspect.signature(fn).parameters.values()
            wants_ctx = any(p.name == "ctx" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
            entry = (fn, wants_ctx, inspect.iscoroutinefunction(fn))
            self._handlers[spec.tool_id] = entry
        return entry

    def _communicates_externally(self, spec: ToolSpec) -> bool:
        if self.tools.get(spec.tool_id) is spec:
            return spec.tool_id in self._external
        return "communicates_externally" in spec.tags  # a spec this runtime was not built with

    def _kinds_added(self, spec: ToolSpec) -> frozenset[str]:
        if self.tools.get(spec.tool_id) is not spec:
            return gate.kinds_added(spec)
        added = self._added.get(spec.tool_id)
        if added is None:
            added = self._added[spec.tool_id] = gate.kinds_added(spec)
        return added

    def _system_fields(self, spec: ToolSpec) -> frozenset[str]:
        """``provenance.system_fields`` of the spec's output schema (a function of its static spec)."""
        if self.tools.get(spec.tool_id) is not spec:
            return provenance.system_fields(spec.output_schema)
        found = self._system.get(spec.tool_id)
        if found is None:
            found = self._system[spec.tool_id] = provenance.system_fields(spec.output_schema)
        return found

    def ensure_session(self, session_id: str) -> None:
        if session_id not in self._sessions:
            self.store.ensure_session(session_id, self.domain.name)
            self._sessions.add(session_id)

    def open_session(self, session_id: str, caller: Caller) -> None:
        """Create the session for ``caller`` or check it is theirs (``SessionRefused`` if not)."""
        self.sessions.open(session_id, caller)
        self._sessions.add(session_id)

    def context_kinds(self, session_id: str, spec: ToolSpec | None = None, caller: Caller = LOCAL) -> frozenset[str]:
        """The session's taint (the caller's connection's included); skips the store when it cannot change ``spec``'s decision."""
        self.ensure_session(session_id)
        if spec is not None and not self._communicates_externally(spec):
            self.sessions.carry(session_id, caller)  # a tainted connection taints every session it uses
            return gate.INITIAL_KINDS  # only the session-trifecta rule reads kinds, and only for such tools
        return self.sessions.kinds(session_id, caller)

    def delivered(self, session_id: str, spec: ToolSpec, outcome: CallOutcome, caller: Caller = LOCAL) -> None:
        """Record what ``outcome`` brings into the client's context, if its text came from the tool."""
        if outcome.ok or outcome.error in _HANDLER_RAN:
            added = self._kinds_added(spec)
            if added or "changes_state" in spec.tags:  # a created record may be one the user names
                self.sessions.delivered(session_id, caller, added, [outcome.data, outcome.message],
                                        self._system_fields(spec),
                                        record_private=spec.tool_id in self.domain.tools)

    # -- checks before running ----------------------------------------------
    def check_arguments(self, spec: ToolSpec, args: Any) -> CallOutcome | None:
        """A failed outcome if ``args`` may not be passed to ``spec``, else None.

        Valid ``args`` are normalized in place for the handler: an integral float where the
        schema says ``integer`` becomes an ``int`` (``2.0`` -> ``2``).
        """
        failed = self._check(spec, args)
        if failed is None and self._has_integer(spec):
            normal = arguments.integral(spec.input_schema, args)
            args.clear()
            args.update(normal)
        return failed

    def _has_integer(self, spec: ToolSpec) -> bool:
        found = self._integers.get(spec.tool_id)
        if found is None:
            found = self._integers[spec.tool_id] = arguments.has_integer(spec.input_schema)
        return found

    def _check(self, spec: ToolSpec, args: Any) -> CallOutcome | None:
        if not isinstance(args, dict):
            return CallOutcome.failed(spec.tool_id, "invalid_arguments", f"{spec.tool_id}: arguments must be a JSON object")
        if size_bound(args) > self.max_input_bytes:
            size = len(json.dumps(args, separators=(",", ":"), ensure_ascii=False, default=str).encode("utf-8"))
        else:
            size = 0  # certainly within the limit; serializing would only cost time
        if size > self.max_input_bytes:
            return CallOutcome.failed(
                spec.tool_id, "too_large",
                f"{spec.tool_id}: arguments are {size} bytes; the limit is {self.max_input_bytes} bytes. "
                "Send less data (summaries or ids instead of whole documents).",
            )
        if self._fast_check(spec)[0](args):
            return None
        errors = sorted(self._validator(spec)[0].iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            lines = "; ".join(describe_error(e) for e in errors[:5])
            return CallOutcome.failed(spec.tool_id, "invalid_arguments", f"{spec.tool_id}: invalid arguments: {lines}. Nothing was run.")
        return None

    def replay(self, spec: ToolSpec, args: dict[str, Any], *, session_id: str, idempotency_key: str | None) -> CallOutcome | None:
        """The recorded outcome of an earlier call with this idempotency key, if any.

        If that earlier call timed out and its handler is still running, a ``still_running``
        failure: the call must not be started a second time.
        """
        if not idempotency_key:
            return None
        rkey = receipt_key(session_id, idempotency_key)
        running = self._abandoned_outcome(spec, args, rkey, idempotency_key)  # before the receipt: see ``_running_keys``
        if running is not None:
            return running
        receipt = self.store.receipt(rkey)
        if receipt is not None:
            return claim_outcome(spec, args, idempotency_key, Claim("recorded", receipt=receipt))
        claim = self.guard.running_claim(rkey, stale_after=CLAIM_STALE_S)
        if claim is None or claim.owner == self.owner_id:  # ours and in flight: the key lock orders us after it
            return None
        return claim_outcome(spec, args, idempotency_key, claim)

    def _abandoned_outcome(self, spec: ToolSpec, args: dict[str, Any], rkey: str, idempotency_key: str) -> CallOutcome | None:
        """The answer to a call whose key an abandoned call of this runtime still holds, if one does."""
        running = self._running_keys.get(rkey)
        if running is None:
            return None
        if running != (spec.tool_id, gate.args_digest(args)):
            return claim_outcome(spec, args, idempotency_key, Claim("running", tool=running[0], args_digest=running[1]))
        return CallOutcome.failed(
            spec.tool_id, "still_running",
            f"{spec.tool_id} is still running: the earlier call with idempotency key {idempotency_key!r} timed out "
            "but its handler has not finished, so it was not started again. Retry later with the same key: "
            "once it finishes, its recorded result is returned (if it failed, the call runs anew).",
        )

    # -- running ------------------------------------------------------------
    async def run(
        self,
        spec: ToolSpec,
        args: dict[str, Any],
        *,
        session_id: str,
        idempotency_key: str | None = None,
        meta: Mapping[str, Any] | None = None,
        decision: gate.GateDecision | None = None,
        approval: str | None = None,
        approved_by: str | None = None,
        caller: Caller = LOCAL,
    ) -> CallOutcome:
        """Run an already validated and gated call; audit it; record receipt, taint and provenance.

        The audit entry carries the gate ``decision`` that let the call run (and who approved).
        """
        self.ensure_session(session_id)
        started = time.perf_counter()
        threads: list[Future[Any]] = []  # the sync handler's thread of the current attempt, once submitted
        claimed: str | None = None  # the receipt key this call claimed in the store, until released
        try:
            if idempotency_key:
                rkey = receipt_key(session_id, idempotency_key)
                lock = self._key_locks.setdefault(rkey, asyncio.Lock())
                async with lock:
                    # the claim reads the receipt and any live claim itself, in its transaction
                    outcome = self._abandoned_outcome(spec, args, rkey, idempotency_key)
                    if outcome is None:
                        claim = self.guard.claim(rkey, spec.tool_id, gate.args_digest(args), self.owner_id, stale_after=CLAIM_STALE_S)
                        outcome = claim_outcome(spec, args, idempotency_key, claim)
                    if outcome is None:
                        claimed = rkey
                        outcome = await self._attempts(spec, args, session_id, meta or {}, keyed=True, threads=threads,
                                                       principal=caller.principal)
                        if outcome.abandoned is not None:  # its late result settles the claim
                            self._running_keys[rkey] = (spec.tool_id, gate.args_digest(args))
                        else:
                            self.guard.finish_claim(rkey, make_receipt(rkey, spec, args, outcome.data, self.clock()) if outcome.ok else None)
                        claimed = None
            else:
                outcome = await self._attempts(spec, args, session_id, meta or {}, threads=threads, principal=caller.principal)
        except asyncio.CancelledError:
            # the request was cancelled (client cancel, dropped connection): a sync handler's
            # thread runs on regardless, so its result is recorded like a timed-out one's
            if threads and not threads[-1].cancel() and not threads[-1].done():
                if idempotency_key:
                    self._running_keys[receipt_key(session_id, idempotency_key)] = (spec.tool_id, gate.args_digest(args))
                self._watch_abandoned(threads[-1], spec, args, session_id, idempotency_key, started, "cancelled", caller)
            elif claimed is not None:  # nothing runs on: free the key for a retry
                self.guard.finish_claim(claimed, None)
            raise
        if outcome.abandoned is not None:
            self._watch_abandoned(outcome.abandoned, spec, args, session_id, idempotency_key, started, caller=caller)
        self.delivered(session_id, spec, outcome, caller)
        self.audit_call(session_id, spec, args, outcome, idempotency_key, time.perf_counter() - started,
                        decision=decision, approval=approval, approved_by=approved_by)
        return outcome

    # -- abandoned (timed-out, still running) sync calls ----------------------
    def _watch_abandoned(
        self, future: Future[Any], spec: ToolSpec, args: dict[str, Any], session_id: str, key: str | None, started: float,
        why: Literal["timeout", "cancelled"] = "timeout", caller: Caller = LOCAL,
    ) -> None:
        """Record the late result of an abandoned (timed-out or cancelled) sync call when its thread finishes."""
        with self._abandoned_cond:
            self._abandoned += 1
        future.add_done_callback(lambda f: self._record_late(f, spec, args, session_id, key, started, why, caller))

    def _record_late(
        self, future: Future[Any], spec: ToolSpec, args: dict[str, Any], session_id: str, key: str | None, started: float,
        why: str, caller: Caller = LOCAL,
    ) -> None:
        """In the finishing thread: audit the late result; on success record the key's receipt."""
        rkey = receipt_key(session_id, key) if key else None
        recorded = False
        try:
            if self._closed:
                log.warning("tool %s (session %s) finished after shutdown; its late result is not recorded", spec.tool_id, session_id)
                return
            outcome = self._late_outcome(spec, future)
            try:
                if rkey is not None:
                    self.guard.finish_claim(rkey, make_receipt(rkey, spec, args, outcome.data, self.clock()) if outcome.ok else None)
                    recorded = outcome.ok
                if outcome.ok:
                    self.delivered(session_id, spec, outcome, caller)  # a replay will hand this output to the client
            finally:
                if rkey is not None:
                    self._running_keys.pop(rkey, None)
            self._audit(session_id, {
                "kind": "late_result", "tool": spec.tool_id, "args_digest": gate.args_digest(args), "session": session_id,
                "ok": outcome.ok, "error": outcome.error, "message": outcome.message, "finished_after_timeout": why == "timeout", "abandoned": why,
                "idempotency_key": key, "receipt_recorded": recorded,
                "duration_ms": round((time.perf_counter() - started) * 1000, 3), "at": self.clock().isoformat(),
            })
            log.warning("tool %s (session %s) finished after its call was abandoned (%s): %s", spec.tool_id, session_id, why,
                        "ok" if outcome.ok else outcome.message)
        except Exception:  # a worker thread: log, never lose the bookkeeping below
            log.exception("could not record the late result of %s (session %s)", spec.tool_id, session_id)
        finally:
            with self._abandoned_cond:
                self._abandoned -= 1
                self._abandoned_cond.notify_all()

    def _late_outcome(self, spec: ToolSpec, future: Future[Any]) -> CallOutcome:
        if future.cancelled():
            return CallOutcome.failed(spec.tool_id, "handler_error", f"{spec.tool_id} was cancelled before it ran", 1)
        exc = future.exception()
        if exc is None:
            return self._checked_output(spec, future.result(), 1)
        outcome = failure(spec, exc, 1)
        return outcome or CallOutcome.failed(spec.tool_id, "handler_error", f"{spec.tool_id} failed with a transient error after its timeout: {exc!r}", 1)

    async def _attempts(
        self, spec: ToolSpec, args: dict[str, Any], session_id: str, meta: Mapping[str, Any], *, keyed: bool = False,
        threads: list[Future[Any]] | None = None, principal: str = LOCAL.principal,
    ) -> CallOutcome:
        max_attempts = 2 if spec.idempotent else 1
        attempt = 0
        while True:
            attempt += 1
            outcome = await self._attempt(spec, args, session_id, meta, attempt, keyed, threads, principal)
            if outcome is not None:
                return outcome
            if attempt >= max_attempts:
                return CallOutcome.failed(
                    spec.tool_id, "handler_error",
                    f"{spec.tool_id} failed with a transient error"
                    + (" twice" if attempt > 1 else " and is not idempotent, so it was not retried"),
                    attempt,
                )
            log.info("retrying idempotent tool %s after a transient error", spec.tool_id)

    async def _attempt(
        self, spec: ToolSpec, args: dict[str, Any], session_id: str, meta: Mapping[str, Any], attempt: int, keyed: bool = False,
        threads: list[Future[Any]] | None = None, principal: str = LOCAL.principal,
    ) -> CallOutcome | None:
        """One try; None means a transient failure worth a retry."""
        fn, wants_ctx, is_async = self._handler(spec)
        kwargs = dict(args)
        if wants_ctx:
            kwargs["ctx"] = ToolContext(
                session_id=session_id, tool=spec.tool_id, domain=self.domain.name, store=self.store,
                now=self.clock, data_dir=self.data_dir, pack_root=self.domain.root, meta=dict(meta), user_id=principal,
                resources=self.resources,
            )
        timeout = asyncio.timeout(self.timeout_s(spec))
        future: Future[Any] | None = None
        try:
            async with timeout:
                if is_async:
                    result = await fn(**kwargs)
                else:  # a thread: a hung sync handler costs a pool thread, never the event loop
                    future = self._executor.submit(functools.partial(fn, **kwargs))
                    if threads is not None:
                        threads.append(future)
                    result = await asyncio.wrap_future(future)
        except TimeoutError as exc:
            if not timeout.expired():  # a TimeoutError raised by the handler, not our deadline
                log.info("tool %s: transient error: %r", spec.tool_id, exc)
                return None
            if future is None or future.cancel() or not future.done():
                return timed_out(spec, future, attempt, keyed, self.timeout_s(spec))
            # the thread finished between the deadline and now: its result stands
            late = future.exception()
            if late is not None:
                return failure(spec, late, attempt)
            result = future.result()
        except Exception as exc:
            return failure(spec, exc, attempt)
        return self._checked_output(spec, result, attempt)

    def _checked_output(self, spec: ToolSpec, result: Any, attempt: int) -> CallOutcome:
        if hasattr(result, "model_dump"):
            result = result.model_dump(mode="json")
        if not isinstance(result, dict):
            return CallOutcome.failed(spec.tool_id, "invalid_output", f"{spec.tool_id} returned {type(result).__name__}, not a JSON object", attempt)
        errors = [] if self._fast_check(spec)[1](result) else list(self._validator(spec)[1].iter_errors(result))
        if errors:
            lines = "; ".join(describe_error(e) for e in errors[:3]).replace("argument", "field")
            return CallOutcome.failed(spec.tool_id, "invalid_output", f"{spec.tool_id} returned output that does not match its output_schema: {lines}", attempt)
        return CallOutcome(tool=spec.tool_id, ok=True, data=result, attempts=attempt)

    # -- audit --------------------------------------------------------------
    def audit_call(
        self, session_id: str, spec: ToolSpec, args: dict[str, Any], outcome: CallOutcome, key: str | None, seconds: float,
        *, decision: gate.GateDecision | None = None, approval: str | None = None, approved_by: str | None = None,
    ) -> None:
        entry: dict[str, Any] = {
            "kind": "tool_call", "tool": spec.tool_id, "args_digest": gate.args_digest(args), "session": session_id,
            "ok": outcome.ok, "error": outcome.error, "message": outcome.message, "attempts": outcome.attempts,
            "replayed": outcome.replayed, "idempotency_key": key, "duration_ms": round(seconds * 1000, 3),
            "at": self.clock().isoformat(),
        }
        if decision is not None:
            entry.update(decision=decision.action, rule=decision.rule, reason=decision.reason, approval=approval, approved_by=approved_by)
        self._audit(session_id, entry)

    def audit_gate(
        self, session_id: str, spec: ToolSpec, args: dict[str, Any], decision: gate.GateDecision,
        *, approval: str | None = None, approved_by: str | None = None,
    ) -> None:
        self.ensure_session(session_id)
        self._audit(session_id, {
            "kind": "gate", "tool": spec.tool_id, "args_digest": gate.args_digest(args), "session": session_id,
            "decision": decision.action, "rule": decision.rule, "reason": decision.reason,
            "approval": approval, "approved_by": approved_by, "at": self.clock().isoformat(),
        })
