"""Everyday readings fixed in the eighteenth session: a short report of what is wrong ('wifi is dead') is the report's
details, a request that only names the work ('a quote for some work on my other car') is not; a wish with its values
books when the booking finds its own flight; Singapore, Chinese, northern English and dictated wording ('can book or
not?', 'Aye, champion', 'for of us'); a number of another thing is no length in hours."""

from __future__ import annotations

import pytest

from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

GARAGE = PACKS / "motgarage"
BROADBAND = PACKS / "broadband"
LIBRARY = PACKS / "publiclibrary"
SALON = PACKS / "salon"


# -- what a report tells ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wifi is dead. acct BB-118842", "the router keeps flashing red, BB-118842",
                                  "internet's gone again!! BB-118842"])
def test_a_thing_and_the_state_it_is_in_is_the_fault_reported(text: str) -> None:
    with talking("broadband", pack=BROADBAND) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault")["details"] == text


@pytest.mark.parametrize("text", ["I want to report a fault on BB-118842", "my account number is BB-118842, I have a fault"])
def test_a_request_to_report_or_who_one_is_tells_no_fault(text: str) -> None:
    with talking("broadband", pack=BROADBAND) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault").get("details") is None


def test_a_request_that_names_only_the_work_and_the_car_leaves_the_fault_to_be_asked() -> None:
    with talking("motgarage", pack=GARAGE) as agent:
        agent.handle("s", "ok. while I've got you, could I get a quote for some work on my other car as well")
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault").get("description") is None
        result = agent.handle("s", "MA09 UXY")
        assert "problem" in result.reply


def test_a_request_that_says_what_is_wrong_keeps_it_as_the_fault() -> None:
    with talking("motgarage", pack=GARAGE) as agent:
        text = "could I get a quote, there's a horrible grinding noise when I brake"
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault")["description"] == text


def test_a_story_of_who_did_what_is_the_report_though_its_verb_is_the_kind_of_problem() -> None:
    with talking("library", pack=LIBRARY) as agent:
        text = "my toddler ripped some pages in the gruffalo, so sorry!! i need to report it"
        result = agent.handle("s", text)
        assert slots_of(agent, "report_problem")["description"] == text
        assert "shall I go ahead" in result.reply and tools_of(result) == []


# -- several things said at once ----------------------------------------------------------------------------
def test_a_question_to_oneself_before_the_values_is_no_question_asked() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hi I need to book a flight from Boston to - sorry, one sec")
        result = agent.handle("s", "sorry - kids - where was I. Chicago. Boston to Chicago")
        assert stack_of(agent) == ["book_flight"] and "date" in result.reply
        assert {"origin": "Boston", "destination": "Chicago"}.items() <= slots_of(agent, "book_flight").items()


def test_words_said_at_the_agent_that_ask_nothing_leave_the_request_alone() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need a flight to Paris. And before you ask, from London. UGH.")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "London", "destination": "Paris"}.items() <= slots_of(agent, "book_flight").items()
        result = agent.handle("s", "January 8. Happy now?")
        assert slots_of(agent, "book_flight")["date"] == "2027-01-08" and "go ahead" in result.reply


def test_a_look_up_of_another_booking_wanted_before_the_yes_leaves_the_change_its_own_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Re: BK-12345 - need to push to Dec 17. Client mtg moved.")
        result = agent.handle("s", "FYI also need status on BK-31337 before I confirm")
        assert tools_of(result) == ["get_booking"] and "Paris" in result.reply
        assert slots_of(agent, "modify_booking")["booking_ref"] == "BK-12345"
        agent.handle("s", "yes, back to the change")
        result = agent.handle("s", "go ahead")
        assert tools_of(result) == ["update_booking"] and "BK-12345" in result.reply


def test_a_side_question_beside_an_answer_is_answered_and_the_answer_kept() -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", "hey can i book a room to study on wed 9th from 6pm")
        result = agent.handle("s", "just me so a small one. is there wifi in the rooms btw?")
        assert "LibraryGuest" in result.reply and stack_of(agent) == ["book_room"]
        assert slots_of(agent, "book_room").get("room_size") == "small"
        assert slots_of(agent, "book_room").get("hours") is None


# -- wishes and requests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Need flt BOS to ORD Dec 15 pls, 1 pax. ASAP.",
                                  "FIVE of us need to get from New York to Los Angeles on Dec 21. Five. Not one, like last time.",
                                  "Need to get from Boston to Chicago on Christmas Eve if there's owt going"])
