"""What a turn returns (``TurnResult``) and the views it shows.

``Clock`` is the agent's injectable clock under its public name (``Clock(start)``); its
home is :mod:`dialstack.clock`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..clock import AdjustableClock as Clock
from ..state.dialogue import DialogueState
from .outcomes import ToolCallResult

__all__ = ["Clock", "TurnResult", "call_view", "flags_of", "flow_view"]


@dataclass
class TurnResult:
    """What one call to ``Agent.handle`` returns; ``to_dict()`` is the ``--json`` record."""

    session_id: str
    turn: int
    user: str
    reply: str
    stack: list[dict[str, Any]]
    flags: dict[str, bool]
    frame: dict[str, Any] | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    approval_requested: str | None = None
    transitions: dict[str, list[str]] = field(default_factory=dict)
    understanding: dict[str, Any] = field(default_factory=dict)
    digression_depth: int = 0
    waiting_for_slot: str | None = None
    warnings: list[str] = field(default_factory=list)
    committed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "turn": self.turn,
            "user": self.user,
            "reply": self.reply,
            "stack": self.stack,
            "flags": self.flags,
            "frame": self.frame,
            "tool_calls": self.tool_calls,
            "approval_requested": self.approval_requested or False,
            "transitions": self.transitions,
            "understanding": self.understanding,
            "digression_depth": self.digression_depth,
            "waiting_for_slot": self.waiting_for_slot,
            "warnings": self.warnings,
            "committed": self.committed,
        }


def flow_view(flow: Any) -> dict[str, Any]:
    return {
        "flow_id": flow.flow_id,
        "name": flow.name,
        "state": flow.state.value,
        "slots": {n: {"value": s.value, "display": s.display} for n, s in flow.slots.items()},
        "plan_id": flow.plan_id,
        "outputs": {k: v for k, v in flow.outputs.items() if not isinstance(v, (dict, list))},
    }


def flags_of(state: DialogueState) -> dict[str, bool]:
    return {"keep_going": state.keep_going, "has_issues": state.has_issues, "has_plan": state.has_plan,
            "natural_birth": state.natural_birth}


def call_view(call: ToolCallResult) -> dict[str, Any]:
    return {"tool": call.tool, "arguments": call.arguments, "ok": call.ok, "approval": call.approval,
            "error": None if call.ok else call.text}
