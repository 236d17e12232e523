"""The dialogue state: the flow stack with its archive, the predicted intent, the flags and
what the assistant is waiting for.

``serialize()`` gives a compact, deterministic JSON-compatible dict (the store diffs
consecutive ones with JSON Patch); ``DialogueState.from_dict`` rebuilds it exactly, and
reads states stored in the previous format (v1, loose ``meta`` keys) too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..domain.models import Ontology, Settings
from .factory import FlowFactory
from .flows import BaseFlow
from .pending import (
    Approval,
    CancelChoice,
    Pending,
    PlanReview,
    Q,
    ResumeChoice,
    ResumeOffer,
    RetryOffer,
    dump_pending,
    load_pending,
)
from .slot_base import copy_json
from .slots import SlotRegistry
from .stack import FlowStack

FORMAT_VERSION = 2
TOP_N = 3


class StateFormatError(ValueError):
    """A stored state this version cannot read."""


class FilledSlot(BaseModel):
    """The slot filled last ('actually, make it Boston' corrects it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flow_id: str
    slot: str


@dataclass
class PlanStep:
    """One step of a proposed or running plan: its flow, its slot values, the words it came
    from, the slots it takes from earlier steps, and its flow instance once it is stacked.

    ``refs`` maps a slot to ``(step index, slot name)``: filled from that step's flow when
    this step starts (the return leg flies back to where the first leg left from).
    """

    flow: str
    labels: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    refs: dict[str, tuple[int, str]] = field(default_factory=dict)
    flow_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"flow": self.flow, "labels": copy_json(self.labels), "text": self.text,
                "refs": {k: [i, n] for k, (i, n) in self.refs.items()}, "flow_id": self.flow_id}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> PlanStep:
        refs = {str(k): (int(v[0]), str(v[1])) for k, v in (data.get("refs") or {}).items()}
        return cls(str(data["flow"]), dict(data.get("labels") or {}), str(data.get("text", "")), refs, data.get("flow_id"))