def test_a_wish_with_its_values_starts_the_booking_that_finds_its_own_flight(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply and tools_of(result) == []


@pytest.mark.parametrize("text", ["I want to see flights from Boston to Chicago on the 15th",
                                  "flights from boston to chicago on the 15th?"])
def test_a_wish_to_look_or_a_question_with_its_values_searches(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == []


def test_a_request_with_no_one_named_or_tagged_or_not_is_a_request() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Hi, can book flight from Boston to Chicago on 18 Dec morning or not?")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply
        result = agent.handle("s", "Ok confirm plus chop, go ahead lah")
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_an_order_tagged_can_is_the_order_and_yes_with_its_verb_does_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Send itinerary for BK-31337 to mei.ling@example.sg can?")
        assert stack_of(agent) == ["send_itinerary"] and "go ahead" in result.reply
        result = agent.handle("s", "Yes send already")
        assert tools_of(result) == ["send_itinerary"]


def test_tell_me_when_the_price_becomes_lower_sets_a_price_alert() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Can tell me when New York to Los Angeles price become lower than 200 dollar?")
        assert stack_of(agent) == ["price_alert"] and "200" in result.reply


@pytest.mark.parametrize("yes", ["Aye, champion, ta", "Aye, that's grand", "yes. obviously."])
def test_a_yes_in_northern_english_or_with_impatience_books_the_flight_read_back(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from Boston to Chicago on December 18")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_a_day_said_to_be_useless_is_the_day_given_up_not_a_second_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Where is my booking?? BK-12345. Is it even still on???")
        result = agent.handle("s", "Fine. Move it to the 18th then, the 15th is USELESS to me now.")
        assert stack_of(agent) == ["modify_booking"] and "go ahead" in result.reply
        assert slots_of(agent, "modify_booking") == {"booking_ref": "BK-12345", "new_date": "2026-12-18"}


@pytest.mark.parametrize("text", ["thx. will circle back on the rest next wk", "ok, will do it later"])
def test_putting_the_rest_off_without_saying_i_is_a_closing(text: str) -> None:
    assert lx.is_closing(text)


def test_a_dictated_for_meaning_four_counts_the_passengers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hey i need to book a flight from new york too los angeles")
        agent.handle("s", "december fifteenth and there will be for of us")
        assert slots_of(agent, "book_flight")["passengers"] == 4


@pytest.mark.parametrize(("text", "plain"), [("there will be for of us", "there will be four of us"),
                                             ("too people please", "two people please"),
                                             ("a ticket for my mum", "a ticket for my mum"),
                                             ("fly to Boston", "fly to Boston")])
def test_numbers_heard_as_their_homophones_are_read_as_numbers_only_where_nothing_else_fits(text: str, plain: str) -> None:
    assert lx.plain_words(text) == plain


def test_having_lost_track_of_ones_loans_lists_them_and_reports_nothing_lost() -> None:
    with talking("library", pack=LIBRARY) as agent:
        result = agent.handle("s", "Good morning. I'm afraid I've lost track of which books I have at home and when "
                                   "they need to go back.")
        assert stack_of(agent) == [] and tools_of(result) == ["list_loans"]


# -- numbers and options ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Hello, I want to make reservation of one room for study, for me and my friend, small "
                                  "size please.", "a small one on the 9th at 3pm"])
def test_a_number_of_another_thing_or_one_standing_for_a_thing_is_no_length(text: str) -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_room"] and slots_of(agent, "book_room").get("hours") is None


def test_a_time_offered_after_the_one_taken_is_the_time_and_no_length() -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", "need a small room thursday at 11")
        agent.handle("s", "4 hours")
        result = agent.handle("s", "yes")
        assert "already booked" in result.reply
        result = agent.handle("s", "can we do 9:30 instead")
        assert slots_of(agent, "book_room") == {"room_size": "small", "when": "2026-12-03T09:30", "hours": 4}
        assert "go ahead" in result.reply


def test_an_option_said_between_the_day_and_the_time_is_still_read() -> None:
    with talking("salon", pack=SALON) as agent:
        agent.handle("s", "Well, I'd like a haircut on Friday morning with Jade, around ten")
        assert {"stylist": "Jade", "when": "2026-12-04T10:00"}.items() <= slots_of(agent, "book_appointment").items()
