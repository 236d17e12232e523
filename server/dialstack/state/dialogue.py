"""The dialogue state: the flow stack with its archive, the predicted intent and the flags.

``serialize()`` gives a compact, deterministic JSON-compatible dict (the store diffs
consecutive ones with JSON Patch); ``DialogueState.from_dict`` rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..domain.models import Ontology, Settings
from .factory import FlowFactory
from .flows import BaseFlow
from .slot_base import copy_json
from .slots import SlotRegistry
from .stack import FlowStack

FORMAT_VERSION = 1
TOP_N = 3


class StateFormatError(ValueError):
    """A stored state this version cannot read."""


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
    pending_offer: str | None = None  # flow_id offered for resume ("continue booking?")
    pending_approval: dict[str, Any] | None = None  # a tool call waiting for the user's yes
    turn: int = 0
    meta: dict[str, Any] = field(default_factory=dict)  # free, JSON-compatible

    @classmethod
    def new(cls, settings: Settings | None = None) -> DialogueState:
        return cls(stack=FlowStack(settings))

    @property
    def archive(self) -> list[BaseFlow]:
        return self.stack.archive

    @property
    def active(self) -> BaseFlow | None:
        return self.stack.active

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
            "pending_offer": self.pending_offer,
            "pending_approval": copy_json(self.pending_approval),
            "meta": copy_json(self.meta),
            "stack": [f.serialize() for f in self.stack.flows],
            "archive": [f.serialize() for f in self.stack.archive],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], registry: FlowFactory | SlotRegistry | Ontology) -> DialogueState:
        """Rebuild a state from ``serialize()``; ``registry`` knows the domain's flows and slots."""
        version = data.get("v", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise StateFormatError(f"state format v{version} is not readable by this version (v{FORMAT_VERSION})")
        factory = FlowFactory.of(registry)
        flags = data.get("flags") or {}
        stack = FlowStack.from_dict({"flows": data.get("stack"), "archive": data.get("archive")}, factory)
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
            pending_offer=data.get("pending_offer"),
            pending_approval=copy_json(data.get("pending_approval")),
            turn=int(data.get("turn", 0)),
            meta=copy_json(data.get("meta") or {}),
        )
