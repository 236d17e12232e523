"""The flow stack: push, complete, pop, cancel, resume, fallback, limits, expiry, ranking, carrying outputs."""

from __future__ import annotations

import pytest

from dialstack.state import FlowFactory, FlowStack, FlowState, SlotContext, StackError, StackFullError

from .conftest import travel_ontology


def names(stack: FlowStack) -> list[tuple[str, str]]:
    """Top to bottom."""
    return [(f.name, f.state.value) for f in stack.top_down()]


def test_push_activates_the_new_flow_and_pauses_the_current(stack: FlowStack, factory: FlowFactory) -> None:
    book = stack.push(factory.create("book_flight", now=0), now=1).flow
    pushed = stack.push(factory.create("check_booking", now=2), now=2)
    assert pushed.paused is book
    assert names(stack) == [("check_booking", "active"), ("book_flight", "paused")]
    assert book.paused_at == 2 and book.reason == "interrupted by check_booking"


def test_push_refuses_to_pause_a_flow_that_cannot_be_paused(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("faq", now=0), now=0)
    with pytest.raises(StackError, match=r"cannot push flow 'faq' \(f1, active\): it cannot be paused"):
        stack.push(factory.create("book_flight", now=1), now=1)
    assert names(stack) == [("faq", "active")]


def test_push_refuses_a_second_active_flow_of_the_same_name(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    with pytest.raises(StackError, match="already on the stack") as info:
        stack.push(factory.create("book_flight", now=1), now=1)
    assert info.value.op == "push" and info.value.flow_name == "book_flight"
    assert info.value.state is FlowState.ACTIVE


def test_push_allows_a_new_flow_with_the_name_of_a_paused_one(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.push(factory.create("book_flight", now=2), now=2)
    assert [n for n, _ in names(stack)] == ["book_flight", "check_booking", "book_flight"]


def test_push_refuses_a_flow_that_is_not_new(stack: FlowStack, factory: FlowFactory) -> None:
    flow = stack.push(factory.create("book_flight", now=0), now=0).flow
    with pytest.raises(StackError, match="only a new pending flow"):
        stack.push(flow, now=1)


def test_complete_keeps_the_flow_until_pop_completed(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    done = stack.complete(now=2, outputs={"booking_ref": "BK-12345"})
    assert done.state is FlowState.COMPLETED and done.ended_at == 2
    assert names(stack)[0] == ("check_booking", "completed")
    assert stack.pop_completed(now=3) == [done]
    assert names(stack) == [("book_flight", "paused")]
    assert stack.archive == [done]


def test_complete_needs_an_active_flow(stack: FlowStack, factory: FlowFactory) -> None:
    with pytest.raises(StackError, match="cannot complete the stack: no active flow"):
        stack.complete(now=0)


def test_pop_completed_returns_every_completed_flow(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("check_booking", now=0), now=0)
    stack.complete(now=1)
    stack.push(factory.create("list_bookings", now=1), now=1)
    stack.complete(now=2)
    assert [f.name for f in stack.pop_completed(now=3)] == ["list_bookings", "check_booking"]
    assert len(stack) == 0


def test_cancel_a_named_paused_flow_archives_it(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    [cancelled] = stack.cancel("book_flight", now=2)
    assert cancelled.state is FlowState.CANCELLED and cancelled in stack.archive
    assert names(stack) == [("check_booking", "active")]


def test_cancel_a_terminal_flow_is_an_error(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("check_booking", now=0), now=0)
    stack.complete(now=1)
    with pytest.raises(StackError, match=r"cannot cancel flow 'check_booking' \(f1, completed\): it must be"):
        stack.cancel("f1", now=2)


def test_cancel_an_unknown_flow_names_the_open_ones(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    with pytest.raises(StackError, match="no flow 'faq' on the stack; open flows: book_flight"):
        stack.cancel("faq", now=1)


def test_resume_moves_paused_flow_to_top(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.push(factory.create("modify_booking", now=2), now=2)
    stack.resume("book_flight", now=3)
    assert names(stack) == [("book_flight", "active"), ("modify_booking", "paused"), ("check_booking", "paused")]


def test_resume_loses_nothing(stack: FlowStack, factory: FlowFactory, ctx: SlotContext) -> None:
    book = stack.push(factory.create("book_flight", now=0), now=0).flow
    book.fill_slots_by_label({"origin": "Boston"}, ctx)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.resume(book.flow_id, now=2)
    assert book.slots["origin"].value == "Boston" and len(stack) == 2


def test_resume_of_an_active_flow_is_an_error(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    with pytest.raises(StackError, match="it must be paused"):
        stack.resume("book_flight", now=1)


def test_fallback_maps_slots_by_name_and_invalidates_the_old_flow(
    stack: FlowStack, factory: FlowFactory, ctx: SlotContext
) -> None:
    old = stack.push(factory.create("book_flight", now=0), now=0).flow
    old.fill_slots_by_label({"origin": "Boston", "seat": "aisle"}, ctx)
    old.record_turn(3)
    new = stack.fallback(None, factory.create("search_flights", now=1), now=1, ctx=ctx)
    assert new.state is FlowState.ACTIVE and stack.top is new
    assert new.slots["origin"].value == "Boston" and new.slots["origin"].source == "fallback"
    assert "seat" not in new.slots
    assert new.turn_ids == [3] and new.reason == "fallback from book_flight"
    assert old.state is FlowState.INVALID and old in stack.archive


def test_depth_limit_cancel_oldest_cancels_the_oldest_paused_flow(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(max_stack_depth=2).settings)
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    pushed = stack.push(factory.create("modify_booking", now=2), now=2)
    assert [f.name for f in pushed.cancelled] == ["book_flight"]
    assert names(stack) == [("modify_booking", "active"), ("check_booking", "paused")]
    assert stack.archive[0].state is FlowState.CANCELLED


def test_depth_limit_reject_new_raises_and_changes_nothing(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(max_stack_depth=2, on_limit_reached="reject_new").settings)
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    before = stack.serialize()
    with pytest.raises(StackFullError) as info:
        stack.push(factory.create("modify_booking", now=2), now=2)
    assert info.value.strategy == "reject_new" and info.value.limit == 2
    assert stack.serialize() == before


def test_depth_limit_ask_user_offers_the_paused_flows(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(max_stack_depth=2, on_limit_reached="ask_user").settings)
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    with pytest.raises(StackFullError) as info:
        stack.push(factory.create("modify_booking", now=2), now=2)
    assert info.value.strategy == "ask_user"
    assert [f.name for f in info.value.options] == ["book_flight"]
    assert info.value.new_flow.name == "modify_booking"


def test_abandon_stale_uses_max_pause_duration_then_abandon_timeout(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(abandon_timeout=100).settings)
    stack.push(factory.create("check_booking", now=0), now=0)  # timeout 100
    stack.push(factory.create("book_flight", now=0), now=0)  # max_pause_duration 3600
    stack.push(factory.create("list_bookings", now=10), now=10)
    assert stack.abandon_stale(now=100) == []
    [gone] = stack.abandon_stale(now=101)
    assert gone.name == "check_booking" and gone.state is FlowState.ABANDONED
    assert [f.name for f in stack.abandon_stale(now=3611)] == ["book_flight"]


def test_rank_paused_is_ambiguous_for_go_back_to_booking(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=60), now=60)
    stack.push(factory.create("list_bookings", now=120), now=120)
    ranking = stack.rank_paused("go back to booking", now=180)
    assert ranking.ambiguous and ranking.best is None
    assert {f.name for f in ranking.options(2.0)} == {"book_flight", "check_booking"}


def test_rank_paused_picks_the_flow_the_words_name(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=60), now=60)
    stack.push(factory.create("list_bookings", now=120), now=120)
    ranking = stack.rank_paused("let's go back to booking the flight", now=180)
    assert not ranking.ambiguous and ranking.best is not None and ranking.best.name == "book_flight"


def test_rank_paused_prefers_recent_flows_when_words_tie(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("search_flights", now=0), now=0)
    stack.push(factory.create("travel_advisory", now=0), now=0)
    stack.push(factory.create("list_bookings", now=0), now=0)
    ranking = stack.rank_paused("go back", now=0)
    assert ranking.ranked[0][0].name == "travel_advisory"


def test_completed_outputs_become_inputs_and_fill_empty_slots(
    stack: FlowStack, factory: FlowFactory, ctx: SlotContext
) -> None:
    stack.push(factory.create("check_booking", now=0), now=0)
    stack.complete(now=1, outputs={"booking_ref": "BK-12345", "booking_status": "confirmed"})
    stack.pop_completed(now=1)
    modify = stack.push(factory.create("modify_booking", now=2), now=2, ctx=ctx).flow
    assert modify.inputs == {"booking_ref": "BK-12345"}
    assert modify.slots["booking_ref"].value == "BK-12345" and modify.slots["booking_ref"].source == "input"


def test_newest_completed_output_wins(stack: FlowStack, factory: FlowFactory) -> None:
    for ref, t in (("BK-11111", 1), ("BK-22222", 2)):
        stack.push(factory.create("check_booking", now=t), now=t)
        stack.complete(now=t, outputs={"booking_ref": ref})
        stack.pop_completed(now=t)
    assert stack.push(factory.create("cancel_booking", now=3), now=3).flow.inputs == {"booking_ref": "BK-22222"}


def test_stack_round_trips_through_serialize(stack: FlowStack, factory: FlowFactory, ctx: SlotContext) -> None:
    stack.push(factory.create("book_flight", now=0), now=0).flow.fill_slots_by_label({"origin": "NYC"}, ctx)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.cancel(now=2)
    data = stack.serialize()
    assert FlowStack.from_dict(data, factory).serialize() == data


# -- queued parts of a multi-part request ---------------------------------------------------------
def test_a_queued_flow_waits_below_the_first_part_and_starts_once_it_has_ended(stack: FlowStack, factory: FlowFactory) -> None:
    reminder = stack.queue(factory.create("checkin_reminder", now=0))
    stack.push(factory.create("check_booking", now=0), now=0)
    assert names(stack) == [("check_booking", "active"), ("checkin_reminder", "pending")] and stack.queued is None
    stack.complete(now=1, outputs={"booking_ref": "BK-20481"})
    stack.pop_completed(1)
    assert stack.queued is reminder
    assert stack.start_queued() is reminder and names(stack) == [("checkin_reminder", "active")]
    assert reminder.inputs == {"booking_ref": "BK-20481"}  # what the part before it found


def test_queueing_while_a_flow_is_active_is_refused_and_changes_nothing(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    with pytest.raises(StackError, match="a flow is active"):
        stack.queue(factory.create("checkin_reminder", now=0))
    assert names(stack) == [("book_flight", "active")]


def test_a_full_stack_refuses_a_queued_part_without_cancelling_anything(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(max_stack_depth=2).settings)
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.complete(now=2)
    stack.pop_completed(2)
    stack.queue(factory.create("checkin_reminder", now=2))
    with pytest.raises(StackError, match="holds 2 open flows"):
        stack.queue(factory.create("price_alert", now=2))
    assert names(stack) == [("checkin_reminder", "pending"), ("book_flight", "paused")]


def test_starting_a_queued_flow_with_none_waiting_is_refused(stack: FlowStack, factory: FlowFactory) -> None:
    stack.push(factory.create("book_flight", now=0), now=0)
    with pytest.raises(StackError, match="no queued flow"):
        stack.start_queued()


def test_a_part_never_started_makes_room_before_a_task_the_user_began(factory: FlowFactory) -> None:
    stack = FlowStack(travel_ontology(max_stack_depth=2, on_limit_reached="cancel_oldest").settings)
    stack.push(factory.create("book_flight", now=0), now=0)
    stack.push(factory.create("check_booking", now=1), now=1)
    stack.complete(now=2)
    stack.pop_completed(2)
    stack.queue(factory.create("price_alert", now=2))
    pushed = stack.push(factory.create("list_bookings", now=3), now=3)
    assert [f.name for f in pushed.cancelled] == ["price_alert"]
    assert names(stack) == [("list_bookings", "active"), ("book_flight", "paused")]
