"""Plan operations of the flow stack: stack sub-flows, replan, abandon.

A plan flow X with sub-flows A, B, C sits below them, all sharing ``plan_id == X.flow_id``:
``[A active, B pending, C pending, X pending]`` (top to bottom). Mixed into ``FlowStack``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .flows import BaseFlow, FlowState, PlanFlow, StackError
from .slots import SlotContext

if TYPE_CHECKING:
    from .stack import FlowStack

REPLAN_ACTIONS = ("continue", "reorder", "expand", "prune")


class PlanOperations:
    def plan(self: FlowStack, plan: BaseFlow, subflows: Sequence[BaseFlow], now: float,
             ctx: SlotContext | None = None) -> list[BaseFlow]:
        """Stack ``subflows`` (first one active, the rest pending) above the plan flow.

        ``plan`` is either a new Plan flow (the active flow gets paused) or the active Plan
        flow deciding on (more) work. The depth limit does not apply: a plan is bounded by itself.
        """
        on_stack = plan in self._flows
        if not isinstance(plan, PlanFlow):
            raise StackError("plan", plan, f"intent {plan.intent!r} is not Plan", "use a flow with intent Plan")
        if on_stack:
            self._require(plan, "plan", FlowState.ACTIVE)
        else:
            self._require_fresh(plan, "plan")
        self._check_subflows("plan", plan, subflows)
        current = None if on_stack else self._check_pausable("plan")
        leaving = [plan] if on_stack else [f for f in (current,) if f is not None]
        self._check_names("plan", [*([] if on_stack else [plan]), *subflows], leaving=leaving)

        if not on_stack:
            self._pause(current, now, f"interrupted by {plan.name}")
            self._flows.append(plan)
        plan.plan_id = plan.flow_id
        if not subflows:
            if plan.state is FlowState.PENDING:
                self._activate(plan, ctx)
            return []
        if plan.state is not FlowState.PENDING:  # a fresh plan already waits below its steps
            plan.move_to(FlowState.PENDING, "plan")
        for sub in reversed(subflows):
            sub.plan_id = plan.flow_id
            self._flows.append(sub)
        self._activate(subflows[0], ctx)
        return list(subflows)

    def _check_subflows(self: FlowStack, op: str, plan: BaseFlow, subflows: Sequence[BaseFlow]) -> None:
        ids = [s.flow_id for s in subflows]
        if len(set(ids)) != len(ids) or plan.flow_id in ids:
            raise StackError(op, plan, "sub-flows must be distinct flows", "create one flow per step")
        for sub in subflows:
            self._require_fresh(sub, op)
            if isinstance(sub, PlanFlow):
                raise StackError(op, sub, "plans do not nest", "add its steps to the outer plan instead")

    def replan(
        self: FlowStack,
        plan_ref: str,
        action: str,
        now: float,
        *,
        order: Sequence[str] = (),
        flows: Sequence[BaseFlow] = (),
        prune: Sequence[str] = (),
        ctx: SlotContext | None = None,
    ) -> list[BaseFlow]:
        """The replanning check after a sub-flow is popped.

        ``continue``: activate the plan's pending flow on top (the plan flow itself once its
        steps are done); ``reorder``: ``order`` lists the pending steps top first;
        ``expand``: stack new steps ``flows`` above the pending ones; ``prune``: invalidate
        the pending steps named in ``prune``.
        """
        op = f"replan {action}"
        plan = self._get(plan_ref, op)
        if not self._is_plan(plan) or not plan.live:
            raise StackError(op, plan, "it is not an open plan", "pass the Plan flow's id")
        handlers: dict[str, Callable[[], list[BaseFlow]]] = {
            "continue": lambda: self._replan_continue(op, plan, ctx),
            "reorder": lambda: self._replan_reorder(op, plan, order),
            "expand": lambda: self._replan_expand(op, plan, flows, now, ctx),
            "prune": lambda: self._replan_prune(op, plan, prune, now),
        }
        if action not in handlers:
            raise StackError(op, plan, "unknown replan action", f"use one of {', '.join(REPLAN_ACTIONS)}")
        return handlers[action]()

    def _replan_continue(self: FlowStack, op: str, plan: BaseFlow, ctx: SlotContext | None) -> list[BaseFlow]:
        if self.active is not None:
            raise StackError(op, self.active, "another flow is active", "complete or pause it first")
        top = self.top
        if top is None or top.state is not FlowState.PENDING or top.plan_id != plan.flow_id:
            raise StackError(op, top or plan, "the top of the stack is not a pending step of this plan",
                             "pop completed flows first")
        self._activate(top, ctx)
        return [top]

    def _pending_steps(self: FlowStack, op: str, plan: BaseFlow, refs: Sequence[str]) -> list[BaseFlow]:
        steps = []
        for ref in refs:
            flow = self.find(ref)
            if flow is None or flow.plan_id != plan.flow_id or flow is plan or flow.state is not FlowState.PENDING:
                raise StackError(op, flow or plan, f"{ref!r} is not a pending step of plan {plan.name!r}")
            steps.append(flow)
        return steps

    def _replan_reorder(self: FlowStack, op: str, plan: BaseFlow, order: Sequence[str]) -> list[BaseFlow]:
        pending = [f for f in self.plan_members(plan.flow_id) if f.state is FlowState.PENDING]
        wanted = self._pending_steps(op, plan, order)
        if len(wanted) != len(pending) or {f.flow_id for f in wanted} != {f.flow_id for f in pending}:
            raise StackError(op, plan, "order must list every pending step exactly once",
                             f"pending steps: {', '.join(f.name for f in pending)}")
        slots = sorted((self._flows.index(f) for f in pending), reverse=True)  # top first
        for index, flow in zip(slots, wanted):
            self._flows[index] = flow
        return wanted

    def _replan_expand(self: FlowStack, op: str, plan: BaseFlow, flows: Sequence[BaseFlow], now: float,
                       ctx: SlotContext | None) -> list[BaseFlow]:
        if plan.state is FlowState.ACTIVE:
            return self.plan(plan, flows, now, ctx)
        if not flows:
            raise StackError(op, plan, "no new steps given", "pass flows=[...]")
        self._check_subflows(op, plan, flows)
        self._check_names(op, flows)
        pending = [f for f in self.plan_members(plan.flow_id) if f.state is FlowState.PENDING]
        anchor = max((self._flows.index(f) for f in pending), default=self._flows.index(plan))
        for flow in flows:
            flow.plan_id = plan.flow_id
        self._flows[anchor + 1:anchor + 1] = list(reversed(flows))
        return list(flows)

    def _replan_prune(self: FlowStack, op: str, plan: BaseFlow, refs: Sequence[str], now: float) -> list[BaseFlow]:
        steps = self._pending_steps(op, plan, refs)
        if len({f.flow_id for f in steps}) != len(steps):
            raise StackError(op, plan, "a step is named twice")
        ended: list[BaseFlow] = []
        for step in steps:
            ended += self._end(step, FlowState.INVALID, now, f"pruned from plan {plan.name}")
        return ended

    def abandon_plan(self: FlowStack, plan_ref: str, now: float, reason: str = "plan abandoned") -> list[BaseFlow]:
        """Invalidate the plan flow and every open sub-flow of it."""
        plan = self._get(plan_ref, "abandon plan")
        if not self._is_plan(plan) or not plan.live:
            raise StackError("abandon plan", plan, "it is not an open plan", "pass the Plan flow's id")
        return self._end(plan, FlowState.INVALID, now, reason)

    def plan_progress(self: FlowStack, plan_id: str) -> tuple[int, int]:
        """(completed steps, all steps) of a plan, counting archived ones."""
        steps = [f for f in (*self.archive, *self._flows) if f.plan_id == plan_id and f.flow_id != plan_id]
        return sum(1 for f in steps if f.state is FlowState.COMPLETED), len(steps)
