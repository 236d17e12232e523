"""Everyday readings fixed from the forty-first and forty-second fresh sets: words texted without
their vowels, a wish stated before a request, a stop before going back to a paused task, a count
repaired with its reason after it, and 'the same for friday' keeping the time of the task before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx
from dialstack.agent.slot_reading import count_repairs
from dialstack.state.slot_values import LevelSlot

from .nlu_support import CTX, NLU, talking

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"


def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


def tools_of(result: object) -> list[str]:
    return [c["tool"] for c in result.tool_calls]  # type: ignore[attr-defined]


# -- words texted without their vowels ---------------------------------------------------------------
@pytest.mark.parametrize(("typed", "meant"), [("chk", "check"), ("bkng", "book"), ("cncl", "cancel"), ("flght", "flight")])
def test_a_word_texted_without_its_vowels_is_read_as_the_pack_word_it_shortens(typed: str, meant: str) -> None:
    assert NLU.scorer.mend(typed) == lx.stem(meant)


def test_a_texted_check_of_a_booking_checks_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "cn u chk my bkng BK-12345 thx")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == []


def test_a_texted_cancellation_asks_before_it_cancels() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "pls cncl bk-20481")
        assert stack_of(agent) == [("cancel_booking", "active")] and tools_of(result) == []


def test_a_typo_mended_into_a_function_word_asks_for_no_task() -> None:
    # 'wnt' is 'want', which names no task: the booking its other words ask for is what starts
    assert "want" not in NLU.scorer.stems("hi i wnt to bok a flght frm nyc to la on dec 15 plz")
    with talking("travel") as agent:
        result = agent.handle("s", "hi i wnt to bok a flght frm nyc to la on dec 15 plz")
        assert stack_of(agent) == [("book_flight", "active")] and tools_of(result) == []


@given(st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=3, max_size=8))
def test_a_vowelless_word_is_mended_to_one_word_with_the_same_first_and_last_letter_or_kept(typed: str) -> None:
    mended = NLU.scorer.mend(typed)
    assert mended == typed or mended[0] == typed[0]


# -- a wish stated, then a request -------------------------------------------------------------------
def test_a_preference_stated_before_a_request_is_saved_and_the_request_done_after() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "i prefer window seats, and can you list my bookings")
        assert tools_of(result) == ["save_preferences", "list_bookings"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["i prefer window seats", "we'd rather fly in the morning", "my usual preference is aisle",
                                  "i'd like a flight to rome"])
def test_a_wish_is_stated_in_several_ways(text: str) -> None:
    assert lx.STATES_A_WISH.match(text)


@pytest.mark.parametrize("text", ["can you list my bookings", "what do you prefer", "is a window seat better"])
def test_a_request_or_a_question_is_no_wish_stated(text: str) -> None:
    assert not lx.STATES_A_WISH.match(text)


def test_a_request_with_a_detail_after_and_is_one_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i need a flight from boston to miami on the 10th and can you make it a window seat")
        flow = agent.load("s").stack.flows[0]
        assert [f.name for f in agent.load("s").stack.flows] == ["book_flight"] and flow.slots["seat"].value == "window"


# -- stopping the task in progress to go back to a paused one ---------------------------------------
def test_never_mind_that_then_going_back_drops_the_task_in_progress_and_resumes_the_one_named() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from chicago to miami")
        agent.handle("s", "actually i want to change my booking BK-12345 first")
        result = agent.handle("s", "never mind that, lets go back to booking the flight")
        assert stack_of(agent) == [("book_flight", "active")]
        assert "modify_booking" in result.transitions.get("cancelled", [])


def test_scrapping_a_paused_task_by_name_still_cancels_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from chicago to miami")
        agent.handle("s", "actually i want to change my booking BK-12345 first")
        agent.handle("s", "scrap the new flight booking")
        assert stack_of(agent) == [("modify_booking", "active")]


@pytest.mark.parametrize("text", ["never mind that, lets go back", "nvm it. back to the booking", "never mind this - carry on"])
def test_never_mind_with_its_object_opens_a_turn_that_says_more(text: str) -> None:
    assert lx.CANCEL_LEAD.match(text)


# -- a count repaired, with its reason after it -----------------------------------------------------
def test_make_that_three_with_a_reason_after_it_repairs_the_count_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight for me n my wife from seattle to denver")
        agent.handle("s", "this friday")
        result = agent.handle("s", "actually make that 3, my son is coming too")
        flow = agent.load("s").stack.flows[0]
        assert flow.slots["passengers"].value == 3 and tools_of(result) == [] and "shall I go ahead" in result.reply


@pytest.mark.parametrize(("text", "n"), [("make that 3", 3), ("make it 4 because my sister is coming", 4),
                                         ("i meant two, as my son stays home", 2)])
def test_a_count_repair_may_give_its_reason(text: str, n: int) -> None:
    seats = LevelSlot("seats", params={"min": 1, "max": 9, "integer": True})
    seats.fill(2, CTX, source="user")
    assert count_repairs({"seats": seats}, text)["seats"].value == n


@pytest.mark.parametrize("text", ["make that 3, 2 adults and 1 child", "make it 3, on the 12th"])
def test_a_reason_with_a_number_of_its_own_is_no_count_repair(text: str) -> None:
    seats = LevelSlot("seats", params={"min": 1, "max": 9, "integer": True})
    seats.fill(2, CTX, source="user")
    assert count_repairs({"seats": seats}, text) == {}


# -- the same again for another day keeps the time --------------------------------------------------
def test_the_same_for_friday_after_a_booking_keeps_its_time_and_reads_it_back() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "book a nurse appointment in person thursday at 2pm for Jo Bloggs")
        agent.handle("s", "yes")
        result = agent.handle("s", "can you do the same for friday")
        flow = agent.load("s").stack.flows[0]
        assert flow.slots["when"].value == "2026-12-04T14:00" and "shall I go ahead" in result.reply
        assert tools_of(result) == []


def test_the_same_for_friday_at_another_time_takes_the_time_said() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "book a nurse appointment in person thursday at 2pm for Jo Bloggs")
        agent.handle("s", "yes")
        agent.handle("s", "can you do the same for friday at 10am")
        assert agent.load("s").stack.flows[0].slots["when"].value == "2026-12-04T10:00"
