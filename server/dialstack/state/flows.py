"""Flows: one instance of a skill the user (or the agent) started, with its own slots.

``BaseFlow`` -> one parent per intent (``PlanFlow``, ``ConverseFlow``, ``InternalFlow``,
``DomainFlow``) -> the flow. A YAML flow needs no Python: the factory picks the parent by
intent; a domain may register a subclass (``FlowSpec.python``) to add hooks.
"""

from __future__ import annotations

import inspect
import itertools
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol

from ..domain.models import FlowSpec
from .slot_base import copy_json
from .slots import BaseSlot, Check, SlotContext


class FlowState(str, Enum):
    PENDING = "pending"  # stacked, waiting its turn (e.g. queued in a plan)
    ACTIVE = "active"  # top of the stack, being executed
    PAUSED = "paused"  # interrupted, resumable
    COMPLETED = "completed"
    CANCELLED = "cancelled"  # by the user
    ABANDONED = "abandoned"  # paused past its timeout
    INVALID = "invalid"  # mispredicted, replaced by a fallback, or its plan was abandoned
    ERROR = "error"  # its policy raised

    @property
    def terminal(self) -> bool:
        return self in TERMINAL


TERMINAL: frozenset[FlowState] = frozenset(
    {FlowState.COMPLETED, FlowState.CANCELLED, FlowState.ABANDONED, FlowState.INVALID, FlowState.ERROR}
)
LIVE: frozenset[FlowState] = frozenset({FlowState.PENDING, FlowState.ACTIVE, FlowState.PAUSED})

_ALLOWED: dict[FlowState, frozenset[FlowState]] = {
    FlowState.PENDING: frozenset({FlowState.ACTIVE, FlowState.CANCELLED, FlowState.INVALID}),
    FlowState.ACTIVE: frozenset(
        {FlowState.PAUSED, FlowState.PENDING, FlowState.COMPLETED, FlowState.CANCELLED, FlowState.INVALID,
         FlowState.ERROR}
    ),
    FlowState.PAUSED: frozenset(  # PENDING: a resumed plan waits below its open steps
        {FlowState.ACTIVE, FlowState.PENDING, FlowState.CANCELLED, FlowState.ABANDONED, FlowState.INVALID,
         FlowState.ERROR}
    ),
}


class StackError(Exception):
    """An illegal operation on a flow or the stack; the stack is left as it was.

    Names the operation, the flow and its state, and what would make it legal.
    """

    def __init__(self, op: str, flow: BaseFlow | None, why: str, fix: str = "") -> None:
        self.op = op
        self.flow_id = flow.flow_id if flow else None
        self.flow_name = flow.name if flow else None
        self.state = flow.state if flow else None
        subject = f"flow {flow.name!r} ({flow.flow_id}, {flow.state.value})" if flow else "the stack"
        message = f"cannot {op} {subject}: {why}"
        super().__init__(f"{message}; {fix}" if fix else message)


def can_transition(source: FlowState, target: FlowState) -> bool:
    return target in _ALLOWED.get(source, frozenset())


def _allowed_names(source: FlowState) -> str:
    allowed = sorted(s.value for s in _ALLOWED.get(source, frozenset()))
    return ", ".join(allowed) or "nothing (it has ended)"


# -- System 2 ----------------------------------------------------------------------


@dataclass(frozen=True)
class SlotRequest:
    """What a reasoner is asked: fill these missing slots of this flow from context and memory."""

    flow_id: str
    flow_name: str
    description: str
    missing: Mapping[str, Mapping[str, Any]]  # slot name -> {type, prompt, description, params}
    filled: Mapping[str, Any]
    inputs: Mapping[str, Any]
    context: Any
    memory: Any


class SlotReasoner(Protocol):
    """System 2: returns labels (slot name -> raw value) for the slots it could fill."""

    def __call__(self, request: SlotRequest) -> Mapping[str, Any] | Awaitable[Mapping[str, Any]]: ...


