"""Everyday readings fixed from the thirty-sixth fresh sets: a greeting before a request does not hide
its verb, 'any flights ...' asks what there is, 'what time are you open' is the FAQ's 'when are you
open', 'switch my seat' changes a booking, and going back to a paused task by the words of its label."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx

from .nlu_support import talking

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"


def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


# -- a greeting before the request ------------------------------------------------------------------
@pytest.mark.parametrize("text", ["hiya can i bok a cpap folow up", "hey, book a sleep study", "hello i want to bok a cpap fitting"])
def test_a_greeting_before_a_request_leaves_its_verb_to_open_it(text: str) -> None:
    assert lx.opener(text) in {"bok", "book"}


def test_a_misspelt_booking_after_a_greeting_starts_the_booking() -> None:
    with talking("sleepclinic", PACKS / "sleepclinic") as agent:
        agent.handle("s", "hiya can i bok a cpap folow up tmrw at 11am pls")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "book_appointment" and flow.slots["service"].value == "cpap follow-up"


# -- 'any <things> ...' asks what there is ----------------------------------------------------------
@pytest.mark.parametrize("text", [
    "any flghts frm dallas to houston on dec 9",
    "any flights to boston tomorrow",
    "hmm any seats left on the 10th",
    "ok any tables for 4 tonight",
])
def test_any_with_a_plural_thing_first_is_a_question(text: str) -> None:
    assert lx.is_question(text)


@pytest.mark.parametrize("text", ["any days are fine", "any time after 5", "any of them", "any chance you could book it",
                                  "any seats will do"])
def test_any_that_answers_or_asks_a_favour_is_no_question(text: str) -> None:
    assert not lx.is_question(text)


def test_asking_for_any_flights_with_typos_searches_and_books_nothing() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "any flghts frm dallas to houston on dec 9")
        assert [c["tool"] for c in result.tool_calls] == ["search_flights"] and stack_of(agent) == []


# -- 'what time' is 'when' ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wat time r u open on saturdays??", "what time are you open on saturdays?"])
def test_what_time_are_you_open_is_answered_by_the_faq(text: str) -> None:
    with talking("sleepclinic", PACKS / "sleepclinic") as agent:
        result = agent.handle("s", text)
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == []


def test_what_times_are_free_still_looks_up_free_times() -> None:
    with talking("sleepclinic", PACKS / "sleepclinic") as agent:
        result = agent.handle("s", "what times are free on friday")
        assert [c["tool"] for c in result.tool_calls] == ["find_free_times"]


# -- 'switch my seat' changes the booking --------------------------------------------------------------
@pytest.mark.parametrize("text", ["can u switch my seat on BK-20481 to aisle", "can i switch to an aisle seat on BK-31337?",
                                  "pls swap my seat on BK-20481 to window"])
def test_switching_a_seat_on_a_booking_changes_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == [("modify_booking", "active")]


@pytest.mark.parametrize("text", ["switch my seat", "can i switch to an aisle seat"])
def test_switching_a_thing_does_not_turn_away_from_the_task(text: str) -> None:
    assert lx.shift_spans(text) == []


@pytest.mark.parametrize("text", ["actually let me switch to booking a hotel", "can we switch gears", "ok switch"])
def test_switching_to_another_task_turns_away(text: str) -> None:
    assert [text[a:b] for a, b in lx.shift_spans(text) if text[a:b] == "switch"]


# -- going back by the paused task's label -------------------------------------------------------------
def test_going_back_to_the_paused_task_by_its_label_resumes_it_whatever_values_it_names() -> None:
    with talking("nurses", PACKS / "nurseclinic") as agent:
        agent.handle("s", "i want to reschedule NC-1002")
        agent.handle("s", "hmm before that, show me all my appointments")
        agent.handle("s", "ok go back to moving the dressing appointment")
        assert stack_of(agent) == [("reschedule_appointment", "active")]


def test_going_back_to_a_task_by_the_label_of_one_not_paused_resumes_nothing_else() -> None:
    with talking("nurses", PACKS / "nurseclinic") as agent:
        agent.handle("s", "i want to reschedule NC-1002")
        agent.handle("s", "hmm before that, show me all my appointments")
        agent.handle("s", "ok go back to booking a flu jab")
        assert ("reschedule_appointment", "active") not in stack_of(agent)


# -- round 37: a proposal with a time books; a day kept when only the time is asked again -----------------
def test_a_proposed_day_and_time_after_the_thing_needed_starts_the_booking_not_a_look_up() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        agent.handle("s", "my daughter needs a food challenge for peanuts. could we do tuesday the 8th at 10?")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "book_appointment" and flow.slots["service"].value == "food challenge"


def test_a_question_about_free_times_on_a_day_still_looks_them_up() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        result = agent.handle("s", "any free times on tuesday the 8th?")
        assert [c["tool"] for c in result.tool_calls] == ["find_free_times"]


def test_a_time_said_alone_after_that_time_is_taken_keeps_the_day() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        agent.handle("s", "move AL-1004 to dec 3 at 10am")  # (Dr. Okafor sees AL-1001 then)
        taken = agent.handle("s", "yes")
        assert "taken" in taken.reply
        agent.handle("s", "10:30 then")
        assert agent.load("s").stack.flows[0].slots["new_when"].value == "2026-12-03T10:30"


@pytest.mark.parametrize("change, expected", [("the time pls", "2026-12-10T16:30"), ("the day", None)])
def test_naming_the_time_to_change_keeps_the_day_and_naming_the_day_does_not(change: str, expected: str | None) -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        agent.handle("s", "book a dating scan on thursday the 10th at 9am for ana ruiz")
        agent.handle("s", "no")
        agent.handle("s", change)
        agent.handle("s", "4:30pm")
        assert agent.load("s").stack.flows[0].slots["when"].value == expected


def test_a_day_and_time_slot_asked_again_for_its_time_keeps_its_day() -> None:
    from dialstack.state.slots import DateTimeSlot, SlotContext
    from datetime import datetime, timezone
    slot = DateTimeSlot("when", {"time": "required"})
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    slot.fill("2026-12-03T10:00", ctx)
    assert slot.ask_time_again() and slot.value == "2026-12-03" and not slot.filled
    assert slot.fill(slot.extract("10:30 then", ctx)[0].value, ctx).ok and slot.value == "2026-12-03T10:30"


def test_a_day_slot_with_no_time_required_is_cleared_as_before() -> None:
    from dialstack.state.slots import DateTimeSlot
    slot = DateTimeSlot("day", {"time": "none"})
    slot.value = "2026-12-03"
    assert not slot.ask_time_again() and slot.value == "2026-12-03"


# -- a correction that says 'wait no', counts said twice, question words as names --------------------
def test_a_changed_day_after_wait_no_corrects_the_booking_and_keeps_its_time() -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        agent.handle("s", "book a glucose test pls")
        agent.handle("s", "tues 8th at 9am")
        agent.handle("s", "oh wait no, wednesday the 9th, same time")
        assert stack_of(agent) == [("book_appointment", "active")]
        assert agent.load("s").stack.flows[0].slots["when"].value == "2026-12-09T09:00"


@pytest.mark.parametrize("text, count", [("for me and my partner, 2 people", 2), ("me and my mum, 3 people", 3),
                                         ("me, my wife and 2 kids", 4), ("me and my partner", 2)])
def test_a_total_said_after_the_people_listed_is_the_party_not_more_people(text: str, count: int) -> None:
    from dialstack.state.text import people_listed
    assert [f.value for f in people_listed(text)] == [count]


@pytest.mark.parametrize("word", ["whens", "whats", "wheres", "hows", "whos"])
def test_a_question_word_without_its_apostrophe_is_no_content_word(word: str) -> None:
    assert word in lx.STOPWORDS


def test_whens_my_next_appointment_asks_whose_instead_of_taking_whens_as_the_name() -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        result = agent.handle("s", "whens my next appointment")
        assert stack_of(agent) == [("list_appointments", "active")] and result.tool_calls == []


# -- travel: wanting things for a group, 'X then', a question and a request in one turn --------------
def test_a_group_that_needs_flights_books_them() -> None:
    with talking("travel") as agent:
        agent.handle("s", "we're a group of 6 and need flights from houston to cancun")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "book_flight" and flow.slots["passengers"].value == 6


def test_a_place_settled_on_with_then_at_the_read_back_changes_the_destination() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book london to rome on dec 10")
        agent.handle("s", "hmm madrid then")
        slots = agent.load("s").stack.flows[0].slots
        assert (slots["origin"].value, slots["destination"].value) == ("London", "Madrid")


def test_a_question_and_a_request_in_one_turn_answer_the_question_then_start_the_request() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hi, whats the status of BK-20481, and can you also set a check-in reminder for it")
        assert [c["tool"] for c in result.tool_calls] == ["get_booking"]
        reminder = agent.load("s").stack.flows[0]
        assert stack_of(agent) == [("checkin_reminder", "active")] and reminder.slots["booking_ref"].value == "BK-20481"
        assert "check-in reminder" in result.reply and "shall I go ahead" in result.reply
        done = agent.handle("s", "yes")
        assert [c["tool"] for c in done.tool_calls] == ["schedule_checkin_reminder"] and stack_of(agent) == []


def test_the_later_part_of_a_request_waits_until_the_first_is_done() -> None:
    with talking("travel") as agent:
        first = agent.handle("s", "cancel BK-31337 and set me up a price alert from London to Rome under $200")
        assert stack_of(agent) == [("price_alert", "pending"), ("cancel_booking", "active")]
        assert "price alert" in first.reply and first.tool_calls == []
        agent.handle("s", "yes")
        assert stack_of(agent) == [("price_alert", "active")]


def test_stopping_the_first_part_still_leaves_the_next_part_to_start() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337 and set me up a price alert from London to Rome under $200")
        agent.handle("s", "no")
        assert [name for name, _ in stack_of(agent)] == ["price_alert"]
