"""PEX, the policy executor: runs the active flow's policy.

A policy is a deterministic skeleton (slot review, skill invocation, result processing,
completion, verification, recovery) around a skill that does the tool work. PEX processes
information but stores nothing: it mutates the dialogue state and the turn it is given.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace
from typing import Any

from ..domain.models import COMPONENT_TOOLS, UNIVERSAL_INTENTS, FlowSpec
from ..state.flows import BaseFlow, FlowState
from ..tools import gate
from . import confirmation
from .nlu import Understanding
from .outcomes import Execution, Failure, SkillInvocation, Success, ToolCallResult, Uncertain
from .render import render, slot_values
from .turn import Turn, grant_key

log = logging.getLogger("dialstack.pex")

SKILL_OVERHEAD_S = 5.0


class PolicyExecutor:
    # -- pre-hook -----------------------------------------------------------------
    def check(self, turn: Turn, flow: BaseFlow | None, *, slots_reviewed: bool = False) -> list[str]:
        """The seven pre-hook checks; each problem is one sentence."""
        problems: list[str] = []
        if flow is None or flow.state is not FlowState.ACTIVE or turn.state.stack.active is not flow:
            return ["there is no active flow on top of the stack"]
        spec = flow.spec
        if turn.deps.policies.get(spec) is None:
            problems.append(f"flow {spec.name!r} has no registered policy")
        if slots_reviewed:
            required = [s.name for s in flow.slots.values() if s.priority == "required" and not s.filled]
            if required:
                problems.append(f"required slots {required} are not filled")
            electives = [s for s in flow.slots.values() if s.priority == "elective"]
            if electives and not any(s.filled for s in electives):
                problems.append(f"none of the elective slots {[s.name for s in electives]} is filled")
        listed = turn.deps.tool_names
        for tool_id in spec.tools:
            if tool_id not in turn.deps.domain.tools or (listed and tool_id not in listed):
                problems.append(f"tool {tool_id!r} is not in the manifest served by the MCP server")
                continue
            if turn.deps.domain.timeout_ms(tool_id) <= 0:
                problems.append(f"tool {tool_id!r} has no timeout")
        return problems

    def approval_needed(self, turn: Turn, spec: FlowSpec) -> list[tuple[str, str]]:
        """Check 7, the trifecta gate, through the shared gate API: (tool, reason) per gated tool."""
        kinds = turn.context_kinds
        out = []
        for tool_id in spec.tools:
            tool = turn.deps.domain.tools.get(tool_id)
            if tool is not None:
                decision = gate.decide(tool, {}, kinds)
                if decision.needs_approval:
                    out.append((tool_id, decision.reason))
        return out

    # -- execute ------------------------------------------------------------------
    async def execute(self, turn: Turn, flow: BaseFlow) -> Execution:
        policy = turn.deps.policies.get(flow.spec)
        problems = self.check(turn, flow)
        if problems:
            turn.state.has_issues = True
            return Execution("blocked", issues=problems)
        # Step 1: slot review
        asked = await self.review_slots(turn, flow)
        if asked is not None:
            return asked
        problems = self.check(turn, flow, slots_reviewed=True)
        if problems:
            turn.state.has_issues = True
            return Execution("blocked", issues=problems)
        for tool, reason in self.approval_needed(turn, flow.spec):  # check 7, enforced per call
            turn.audit.append({"kind": "check", "check": "trifecta_gate", "flow": flow.name, "tool": tool, "reason": reason})
        declined = policy.before_skill(turn, flow)
        if declined is not None:
            return declined
        question = confirmation.ask(turn, flow)  # irreversible tools wait for the user's yes
        if question is not None:
            return Execution("confirm", reply=question)
        # Step 2: skill
        outcome = await self.invoke_skill(turn, flow)
        # Steps 3 and 4
        execution = await policy.after_skill(turn, flow, outcome)
        issues = self.verify(turn, flow)
        if issues:
            turn.state.has_issues = True
            execution.issues.extend(issues)
        return execution

    async def review_slots(self, turn: Turn, flow: BaseFlow) -> Execution | None:
        ctx = turn.slot_ctx
        flow.prefill(ctx)
        if not flow.is_filled() and flow.needs_to_think() and turn.deps.slot_reasoner is not None:
            await flow.afill_slot_values(turn.recent_context(), turn.memory(), turn.deps.slot_reasoner, ctx)
        missing = flow.missing_slots()
        refused = turn.refused.pop(flow.flow_id, None)
        if refused in flow.slots and refused not in missing and flow.slots[refused].source in ("default", ""):
            flow.slots[refused].clear()  # the user's value was refused: ask for it, don't run on a default
            missing = [refused, *missing]
        if not missing:
            turn.state.waiting_for_slot = None
            return None
        name = missing[0]
        turn.state.waiting_for_slot = name
        return Execution("asked", reply=self.prompt_for(flow, name), slot=name)

    def prompt_for(self, flow: BaseFlow, slot_name: str) -> str:
        slot = flow.slots[slot_name]
        return render(slot.prompt or f"What is the {slot.label}?", slot_values(flow.slots))

    async def invoke_skill(self, turn: Turn, flow: BaseFlow) -> Success | Failure | Uncertain:
        spec = flow.spec
        skill = turn.deps.domain.skills.get(spec.skill)
        tools = [t for t in turn.deps.tool_descriptors if t.name in spec.tools or t.name in COMPONENT_TOOLS]
        timeout = sum(turn.deps.domain.timeout_ms(t) for t in spec.tools) / 1000 + SKILL_OVERHEAD_S

        async def call_tool(name: str, args: dict[str, Any]) -> ToolCallResult:
            return await self.call_tool(turn, flow, name, args)

        invocation = SkillInvocation(
            flow=spec,
            skill=skill,
            slots=flow.slot_values(),
            inputs=dict(flow.inputs),
            context={**turn.recent_context(), "preferences": turn.preferences, "flow_id": flow.flow_id},
            tools=tools,
            call_tool=call_tool,
            timeout_s=timeout,
            hints=list(turn.hints.get(flow.flow_id, [])),
        )
        with turn.spinner(f"running {spec.skill}"):
            return await turn.deps.skill_runner.run(invocation)

    async def call_tool(self, turn: Turn, flow: BaseFlow, name: str, args: dict[str, Any]) -> ToolCallResult:
        spec = turn.deps.domain.tools.get(name)
        if spec is not None:
            # Check 7, on the orchestrator's side too: whatever server is at the other end.
            decision = gate.decide(spec, args, turn.context_kinds)
            turn.audit.append({"kind": "gate", "tool": name, "args_digest": gate.args_digest(args),
                               "decision": decision.action, "rule": decision.rule, "reason": decision.reason})
            if decision.needs_approval and not await turn.approve(name, args, decision.reason):
                waiting = turn.deferred_approval is not None  # asked in the reply, not refused
                refused = ToolCallResult(tool=name, arguments=args, ok=False, approval="pending" if waiting else "declined",
                                         text=f"{name} was not run: it needs the user's approval ({decision.reason})")
                turn.record_call(refused)
                return refused
        digest = hashlib.sha256(json.dumps([flow.flow_id, name, args], sort_keys=True, default=str).encode()).hexdigest()[:16]
        key = None if name in COMPONENT_TOOLS or (name in turn.deps.domain.tools and turn.deps.domain.tool(name).idempotent) else f"{flow.flow_id}:{digest}"
        turn.calling = grant_key(name, args)  # a server's approval question about this call is this turn's
        try:
            result = await turn.deps.tools.call(name, args, session=turn.session_id, idempotency_key=key)
        finally:
            turn.calling = None
        if spec is not None and decision.needs_approval and result.approval is None:
            result = replace(result, approval="approved")  # approved here; the server, seeing where the values came from, did not ask
        turn.record_call(result)
        if result.ok and spec is not None:
            turn.add_context_kinds(gate.kinds_added(spec))
        return result

    # -- post-hook ------------------------------------------------------------------
    def verify(self, turn: Turn, flow: BaseFlow) -> list[str]:
        """The five post-hook checks."""
        issues: list[str] = []
        stack = turn.state.stack
        if flow.state is FlowState.ACTIVE and stack.active is not flow:
            issues.append(f"active flow {flow.name!r} is no longer on top of the stack")
        before = turn.slot_snapshot.get(flow.flow_id, {})
        cleared = [n for n, v in before.items() if v is not None and flow.slots.get(n) is not None and not flow.slots[n].filled]
        if cleared and flow.state is FlowState.COMPLETED:
            issues.append(f"slots {cleared} were cleared during execution")
        if flow.state is FlowState.COMPLETED:
            if flow.spec.intent not in UNIVERSAL_INTENTS and turn.frame is not None and not ("data" in turn.frame and "display_type" in turn.frame):
                issues.append("the display frame lacks data or display_type")
            if flow.spec.intent in UNIVERSAL_INTENTS and not turn.scratchpad_written:
                issues.append("the flow wrote nothing to the scratchpad")
        live = [f.name for f in stack.flows if f.state in (FlowState.ACTIVE, FlowState.PENDING)]
        if len(live) != len(set(live)):
            issues.append(f"duplicate active/pending flows: {live}")
        if turn.state.keep_going and not any(f.state is FlowState.PENDING or (f.state is FlowState.ACTIVE and f is not flow) for f in stack.flows):
            turn.state.keep_going = False
            issues.append("keep_going was set with no pending flow to continue with")
        return issues

    # -- flows that never sit on the stack ---------------------------------------------
    async def run_detached(self, turn: Turn, name: str, understanding: Understanding) -> str:
        """Run a digression flow (a question, help) beside the stack and return its answer; its
        free-text slots get what was asked (``understanding.text``: the turn, or a part of it)."""
        flow = turn.deps.factory.create(name, now=turn.now, natural_birth=True)
        flow.move_to(FlowState.ACTIVE, "run outside the stack")
        flow.fill_slots_by_label({k: c.value for k, c in understanding.labels.items()}, turn.slot_ctx)
        for slot in flow.slots.values():
            if not slot.filled and slot.type_name == "FreeTextSlot":
                slot.fill(understanding.text or turn.text, turn.slot_ctx)
        policy = turn.deps.policies.get(flow.spec)
        outcome = await self.invoke_skill(turn, flow)
        if isinstance(outcome, Success):
            flow.outputs.update({k: v for k, v in outcome.data.items() if not k.startswith("_")})
            policy.route_results(turn, flow, outcome)
            text = flow.spec.responses.get("success")
            answer = render(text, turn.values(flow)) if text else str(flow.outputs.get("answer", ""))
            turn.end_outside_stack(flow, FlowState.COMPLETED)
            return answer
        reason = outcome.message if isinstance(outcome, Failure) else outcome.reason
        turn.end_outside_stack(flow, FlowState.ERROR if isinstance(outcome, Failure) else FlowState.INVALID)
        return turn.template("escalate", phrase=flow.label, reason=reason)
