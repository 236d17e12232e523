"""Prompt text and tool definitions for running a skill with Claude.

Everything the model reads about a skill run is built here, from the typed invocation; no
prompt syntax lives on the state or domain types.
"""

from __future__ import annotations

import json
from typing import Any

from ..outcomes import SkillInvocation, ToolDescriptor
from .messages import Block

FINISH_TOOL = "finish"
EVALUATE_TOOL = "evaluate"

FINISH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "Exactly one of three shapes. success: {outcome, data, scratchpad_entries}. "
        "failure: {outcome, error_category, message, partial_data}. uncertain: {outcome, reason, context}."
    ),
    "properties": {
        "outcome": {"type": "string", "enum": ["success", "failure", "uncertain"]},
        "data": {"type": "object", "description": "success: the result, keyed by the flow's output names"},
        "scratchpad_entries": {
            "type": "array",
            "items": {"type": "string"},
            "description": "success: 0-5 short findings worth remembering later in the conversation",
        },
        "error_category": {"type": "string", "description": "failure: a short snake_case category"},
        "message": {"type": "string", "description": "failure: what went wrong, for the user"},
        "partial_data": {"type": "object", "description": "failure: whatever was obtained before failing"},
        "reason": {"type": "string", "description": "uncertain: what is ambiguous or missing"},
        "context": {"type": "object", "description": "uncertain: the candidates or facts found so far"},
    },
    "required": ["outcome"],
}

EVALUATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["pass", "revise"]},
        "issues": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["verdict"],
}

_OUTCOME_RULES = f"""\
## How to finish
Work with the tools above. When you are done, call the `{FINISH_TOOL}` tool exactly once, alone,
with one outcome:
- success: {{"outcome": "success", "data": {{...}}, "scratchpad_entries": ["..."]}}
- failure: {{"outcome": "failure", "error_category": "...", "message": "...", "partial_data": {{...}}}}
- uncertain: {{"outcome": "uncertain", "reason": "...", "context": {{...}}}}
Use failure when a tool failed or an action was declined; use uncertain when the request is
ambiguous and the user must choose. Never invent tool results. A call the user declined must
not be retried."""


def finish_tool_name(tools: list[ToolDescriptor]) -> str:
    """``finish``, unless a listed tool already has that name."""
    names = {tool.name for tool in tools}
    return FINISH_TOOL if FINISH_TOOL not in names else "finish_skill"


def tool_definitions(tools: list[ToolDescriptor], finish: str) -> list[Block]:
    defs: list[Block] = [
        {"name": tool.name, "description": _description(tool), "input_schema": _object_schema(tool.input_schema)}
        for tool in tools
    ]
    defs.append(
        {
            "name": finish,
            "description": "Return the skill's single, final outcome. Call it once, alone, after reading all tool results.",
            "input_schema": FINISH_SCHEMA,
        }
    )
    return defs


def evaluate_tool() -> Block:
    return {
        "name": EVALUATE_TOOL,
        "description": "Record your evaluation of the candidate outcome against the skill's success criteria.",
        "input_schema": EVALUATE_SCHEMA,
    }


def skill_system_prompt(invocation: SkillInvocation, finish: str) -> list[Block]:
    """Two system blocks: the stable skill text (cacheable) and this run's values."""
    flow = invocation.flow
    stable = f"{invocation.skill.body}\n\n{_OUTCOME_RULES.replace(f'`{FINISH_TOOL}`', f'`{finish}`')}"
    parts = [
        f"# This run\nFlow: {flow.name} ({flow.intent}) — {flow.description}",
        _section("Slot values", invocation.slots),
    ]
    if invocation.inputs:
        parts.append(_section("Inputs from earlier flows", invocation.inputs))
    if flow.outputs:
        parts.append(f"## Expected outputs\nOn success, `data` should hold: {', '.join(flow.outputs)}.")
    for key, value in invocation.context.items():
        if value not in (None, "", [], {}):
            parts.append(_section(key.replace("_", " ").capitalize(), value))
    if invocation.hints:
        parts.append("## Hints from a previous attempt\n" + "\n".join(f"- {hint}" for hint in invocation.hints))
    return [
        {"type": "text", "text": stable, "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "\n\n".join(parts)},
    ]


def first_user_message(invocation: SkillInvocation) -> str:
    return f"Run the {invocation.flow.name} skill now with the slot values given, then call the finish tool."


def correction(problem: str, finish: str) -> str:
    return (
        f"Your last reply was not a valid outcome: {problem}. Call the `{finish}` tool once, with "
        "exactly one of the three outcome shapes and no extra keys."
    )


def premature_finish(finish: str) -> str:
    return f"Not accepted: call `{finish}` alone, after you have read the results of your tool calls."


def declined_call(tool: str, text: str) -> str:
    detail = f" ({text})" if text else ""
    return (
        f"The user declined to approve the call to {tool}{detail}. The action was NOT performed. "
        "Do not call it again; finish with a failure (error_category 'approval_declined') or an "
        "uncertain outcome that says what was not done."
    )


def evaluate_request(flow_name: str) -> str:
    return (
        f"Before this outcome is final, evaluate it against the success criteria in the {flow_name} "
        f"skill instructions. Call `{EVALUATE_TOOL}` with verdict 'pass' if it meets them, or 'revise' "
        "with the concrete issues."
    )


def revise_request(issues: list[str], finish: str) -> str:
    listed = "\n".join(f"- {issue}" for issue in issues) or "- (no details given)"
    return f"Revise the outcome to fix these issues, then call `{finish}` with the revised outcome:\n{listed}"


def _description(tool: ToolDescriptor) -> str:
    text = tool.description or tool.name
    if tool.meta.get("dialstack/requires_approval"):
        text += " Calling it asks the user for approval first; they may decline."
    return text


def _section(title: str, value: Any) -> str:
    body = json.dumps(value, indent=2, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    return f"## {title}\n{body}"


def _object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The Messages API wants an object schema at the top of every tool's input schema."""
    if schema.get("type") == "object":
        return schema
    return {"type": "object", "properties": dict(schema.get("properties", {})), **{k: v for k, v in schema.items() if k not in ("type", "properties")}}
