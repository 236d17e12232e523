"""``recover()``: what to do when a skill is uncertain, in order of escalating severity.

1. retry the skill once (it may benefit from what it wrote to the scratchpad);
2. gather context with Internal flows (run in the background, honouring ``depends_on``),
   then retry with the enriched scratchpad;
3. re-route through ``contemplate``: a fallback flow with best-effort slot mapping, or a
   plan decomposition;
4. escalate to the user.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..state.flows import BaseFlow, FlowState, StackError
from .outcomes import Execution, Failure, Success, Uncertain
from .turn import Turn

log = logging.getLogger("dialstack.recovery")


class Recovery:
    async def recover(self, turn: Turn, flow: BaseFlow, outcome: Uncertain) -> Execution:
        steps = turn.state.recovery.setdefault(flow.flow_id, [])
        policy = turn.deps.policies.get(flow.spec)
        turn.hints.setdefault(flow.flow_id, []).append(f"previous attempt was uncertain: {outcome.reason}")

        if "retry" not in steps:
            steps.append("retry")
            retried = await turn.deps.pex.invoke_skill(turn, flow)
            if not isinstance(retried, Uncertain):
                return await policy.after_skill(turn, flow, retried)
            outcome = retried

        internal = self.context_flows(turn)
        if "gather_context" not in steps and internal:
            steps.append("gather_context")
            await self.run_internal(turn, internal)
            retried = await turn.deps.pex.invoke_skill(turn, flow)
            if not isinstance(retried, Uncertain):
                return await policy.after_skill(turn, flow, retried)
            outcome = retried

        if "reroute" not in steps:
            steps.append("reroute")
            rerouted = await self.reroute(turn, flow, outcome)
            if rerouted is not None:
                return rerouted

        steps.append("escalate")
        turn.state.has_issues = True
        return Execution("uncertain", reply=turn.template("escalate", phrase=flow.label, reason=outcome.reason))

    # -- step 2 -------------------------------------------------------------------------
    def context_flows(self, turn: Turn) -> list[str]:
        """The domain's Internal flows that gather context, with what they depend on."""
        flows = turn.deps.domain.flows
        wanted = [n for n, f in flows.items() if f.intent == "Internal" and "context" in n]
        ordered: list[str] = []

        def visit(name: str) -> None:
            if name in ordered or name not in flows:
                return
            for dep in flows[name].depends_on:
                visit(dep)
            ordered.append(name)

        for name in wanted:
            visit(name)
        return ordered

    async def run_internal(self, turn: Turn, names: list[str]) -> None:
        """Run Internal flows beside the stack: independent ones concurrently, dependents after."""
        flows = turn.deps.domain.flows
        done: set[str] = set()
        remaining = list(names)
        while remaining:
            ready = [n for n in remaining if all(d in done or d not in names for d in flows[n].depends_on)]
            if not ready:
                log.warning("internal flows %s have circular depends_on; running them in order", remaining)
                ready = remaining[:1]
            await asyncio.gather(*(self.run_one_internal(turn, n) for n in ready))
            done.update(ready)
            remaining = [n for n in remaining if n not in ready]

    async def run_one_internal(self, turn: Turn, name: str) -> None:
        flow = turn.deps.factory.create(name, now=turn.now, natural_birth=False)
        flow.move_to(FlowState.ACTIVE, "run outside the stack")
        outcome = await turn.deps.pex.invoke_skill(turn, flow)
        policy = turn.deps.policies.get(flow.spec)
        if isinstance(outcome, Success):
            policy.route_results(turn, flow, outcome)
            turn.end_outside_stack(flow, FlowState.COMPLETED)
        else:
            turn.end_outside_stack(flow, FlowState.ERROR)

    # -- step 3 -------------------------------------------------------------------------
    async def reroute(self, turn: Turn, flow: BaseFlow, outcome: Uncertain | Failure) -> Execution | None:
        target = flow.spec.fallback
        reasoner = turn.deps.reasoner
        if reasoner is not None:
            result = await reasoner.contemplate(turn.deps.interpreter.request(turn, "fallback", failed=flow.name, reason=getattr(outcome, "reason", "")))
            if result.act == "plan" and result.sub_flows:
                planned = self.replace_with_plan(turn, flow, result.sub_flows)
                if planned is not None:
                    return planned
            if result.flow and result.flow in turn.deps.domain.flows and result.flow != flow.name:
                target = result.flow
        if not target:
            return None
        return self.fallback(turn, flow, target)

    def replace_with_plan(self, turn: Turn, flow: BaseFlow, sub_flows: list[dict[str, Any]]) -> Execution | None:
        """Re-route to the domain's Plan flow, with the steps ``contemplate`` proposed."""
        plan_name = next((n for n, f in turn.deps.domain.flows.items() if f.intent == "Plan"), None)
        if plan_name is None:
            return None
        execution = self.fallback(turn, flow, plan_name)
        if execution is not None and turn.state.active is not None:
            turn.state.proposed_steps[turn.state.active.flow_id] = sub_flows
        return execution

    def fallback(self, turn: Turn, flow: BaseFlow, target: str) -> Execution | None:
        new_flow = turn.deps.factory.create(target, now=turn.now, natural_birth=False)
        try:
            turn.state.stack.fallback(flow.flow_id, new_flow, turn.now, turn.slot_ctx)
        except StackError as exc:
            log.info("fallback from %s to %s refused: %s", flow.name, target, exc)
            return None
        turn._note([flow])
        turn.state.keep_going = True
        return Execution("fallback", reply=f"Let me try {new_flow.label} instead.")
