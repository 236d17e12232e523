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
