"""Everyday readings fixed in the twelfth session: a yes to a read-back that names another task's verb
('yes, cancel it' to a booking's read-back) is no yes; letting go in more words; a reference said alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx

from .nlu_support import talking

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"
BOOK_DENVER = "book a flight from boston to denver on the 20th"


def stack_of(agent: Agent) -> list[str]:
    return [f.name for f in agent.load("s").stack.flows]


def tools_of(result: object) -> list[str]:
    return [c["tool"] for c in result.tool_calls]  # type: ignore[attr-defined]


# -- a yes that names another task takes itself back ---------------------------------------------------
@pytest.mark.parametrize("text", ["yes, cancel it", "yes, change it", "yeah cancel that please"])
def test_a_yes_with_another_tasks_verb_at_a_bookings_read_back_never_books(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_DENVER)
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result)
        assert "book_flight" in stack_of(agent)


def test_a_yes_with_another_tasks_verb_to_a_cancel_question_cancels_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "yes, move it")
        assert "cancel_booking" not in tools_of(result)
        assert stack_of(agent)[-1] == "modify_booking"


@pytest.mark.parametrize("text", ["ok fine, yes go ahead and cancel", "yes cancel it please", "yep, cancel it"])
def test_a_yes_with_the_read_back_tasks_own_verb_confirms_it(text: str) -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        agent.handle("s", "please cancel my place, the ref is CR-2001")
        result = agent.handle("s", text)
        assert tools_of(result) == ["cancel_class_booking"] and stack_of(agent) == []


def test_a_yes_with_the_read_back_tasks_own_verb_confirms_after_a_side_question() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        agent.handle("s", "please cancel my place, the ref is CR-2001")
        agent.handle("s", "before i do, will i lose my place on the programme if i miss this one?")
        result = agent.handle("s", "ok fine, yes go ahead and cancel")
        assert tools_of(result) == ["cancel_class_booking"]


@pytest.mark.parametrize("text", ["yes ta", "yes cheers", "yep, ta"])
def test_a_yes_with_thanks_in_british_words_is_a_yes(text: str) -> None:
    assert lx.AFFIRM.match(text)


# -- letting go, in more words ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["no thats ok, ill wait to hear from them", "no, we'll wait for the call",
                                  "on second thoughts no", "nah i'll just wait"])
def test_a_no_that_waits_for_someone_declines(text: str) -> None:
    assert lx.DENY.match(text)


@pytest.mark.parametrize("text", ["on second thoughts no, i'll still go to it", "no, she'll still make it",
                                  "actually no, don't worry about it"])
def test_a_no_that_keeps_the_thing_lets_the_task_go(text: str) -> None:
    assert lx.NO_LEAD.match(text) and lx.LET_IT_BE.search(text)


def test_changing_ones_mind_at_a_cancels_read_back_keeps_the_appointment() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "pls cancel my appointment")
        agent.handle("s", "its PC-1001 i think")
        result = agent.handle("s", "on second thoughts no, i'll still go to it")
        assert tools_of(result) == [] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["actually dont worry about the course", "don't worry about it",
                                  "you know what, leave it for now, my knee is playing up again"])
def test_not_worrying_about_it_or_leaving_it_for_now_stops_the_task(text: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "I want to join a course")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and result.understanding["command"] == "cancel_flow"


@pytest.mark.parametrize("text", ["leave it at two", "leave it as friday please"])
def test_leaving_a_value_as_it_is_stops_nothing(text: str) -> None:
    assert not lx.CANCEL.match(text)


# -- greetings, remarks and closings ----------------------------------------------------------------------
def test_a_greeting_that_wishes_you_well_starts_no_task_though_it_says_an_option() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "morning! hope youre well")
        assert stack_of(agent) == [] and result.understanding["rule"] == "chats"


def test_a_remark_about_oneself_that_ends_laughing_starts_no_task() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "hi there")
        result = agent.handle("s", "honestly my back is killing me today lol")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_request_that_ends_laughing_is_still_a_request() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "book me in for acupuncture tomorrow haha")
        assert stack_of(agent) == ["book_appointment"]


@pytest.mark.parametrize("text", ["brill, cheers for that, bye for now", "brilliant, that's me sorted, cheers",
                                  "all sorted thanks"])
def test_british_closings_close(text: str) -> None:
    assert lx.is_closing(text)


def test_getting_something_sorted_is_no_closing() -> None:
    assert not lx.is_closing("can you get that sorted for me")


# -- what one has, and whether someone may come ------------------------------------------------------------
def test_asking_which_classes_one_is_down_for_lists_ones_bookings() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "which classes am i down for at the moment?")
        assert tools_of(result) == ["list_class_bookings"]


def test_asking_whether_someone_may_come_along_is_a_question_not_a_booking() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "and can my husband come with me?")
        assert tools_of(result) == ["answer_rehab_question"] and stack_of(agent) == []


def test_asking_for_someone_to_come_on_a_day_is_still_a_request() -> None:
    assert lx.REQUEST_ANYWHERE.search("can my son come in on friday for a check up")


def test_no_longer_negates_the_word_after_it() -> None:
    assert "not-come" in lx.content_stems("the patient can no longer come to a booked class")
    assert "come" not in lx.content_stems("the patient can no longer come to a booked class")


# -- wanting, and a party got ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["i want to go to chicago", "i gotta get to chicago", "we have to get to chicago"])
def test_wanting_to_get_to_one_place_starts_the_task_that_gets_you_there(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["destination"].value == "Chicago"


def test_asking_to_get_a_party_somewhere_books_for_the_party() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "can you get 3 of us from LA to NYC on dec 20")
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["passengers"].value == 3
        assert "search_flights" not in tools_of(result)


# -- one request with a 'then' that ends its clause; a name after who it is -----------------------------------
def test_a_then_that_ends_its_clause_splits_nothing() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        result = agent.handle("s", "ok great, can i book a first appointment then, monday 7th at 9:30")
        flow = agent.load("s").stack.flows[-1]
        assert flow.slots["when"].value == "2026-12-07T09:30" and "One thing at a time" not in result.reply


def test_a_then_between_two_requests_still_splits_them() -> None:
    assert lx.PART_BREAK.search("boston to denver on the 10th, then denver to seattle on the 14th")


@pytest.mark.parametrize(("text", "name"), [("it's my husband who needs it, Peter Kowalski", "Peter Kowalski"),
                                            ("its for my mum, Rosa Delgado", "Rosa Delgado"),
                                            ("it's for me, Ann Lee", "Ann Lee"),
                                            ("Maria de la Cruz", "Maria de la Cruz")])
def test_the_name_written_with_capitals_is_the_patients_name(text: str, name: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "hi could i book an injection")
        agent.handle("s", "wednesday 9th at 1pm")
        agent.handle("s", text)
        assert agent.load("s").stack.flows[-1].slots["patient_name"].value == name


# -- a reference said alone ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["could you pull up TW-2043 please", "TW-2043"])
def test_a_reference_said_in_no_word_of_the_pack_is_looked_up(text: str) -> None:
    with talking("tidewell", PACKS / "tidewell") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["get_booking"] and "Ivy Marsh" in result.reply
        assert result.understanding["rule"] == "shows_what_it_names"


def test_a_reference_with_a_task_word_goes_to_that_task() -> None:
    with talking("tidewell", PACKS / "tidewell") as agent:
        agent.handle("s", "cancel TW-2043")
        assert stack_of(agent) == ["cancel_booking"]
