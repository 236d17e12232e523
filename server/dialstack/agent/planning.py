"""Plans: decompose a request into sub-flows, the replanning check, the final assessment.

Offline decomposition is zero-shot: split the request into steps ("…, then …"), classify
each step as a flow with System 1, and read its slot values. A domain refines it by
overriding ``PlanPolicy.decompose`` (see ``dialstack.domains.travel.policies.plan``).
"""

from __future__ import annotations

import re
from typing import Any

from ..state.dialogue import PlanStep as Step
from ..state.flows import BaseFlow, FlowState, StackError
from ..state.pending import PlanReview
from . import confirmation
from .outcomes import Execution, Failure, Success, Uncertain
from .policies import Policy
from .turn import Turn

_STEP_SPLIT = re.compile(r"\s*(?:;|,?\s*\band then\b|,?\s*\bthen\b|,?\s*\bafter that\b|,?\s*\bfollowed by\b)\s*", re.IGNORECASE)


class PlanPolicy(Policy):
    """The Plan intent: propose the steps, stack them once the user agrees (the feedback
    phase), check the plan after each step, and assess the outcome at the end."""

    def before_skill(self, turn: Turn, flow: BaseFlow) -> Execution | None:
        return None

    async def after_skill(self, turn: Turn, flow: BaseFlow, outcome: Success | Failure | Uncertain) -> Execution:
        members = [f for f in turn.state.stack.archive if f.plan_id == flow.flow_id and f is not flow]
        if members or flow.outputs.get("planned"):
            return self.assess(turn, flow, members)
        steps = await self.plan_steps(turn, flow, outcome)
        if not steps:
            return Execution("failed", reply=turn.template("escalate", phrase=flow.label, reason="I couldn't split that into steps"))
        if len(steps) == 1 and not flow.outputs.get("unplanned"):
            single = self.as_one_task(turn, flow, steps[0])
            if single is not None:
                return single
        return self.propose(turn, flow, steps)

    @staticmethod
    def as_one_task(turn: Turn, flow: BaseFlow, step: Step) -> Execution | None:
        """'book a trip from LA to New York': a plan of one step is that task, started with its
        values in the plan's place (it asks and confirms as it would on its own)."""
        task = turn.deps.factory.create(step.flow, now=turn.now, natural_birth=flow.natural_birth)
        task.fill_slots_by_label(step.labels, turn.slot_ctx)
        try:
            turn.state.stack.fallback(flow.flow_id, task, turn.now, turn.slot_ctx)
        except StackError:
            return None
        turn.state.plans.pop(flow.flow_id, None)
        turn.state.keep_going = True
        return Execution("fallback")

    def propose(self, turn: Turn, flow: BaseFlow, steps: list[Step]) -> Execution:
        """Show the steps and wait for the user's go-ahead before anything runs."""
        turn.state.plans[flow.flow_id] = steps
        turn.state.pending = PlanReview(plan_id=flow.flow_id)
        lines = [f"{i}. {describe_step(turn, step)}" for i, step in enumerate(steps, start=1)]
        turn.write_scratchpad(flow, f"Proposed plan ({len(steps)} steps): " + "; ".join(lines))
        turn.state.plan_decisions.append({"plan": flow.flow_id, "action": "proposed", "steps": [s.flow for s in steps]})
        unplanned = flow.outputs.pop("unplanned", None)
        if unplanned:
            lines.append(turn.template("plan_cannot", parts="; ".join(f"'{p}'" for p in unplanned)))
        return Execution("asked", reply="Here's the plan:\n" + "\n".join(lines) + "\n" + turn.template("plan_confirm"))

    async def plan_steps(self, turn: Turn, flow: BaseFlow, outcome: Any) -> list[Step]:
        request = str(next((s.value for s in flow.slots.values() if s.type_name == "FreeTextSlot" and s.filled), turn.text))
        proposed = turn.state.proposed_steps.pop(flow.flow_id, None)
        if proposed:
            return self.known_steps(turn, flow, proposed)
        reasoner = turn.deps.reasoner
        if reasoner is not None:
            result = await reasoner.contemplate(turn.deps.interpreter.request(turn, "plan", reason=request))
            steps = self.known_steps(turn, flow, result.sub_flows)
            if steps:
                return steps
            flow.outputs.pop("unplanned", None)  # the offline split below reads the request again
        steps = self.decompose(turn, flow, request)
        if steps:
            said = set(flow.outputs.get("unplanned", []))
            flow.outputs["unplanned"] = [*said, *(p for p in self.uncovered(turn, request, steps) if p not in said)]
        return steps

    @staticmethod
    def uncovered(turn: Turn, request: str, steps: list[Step]) -> list[str]:
        """The parts of ``request`` no step came from: a part is covered when it holds a step's words
        or one of its values, or names a flow the plan runs ('rent a car there' in a trip of flights)."""
        understander = turn.deps.understander
        names = {s.flow for s in steps}
        out = []
        for piece in split_steps(request):
            low = piece.lower()
            marks = [s.text for s in steps] + [str(v) for s in steps for v in s.labels.values() if isinstance(v, (str, int))]
            if any(m and m.lower() in low for m in marks):
                continue
            ranked = understander.rank(piece)
            if ranked and ranked[0][1] >= understander.threshold and (
                    ranked[0][0] in names or turn.deps.domain.flow(ranked[0][0]).intent == "Plan"):
                continue
            out.append(piece)
        return out

    @staticmethod
    def known_steps(turn: Turn, flow: BaseFlow, proposed: list[dict[str, Any]]) -> list[Step]:
        """System 2's steps that name a flow of this domain; the others are kept to be said."""
        steps = []
        for step in proposed:
            if step.get("flow") in turn.deps.domain.flows:
                steps.append(Step(step["flow"], dict(step.get("slots") or {})))
            else:
                flow.outputs.setdefault("unplanned", []).append(str(step.get("text") or step.get("flow") or step))
        return steps

    def decompose(self, turn: Turn, flow: BaseFlow, request: str) -> list[Step]:
        """Split ``request`` into steps and classify each one (zero-shot, from the YAML). A part
        that names no flow the plan can run is kept in ``flow.outputs["unplanned"]``, to be said."""
        understander = turn.deps.understander
        domain = turn.deps.domain
        steps: list[Step] = []
        previous: str | None = None
        for piece in split_steps(request):
            ranked = [(n, s) for n, s in understander.rank(piece)
                      if domain.flow(n).intent not in ("Plan", "Internal", "Converse")]
            best = ranked[0][0] if ranked and ranked[0][1] >= understander.threshold else previous
            if best is None:
                flow.outputs.setdefault("unplanned", []).append(piece)
                continue
            spec = domain.flow(best)
            fresh = {s.name: turn.deps.factory.slots.make(s) for s in spec.slots}
            labels, _ = understander.reader.read(spec, fresh, piece, turn.slot_ctx, None)
            steps.append(Step(best, {k: c.value for k, c in labels.items()}, piece))
            previous = best
        return steps

    def start(self, turn: Turn, flow: BaseFlow) -> Execution:
        """The user agreed: stack the leading steps with distinct flow names and queue the rest
        for later expansion (two open flows never share a name, so a second leg waits)."""
        records = turn.state.plans.get(flow.flow_id, [])
        seen: set[str] = set()
        first = 0
        while first < len(records) and records[first].flow not in seen:
            seen.add(records[first].flow)
            first += 1
        subflows = [self.make_step(turn, records, i) for i in range(first)]
        try:
            turn.state.stack.plan(flow, subflows, turn.now, turn.slot_ctx)
        except StackError as exc:
            return Execution("failed", reply=f"I couldn't set up that plan: {exc}.")
        flow.outputs["planned"] = True
        turn.state.has_plan = True
        turn.state.keep_going = True
        turn.state.plan_decisions.append({"plan": flow.flow_id, "action": "started", "steps": len(records)})
        return Execution("planned", reply=turn.template("plan_started"))

    def make_step(self, turn: Turn, records: list[Step], index: int) -> BaseFlow:
        record = records[index]
        sub = turn.deps.factory.create(record.flow, now=turn.now, natural_birth=False)
        sub.fill_slots_by_label(record.labels, turn.slot_ctx)
        record.flow_id = sub.flow_id
        pass  # EXPERIMENT
        return sub

    def resolve_refs(self, turn: Turn, plan: BaseFlow, flow: BaseFlow) -> None:
        """Fill a step's empty slots from the earlier steps it refers to."""
        records = turn.state.plans.get(plan.flow_id, [])
        record = next((r for r in records if r.flow_id == flow.flow_id), None)
        if record is None:
            return
        stack = turn.state.stack
        for slot, (index, source_slot) in record.refs.items():
            source_id = records[index].flow_id if index < len(records) else None
            source = (stack.find(source_id) or stack.find_archived(source_id)) if source_id else None
            if source is not None and slot in flow.slots and not flow.slots[slot].filled:
                value = source.slots[source_slot].value if source_slot in source.slots else source.outputs.get(source_slot)
                if value is not None:
                    flow.slots[slot].fill(value, turn.slot_ctx, source="plan")

    # -- the replanning check ------------------------------------------------------------
    def replan(self, turn: Turn, plan: BaseFlow) -> str:
        """After a sub-flow was popped: continue, reorder, expand or prune; returns the action."""
        stack = turn.state.stack
        done = [f for f in stack.archive if f.plan_id == plan.flow_id and f is not plan]
        pending = [f for f in stack.top_down() if f.plan_id == plan.flow_id and f is not plan and f.state is FlowState.PENDING]
        action, detail = "continue", ""
        duplicates = [p for p in pending if any(d.state is FlowState.COMPLETED and d.name == p.name and d.slot_values() == p.slot_values() for d in done)]
        last = done[-1] if done else None
        if duplicates:
            action, detail = "prune", ", ".join(p.name for p in duplicates)
            stack.replan(plan.flow_id, "prune", turn.now, prune=[p.flow_id for p in duplicates])
        elif last is not None and last.state in (FlowState.ERROR, FlowState.INVALID) and last.spec.fallback and last.reason.find("fallback") < 0:
            extra = turn.deps.factory.create(last.spec.fallback, now=turn.now, natural_birth=False)
            for name, slot in last.slots.items():
                if slot.filled and name in extra.slots:
                    extra.slots[name].fill(slot.value, turn.slot_ctx, source="fallback")
            action, detail = "expand", extra.name
            stack.replan(plan.flow_id, "expand", turn.now, flows=[extra], ctx=turn.slot_ctx)
        elif not pending and (queued := self.next_queued(turn, plan)) is not None:
            action, detail = "expand", queued.name
            stack.replan(plan.flow_id, "expand", turn.now, flows=[queued], ctx=turn.slot_ctx)
        else:
            order = self.dependency_order(pending)
            if order != [p.flow_id for p in pending]:
                action, detail = "reorder", " > ".join(order)
                stack.replan(plan.flow_id, "reorder", turn.now, order=order)
        top = stack.top
        if stack.active is None and top is not None and top.state is FlowState.PENDING:
            if top is not plan:
                self.resolve_refs(turn, plan, top)
                turn.replies.append(turn.template("plan_next", step=describe(top)))
            stack.replan(plan.flow_id, "continue", turn.now, ctx=turn.slot_ctx)
        decision = {"plan": plan.flow_id, "action": action, "detail": detail, "turn": turn.state.turn}
        turn.state.plan_decisions.append(decision)
        turn.write_scratchpad(plan, f"Replanning check: {action}{': ' + detail if detail else ''}.")
        return action

    def next_queued(self, turn: Turn, plan: BaseFlow) -> BaseFlow | None:
        records = turn.state.plans.get(plan.flow_id, [])
        index = next((i for i, r in enumerate(records) if r.flow_id is None), None)
        return None if index is None else self.make_step(turn, records, index)

    @staticmethod
    def dependency_order(pending: list[BaseFlow]) -> list[str]:
        """Pending steps (top first), moving a step after the steps whose outputs it needs."""
        order = list(pending)
        for flow in list(order):
            needs = set(flow.spec.inputs) - set(flow.inputs)
            providers = [p for p in order if p is not flow and needs & set(p.spec.outputs)]
            for provider in providers:
                if order.index(provider) > order.index(flow):
                    order.remove(provider)
                    order.insert(order.index(flow), provider)
        return [f.flow_id for f in order]

    # -- the final assessment --------------------------------------------------------------
    def assess(self, turn: Turn, plan: BaseFlow, members: list[BaseFlow]) -> Execution:
        completed = [m for m in members if m.state is FlowState.COMPLETED]
        failed = [m for m in members if m.state in (FlowState.ERROR, FlowState.CANCELLED, FlowState.ABANDONED)]
        retry = [m for m in failed if m.state is FlowState.ERROR and m.spec.fallback and not plan.outputs.get(f"retried:{m.flow_id}")]
        if retry:
            extra = []
            for m in retry:
                plan.outputs[f"retried:{m.flow_id}"] = True
                sub = turn.deps.factory.create(m.spec.fallback, now=turn.now, natural_birth=False)
                sub.fill_slots_by_label(m.slot_values(), turn.slot_ctx)
                extra.append(sub)
            turn.state.stack.plan(plan, extra, turn.now, turn.slot_ctx)
            turn.state.keep_going = True
            turn.state.plan_decisions.append({"plan": plan.flow_id, "action": "assess:more_work", "steps": [s.name for s in extra]})
            return Execution("planned", reply="Some steps didn't work out; I'll try another way.")
        plan.outputs["legs"] = [describe(m) for m in completed]
        plan.outputs.pop("planned", None)
        turn.write_scratchpad(plan, f"Plan finished: {len(completed)} of {len(members)} steps completed.")
        turn.state.has_plan = False
        turn.state.keep_going = False
        turn.complete(plan)
        turn.state.plan_decisions.append({"plan": plan.flow_id, "action": "assess:complete"})
        text = f"All done: {len(completed)} of {len(members)} steps completed."
        if failed:
            text += " Not done: " + "; ".join(describe(m) for m in failed) + "."
        return Execution("completed", reply=text)


