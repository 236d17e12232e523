"""Policies: the deterministic skeleton around each flow's skill, one class per intent.

A domain overrides them per flow in ``dialstack.domains.<domain>.policies.<module>``, one
module per intent (``plan``, ``converse``, ``internal`` and its four domain intents, named
in lower case), each holding ``POLICIES = {"flow_name": PolicyClass}``. A domain without
Python gets these defaults (the Plan intent's is ``planning.PlanPolicy``), so a YAML-only
pack works; ``policy_registry.PolicyRegistry`` finds a flow's policy.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..state.flows import BaseFlow
from .outcomes import Execution, Failure, Success, Uncertain
from .render import render
from .res import frame_summary
from .turn import Turn

FRAME_PAGE = 512  # rows of a table shown in the display frame; the rest is stored under a table_id


class Policy:
    """The default skeleton for the four domain intents: results go to the display frame.

    ``hard_fallbacks`` maps a failure category to a flow to fall back to at once, bypassing
    the recovery escalation (known failure modes with a known better flow).
    """

    hard_fallbacks: ClassVar[dict[str, str]] = {}

    def before_skill(self, turn: Turn, flow: BaseFlow) -> Execution | None:
        """A confirmation slot answered 'no' ends the flow here, without calling any tool."""
        for slot in flow.slots.values():
            if slot.params.get("confirmation") and str(slot.value).lower() in ("no", "false"):
                turn.cancel(flow, "the user declined the confirmation")
                text = flow.spec.responses.get("declined") or turn.template("cancelled", phrase=flow.label)
                return Execution("declined", reply=render(text, turn.values(flow)))
        return None

    async def after_skill(self, turn: Turn, flow: BaseFlow, outcome: Success | Failure | Uncertain) -> Execution:
        if isinstance(outcome, Success):
            return self.on_success(turn, flow, outcome)
        if isinstance(outcome, Failure):
            return self.on_failure(turn, flow, outcome)
        return await turn.recover(flow, outcome)

    # -- success ----------------------------------------------------------------
    def on_success(self, turn: Turn, flow: BaseFlow, outcome: Success) -> Execution:
        flow.outputs.update({k: v for k, v in outcome.data.items() if not k.startswith("_")})
        self.route_results(turn, flow, outcome)
        for entry in outcome.scratchpad_entries:
            turn.write_scratchpad(flow, entry)
        for entry in self.summaries(turn, flow):
            turn.write_scratchpad(flow, entry)
        turn.complete(flow)
        text = flow.spec.responses.get("success")
        if text is None:
            return Execution("completed", reply=frame_summary(turn.frame) or f"Done: {flow.label}.")
        return Execution("completed", reply=render(text, turn.values(flow)))

    def route_results(self, turn: Turn, flow: BaseFlow, outcome: Success) -> None:
        """Step 3 for the domain intents: a display frame (first page, with a table_id)."""
        turn.set_frame(build_frame(flow, outcome, turn.tool_calls))

    def summaries(self, turn: Turn, flow: BaseFlow) -> list[str]:
        """3-5 short reflective snippets for the session scratchpad (Step 4)."""
        lines = [f"{flow.label[:1].upper()}{flow.label[1:]} finished (turn {turn.state.turn})."]
        filled = ", ".join(f"{s.label} {s.display or s.value}" for s in flow.slots.values() if s.filled)
        lines.append(f"It used {filled}." if filled else "It needed no details from the user.")
        tools = [c.tool for c in turn.tool_calls if c.ok and c.tool in flow.spec.tools]
        lines.append(f"It called {', '.join(dict.fromkeys(tools))}." if tools else "It called no domain tool.")
        results = [f"{k}={v}" for k, v in flow.outputs.items() if not isinstance(v, (dict, list))]
        if results:
            lines.append("It found " + ", ".join(results[:4]) + ".")
        if flow.inputs:
            lines.append("It started from " + ", ".join(f"{k}={v}" for k, v in flow.inputs.items()) + " of an earlier flow.")
        return lines[:5]

    # -- failure ------------------------------------------------------------------
    def on_failure(self, turn: Turn, flow: BaseFlow, outcome: Failure) -> Execution:
        category = outcome.error_category
        if category in ("approval_declined", "approval_unsupported"):
            if turn.approval_deferred(flow):
                return Execution("approval", reply=turn.approval_question())
            turn.cancel(flow, f"{category}: {outcome.message}")
            refused = next((c.tool for c in reversed(turn.tool_calls) if c.approval in ("declined", "unsupported", "pending")), flow.label)
            reply = turn.template("approval_declined", tool=refused, phrase=flow.label)
            return Execution("declined", reply=reply)
        if category in self.hard_fallbacks:
            execution = turn.deps.recovery.fallback(turn, flow, self.hard_fallbacks[category])
            if execution is not None:
                execution.reply = f"{outcome.message} {execution.reply}".strip()
                return execution
        if category == "declined":
            turn.cancel(flow, outcome.message)
            text = flow.spec.responses.get("declined") or turn.template("cancelled", phrase=flow.label)
            return Execution("declined", reply=render(text, turn.values(flow)))
        if outcome.partial_data:
            flow.outputs.update({k: v for k, v in outcome.partial_data.items() if k in flow.spec.outputs})
        turn.warn(f"{flow.name}: {category}: {outcome.message}")
        values = {**turn.values(flow), "message": outcome.message, "reason": outcome.message}
        reask = flow.spec.reask.get(category, [])
        if reask:
            for name in reask:
                # ('Sorry, that time is taken'): a day-and-time keeps its day, so '10:30 then' is that day;
                # after any other failure ('we're closed on Saturdays') the day may be the trouble
                if name in flow.slots:
                    flow.slots[name].ask_again(keep_day=category == "taken")
            turn.state.waiting_for_slot = reask[0]
            text = flow.spec.responses.get(category) or f"{outcome.message}."
            return Execution("failed", reply=render(text, values), slot=reask[0])
        text = flow.spec.responses.get(category) or flow.spec.responses.get("failure")
        if text:
            reply = render(text, values)
        else:
            reply = turn.template("escalate", phrase=flow.label, reason=outcome.message)
        turn.offer_retry(flow)
        return Execution("failed", reply=reply)


class ConversePolicy(Policy):
    """Converse flows answer from data or knowledge; results go to the scratchpad."""

    def route_results(self, turn: Turn, flow: BaseFlow, outcome: Success) -> None:
        answer = outcome.data.get("answer") or self.compose(turn, flow)
        flow.outputs.setdefault("answer", answer)
        turn.write_scratchpad(flow, str(answer))

    def on_success(self, turn: Turn, flow: BaseFlow, outcome: Success) -> Execution:
        execution = super().on_success(turn, flow, outcome)
        if not flow.spec.responses.get("success"):
            execution.reply = str(flow.outputs.get("answer", execution.reply))
        return execution

    def compose(self, turn: Turn, flow: BaseFlow) -> str:
        """A flow without tools (help) describes what the assistant can do, from the YAML."""
        lines = []
        for spec in turn.deps.domain.ontology.flows:
            if spec.intent in ("Internal",) or spec.metadata.digression:
                continue
            first = spec.description.strip().split(". ")[0].rstrip(".")
            lines.append(f"- {first}.")
        return "I can help you with:\n" + "\n".join(lines[:12])


class InternalPolicy(Policy):
    """Internal flows write findings to the scratchpad, never to the display frame."""

    def route_results(self, turn: Turn, flow: BaseFlow, outcome: Success) -> None:
        text = self.finding(turn, flow, outcome)
        flow.outputs[flow.spec.outputs[0] if flow.spec.outputs else "finding"] = text
        turn.write_scratchpad(flow, text)

    def finding(self, turn: Turn, flow: BaseFlow, outcome: Success) -> str:
        parts = []
        for key, value in outcome.data.items():
            if key.startswith("_"):
                continue
            if isinstance(value, list):
                shown = [next((str(v) for v in item.values() if isinstance(v, str) and v), "") if isinstance(item, dict) else str(item) for item in value[-3:]]
                examples = "; ".join(s for s in shown if s)
                parts.append(f"{key}: {len(value)} item(s)" + (f" ({examples})" if examples else ""))
            elif isinstance(value, dict):
                parts.append(f"{key}: " + ", ".join(f"{k}={v}" for k, v in list(value.items())[:6]))
            else:
                parts.append(f"{key}: {value}")
        return f"{flow.label}: " + ("; ".join(parts) if parts else "nothing to report")


def build_frame(flow: BaseFlow, outcome: Success, calls: list[Any] | None = None) -> dict[str, Any]:
    """The display frame, from the flow's last tool result: a table when it holds a list of
    records (first page only; the agent stores the rest under a ``table_id``), else a card."""
    last = next((c for c in reversed(calls or []) if c.ok and c.data and c.tool in flow.spec.tools), None)
    source = last.tool if last is not None else (flow.spec.tools[0] if flow.spec.tools else flow.name)
    data = last.data if last is not None else {k: v for k, v in outcome.data.items() if not k.startswith("_")}
    rows: list[Any] = []
    for value in data.values():
        if isinstance(value, list) and len(value) > len(rows) and all(isinstance(r, dict) for r in value):
            rows = value
    if rows:
        return {
            "display_type": "table",
            "display_name": flow.label,
            "source": source,
            "data": rows[:FRAME_PAGE],
            "row_count": len(rows),
            "all_rows": rows,
        }
    return {"display_type": "card", "display_name": flow.label, "source": source, "data": [data], "row_count": 1}