# -- flows -------------------------------------------------------------------------


@dataclass(eq=False)
class BaseFlow:
    """A flow instance on the stack. Static facts come from ``spec``; the rest is its state."""

    kind: ClassVar[str] = "base"

    spec: FlowSpec
    flow_id: str
    slots: dict[str, BaseSlot] = field(default_factory=dict)
    state: FlowState = FlowState.PENDING
    plan_id: str | None = None
    turn_ids: list[int] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    paused_at: float | None = None
    ended_at: float | None = None
    reason: str = ""
    natural_birth: bool = True
    role: str | None = None  # the domain intent's role (read/prepare/transform/schedule)

    # -- static facts ------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def intent(self) -> str:
        return self.spec.intent

    @property
    def label(self) -> str:
        return self.spec.phrase

    @property
    def keywords(self) -> list[str]:
        return list(self.spec.keywords)

    @property
    def category(self) -> str:
        return self.spec.metadata.category

    @property
    def can_be_paused(self) -> bool:
        return self.spec.metadata.can_be_paused

    @property
    def can_be_resumed(self) -> bool:
        return self.spec.metadata.can_be_resumed

    @property
    def max_pause_duration(self) -> float | None:
        return self.spec.metadata.max_pause_duration

    @property
    def terminal(self) -> bool:
        return self.state in TERMINAL

    @property
    def live(self) -> bool:
        return self.state in LIVE

    # -- slots -------------------------------------------------------------------
    def _priority(self, priority: str) -> list[BaseSlot]:
        return [s for s in self.slots.values() if s.priority == priority]

    def is_filled(self) -> bool:
        """All required slots filled, and at least one elective when the flow has electives."""
        return not self.missing_slots()

    def missing_slots(self) -> list[str]:
        """Required slots still empty, then (when none is filled) the electives, in spec order."""
        missing = [s.name for s in self._priority("required") if not s.filled]
        electives = self._priority("elective")
        if electives and not any(s.filled for s in electives):
            missing += [s.name for s in electives]
        return missing

    def slot_values(self) -> dict[str, Any]:
        return {name: slot.value for name, slot in self.slots.items() if slot.filled}

    def fill_slots_by_label(self, labels: Mapping[str, Any], ctx: SlotContext, *, source: str = "label") -> dict[str, Check]:
        """System 1: fill slots from NLU labels. Unknown names and None values are skipped;
        a value that fails its check leaves the slot unchanged (see the returned reasons)."""
        checks: dict[str, Check] = {}
        for name, raw in labels.items():
            slot = self.slots.get(name)
            if slot is not None and raw is not None:
                checks[name] = slot.fill(raw, ctx, source=source)
        return checks

    def prefill(self, ctx: SlotContext) -> dict[str, Check]:
        """Fill empty slots from this flow's ``inputs`` and from preferences (``from_preference``)."""
        labels: dict[str, Any] = {}
        for name, slot in self.slots.items():
            if slot.filled:
                continue
            if self.inputs.get(name) is not None:
                labels[name] = self.inputs[name]
            elif (pref := slot.params.get("from_preference")) and ctx.preferences.get(pref) is not None:
                labels[name] = ctx.preferences[pref]
        checks = {n: self.slots[n].fill(v, ctx, source="input") for n, v in labels.items()}
        return checks

    def needs_to_think(self) -> bool:
        """Whether contemplation (System 2) may help before asking the user: the flow asks for
        reflection, or a missing slot could come from context (an input or a preference)."""
        if self.spec.reflection:
            return True
        return any(
            name in self.inputs or self.slots[name].params.get("from_preference")
            for name in self.missing_slots()
        )

    def slot_request(self, context: Any, memory: Any) -> SlotRequest:
        missing = {
            name: {"type": self.slots[name].type_name, "prompt": self.slots[name].prompt,
                   "params": dict(self.slots[name].params)}
            for name in self.missing_slots()
        }
        return SlotRequest(self.flow_id, self.name, self.spec.description, missing, self.slot_values(),
                           dict(self.inputs), context, memory)

    def fill_slot_values(
        self, context: Any, memory: Any, reasoner: Callable[[SlotRequest], Any], ctx: SlotContext
    ) -> dict[str, Check]:
        """System 2: ask ``reasoner`` for the missing slots; fill what passes the checks.

        The reasoner does any I/O; this method only builds the request and applies the answer.
        Use :meth:`afill_slot_values` for an async reasoner.
        """
        request = self.slot_request(context, memory)
        labels = reasoner(request)
        if inspect.isawaitable(labels):
            close = getattr(labels, "close", None)
            if close:
                close()
            raise TypeError("the reasoner is async: use 'await flow.afill_slot_values(...)'")
        return self._apply_reasoned(labels, request, ctx)

    async def afill_slot_values(
        self, context: Any, memory: Any, reasoner: Callable[[SlotRequest], Any], ctx: SlotContext
    ) -> dict[str, Check]:
        request = self.slot_request(context, memory)
        labels = reasoner(request)
        if inspect.isawaitable(labels):
            labels = await labels
        return self._apply_reasoned(labels, request, ctx)

    def _apply_reasoned(self, labels: Mapping[str, Any], request: SlotRequest, ctx: SlotContext) -> dict[str, Check]:
        wanted = {name: value for name, value in labels.items() if name in request.missing}
        return self.fill_slots_by_label(wanted, ctx, source="reasoner")

    # -- bookkeeping ---------------------------------------------------------------
    def record_turn(self, turn_id: int) -> None:
        """Point this flow at a turn it was active in (flows -> turns, one direction)."""
        if not self.turn_ids or self.turn_ids[-1] != turn_id:
            self.turn_ids.append(turn_id)

    def move_to(self, target: FlowState, op: str) -> None:
        """The one way a live flow's state changes: checked against the transition table.

        An illegal move raises :class:`StackError` naming ``op``, and the flow is left as it was.
        (Restoring a stored flow sets its state directly: that is not a change.)
        """
        if not can_transition(self.state, target):
            raise StackError(op, self, f"a {self.state.value} flow cannot become {target.value}",
                             f"allowed from {self.state.value}: {_allowed_names(self.state)}")
        self.state = target

    def serialize(self) -> dict[str, Any]:
        return {
            "id": self.flow_id,
            "name": self.name,
            "state": self.state.value,
            "slots": {name: slot.dump_value() for name, slot in self.slots.items()},
            "plan_id": self.plan_id,
            "turns": list(self.turn_ids),
            "outputs": copy_json(self.outputs),
            "inputs": copy_json(self.inputs),
            "created_at": self.created_at,
            "paused_at": self.paused_at,
            "ended_at": self.ended_at,
            "reason": self.reason,
            "natural": self.natural_birth,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.flow_id}, {self.state.value})"


class PlanFlow(BaseFlow):
    """Stacks several flows for one objective; sits below its sub-flows until they are done."""

    kind = "plan"


class ConverseFlow(BaseFlow):
    """Talks without touching data (FAQ, help, chit-chat); often a digression."""

    kind = "converse"


class InternalFlow(BaseFlow):
    """System housekeeping, never user-triggered; the only kind that may run in the background."""

    kind = "internal"

    @property
    def depends_on(self) -> list[str]:
        return list(self.spec.depends_on)


class DomainFlow(BaseFlow):
    """One of the domain's four intents (read / prepare / transform / schedule)."""

    kind = "domain"


PARENTS: dict[str, type[BaseFlow]] = {"Plan": PlanFlow, "Converse": ConverseFlow, "Internal": InternalFlow}


def uuid_ids() -> str:
    return uuid.uuid4().hex[:12]


def counter_ids(prefix: str = "f") -> Callable[[], str]:
    """Deterministic ids for tests and replays: f1, f2, ..."""
    counter = itertools.count(1)
    return lambda: f"{prefix}{next(counter)}"