def split_steps(request: str) -> list[str]:
    """'fly to London, then Paris; after that home' -> its parts, in order."""
    return [p for p in (p.strip(" ,.") for p in _STEP_SPLIT.split(request)) if p]


def describe_step(turn: Turn, step: Step) -> str:
    """'booking a new flight (destination Paris, date Jan 1)': values in their display form."""
    spec = turn.deps.domain.flow(step.flow)
    shown = []
    for name, value in step.labels.items():
        slot_spec = spec.slot(name)
        if slot_spec is None or isinstance(value, dict):
            continue
        check = turn.deps.factory.slots.make(slot_spec).check(value, turn.slot_ctx)
        shown.append(_named(name.replace("_", " "), check.display if check.ok else value))
    return f"{spec.phrase} ({', '.join(shown)})" if shown else spec.phrase


def describe(flow: BaseFlow) -> str:
    filled = ", ".join(_named(s.label, s.display or s.value) for s in flow.slots.values() if s.filled and s.source != "default")
    return f"{flow.label} ({filled})" if filled else flow.label


def _named(label: str, display: object) -> str:
    """'destination Paris'; a value that names its slot already stands alone ('2 passengers', not
    'passengers 2 passengers')."""
    shown = str(display)
    return shown if label.lower().rstrip("s") in shown.lower() else f"{label} {shown}"
