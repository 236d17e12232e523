"""The offline backend: runs a flow's declared ``steps`` (no model, no network, no key).

Each step calls one tool with arguments resolved from the flow's slots, inputs, earlier
step outputs and user preferences, and maps fields of the result to outputs. The run ends
in exactly one outcome, as a skill run by Claude would.
"""

from __future__ import annotations

import re
from typing import Any

from ...domain.models import STEP_REFERENCE, StepSpec
from ..outcomes import Failure, SkillInvocation, Success, ToolCallResult, Uncertain

_CATEGORY = re.compile(r"^\s*\[?([a-z][a-z_]{2,40})\]?\s*[:\]]\s*(.+)$", re.DOTALL)
_MISSING = object()
TIMEOUT_MESSAGE = "it took too long to answer. It may still finish on its own, so please check before trying again"


class OfflineSkillRunner:
    """A :class:`~dialstack.agent.llm.base.SkillRunner` that follows the flow's tool plan."""

    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain:
        flow = invocation.flow
        outputs: dict[str, Any] = {}
        for index, step in enumerate(flow.steps):
            if step.when is not None and not _truthy(self._resolve(step.when, invocation, outputs)):
                return Failure(error_category="declined", message=f"{step.when} is not set, so {step.call} did not run", partial_data=outputs or None)
            args = self._arguments(step, invocation, outputs)
            missing = _missing_required(invocation, step.call, args)
            if missing:
                return Uncertain(
                    reason=f"{step.call} needs {', '.join(missing)}, which no slot, input or earlier step provides",
                    context={"tool": step.call, "missing": missing, "step": index},
                )
            result = await invocation.call_tool(step.call, args)
            invocation.calls.append(result)
            if not result.ok:
                return _failure(result, outputs)
            data = result.data or {}
            for name, path in step.map_outputs.items():
                value = _lookup(data, path)
                if value is _MISSING:
                    return Failure(
                        error_category="no_results",
                        message=f"{step.call} returned no {path}",
                        partial_data={**outputs, "step": index},
                    )
                outputs[name] = value
            for key, value in data.items():
                outputs.setdefault(f"{step.call}.{key}", value)
        data = {k: v for k, v in outputs.items() if "." not in k}
        for name in flow.outputs:
            if name not in data:
                value = invocation.slots.get(name, invocation.inputs.get(name))
                if value is not None:
                    data[name] = value
        tool_data = {k: v for k, v in outputs.items() if "." in k}
        return Success(data={**data, "_tool_results": tool_data} if tool_data else data, scratchpad_entries=[])

    def _arguments(self, step: StepSpec, inv: SkillInvocation, outputs: dict[str, Any]) -> dict[str, Any]:
        args: dict[str, Any] = {}
        for key, raw in step.args.items():
            value = self._resolve(raw, inv, outputs)
            if value is not None:  # absent optional values are left out, not sent as null
                args[key] = value
        return args

    def _resolve(self, raw: Any, inv: SkillInvocation, outputs: dict[str, Any]) -> Any:
        if isinstance(raw, dict):
            return {k: v for k, v in ((k, self._resolve(v, inv, outputs)) for k, v in raw.items()) if v is not None}
        if not isinstance(raw, str):
            return raw
        match = STEP_REFERENCE.match(raw)
        if not match:
            return raw
        kind, name = match.groups()
        source = {
            "slots": inv.slots,
            "outputs": outputs,
            "inputs": inv.inputs,
            "prefs": inv.context.get("preferences", {}),
            "flow": {"name": inv.flow.name, "flow_id": inv.context.get("flow_id")},
        }[kind]
        return source.get(name)


def _missing_required(invocation: SkillInvocation, tool: str, args: dict[str, Any]) -> list[str]:
    schema = next((t.input_schema for t in invocation.tools if t.name == tool), None) or {}
    return [name for name in schema.get("required", []) if name not in args]


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("yes", "true", "y", "1", "confirm", "confirmed")
    return bool(value)


def _lookup(data: Any, path: str) -> Any:
    current = data
    for part in path.split("."):
        if isinstance(current, list) and part.isdigit():
            index = int(part)
            if index >= len(current):
                return _MISSING
            current = current[index]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        else:
            return _MISSING
    return current


def _failure(result: ToolCallResult, outputs: dict[str, Any]) -> Failure:
    if result.approval in ("declined", "unsupported", "pending"):
        kind = "declined" if result.approval == "pending" else result.approval
        return Failure(error_category=f"approval_{kind}", message=result.text or f"{result.tool} was not approved", partial_data=outputs or None)
    category, message = error_category(result.text, result.tool)
    if result.category:
        category = result.category
    if category == "timeout":  # the server's text is for developers (worker threads, idempotency keys)
        message = TIMEOUT_MESSAGE
    return Failure(error_category=category, message=message, partial_data=outputs or None)


# For errors from servers that send no category: phrases any tool may use. A pack's own
# categories (sold_out, ...) come from its handlers' errors, structured on the wire.
_KEYWORDS = (
    ("not_found", ("not found", "unknown reference", "doesn't exist", "does not exist", "no such")),
    ("past_date", ("in the past", "past date")),
    ("already_cancelled", ("already cancelled", "already canceled")),
    ("timeout", ("timeout", "did not finish")),
    ("invalid_arguments", ("does not match", "is not valid", "unknown argument", "expected")),
)


def error_category(text: str, tool: str = "") -> tuple[str, str]:
    """Split a tool error into (category, message).

    ``'get_booking: not_found: No booking BK-1'`` -> ``('not_found', 'No booking BK-1')``;
    without an explicit category, well-known phrases name one.
    """
    body = text.strip()
    if tool and body.startswith(f"{tool}:"):
        body = body[len(tool) + 1 :].strip()
    match = _CATEGORY.match(body)
    if match and " " not in match.group(1):
        return match.group(1), match.group(2).strip()
    lowered = body.lower()
    for category, phrases in _KEYWORDS:
        if any(p in lowered for p in phrases):
            return category, body
    return "tool_error", body or "the tool failed"
