"""Plans on the stack: sub-flows above the plan flow, replanning, abandonment."""

from __future__ import annotations

import pytest

from dialstack.state import BaseFlow, FlowFactory, FlowStack, FlowState, StackError


def view(stack: FlowStack) -> list[tuple[str, str]]:
    return [(f.flow_id, f.state.value) for f in stack.top_down()]


def make_plan(stack: FlowStack, factory: FlowFactory) -> tuple[BaseFlow, list[BaseFlow]]:
    plan = factory.create("plan_trip", now=0)  # f1
    steps = [factory.create(n, now=0) for n in ("book_flight", "checkin_reminder", "send_itinerary")]  # f2..f4
    stack.plan(plan, steps, now=1)
    return plan, steps


def test_plan_stacks_sub_flows_above_the_plan_flow(stack: FlowStack, factory: FlowFactory) -> None:
    plan, steps = make_plan(stack, factory)
    assert view(stack) == [("f2", "active"), ("f3", "pending"), ("f4", "pending"), ("f1", "pending")]
    assert {s.plan_id for s in steps} == {plan.flow_id} == {plan.plan_id}


def test_plan_pauses_the_active_flow(stack: FlowStack, factory: FlowFactory) -> None:
    before = stack.push(factory.create("list_bookings", now=0), now=0).flow
    make_plan(stack, factory)
    assert before.state is FlowState.PAUSED and stack.flows[0] is before


def test_active_plan_flow_can_stack_its_own_steps(stack: FlowStack, factory: FlowFactory) -> None:
    plan = stack.push(factory.create("plan_trip", now=0), now=0).flow
    [step] = stack.plan(plan, [factory.create("book_flight", now=1)], now=1)
    assert view(stack) == [(step.flow_id, "active"), (plan.flow_id, "pending")]


def test_only_plan_flows_can_plan(stack: FlowStack, factory: FlowFactory) -> None:
    with pytest.raises(StackError, match="intent 'Booking' is not Plan"):
        stack.plan(factory.create("book_flight", now=0), [factory.create("faq", now=0)], now=0)


def test_plan_steps_must_not_repeat_a_name(stack: FlowStack, factory: FlowFactory) -> None:
    steps = [factory.create("book_flight", now=0), factory.create("book_flight", now=0)]
    with pytest.raises(StackError, match="already on the stack"):
        stack.plan(factory.create("plan_trip", now=0), steps, now=0)
    assert len(stack) == 0


def test_replan_continue_activates_the_next_step(stack: FlowStack, factory: FlowFactory) -> None:
    plan, steps = make_plan(stack, factory)
    stack.complete(now=2)
    stack.pop_completed(now=2)
    [next_step] = stack.replan(plan.flow_id, "continue", now=3)
    assert next_step is steps[1] and next_step.state is FlowState.ACTIVE
    assert stack.plan_progress(plan.flow_id) == (1, 3)


def test_replan_continue_finally_activates_the_plan_flow(stack: FlowStack, factory: FlowFactory) -> None:
    plan, steps = make_plan(stack, factory)
    for _ in steps:
        stack.complete(now=2)
        stack.pop_completed(now=2)
        stack.replan(plan.flow_id, "continue", now=2)
    assert stack.active is plan and len(stack) == 1


def test_replan_continue_while_a_step_is_active_is_an_error(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    with pytest.raises(StackError, match="another flow is active"):
        stack.replan(plan.flow_id, "continue", now=2)


def test_replan_reorder_swaps_pending_steps(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    stack.replan(plan.flow_id, "reorder", now=2, order=["send_itinerary", "checkin_reminder"])
    assert view(stack) == [("f2", "active"), ("f4", "pending"), ("f3", "pending"), ("f1", "pending")]


def test_replan_reorder_must_list_every_pending_step(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    with pytest.raises(StackError, match="every pending step exactly once"):
        stack.replan(plan.flow_id, "reorder", now=2, order=["send_itinerary"])


def test_replan_expand_adds_a_step_above_the_pending_ones(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    [extra] = stack.replan(plan.flow_id, "expand", now=2, flows=[factory.create("price_alert", now=2)])
    assert view(stack) == [("f2", "active"), (extra.flow_id, "pending"), ("f3", "pending"), ("f4", "pending"),
                           ("f1", "pending")]
    assert extra.plan_id == plan.flow_id


def test_replan_expand_from_the_active_plan_flow_stacks_new_steps(stack: FlowStack, factory: FlowFactory) -> None:
    plan = stack.push(factory.create("plan_trip", now=0), now=0).flow
    [step] = stack.replan(plan.flow_id, "expand", now=1, flows=[factory.create("book_flight", now=1)])
    assert stack.active is step and plan.state is FlowState.PENDING


def test_replan_prune_invalidates_a_pending_step(stack: FlowStack, factory: FlowFactory) -> None:
    plan, steps = make_plan(stack, factory)
    [pruned] = stack.replan(plan.flow_id, "prune", now=2, prune=["checkin_reminder"])
    assert pruned is steps[1] and pruned.state is FlowState.INVALID and pruned in stack.archive
    assert view(stack) == [("f2", "active"), ("f4", "pending"), ("f1", "pending")]


def test_replan_prune_of_the_active_step_is_an_error(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    with pytest.raises(StackError, match="is not a pending step"):
        stack.replan(plan.flow_id, "prune", now=2, prune=["book_flight"])


def test_unknown_replan_action_is_an_error(stack: FlowStack, factory: FlowFactory) -> None:
    plan, _ = make_plan(stack, factory)
    with pytest.raises(StackError, match="use one of continue, reorder, expand, prune"):
        stack.replan(plan.flow_id, "shuffle", now=2)


def test_abandoning_a_plan_invalidates_its_sub_flows(stack: FlowStack, factory: FlowFactory) -> None:
    outside = stack.push(factory.create("list_bookings", now=0), now=0).flow
    plan, steps = make_plan(stack, factory)
    ended = stack.abandon_plan(plan.flow_id, now=2)
    assert {f.flow_id for f in ended} == {plan.flow_id, *(s.flow_id for s in steps)}
    assert all(f.state is FlowState.INVALID for f in ended)
    assert list(stack.flows) == [outside]


def test_cancelling_a_plan_flow_takes_its_steps_along(stack: FlowStack, factory: FlowFactory) -> None:
    plan, steps = make_plan(stack, factory)
    stack.cancel(plan.flow_id, now=2)
    assert plan.state is FlowState.CANCELLED
    assert all(s.state is FlowState.INVALID for s in steps) and len(stack) == 0


def test_resuming_a_paused_plan_brings_its_new_steps_along_above_it(stack: FlowStack, factory: FlowFactory) -> None:
    """Found by the state machine: a paused plan, expanded, then resumed, sat above its step."""
    plan = stack.push(factory.create("plan_trip", now=0), now=0).flow
    stack.plan(plan, [], now=0)
    stack.push(factory.create("list_bookings", now=1), now=1)
    [step] = stack.replan(plan.flow_id, "expand", now=2, flows=[factory.create("book_flight", now=2)])
    resumed = stack.resume(plan.flow_id, now=3)
    assert resumed is step
    assert [f.name for f in stack.top_down()] == ["book_flight", "plan_trip", "list_bookings"]
    assert (step.state, plan.state) == (FlowState.ACTIVE, FlowState.PENDING)