@dataclass(eq=False)
class DialogueState:
    stack: FlowStack = field(default_factory=FlowStack)
    intent: str | None = None  # predicted intent of the latest turn
    confidence: list[tuple[str, float]] = field(default_factory=list)  # top-3 (flow, score)
    keep_going: bool = False  # continue without waiting for the user
    has_issues: bool = False  # the state holds an error (not just an ambiguity)
    has_plan: bool = False  # a multi-step plan is in progress
    natural_birth: bool = True  # the latest flow was started by the user, not the agent
    waiting_for_slot: str | None = None  # the slot the last reply asked for
    digression_depth: int = 0
    last_digression_type: str | None = None
    pending: Pending | None = None  # the question the last reply asked (an offer, a choice, a yes/no)
    last_filled: FilledSlot | None = None
    confirmed: dict[str, str] = field(default_factory=dict)  # flow_id -> digest of the values the user said yes to
    plans: dict[str, list[PlanStep]] = field(default_factory=dict)  # plan flow_id -> its steps
    proposed_steps: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # plan flow_id -> steps System 2 proposed
    plan_decisions: list[dict[str, Any]] = field(default_factory=list)  # the replanning log
    recovery: dict[str, list[str]] = field(default_factory=dict)  # flow_id -> recovery steps tried
    turn: int = 0

    @classmethod
    def new(cls, settings: Settings | None = None) -> DialogueState:
        return cls(stack=FlowStack(settings))

    @property
    def archive(self) -> list[BaseFlow]:
        return self.stack.archive

    @property
    def active(self) -> BaseFlow | None:
        return self.stack.active

    def awaiting(self, kind: type[Q]) -> Q | None:
        """The pending question if it is of ``kind`` (``state.awaiting(Approval)``), else None."""
        return self.pending if isinstance(self.pending, kind) else None

    def set_confidence(self, predictions: Iterable[tuple[str, float]]) -> None:
        """Keep the top 3 predictions, best first (for logs; never drives transitions)."""
        ranked = sorted(((str(n), float(s)) for n, s in predictions), key=lambda p: -p[1])
        self.confidence = ranked[:TOP_N]

    def serialize(self) -> dict[str, Any]:
        return {
            "v": FORMAT_VERSION,
            "turn": self.turn,
            "intent": self.intent,
            "confidence": [[name, score] for name, score in self.confidence],
            "flags": {
                "keep_going": self.keep_going,
                "has_issues": self.has_issues,
                "has_plan": self.has_plan,
                "natural_birth": self.natural_birth,
            },
            "waiting_for_slot": self.waiting_for_slot,
            "digression_depth": self.digression_depth,
            "last_digression_type": self.last_digression_type,
            "pending": dump_pending(self.pending),
            "last_filled": self.last_filled.model_dump() if self.last_filled else None,
            "confirmed": dict(self.confirmed),
            "plans": {k: [s.to_dict() for s in v] for k, v in self.plans.items()},
            "proposed_steps": copy_json(self.proposed_steps),
            "plan_decisions": copy_json(self.plan_decisions),
            "recovery": copy_json(self.recovery),
            "stack": [f.serialize() for f in self.stack.flows],
            "archive": [f.serialize() for f in self.stack.archive],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], registry: FlowFactory | SlotRegistry | Ontology) -> DialogueState:
        """Rebuild a state from ``serialize()``; ``registry`` knows the domain's flows and slots."""
        version = data.get("v", FORMAT_VERSION)
        if version == 1:
            data = upgrade_v1(data)
        elif version != FORMAT_VERSION:
            raise StateFormatError(f"state format v{version} is not readable by this version (v{FORMAT_VERSION})")
        factory = FlowFactory.of(registry)
        flags = data.get("flags") or {}
        stack = FlowStack.from_dict({"flows": data.get("stack"), "archive": data.get("archive")}, factory)
        try:
            pending = load_pending(data.get("pending"))
            last = data.get("last_filled")
            last_filled = FilledSlot.model_validate(last) if last else None
            plans = {k: [PlanStep.load(s) for s in v] for k, v in (data.get("plans") or {}).items()}
        except (ValidationError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"stored state has an unreadable pending question or plan: {exc}") from exc
        return cls(
            stack=stack,
            intent=data.get("intent"),
            confidence=[(str(n), float(s)) for n, s in data.get("confidence") or []],
            keep_going=bool(flags.get("keep_going", False)),
            has_issues=bool(flags.get("has_issues", False)),
            has_plan=bool(flags.get("has_plan", False)),
            natural_birth=bool(flags.get("natural_birth", True)),
            waiting_for_slot=data.get("waiting_for_slot"),
            digression_depth=int(data.get("digression_depth", 0)),
            last_digression_type=data.get("last_digression_type"),
            pending=pending,
            last_filled=last_filled,
            confirmed={str(k): str(v) for k, v in (data.get("confirmed") or {}).items()},
            plans=plans,
            proposed_steps=copy_json(data.get("proposed_steps") or {}),
            plan_decisions=copy_json(data.get("plan_decisions") or []),
            recovery=copy_json(data.get("recovery") or {}),
            turn=int(data.get("turn", 0)),
        )


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A v1 state (pending questions as ``pending_offer``, ``pending_approval`` and loose ``meta``
    keys) in the v2 shape. Of several open questions the one the reply repeated first is kept."""
    meta = dict(data.get("meta") or {})
    active = next((f.get("id") for f in data.get("stack") or [] if f.get("state") == "active"), None)
    pending: Pending | None = None
    approval = data.get("pending_approval")
    retry = meta.get("retry_offers") or {}
    if approval:
        pending = Approval(tool=str(approval.get("tool", "")), args=dict(approval.get("args") or {}),
                           reason=str(approval.get("reason", "")), flow_id=str(approval.get("flow_id", "")))
    elif meta.get("plan_review"):
        pending = PlanReview(plan_id=meta["plan_review"])
    elif data.get("pending_offer"):
        pending = ResumeOffer(flow_id=data["pending_offer"])
    elif meta.get("resume_options"):
        pending = ResumeChoice(flow_ids=tuple(meta["resume_options"]))
    elif meta.get("cancel_options"):
        options = meta["cancel_options"]
        pending = CancelChoice(flow_ids=tuple(options.get("ids") or ()), flow=str(options.get("flow", "")),
                               labels=dict(options.get("labels") or {}))
    elif active is not None and retry.get(active):
        pending = RetryOffer(flow_id=active)
    upgraded = {k: v for k, v in data.items() if k not in ("meta", "pending_offer", "pending_approval")}
    upgraded.update(
        v=FORMAT_VERSION,
        pending=dump_pending(pending),
        last_filled=meta.get("last_filled") or None,
        plans=meta.get("plans") or {},
        proposed_steps=meta.get("proposed_steps") or {},
        plan_decisions=meta.get("plan_decisions") or [],
        recovery=meta.get("recovery") or {},
    )
    return upgraded
