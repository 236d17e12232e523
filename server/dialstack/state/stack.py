"""The flow stack: one active flow on top, paused and pending flows below, an archive aside.

Every operation validates first and mutates after, so an illegal one raises
:class:`StackError` and leaves the stack exactly as it was. Terminal flows (cancelled,
abandoned, invalid, error) leave the stack into ``archive`` at once; completed flows stay
until :meth:`FlowStack.pop_completed` (the RES pre-hook). Time is always an argument.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..domain.models import Settings
from .factory import FlowFactory
from .flows import BaseFlow, FlowState, PlanFlow, StackError
from .plans import PlanOperations
from .ranking import Ranking, rank
from .slots import SlotContext

A, P, Q = FlowState.ACTIVE, FlowState.PAUSED, FlowState.PENDING


class StackFullError(StackError):
    """Push refused by the depth limit (``reject_new``) or a question for the user (``ask_user``).

    ``options`` are the paused flows the user could cancel to make room.
    """

    def __init__(self, flow: BaseFlow, strategy: str, limit: int, options: Sequence[BaseFlow]) -> None:
        self.strategy = strategy
        self.limit = limit
        self.new_flow = flow
        self.options = tuple(options)
        fix = "ask the user which flow to cancel" if strategy == "ask_user" else "complete or cancel a flow first"
        super().__init__("push", flow, f"the stack already holds {limit} open flows ({strategy})", fix)


@dataclass(frozen=True)
class Pushed:
    """What a push did: the new active flow, the flow it paused, flows cancelled to make room."""

    flow: BaseFlow
    paused: BaseFlow | None
    cancelled: tuple[BaseFlow, ...] = ()


class FlowStack(PlanOperations):
    def __init__(
        self,
        settings: Settings | None = None,
        flows: Sequence[BaseFlow] = (),
        archive: Sequence[BaseFlow] = (),
    ) -> None:
        self.settings = settings or Settings()
        self._flows: list[BaseFlow] = list(flows)  # bottom -> top
        self.archive: list[BaseFlow] = list(archive)

    # -- views -------------------------------------------------------------------------
    @property
    def flows(self) -> tuple[BaseFlow, ...]:
        """Bottom to top."""
        return tuple(self._flows)

    def top_down(self) -> list[BaseFlow]:
        return self._flows[::-1]

    def __len__(self) -> int:
        return len(self._flows)

    def __iter__(self) -> Iterator[BaseFlow]:
        return iter(self.top_down())

    @property
    def top(self) -> BaseFlow | None:
        return self._flows[-1] if self._flows else None

    @property
    def active(self) -> BaseFlow | None:
        return next((f for f in reversed(self._flows) if f.state is A), None)

    @property
    def paused(self) -> list[BaseFlow]:
        """Paused flows, most recently stacked first."""
        return [f for f in self.top_down() if f.state is P]

    @property
    def pending(self) -> list[BaseFlow]:
        return [f for f in self.top_down() if f.state is Q]

    @property
    def depth(self) -> int:
        """Open flows (pending, active, paused); what the depth limit counts."""
        return sum(1 for f in self._flows if f.live)

    def find(self, ref: str) -> BaseFlow | None:
        """A flow on the stack by id, else the live flow with that name (the topmost one)."""
        by_id = next((f for f in self._flows if f.flow_id == ref), None)
        return by_id or next((f for f in self.top_down() if f.name == ref and f.live), None)

    def find_archived(self, ref: str) -> BaseFlow | None:
        return next((f for f in reversed(self.archive) if ref in (f.flow_id, f.name)), None)

    def plan_members(self, plan_id: str) -> list[BaseFlow]:
        """The plan's sub-flows still on the stack, top first (not the plan flow itself)."""
        return [f for f in self.top_down() if f.plan_id == plan_id and f.flow_id != plan_id]

    # -- helpers -----------------------------------------------------------------------
    def _get(self, ref: str | None, op: str) -> BaseFlow:
        flow = self.active if ref is None else self.find(ref)
        if flow is None:
            what = "no active flow" if ref is None else f"no flow {ref!r} on the stack"
            raise StackError(op, None, what, f"open flows: {', '.join(f.name for f in self.top_down()) or 'none'}")
        return flow

    def _require(self, flow: BaseFlow, op: str, *states: FlowState) -> None:
        if flow.state not in states:
            allowed = " or ".join(s.value for s in states)
            raise StackError(op, flow, f"it must be {allowed}")

    def _require_fresh(self, flow: BaseFlow, op: str) -> None:
        if flow.state is not Q or any(f.flow_id == flow.flow_id for f in (*self._flows, *self.archive)):
            raise StackError(op, flow, "only a new pending flow with an unused id can be stacked",
                             "create a fresh flow with FlowFactory.create")

    def _check_names(self, op: str, flows: Sequence[BaseFlow], leaving: Sequence[BaseFlow] = ()) -> None:
        """No two active/pending flows may share a name (``leaving`` flows are about to stop being so)."""
        gone = {f.flow_id for f in leaving}
        taken = {f.name: f for f in self._flows if f.state in (A, Q) and f.flow_id not in gone}
        for flow in flows:
            if flow.name in taken:
                other = taken[flow.name]
                raise StackError(op, other, f"a {other.state.value} {flow.name!r} is already on the stack",
                                 "resume, activate or cancel that one instead")
            taken[flow.name] = flow

    def _check_pausable(self, op: str, keep: BaseFlow | None = None) -> BaseFlow | None:
        current = self.active
        if current is not None and current is not keep and not current.can_be_paused:
            raise StackError(op, current, "it cannot be paused", "complete or cancel it first")
        return current if current is not keep else None

    @staticmethod
    def _is_plan(flow: BaseFlow) -> bool:
        return flow.plan_id == flow.flow_id

    def _pause(self, flow: BaseFlow | None, now: float, reason: str) -> None:
        if flow is not None:
            flow.move_to(P, "pause")
            flow.paused_at, flow.reason = now, reason

    def _end(self, flow: BaseFlow, state: FlowState, now: float, reason: str) -> list[BaseFlow]:
        """Move a flow to a terminal state and into the archive; a plan takes its sub-flows along."""
        ended = []
        if self._is_plan(flow):
            for member in self.plan_members(flow.flow_id):
                if member.live:
                    ended += self._end(member, FlowState.INVALID, now, f"plan {flow.name} ended ({state.value})")
        flow.move_to(state, f"end ({state.value})")
        flow.ended_at, flow.reason = now, reason or flow.reason
        if flow in self._flows and state is not FlowState.COMPLETED:
            self._flows.remove(flow)
            self.archive.append(flow)
        return [flow, *ended]

    def _activate(self, flow: BaseFlow, ctx: SlotContext | None) -> None:
        flow.move_to(A, "activate")
        self.carry_outputs(flow, ctx)

    # -- operations --------------------------------------------------------------------
    def push(self, flow: BaseFlow, now: float, ctx: SlotContext | None = None, reason: str = "") -> Pushed:
        """Start ``flow`` on top, pausing the active flow; the depth limit may cancel the oldest
        paused flow, or raise :class:`StackFullError` (``reject_new`` / ``ask_user``)."""
        self._require_fresh(flow, "push")
        current = self._check_pausable("push")
        self._check_names("push", [flow])
        victims = self._room_for(flow, 1)
        cancelled: list[BaseFlow] = []
        for victim in victims:
            cancelled += self._end(victim, FlowState.CANCELLED, now, f"cancelled to make room for {flow.name}")
        self._pause(current, now, reason or f"interrupted by {flow.name}")
        if isinstance(flow, PlanFlow):
            flow.plan_id = flow.flow_id  # a plan flow owns its plan from the start
        self._flows.append(flow)
        self._activate(flow, ctx)
        return Pushed(flow, current, tuple(cancelled))

    def queue(self, flow: BaseFlow) -> BaseFlow:
        """Stack ``flow`` pending on top, to start once every flow pushed above it has ended: a later
        part of a multi-part request ('check BK-20481 and set a reminder for it'). Nothing is paused
        or cancelled for it; a full stack refuses it (:class:`StackError`)."""
        self._require_fresh(flow, "queue")
        if self.active is not None:
            raise StackError("queue", self.active, "a flow is active", "queue the later parts before pushing the first")
        self._check_names("queue", [flow])
        limit = self.settings.flow_management.max_stack_depth
        if self.depth + 1 > limit:
            raise StackError("queue", flow, f"the stack holds {limit} open flows already", "finish or cancel one first")
        self._flows.append(flow)
        return flow

    @property
    def waiting_parts(self) -> list[BaseFlow]:
        """Every queued flow (pending, in no plan), the next to start first."""
        return [f for f in self.top_down() if f.state is Q and f.plan_id is None]

    @property
    def queued(self) -> BaseFlow | None:
        """The queued flow on top, when no flow is active: it starts next."""
        parts = self.waiting_parts
        return parts[0] if self.active is None and parts and parts[0] is self.top else None

    def start_queued(self, ctx: SlotContext | None = None) -> BaseFlow:
        """Activate the queued flow on top (see :meth:`queue`); it takes its inputs from what ended."""
        flow = self.queued
        if flow is None:
            raise StackError("start queued", self.top, "no queued flow waits on top with nothing active",
                             "queue a flow, and end the flows above it first")
        self._activate(flow, ctx)
        return flow

    def _room_for(self, flow: BaseFlow, count: int) -> list[BaseFlow]:
        management = self.settings.flow_management
        excess = self.depth + count - management.max_stack_depth
        if excess <= 0:
            return []
        # a part queued but never started goes before a task the user began and paused
        oldest_first = [*reversed(self.waiting_parts), *(f for f in self._flows if f.state is P)]
        if management.on_limit_reached == "cancel_oldest" and len(oldest_first) >= excess:
            return oldest_first[:excess]
        return self._refuse(flow, management.on_limit_reached, management.max_stack_depth)

    def _refuse(self, flow: BaseFlow, strategy: str, limit: int) -> list[BaseFlow]:
        raise StackFullError(flow, strategy, limit, self.paused)

    def complete(self, ref: str | None = None, *, now: float, outputs: Mapping[str, Any] | None = None) -> BaseFlow:
        """Mark the active flow (or ``ref``) completed with its outputs; it stays until popped."""
        flow = self._get(ref, "complete")
        self._require(flow, "complete", A)
        flow.outputs.update(outputs or {})
        self._end(flow, FlowState.COMPLETED, now, flow.reason)
        return flow

    def pop_completed(self, now: float) -> list[BaseFlow]:
        """The RES pre-hook: move completed flows to the archive (top first). Snapshot if > 1."""
        popped = [f for f in self.top_down() if f.state is FlowState.COMPLETED]
        for flow in popped:
            self._flows.remove(flow)
            self.archive.append(flow)
        return popped

    def cancel(self, ref: str | None = None, *, now: float, reason: str = "cancelled by the user") -> list[BaseFlow]:
        """Cancel an open flow (a plan takes its sub-flows along, as invalid)."""
        flow = self._get(ref, "cancel")
        self._require(flow, "cancel", A, P, Q)
        return self._end(flow, FlowState.CANCELLED, now, reason)

    def fail(self, ref: str | None = None, *, now: float, reason: str = "") -> list[BaseFlow]:
        """The flow's policy raised: mark it error."""
        flow = self._get(ref, "fail")
        self._require(flow, "fail", A, P)
        return self._end(flow, FlowState.ERROR, now, reason)

    def resume(self, ref: str, now: float, ctx: SlotContext | None = None) -> BaseFlow:
        """Move a paused flow to the top and activate it, pausing the current one.

        Resuming a plan brings its open steps along (above it) and activates the next step;
        the flow that became active is returned.
        """
        flow = self._get(ref, "resume")
        self._require(flow, "resume", P)
        if not flow.can_be_resumed:
            raise StackError("resume", flow, "its flow declares can_be_resumed: false", "start it anew")
        current = self._check_pausable("resume")
        self._check_names("resume", [flow], leaving=[current] if current else [])
        self._pause(current, now, f"interrupted by {flow.name}")
        # A plan comes back with its open steps above it, in order; its next step becomes active.
        block = [f for f in self._flows if f is flow or (self._is_plan(flow) and f.plan_id == flow.flow_id and f.live)]
        for member in block:
            self._flows.remove(member)
        self._flows.extend(block)
        top = block[-1]
        if top is not flow:
            flow.move_to(Q, "resume")
        self._activate(top, ctx)
        return top

    def fallback(self, ref: str | None, new_flow: BaseFlow, now: float, ctx: SlotContext) -> BaseFlow:
        """Replace a mispredicted active flow: same-named slot values move over, the old one is invalid."""
        old = self._get(ref, "fallback")
        self._require(old, "fallback", A)
        self._require_fresh(new_flow, "fallback")
        self._check_names("fallback", [new_flow], leaving=[old])
        plan = self._is_plan(old)
        if plan and not isinstance(new_flow, PlanFlow) and self.plan_members(old.flow_id):
            raise StackError("fallback", old, "a plan with steps can only fall back to another Plan flow")
        for name, slot in old.slots.items():
            target = new_flow.slots.get(name)
            if slot.filled and target is not None and not target.filled:
                target.fill(slot.value, ctx, source="fallback")
        # a plan of one step is that step, in no plan
        new_flow.plan_id = (new_flow.flow_id if isinstance(new_flow, PlanFlow) else None) if plan else old.plan_id
        plan = plan and isinstance(new_flow, PlanFlow)
        if plan:
            for member in self.plan_members(old.flow_id):
                member.plan_id = new_flow.flow_id
        new_flow.turn_ids = list(old.turn_ids)
        new_flow.natural_birth = old.natural_birth
        new_flow.inputs = {**old.inputs, **new_flow.inputs}
        new_flow.reason = f"fallback from {old.name}"
        self._flows[self._flows.index(old)] = new_flow
        self.archive.append(old)
        old.move_to(FlowState.INVALID, "fallback")
        old.ended_at, old.reason = now, f"replaced by {new_flow.name}"
        self._activate(new_flow, ctx)
        return new_flow

    def carry_outputs(self, flow: BaseFlow, ctx: SlotContext | None = None) -> dict[str, Any]:
        """Give ``flow`` its declared inputs from the newest completed flows' outputs; with a
        context, also fill same-named empty slots (and ``from_preference`` slots)."""
        done = sorted((f for f in (*self.archive, *self._flows) if f.state is FlowState.COMPLETED),
                      key=lambda f: f.ended_at or 0.0)
        for name in flow.spec.inputs:
            if flow.inputs.get(name) is not None:
                continue
            source = next((f for f in reversed(done) if f.outputs.get(name) is not None), None)
            if source is not None:
                flow.inputs[name] = source.outputs[name]
        if ctx is not None:
            flow.prefill(ctx)
        return dict(flow.inputs)

    # -- expiry and ranking ----------------------------------------------------------
    def abandon_stale(self, now: float) -> list[BaseFlow]:
        """Abandon flows paused longer than their ``max_pause_duration`` (else ``abandon_timeout``)."""
        timeout = self.settings.flow_management.abandon_timeout
        ended: list[BaseFlow] = []
        for flow in self.paused:
            limit = flow.max_pause_duration or timeout
            if flow.state is P and flow.paused_at is not None and now - flow.paused_at > limit:
                ended += self._end(flow, FlowState.ABANDONED, now, f"paused for more than {limit:g}s")
        return ended

    def rank_paused(self, text: str, now: float) -> Ranking:
        """Resumable paused flows ranked for a request like 'go back to booking'."""
        candidates = [f for f in self.paused if f.can_be_resumed]
        return rank(candidates, text, now, self.settings.resume_margin)

    # -- persistence -------------------------------------------------------------------
    def serialize(self) -> dict[str, Any]:
        return {"flows": [f.serialize() for f in self._flows], "archive": [f.serialize() for f in self.archive]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], factory: FlowFactory) -> FlowStack:
        return cls(
            factory.settings,
            [factory.restore(f) for f in data.get("flows") or []],
            [factory.restore(f) for f in data.get("archive") or []],
        )

