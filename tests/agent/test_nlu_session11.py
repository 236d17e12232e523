"""Everyday readings fixed in the eleventh session: questions texted ('wat time do u open on saturday')."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, talking, tools_of, write_mini_pack



def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


# -- questions texted ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wat time do u open on saturday", "wen do u close", "hw much is it",
                                  "wot time is my appt", "hw long does it take"])
def test_a_question_texted_without_a_question_mark_is_a_question(text: str) -> None:
    assert lx.is_question(text)


@pytest.mark.parametrize("text", ["u there", "wait for me", "what i meant was friday", "yes thats right",
                                  # a name or a reason that opens like a texted question word
                                  "Wen Li", "Wat Tyler", "Wen", "wen i swallow my throat hurts",
                                  # texted requests stay requests, as they were ('r u able to book me ...')
                                  "r u able to book me boston to chicago on dec 10", "have u got a slot on thursday at 2pm"])
def test_a_texted_statement_or_request_is_no_question(text: str) -> None:
    assert not lx.is_question(text)


def test_a_name_that_opens_like_a_texted_question_word_is_taken_as_the_name() -> None:
    with talking("quitline", PACKS / "quitline") as agent:
        agent.handle("s", "book a follow-up on friday at 10am")
        agent.handle("s", "Wen Li")
        flow = agent.load("s").stack.flows[-1]
        assert "Wen Li" in [str(slot.value) for slot in flow.slots.values()]


def test_a_texted_question_about_opening_hours_is_answered_and_starts_no_task() -> None:
    with talking("quitline", PACKS / "quitline") as agent:
        result = agent.handle("s", "wat time do u open on saturday")
        assert tools_of(result) == ["answer_question"] and stack_of(agent) == []
        assert "Saturday" in result.reply


# -- examples that only agree, and a count said to a name's question -----------------------------------
SHOW_FLOWS = {
    "domain": "showtix",
    "intents": {"Plan": {}, "Converse": {}, "Internal": {}, "Lookup": {"role": "read"}, "Buy": {"role": "transform"}},
    "flows": [
        {"name": "find_events", "intent": "Lookup", "label": "find events",
         "description": "Find concerts and games happening in a city.",
         # (data gathered from real talk holds turns like 'that is good' among a flow's examples)
         "examples": ["that is good", "What events are on?", "Find me things to do", "Any baseball games in NYC?"],
         "slots": [{"name": "city", "type": "FreeTextSlot", "priority": "optional", "description": "City of the event",
                    "prompt": "In which city?"}],
         "tools": ["event_search"], "skill": "find-events",
         "steps": [{"call": "event_search", "args": {"city": "$slots.city"}, "map_outputs": {"found": "ok"}}]},
        {"name": "buy_tickets", "intent": "Buy", "label": "buy tickets",
         "description": "Buy tickets for an event.",
         "examples": ["I want to buy tickets", "get me two tickets for the game"],
         "slots": [{"name": "event_name", "type": "FreeTextSlot", "description": "Name of the event",
                    "prompt": "Which event?"},
                   {"name": "number_of_tickets", "type": "LevelSlot", "description": "Number of tickets to buy",
                    "params": {"min": 1, "max": 9, "integer": True}, "prompt": "How many tickets?"}],
         "tools": ["ticket_buy"], "skill": "buy-tickets",
         "steps": [{"call": "ticket_buy", "args": {"event_name": "$slots.event_name"}, "map_outputs": {"bought": "ok"}}]},
    ],
}


@pytest.fixture(scope="module")
def show_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mini_pack(tmp_path_factory.mktemp("showtix"), SHOW_FLOWS, {"event_search": False, "ticket_buy": True})


@pytest.mark.parametrize("text", ["that is good", "Okay, thank you", "sounds great", "Yes, good.", "Perfect, thanks!"])
def test_a_sentence_that_only_agrees_or_thanks_agrees_only(text: str) -> None:
    assert lx.agrees_only(text)


@pytest.mark.parametrize("text", ["book it", "that is good, book it", "is that good?", "Find me things to do", ""])
def test_a_sentence_that_asks_or_names_a_task_does_more_than_agree(text: str) -> None:
    assert not lx.agrees_only(text)


def test_a_yes_mid_purchase_starts_no_search_an_example_of_which_only_agrees(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        agent.handle("s", "Falcons vs Buccaneers")
        result = agent.handle("s", "Yes, good.")
        assert stack_of(agent) == [("buy_tickets", "active")] and result.understanding["flow"] != "find_events"


@pytest.mark.parametrize("said", ["2 please.", "just one", "Three, thanks", "2"])
def test_a_count_said_to_the_question_of_a_name_fills_the_count_and_asks_the_name_again(show_pack: Path, said: str) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        result = agent.handle("s", said)
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value is None and slots["number_of_tickets"].value in (1, 2, 3)
        assert "Which event?" in result.reply


@pytest.mark.parametrize("title", ["Six", "Nine"])
def test_a_number_word_alone_to_the_question_of_a_name_is_the_name(show_pack: Path, title: str) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        agent.handle("s", title)
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value == title and slots["number_of_tickets"].value is None


def test_a_name_that_holds_a_number_is_the_name(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        agent.handle("s", "The 1975")
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value == "The 1975" and slots["number_of_tickets"].value is None


def test_a_number_alone_is_the_name_when_the_count_is_given_already(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy 2 tickets")
        result = agent.handle("s", "1917")
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value == "1917" and slots["number_of_tickets"].value == 2
        assert "shall I go ahead" in result.reply


@pytest.mark.parametrize("text", ["can u send me the itinerary", "could you email me the itinerary"])
def test_asking_to_send_a_thing_asks_the_task_that_sends_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == [("send_itinerary", "active")]


@pytest.mark.parametrize("text", ["That should work.", "Nice.", "Yes, that will do just fine.", "okay very good"])
def test_agreeing_with_nothing_asked_starts_no_task(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == [] and result.understanding["flow"] is None


# -- the forty-sixth fresh sets -----------------------------------------------------------------------
TIDEWELL = PACKS / "tidewell"


def test_nice_one_thats_all_after_a_search_closes_and_starts_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "any flights going boston to chicago tues the 15th?")
        result = agent.handle("s", "nice one, thats all i needed for now")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_booking_asked_about_again_mid_booking_is_checked_and_the_booking_waits() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to book a flight from new york")
        result = agent.handle("s", "oh hold on, when is my BK-20481 flight again?")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == [("book_flight", "paused")]


def test_yes_lets_finish_the_booking_resumes_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to book new york to london")
        agent.handle("s", "oh actually before i forget, can you set a price alert for boston to chicago if it goes under $120")
        agent.handle("s", "yes")
        agent.handle("s", "yeah lets finish the booking")
        assert stack_of(agent) == [("book_flight", "active")]


@pytest.mark.parametrize("text", ["I'm organising flights for a group of 7 from chicago to boston, dec 10",
                                  "we're arranging flights for 4 of us from boston to chicago on dec 12"])
def test_organising_flights_for_a_group_books_them(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [("book_flight", "active")] and "shall I go ahead" in result.reply


def test_places_asked_for_a_party_book_the_class_rather_than_look_it_up() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "could I have two places at aqua yoga on Thursday 3rd please")
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_class" and flow.slots["places"].value == 2


def test_whether_a_thing_needs_booking_is_a_question_for_the_faq() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        result = agent.handle("s", "does the hoist need booking? my husband uses a wheelchair")
        assert tools_of(result) == ["answer_pool_question"] and stack_of(agent) == []


def test_a_question_after_btw_mid_booking_is_answered_not_read_as_the_date() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "book me a hydro session please")
        result = agent.handle("s", "btw is the water nice and warm? i feel the cold")
        assert tools_of(result) == ["answer_pool_question"] and "as a date" not in result.reply
        assert stack_of(agent) == [("book_session", "active")]


@pytest.mark.parametrize("text", ["scrap that for now, I'll sort it out after I've spoken to my physio", "forget it for now"])
def test_letting_a_task_go_for_now_stops_it(text: str) -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "i want to book a session with priya")
        agent.handle("s", text)
        assert stack_of(agent) == []


def test_yeh_go_ahead_confirms() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "cna i bok a sesion for tomorow at 2pm")
        agent.handle("s", "its for my wife Grace Lowe")
        result = agent.handle("s", "yeh go ahead")
        assert tools_of(result) == ["book_session"]


def test_a_keyword_with_a_hyphen_counts_when_said_with_spaces() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "book a one to one for thursday 10th at 4pm")
        assert stack_of(agent) == [("book_session", "active")]


@pytest.mark.parametrize("text", ["ok cheers, speak soon", "thanks, talk to you soon", "nice one, thats all i needed for now"])
def test_a_parting_in_everyday_words_closes(text: str) -> None:
    assert lx.is_closing(text)


@pytest.mark.parametrize("text", ["can i talk to someone", "lets talk about my booking"])
def test_talking_about_something_is_no_closing(text: str) -> None:
    assert not lx.is_closing(text)


def test_declining_the_offer_to_go_back_by_leaving_the_task_for_now_drops_it() -> None:
    with talking("tidewell", TIDEWELL) as agent:
        agent.handle("s", "book a one to one for thursday 10th at 4pm")
        agent.handle("s", "actually before that, what time does my class TW-2042 start?")
        agent.handle("s", "no thanks, I'll leave the session for now")
        assert stack_of(agent) == []


@pytest.mark.parametrize("text", ["no I'll finish that later", "no thanks, I'll finish it tomorrow"])
def test_finishing_later_declines_going_back(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a flight from Boston to Chicago")
        agent.handle("s", "actually first check my booking BK-12345")
        agent.handle("s", text)
        assert stack_of(agent) == []


@pytest.mark.parametrize("text", ["what time does it finish?", "does it finish before 5?"])
def test_a_question_about_when_a_thing_finishes_resumes_nothing(text: str) -> None:
    assert not lx.RESUME.search(text)


@pytest.mark.parametrize("text", ["quick question, is the water warm? also I want to book a session friday at 11am",
                                  "btw is insurance included? I need to rent a car at the airport"])
def test_a_request_after_a_question_aside_keeps_the_turn_a_request(text: str) -> None:
    assert not lx.is_question(text)


def test_the_one_i_want_with_thanks_is_no_closing() -> None:
    assert not lx.is_closing("no thats the one i want, thank you")
