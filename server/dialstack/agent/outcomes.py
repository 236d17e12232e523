"""What a skill receives and what it returns (the contract between a policy and its skill), and
what a policy run did (``Execution``).

A skill ends in exactly one outcome (success / failure / uncertain), whatever backend runs
it (the offline step runner or Claude through the Anthropic SDK).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..domain.models import FlowSpec, SkillSpec


class _Outcome(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Success(_Outcome):
    outcome: Literal["success"] = "success"
    data: dict[str, Any] = Field(default_factory=dict)
    scratchpad_entries: list[str] = Field(default_factory=list)


class Failure(_Outcome):
    outcome: Literal["failure"] = "failure"
    error_category: str
    message: str
    partial_data: dict[str, Any] | None = None


class Uncertain(_Outcome):
    outcome: Literal["uncertain"] = "uncertain"
    reason: str
    context: dict[str, Any] = Field(default_factory=dict)


SkillOutcome = Annotated[Success | Failure | Uncertain, Field(discriminator="outcome")]
OUTCOME = TypeAdapter(SkillOutcome)


@dataclass(frozen=True)
class ToolDescriptor:
    """A tool as listed from the MCP server."""

    name: str
    description: str
    input_schema: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolCallResult:
    """One tool call's result as the skill sees it."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    data: dict[str, Any] | None = None  # structuredContent when ok
    text: str = ""  # text rendering, or the error message
    approval: Literal["approved", "declined", "unsupported", "pending"] | None = None
    category: str | None = None  # the tool's own error category (``_meta`` dialstack/error_category)


CallTool = Callable[[str, dict[str, Any]], Awaitable[ToolCallResult]]


@dataclass
class SkillInvocation:
    """Everything one skill run gets: the policy assembles it, the runner consumes it."""

    flow: FlowSpec
    skill: SkillSpec
    slots: dict[str, Any]  # filled slot values (normalized), by slot name
    inputs: dict[str, Any]  # values received from earlier flows' outputs
    context: dict[str, Any]  # recent turns, scratchpad, preferences
    tools: list[ToolDescriptor]  # the flow's 1-3 tools + the three component tools
    call_tool: CallTool
    timeout_s: float
    hints: list[str] = field(default_factory=list)  # flow-specific hints on a retry
    calls: list[ToolCallResult] = field(default_factory=list)  # filled in by the runner


@dataclass
class Execution:
    """What one policy run did (PEX, a policy, recovery), for RES and the agent."""

    status: str  # asked | confirm | completed | failed | uncertain | approval | declined | blocked
    reply: str = ""
    slot: str | None = None  # the slot asked for
    issues: list[str] = field(default_factory=list)
