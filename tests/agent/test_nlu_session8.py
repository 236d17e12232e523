"""Everyday readings fixed from the thirty-second and thirty-third fresh sets and the SGD kit: 'instead'
replaces the task in progress only when the new task can stand in for it, a lower-case city code
before 'to' is a city, a purchase that needs a pick its look-up finds starts with the look-up, a title
said after its verb ('see Missing Link') is the name, an example said with a value is its flow's task,
and a city with one letter wrong is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx
from dialstack.agent.freetext import cued_values, not_a_value
from dialstack.agent.options import count_value
from dialstack.agent.slot_reading import remainder
from dialstack.domain.models import SlotSpec
from dialstack.state.text import one_edit

from .nlu_support import PACKS, talking, write_mini_pack



def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


# -- 'instead': replace what can be replaced, pause the rest ---------------------------------------
@pytest.mark.parametrize("text", [
    "actually i'd rather cancel my booking BK-20481 instead",
    "hmm no, i want to cancel a booking instead",
])
def test_cancelling_an_old_booking_instead_pauses_the_new_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to book a flight to boston")
        agent.handle("s", text)
        assert stack_of(agent) == [("book_flight", "paused"), ("cancel_booking", "active")]


def test_searching_instead_of_booking_replaces_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me a flight to boston")
        agent.handle("s", "actually just search flights instead")
        assert [name for name, _ in stack_of(agent)] == ["search_flights"]


def test_the_paused_task_is_offered_back_once_the_other_is_done() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to book a flight")
        agent.handle("s", "actually i'd rather cancel my booking BK-20481 instead")
        result = agent.handle("s", "yes")
        assert stack_of(agent) == [("book_flight", "paused")] and "continue" in result.reply.lower()


def test_cancelling_the_appointment_being_moved_instead_drops_the_move() -> None:
    with talking("kidspeech", PACKS / "littlevoices") as agent:
        agent.handle("s", "can i move SL-2041 please")
        agent.handle("s", "actually no, cancel it instead")
        assert [name for name, _ in stack_of(agent)] == ["cancel_appointment"]


# -- a city code in lower case ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "origin"), [
    ("need a flight nyc to LA dec 20", "New York"),
    ("sfo to Boston on the 10th", "San Francisco"),
    ("nyc to la on friday", "New York"),
])
def test_a_lower_case_code_before_to_is_the_origin(text: str, origin: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert agent.load("s").stack.flows[-1].slots["origin"].value == origin


def test_an_everyday_word_before_to_is_no_city() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i saw to Boston flights were cheap, book me one")
        origin = agent.load("s").stack.flows[-1].slots["origin"].value
        assert origin is None


# -- look before you buy ------------------------------------------------------------------------------
def _place(name: str, description: str, prompt: str) -> dict[str, str]:
    return {"name": name, "type": "FreeTextSlot", "description": description, "prompt": prompt}


ROUTE = [_place("origin", "City the bus leaves from", "Leaving from where?"),
         _place("destination", "City the bus goes to", "Going where?"),
         {"name": "travel_date", "type": "TripDaySlot", "description": "Day of travel", "prompt": "Which day?"}]
BUS_FLOWS = {
    "domain": "coach",
    "intents": {"Plan": {}, "Converse": {}, "Internal": {}, "Lookup": {"role": "read"}, "Buy": {"role": "transform"}},
    "slot_types": {
        "TripDaySlot": {"base": "ExactSlot", "params": {"pattern": "(?:mon|tues|wednes|thurs|fri|satur|sun)day"}},
        "DepartureSlot": {"base": "ExactSlot", "params": {"pattern": "\\d{1,2}(?::\\d\\d)?\\s*(?:am|pm)"}},
        "RidersSlot": {"base": "LevelSlot", "params": {"min": 1, "max": 9, "integer": True}},
    },
    "flows": [
        {"name": "find_bus", "intent": "Lookup", "label": "find bus",
         "description": "Find buses between two cities on a day.", "slots": ROUTE,
         "examples": ["find me a bus", "are there buses to Reno?", "look for buses on friday"],
         "tools": ["bus_search"], "skill": "find-bus",
         "steps": [{"call": "bus_search", "args": {"origin": "$slots.origin"}, "map_outputs": {"found": "ok"}}]},
        {"name": "buy_bus_ticket", "intent": "Buy", "label": "buy bus ticket",
         "description": "Buy tickets for a bus between two cities.",
         "examples": ["I need a bus ticket", "I need a bus to Reno", "get me on a bus on friday"],
         "slots": [*ROUTE, {"name": "departure_time", "type": "DepartureSlot", "description": "Time the bus leaves",
                            "prompt": "Which bus (its time)?"},
                   {"name": "riders", "type": "RidersSlot", "description": "Number of people", "prompt": "For how many?"}],
         "tools": ["bus_buy"], "skill": "buy-bus-ticket",
         "steps": [{"call": "bus_buy", "args": {"origin": "$slots.origin"}, "map_outputs": {"bought": "ok"}}]},
    ],
}


@pytest.fixture(scope="module")
def bus_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mini_pack(tmp_path_factory.mktemp("coach"), BUS_FLOWS, {"bus_search": False, "bus_buy": True})


def first_flow(pack: Path, text: str) -> str:
    """The flow the first turn ``text`` starts (a search given every value runs and ends at once)."""
    with talking("coach", pack) as agent:
        return agent.handle("s", text).understanding["flow"]


@pytest.mark.parametrize("text", ["I need a bus for next Thursday", "we need a bus from Fresno to Reno on friday",
                                  "hi, i'm after a bus to Reno"])
def test_wanting_a_bus_with_no_time_looks_buses_up_first(bus_pack: Path, text: str) -> None:
    assert first_flow(bus_pack, text) == "find_bus"


@pytest.mark.parametrize("text", ["buy me a bus ticket from Fresno to Reno on friday",
                                  "i need the 9:15 am bus from Fresno to Reno on friday"])
def test_asking_to_buy_or_naming_the_bus_buys(bus_pack: Path, text: str) -> None:
    assert first_flow(bus_pack, text) == "buy_bus_ticket"


def test_after_a_search_the_purchase_is_not_sent_back_to_it(bus_pack: Path) -> None:
    with talking("coach", bus_pack) as agent:
        agent.handle("s", "find me a bus from Fresno to Reno on friday")
        agent.handle("s", "great, i need tickets for that bus for two")
        assert agent.load("s").stack.flows[-1].name == "buy_bus_ticket"


def test_a_booking_that_searches_by_itself_needs_no_look_up_first() -> None:
    with talking("travel") as agent:
        agent.handle("s", "need a flight from boston to chicago on dec 10")
        assert agent.load("s").stack.flows[0].name == "book_flight"


# -- titles and names said with their verb or their noun --------------------------------------------
def _name_slot(name: str, description: str) -> SlotSpec:
    return SlotSpec(name=name, type="FreeTextSlot", description=description)


@pytest.mark.parametrize(("slot", "text", "value"), [
    (("movie_name", "Name of the movie"), "I'd like to see Missing Link.", "Missing Link"),
    (("title", "Title of the movie"), "I would like to watch The Man Who Knew Too Much now", "The Man Who Knew Too Much"),
    (("song_name", "Name of the song"), "Please play Love Me Like You.", "Love Me Like You"),
    (("song_name", "Name of the song"), "I want to listen to Colder Weather.", "Colder Weather"),
    (("restaurant_name", "Name of the restaurant"), "I like the restaurant Kampai Bar. I would like a table at 7",
     "Kampai Bar"),
])
def test_a_title_said_after_its_verb_or_its_noun_is_the_name(slot: tuple[str, str], text: str, value: str) -> None:
    assert value in [c.value for _, c in cued_values(_name_slot(*slot), text)]


@pytest.mark.parametrize(("slot", "text"), [
    (("movie_name", "Name of the movie"), "I want to see a movie tonight"),
    (("theater_name", "Name of the theater"), "I'd like to see Missing Link."),
    (("patient_name", "Name of the patient"), "I'd like to see Dr Patel on friday"),
])
def test_a_verb_of_seeing_points_at_no_plain_word_venue_or_patient(slot: tuple[str, str], text: str) -> None:
    assert not cued_values(_name_slot(*slot), text)


# -- an example said with values, a question the pack's own examples ask -----------------------------
IRONBRIDGE = PACKS / "ironbridge"


def test_an_example_said_with_a_value_and_a_texting_spelling_is_that_flows_task() -> None:
    with talking("physio", IRONBRIDGE) as agent:
        result = agent.handle("s", "what are ur opening hours on saturday")
        assert result.understanding["flow"] == "faq" and not agent.load("s").stack.flows


def test_a_do_you_have_question_goes_to_the_look_up_whose_examples_ask_it() -> None:
    with talking("physio", IRONBRIDGE) as agent:
        agent.handle("s", "do you have any openings at old town")
        flows = agent.load("s").stack.flows
        assert [f.name for f in flows] == ["find_free_times"] and flows[0].slots["site"].value == "Old Town"


def test_a_question_about_an_option_mid_task_is_answered_beside_it() -> None:
    with talking("physio", IRONBRIDGE) as agent:
        agent.handle("s", "i want to book a follow-up")
        result = agent.handle("s", "where is the old town one actually?")
        assert result.understanding["flow"] == "faq"
        assert [f.name for f in agent.load("s").stack.flows] == ["book_appointment"]


def test_an_faq_example_right_after_a_check_is_answered_not_checked_again() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to fly from dallas to denver")
        agent.handle("s", "hang on, look up BK-31337 for me")
        result = agent.handle("s", "how much does it cost to change a booking?")
        assert result.understanding["flow"] == "faq"


# -- a city with one letter wrong ----------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "word", "close"), [
    ("bostin", "boston", True), ("bostn", "boston", True), ("bosston", "boston", True), ("bsoton", "boston", True),
    ("atlantis", "atlanta", False), ("boston", "boston", False), ("bstn", "boston", False),
])
def test_one_edit_is_one_letter_changed_added_dropped_or_swapped(typed: str, word: str, close: bool) -> None:
    assert one_edit(typed, word) is close


def test_a_city_with_one_letter_wrong_is_read() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I'd like to book a flight from Bostin to Washington in the 8th")
        assert agent.load("s").stack.flows[0].slots["origin"].value == "Boston"


@pytest.mark.parametrize("text", ["oh also i need to change BK-31337", "i want to chance it, book BK-31337 on a later date"])
def test_an_everyday_word_one_letter_from_a_city_name_is_no_city(text: str) -> None:
    # ('change' is one letter from 'changi', Singapore's airport: a slip keeps its first and last letters)
    with talking("travel") as agent:
        agent.handle("s", "find flights from boston to miami")
        agent.handle("s", text)
        assert all(f.slots["destination"].value != "Singapore" for f in agent.load("s").stack.flows
                   if "destination" in f.slots)


# -- what a turn leaves over -----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [("Oh, right. Chicago.", "Chicago"), ("Sure thing. San Jose please", "San Jose")])
def test_a_sentence_that_only_says_yes_holds_no_part_of_the_value(text: str, value: str) -> None:
    found = remainder(text, [], frozenset())
    assert found is not None and found.value == value


@pytest.mark.parametrize("text", ["No, I don't. Thanks, but that would be all.", "Nope. Thanks!", "Is that it? Thanks, bye."])
def test_sentences_that_each_say_no_thanks_or_goodbye_are_no_value(text: str) -> None:
    assert not_a_value(text)


def test_a_sentence_that_names_something_after_a_question_is_still_a_value() -> None:
    assert not not_a_value("Any other dates? I heard about Falcons Vs Buccaneers, looking in ATL.")


@pytest.fixture(scope="module")
def sights_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    flows = {"domain": "sights", "intents": {"Plan": {}, "Converse": {}, "Internal": {}, "Lookup": {"role": "read"}},
             "flows": [{"name": "find_attractions", "intent": "Lookup", "label": "find attractions",
                        "description": "Find attractions to visit in a city.",
                        "slots": [_place("location", "City to look in", "Which city?")],
                        "tools": ["sights_search"], "skill": "find-attractions",
                        "steps": [{"call": "sights_search", "args": {"origin": "$slots.location"},
                                   "map_outputs": {"found": "ok"}}]}]}
    return write_mini_pack(tmp_path_factory.mktemp("sights"), flows, {"sights_search": False})


@pytest.mark.parametrize(("text", "place"), [
    ("No way, try again.", None), ("Any good attractions nearby?", None), ("Recommend attractions please.", None),
    ("attractions in Paris please", "Paris"), ("find attractions portland", "portland"),
])
def test_a_place_guessed_from_what_a_request_leaves_over_is_a_name(sights_pack: Path, text: str, place: str | None) -> None:
    with talking("sights", sights_pack) as agent:
        labels = agent.handle("s", text).understanding.get("labels") or {}
        assert labels.get("location") == place


# -- counts, and the thirty-fourth fresh sets ----------------------------------------------------------------
def _count_slot(name: str, description: str) -> SlotSpec:
    return SlotSpec(name=name, type="CategorySlot", description=description,
                    params={"options": [str(n) for n in range(1, 10)]})


@pytest.mark.parametrize(("slot", "text", "asked", "count"), [
    (("number_of_beds", "Number of bed rooms"), "I want the apartment to have 1 bedroom.", False, "1"),
    (("number_of_seats", "Number of seats to find event tickets for"), "1 Ticket would be great.", False, "1"),
    (("number_of_seats", "Number of seats to find event tickets for"), "Buy 3, please.", True, "3"),
    (("number_of_seats", "Number of seats to find event tickets for"), "I'll also need a hotel. Two rooms.", True, None),
    (("number_of_seats", "Number of seats to find event tickets for"), "the 5 pm one", True, None),
])
def test_a_count_is_read_by_what_the_slot_counts(slot: tuple[str, str], text: str, asked: bool, count: str | None) -> None:
    spec = _count_slot(*slot)
    found = count_value(spec, spec.params["options"], text, asked)
    assert (found.value if found else None) == count


def test_a_word_written_as_it_sounds_is_the_packs_word() -> None:
    with talking("travel") as agent:
        assert agent.handle("s", "i need a flite to miami").understanding["flow"] == "book_flight"


def test_scratch_that_then_a_value_corrects_the_answer_just_given() -> None:
    with talking("travel") as agent:
        for text in ("i need a flight to miami", "from chicago", "scratch that, from atlanta"):
            agent.handle("s", text)
        flows = agent.load("s").stack.flows
        assert [f.name for f in flows] == ["book_flight"] and flows[0].slots["origin"].value == "Atlanta"


def test_scratch_that_then_a_bare_value_replaces_the_answer_taken_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight to Paris")
        agent.handle("s", "scratch that, rome")
        slots = agent.load("s").stack.flows[0].slots
        assert (slots["destination"].value, slots["origin"].value) == ("Rome", None)


def test_a_stop_word_then_another_request_with_values_still_replaces_the_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from new york to paris")
        agent.handle("s", "actually forget booking for now, just show me flights from boston to denver on the 12th")
        assert all(f.name != "book_flight" or not f.live for f in agent.load("s").stack.flows)


@pytest.mark.parametrize(("text", "asks"), [
    ("do i need to fast before an ultrasound??", False), ("so do we need a referral?", False),
    ("i need to book a scan", True),
])
def test_asking_whether_one_must_is_no_request(text: str, asks: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(text)) is asks


@pytest.mark.parametrize(("text", "verb"), [
    ("hi i need a check up", None), ("i need a flight to miami", None), ("book a flight", "book"),
    ("can you check my booking", "check"),
])
def test_a_word_after_an_article_opens_no_request(text: str, verb: str | None) -> None:
    assert lx.opener(text) == verb


BRIGHTSMILE, SCANLINE = PACKS / "brightsmile", PACKS / "scanline"


def test_needing_a_check_up_books_one() -> None:
    with talking("dental", BRIGHTSMILE) as agent:
        agent.handle("s", "hi i need a check up")
        flows = agent.load("s").stack.flows
        assert [f.name for f in flows] == ["book_appointment"] and flows[0].slots["service"].value == "check-up"


def test_an_example_said_with_a_filler_and_a_plural_day_is_that_flows_question() -> None:
    with talking("dental", BRIGHTSMILE) as agent:
        agent.handle("s", "i'd like to book a cleaning")
        result = agent.handle("s", "wait are you open on saturdays?")
        assert result.understanding["flow"] == "faq"
        assert [(f.name, f.state.value) for f in agent.load("s").stack.flows] == [("book_appointment", "active")]


def test_a_question_in_no_tasks_words_goes_to_the_side_task_that_answers_questions() -> None:
    with talking("imaging", SCANLINE) as agent:
        agent.handle("s", "hi i have to book an mri")
        assert agent.handle("s", "ok.. and will my results come back quickly?").understanding["flow"] == "faq"


@pytest.mark.parametrize("text", ["what is the weather tomorrow?", "who is the chef?"])
def test_a_question_the_side_task_says_nothing_about_is_not_sent_to_it(text: str) -> None:
    with talking("restaurant", PACKS / "restaurant") as agent:
        assert agent.handle("s", text).understanding.get("flow") is None


@pytest.mark.parametrize("text", ["what can you actually do?", "phew, busy morning. how are you doing?"])
def test_a_question_about_the_assistant_is_not_sent_to_the_faq(text: str) -> None:
    with talking("imaging", SCANLINE) as agent:
        agent.handle("s", "hi i have to book an mri")
        assert agent.handle("s", text).understanding.get("flow") != "faq"


def test_a_goodbye_with_nothing_open_is_a_goodbye_whatever_its_words_score() -> None:
    with talking("imaging", SCANLINE) as agent:
        agent.handle("s", "can you check IMG-4822 for me please")
        assert agent.handle("s", "lovely, thats all i needed, thanks bye").understanding["act"] == "close"


def test_a_two_city_booking_is_no_example_of_a_multi_city_plan() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need to book flights from Boston to Denver, there are four of us")
        flows = agent.load("s").stack.flows
        assert [f.name for f in flows] == ["book_flight"] and flows[0].slots["passengers"].value == 4


# -- the thirty-fifth fresh sets ------------------------------------------------------------------------------
NURSES = PACKS / "nurseclinic"


@pytest.mark.parametrize(("text", "name"), [("its for sarah khan", "sarah khan"), ("it's for sarah khan", "sarah khan"),
                                            ("its for tomorrow morning", None)])
def test_its_for_a_name_in_lower_case_is_the_persons_name(text: str, name: str | None) -> None:
    spec = SlotSpec(name="patient_name", type="FreeTextSlot", description="Full name of the patient")
    assert [c.value for _, c in cued_values(spec, text, asked=True)] == ([name] if name else [])


def test_an_option_with_two_letters_swapped_is_read() -> None:
    with talking("nurses", NURSES) as agent:
        agent.handle("s", "i need to bok a smaer test")
        assert agent.load("s").stack.flows[0].slots["service"].value == "smear test"

