"""The LLM backend protocols the orchestrator codes against.

Three small capabilities, each behind its own Protocol so a backend can offer any subset:

* :class:`SkillRunner` runs a flow's skill (SKILL.md) as a tool-use loop and returns exactly
  one outcome.
* :class:`Reasoner` is System-2 understanding (``contemplate``): called when the fast
  understanding is unsure (``predict``), after a flow failed (``fallback``) or to break a
  request into sub-flows (``plan``).
* :class:`Phraser` optionally rewords a drafted reply (RES).

Requests and results are plain dataclasses: no prompt syntax lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from ..outcomes import Failure, SkillInvocation, Success, Uncertain

Purpose = Literal["predict", "fallback", "plan"]
Act = Literal[
    "start",
    "fill",
    "correct",
    "digress",
    "resume",
    "cancel",
    "affirm",
    "deny",
    "chitchat",
    "fallback",
    "plan",
    "unknown",
]
ACTS: tuple[str, ...] = Act.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class FlowSummary:
    """What understanding needs to know about one flow of the domain."""

    name: str
    intent: str
    description: str
    slots: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ContemplateRequest:
    purpose: Purpose
    text: str
    flows: list[FlowSummary]
    active_flow: str | None
    waiting_for_slot: str | None
    paused_flows: list[str]
    recent_turns: list[dict[str, Any]]  # [{"role": "user"|"agent", "text": ...}], oldest first
    failed_flow: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class ContemplateResult:
    act: Act | str  # one of ACTS; "unknown" when the model named no known flow
    flow: str | None
    slots: dict[str, Any]
    confidence: float
    sub_flows: list[dict[str, Any]] = field(default_factory=list)  # [{flow, slots}] for plan
    rationale: str = ""


@runtime_checkable
class SkillRunner(Protocol):
    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain: ...


@runtime_checkable
class Reasoner(Protocol):
    async def contemplate(self, request: ContemplateRequest) -> ContemplateResult: ...


@runtime_checkable
class Phraser(Protocol):
    async def phrase(self, draft: str, context: dict[str, Any]) -> str: ...
