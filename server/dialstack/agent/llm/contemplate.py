"""System-2 understanding with a Messages-API model: the prompt, the structured reply, its checks.

The model answers through a forced ``understanding`` tool call, so the reply is a JSON object
by construction; it is still validated here, and a flow the domain does not have turns the
result into ``act="unknown"`` rather than letting a hallucinated name reach the stack.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .base import ACTS, ContemplateRequest, ContemplateResult
from .messages import MessagesModel, ModelRequest, forced_tool

UNDERSTANDING_TOOL = "understanding"
_ACT_HELP = """\
- start: the user asks for a new task (flow)
- fill: the user answers the slot being asked, or gives slot values for the active flow
- correct: the user changes a value already given ("actually make it Boston")
- digress: a question, clarification, help or status request that does not change the task
- resume: the user wants to continue a paused flow
- cancel: the user wants to stop the active flow
- affirm / deny: yes / no to the pending question
- chitchat: small talk
- fallback: (after a failure) a different flow fits the request better; carry the slots over
- plan: the request needs several flows in sequence; list them in sub_flows in order
- unknown: nothing fits"""


class _SubFlow(BaseModel):
    model_config = ConfigDict(extra="ignore")
    flow: str
    slots: dict[str, Any] = Field(default_factory=dict)


class _Understanding(BaseModel):
    model_config = ConfigDict(extra="ignore")
    act: str
    flow: str | None = None
    slots: dict[str, Any] = Field(default_factory=dict)
    confidence: float = Field(ge=0, le=1)
    sub_flows: list[_SubFlow] = Field(default_factory=list)
    rationale: str = ""


def understanding_tool() -> dict[str, Any]:
    return {
        "name": UNDERSTANDING_TOOL,
        "description": "Record your analysis of the user's message.",
        "input_schema": {
            "type": "object",
            "properties": {
                "act": {"type": "string", "enum": list(ACTS)},
                "flow": {"type": ["string", "null"], "description": "the flow name the act concerns, exactly as listed"},
                "slots": {"type": "object", "description": "slot name -> value as the user said it"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                "sub_flows": {
                    "type": "array",
                    "description": "plan only: the flows to run, in order",
                    "items": {
                        "type": "object",
                        "properties": {"flow": {"type": "string"}, "slots": {"type": "object"}},
                        "required": ["flow"],
                    },
                },
                "rationale": {"type": "string", "description": "one sentence"},
            },
            "required": ["act", "flow", "slots", "confidence"],
        },
    }


def contemplate_prompt(request: ContemplateRequest) -> tuple[str, str]:
    """(system, user) text for one contemplate call."""
    flows = "\n".join(
        f"- {f.name} ({f.intent}): {f.description}" + (f" Slots: {', '.join(f.slots)}." if f.slots else "")
        for f in request.flows
    )
    system = (
        "You are the dialogue understanding component of a task-oriented assistant. Decide what "
        "the user's message does to the conversation and answer only through the "
        f"`{UNDERSTANDING_TOOL}` tool.\n\nDialogue acts:\n{_ACT_HELP}\n\nAvailable flows:\n{flows}\n\n"
        "Use flow names exactly as listed. Slot values are the user's words, not normalized."
    )
    lines = [f"Purpose: {_purpose(request)}"]
    if request.paused_flows:
        lines.append("Paused flows that can be resumed: " + ", ".join(request.paused_flows))
    lines.append(f"Current flow: {request.active_flow or 'none'}")
    lines.append(f"Waiting for slot: {request.waiting_for_slot or 'none'}")
    if request.recent_turns:
        turns = "\n".join(f"{t.get('role', '?')}: {t.get('text', '')}" for t in request.recent_turns)
        lines.append(f"Recent turns (oldest first):\n{turns}")
    lines.append(f"User message: {json.dumps(request.text, ensure_ascii=False)}")
    return system, "\n\n".join(lines)


def _purpose(request: ContemplateRequest) -> str:
    if request.purpose == "fallback":
        why = f" because {request.reason}" if request.reason else ""
        return f"fallback: the flow {request.failed_flow or '?'} failed{why}. Pick the flow that should handle the request instead (act 'fallback') and map the slots."
    if request.purpose == "plan":
        return "plan: break the request into the flows that together fulfil it (act 'plan', sub_flows in order)."
    return "predict: the fast understanding was unsure; decide the act, the flow and the slot values."


def parse_understanding(raw: object, request: ContemplateRequest) -> ContemplateResult:
    """Validate the model's answer against the request's flows; anything off → ``unknown``."""
    try:
        answer = _Understanding.model_validate(raw)
    except ValidationError as exc:
        return unknown(f"invalid understanding: {exc.errors()[0]['msg']}")
    if answer.act not in ACTS:
        return unknown(f"unknown act {answer.act!r}")
    known = {f.name for f in request.flows}
    if answer.flow is not None and answer.flow not in known:
        return unknown(f"the model named a flow the domain does not have: {answer.flow!r}", confidence=answer.confidence)
    sub_flows = [{"flow": s.flow, "slots": s.slots} for s in answer.sub_flows if s.flow in known]
    dropped = [s.flow for s in answer.sub_flows if s.flow not in known]
    if answer.act == "plan" and not sub_flows:
        return unknown("a plan without any known sub-flow" + (f" (unknown: {dropped})" if dropped else ""))
    rationale = answer.rationale + (f" [dropped unknown sub-flows {dropped}]" if dropped else "")
    return ContemplateResult(answer.act, answer.flow, answer.slots, answer.confidence, sub_flows, rationale.strip())


def unknown(rationale: str, confidence: float = 0.0) -> ContemplateResult:
    return ContemplateResult("unknown", None, {}, confidence, [], rationale)


async def contemplate(model: MessagesModel, request: ContemplateRequest, max_tokens: int = 1024) -> ContemplateResult:
    system, user = contemplate_prompt(request)
    reply = await model.create(
        ModelRequest(system, [{"role": "user", "content": user}], max_tokens, [understanding_tool()], forced_tool(UNDERSTANDING_TOOL))
    )
    use = next((u for u in reply.tool_uses() if u["name"] == UNDERSTANDING_TOOL), None)
    if use is None:
        return unknown(f"the model gave no structured answer (stop_reason {reply.stop_reason!r})")
    return parse_understanding(use.get("input"), request)
