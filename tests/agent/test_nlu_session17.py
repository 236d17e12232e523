"""Everyday readings fixed in the seventeenth session: ordinals misspelt or made the regular way ('desember the
twentyth'); a task done named as a thing ('from that search'); letters, slang and literal English ('Dear Sir, ...
kindly proceed. Yours faithfully', 'too easy, book it in', 'remember me to the check-in'); a name that is a car or a
registration; a moment said of what is held, or of what happened."""

from __future__ import annotations

from datetime import date

import pytest

from dialstack.agent import lexicon as lx
from dialstack.state.dates import find_dates
from dialstack.state.times import find_times

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

TODAY = date(2026, 12, 1)
GARAGE = PACKS / "motgarage"
LEISURE = PACKS / "leisurecentre"


# -- days ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "day"), [
    ("desember the twentyth", date(2026, 12, 20)),
    ("december the nineth", date(2026, 12, 9)),
    ("the twelveth of december", date(2026, 12, 12)),
    ("the fourtenth of jan", date(2027, 1, 14)),
    ("on the ninteenth", date(2026, 12, 19)),
])
def test_an_ordinal_misspelt_or_made_the_regular_way_is_the_day(text: str, day: date) -> None:
    assert [found for found, *_ in find_dates(text, TODAY)] == [day]


@pytest.mark.parametrize("text", ["seventy dollars", "back and forth all week"])
def test_a_word_one_letter_from_a_short_ordinal_is_no_day(text: str) -> None:
    assert find_dates(text, TODAY) == []


def test_a_new_date_in_misspelt_words_changes_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i wont to chaneg the date of my fligt BK-12345")
        result = agent.handle("s", "to desember the twentyth")
        assert stack_of(agent) == ["modify_booking"] and "go ahead" in result.reply
        assert slots_of(agent, "modify_booking")["new_date"] == "2026-12-20"


# -- carry-over ---------------------------------------------------------------------------------------------
def test_book_the_cheapest_from_that_search_books_what_the_search_found_after_a_side_question() -> None:
    with talking("travel") as agent:
        agent.handle("s", "What flights are there from New York to Los Angeles on December 17?")
        agent.handle("s", "Hmm. Do you also go to Denver? Just curious.")
        result = agent.handle("s", "No, forget Denver. Book the cheapest one from that search.")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply
        assert {"origin": "New York", "destination": "Los Angeles", "date": "2026-12-17"}.items() \
            <= slots_of(agent, "book_flight").items()


def test_a_route_flipped_back_after_a_side_question_corrects_both_ends_and_cancels_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I think I'd like to book a flight from Boston to Chicago... maybe?")
        agent.handle("s", "Hmm, or should I go the other way? Actually yes, Chicago to Boston.")
        agent.handle("s", "Oh, and if I change the date later, is there a fee for that?")
        agent.handle("s", "Okay. No, you know what, Boston to Chicago after all, like I first said.")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "Boston", "destination": "Chicago"}.items() <= slots_of(agent, "book_flight").items()


# -- which task ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["can you look up flights london to paris for - hang on", "look up flights"])
def test_a_look_up_of_flights_not_ones_own_searches_them(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["search_flights"]


def test_a_look_up_of_ones_own_flight_checks_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "look up my flight")
        assert stack_of(agent) == ["check_booking"]



def test_a_day_written_german_style_with_a_dot_is_the_day() -> None:
    assert [d for d, *_ in find_dates("It must be the 13. December, I have confused myself.", TODAY)] == [date(2026, 12, 13)]


@pytest.mark.parametrize(("text", "hour", "minute"), [("sat morning, 9ish", 9, 0), ("12.30 please", 12, 30), ("about 2ish", 14, 0)])
def test_an_hour_said_roughly_or_with_a_dot_alone_is_a_time(text: str, hour: int, minute: int) -> None:
    assert [(t.hour, t.minute) for t, *_ in find_times(text)] == [(hour, minute)]


@pytest.mark.parametrize("text", ["a 5ish minute wait", "it costs 12.50"])
def test_a_rough_count_or_a_price_is_no_time(text: str) -> None:
    assert find_times(text) == []


# -- yes, no, letting go, goodbye --------------------------------------------------------------------------
@pytest.mark.parametrize("yes", ["too easy, book it in", "yep no dramas, lock it in",
                                 "Dear Sir, that is entirely satisfactory; kindly proceed. Yours faithfully, M. Ellison",
                                 "ok, thank you, that helps a lot. yes go ahead and book"])
def test_a_yes_in_slang_in_a_letter_or_after_thanks_books_the_flight_read_back(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book a flight from London to Paris on the 18th")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"] and stack_of(agent) == []


def test_a_letter_is_read_without_its_salutation_and_its_close() -> None:
    assert lx.plain_words("Dear Sir or Madam, I should be most grateful if you would book a flight. Yours faithfully, "
                          "Margaret Ellison") == "I should be most grateful if you would book a flight."
    assert lx.plain_words("Kind regards, Tom") == "Kind regards, Tom"  # (nothing else said: kept whole)


@pytest.mark.parametrize("text", ["Upon further consideration I find the expense rather too great; kindly disregard my "
                                  "request altogether.", "actually I'm not sure I'm ready for this. can we stop? sorry"])
def test_letting_a_booking_go_in_formal_or_timid_words_cancels_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "I should like to reserve a seat on a flight from London to Paris on the fifth of January, please.")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and result.understanding["command"] == "cancel_flow"


@pytest.mark.parametrize("text", ["sweet as, catch ya later", "ok cool, ill book in another time, ta"])
def test_a_parting_in_slang_or_a_booking_put_off_starts_nothing(text: str) -> None:
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", "do you lot do courtesy cars? need one for work")
        agent.handle("s", text)
        assert stack_of(agent) == []


def test_what_is_missing_then_later_puts_the_task_off() -> None:
    with talking("leisurecentre", LEISURE) as agent:
        agent.handle("s", "freeze membership pls")
        agent.handle("s", "ugh i dont have my card on me, ill sort it another time")
        assert stack_of(agent) == []


# -- which task ---------------------------------------------------------------------------------------------
def test_what_someone_else_prefers_at_the_read_back_is_a_detail_of_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Hi, I'm booking travel for my boss. She needs a flight from Boston to Chicago on December 14th.")
        result = agent.handle("s", "She'd prefer an aisle seat if there's one.")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply and tools_of(result) == []
        assert slots_of(agent, "book_flight")["seat"] == "aisle" and slots_of(agent, "book_flight")["passengers"] == 1


@pytest.mark.parametrize("text", ["My boss needs to get from New York to Los Angeles on the 19th.",
                                  "Dear Sir, I require a flight from London to Paris on the 20th of December.",
                                  "hi um, I've never flown before and honestly I'm a bit terrified, but I have to get "
                                  "from Boston to Chicago on the 21st"])
def test_needing_to_get_somewhere_for_oneself_or_another_starts_a_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"]


def test_a_day_put_right_after_a_search_searches_again_on_that_day() -> None:
    with talking("travel") as agent:
        agent.handle("s", "What flights are there from Boston to Chicago on Dec 9 for three people?")
        result = agent.handle("s", "Sorry, my mistake, she meant the 10th, not the 9th.")
        assert tools_of(result) == ["search_flights"] and "December 10" in result.reply


@pytest.mark.parametrize("text", ["Quick question before I confirm: will they be seated together?",
                                  "Before I answer, might I ask whether you fly to Edinburgh at all?"])
def test_a_question_about_the_yes_or_asked_the_long_way_round_is_answered(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "Please book a flight from London to Paris on January 8th for two passengers.")
        result = agent.handle("s", text)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["book_flight"]


@pytest.mark.parametrize("text", ["Stop, before this please remember me to the check-in of BK-12345.",
                                  "Before you confirm that, can you set a check-in reminder for her booking BK-12345?"])
def test_another_task_first_pauses_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "I would like to fly from New York to Los Angeles on Friday the 18th.")
        agent.handle("s", text)
        assert stack_of(agent) == ["book_flight", "checkin_reminder"]


def test_say_me_when_the_price_falls_sets_a_price_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Can you say me when the price from London to Paris falls under 100 Euro?")
        assert stack_of(agent) == ["price_alert"]


def test_a_look_up_asked_for_without_booking_replaces_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I think I want to book a flight to Paris")
        agent.handle("s", "from London I guess")
        result = agent.handle("s", "maybe just show me what flights there are from london to paris on the 14th, not booking anything")
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == []


def test_a_task_asked_for_by_its_verb_about_ones_own_thing_is_not_a_new_booking() -> None:
    with talking("leisurecentre", LEISURE) as agent:
        agent.handle("s", "I need to cancel my yoga on saturday")
        assert stack_of(agent) == ["cancel_booking"]
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", "Hi I've got my MOT booked thursday but something's come up at work, can I move it?")
        assert stack_of(agent) == ["move_booking"] and slots_of(agent, "move_booking").get("new_when") is None


def test_while_ive_got_you_asks_nothing_about_ones_own_things() -> None:
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", "any news on BT66 KLM? been 3 days now")
        agent.handle("s", "ok. while I've got you, could I get a quote for some work on my other car as well")
        assert stack_of(agent) == ["report_fault"]


def test_a_wish_then_any_chance_of_a_moment_books_it() -> None:
    with talking("leisurecentre", LEISURE) as agent:
        agent.handle("s", "Hi I've just joined and need to do the gym induction before I'm allowed in the gym. "
                          "Any chance of Thursday morning around 10?")
        assert stack_of(agent) == ["book_session"] and slots_of(agent, "book_session")["when"] == "2026-12-03T10:00"


def test_something_lost_told_mid_booking_reports_it_and_keeps_the_booking() -> None:
    with talking("leisurecentre", LEISURE) as agent:
        agent.handle("s", "can I book a badminton court for friday at 6pm")
        agent.handle("s", "oh also my daughter left her water bottle in the sports hall on saturday, its pink with unicorns on")
        assert stack_of(agent) == ["book_session", "report_lost_item"]
        assert slots_of(agent, "book_session")["when"] == "2026-12-04T18:00"


# -- values -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Book an MOT for CU57 DWE on Sunday at 10am please", "MOT for RX70 AAB please, friday at 2"])
def test_a_registration_after_for_is_the_registration_not_a_name(text: str) -> None:
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", text)
        slots = slots_of(agent, "book_service")
        assert slots["registration"] is not None and slots.get("customer_name") is None


@pytest.mark.parametrize("text", ["Can you book my Astra in for an MOT and service",
                                  "Hello dear, I need my car in for its MOT please. It's a little red Fiesta."])
def test_a_car_by_its_make_is_no_customer_name(text: str) -> None:
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", text)
        assert slots_of(agent, "book_service").get("customer_name") is None


def test_a_moment_put_forward_as_a_question_answers_when() -> None:
    with talking("motgarage", GARAGE) as agent:
        agent.handle("s", "Could I book an MOT please")
        agent.handle("s", "It's KP19 XRT")
        agent.handle("s", "Could I come Wednesday the 9th? Mornings are best, about ten o'clock")
        assert slots_of(agent, "book_service")["when"] == "2026-12-09T10:00"


def test_confused_myself_counts_no_passenger() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Hello, I will become a ticket from London to Paris on 12 December for 2 people.")
        agent.handle("s", "No.")
        agent.handle("s", "The date. It must be the 13. December, I have confused myself.")
        slots = slots_of(agent, "book_flight")
        assert slots["date"] == "2026-12-13" and slots["passengers"] == 2


# -- round 64: dialects, waiting, several things in one message ------------------------------------------------
VET = PACKS / "vetpractice"
BROADBAND = PACKS / "broadband"


@pytest.mark.parametrize("yes", ["Lekker, yes please", "Sharp sharp, yes book it", "Yes abeg, do it", "back. yes book it"])
def test_a_yes_in_south_african_or_nigerian_english_or_on_coming_back_books(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "need flight. boston to chicago. dec 15")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_no_o_is_a_no_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "need flight. boston to chicago. dec 15")
        result = agent.handle("s", "No o")
        assert result.understanding["command"] == "deny" and stack_of(agent) == ["book_flight"]


@pytest.mark.parametrize("wait", ["paged. brb", "one sec", "hold on, let me look at my calendar",
                                  "I'm coming, let me look at my calendar"])
def test_asking_to_wait_keeps_the_read_back_and_runs_nothing(wait: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "need flight. boston to chicago. dec 15")
        result = agent.handle("s", wait)
        assert stack_of(agent) == ["book_flight"] and tools_of(result) == []
        assert result.reply.startswith("Sure, take your time.") and "go ahead" in result.reply


def test_a_yes_the_user_will_give_later_confirms_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-20481")
        result = agent.handle("s", "I'm coming, let me confirm from my wife first")
        assert stack_of(agent) == ["cancel_booking"] and tools_of(result) == []


def test_a_status_asked_with_letters_swapped_checks_the_booking() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "stauts BK-20481")
        assert tools_of(result) == ["get_booking"]


@pytest.mark.parametrize(("said", "slot", "value"), [
    ("Make that 2 passengers, and can I bring my cat in the cabin?", "passengers", 2),
    ("Wait, how much can I carry on, and switch it to the 15th please", "date", "2026-12-15"),
])
def test_a_change_said_beside_a_side_question_is_made_and_the_question_answered(said: str, slot: str, value: object) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book boston to chicago dec 31")
        result = agent.handle("s", said)
        assert tools_of(result) == ["answer_faq"] and slots_of(agent, "book_flight")[slot] == value
        assert "go ahead" in result.reply


def test_an_answer_said_beside_a_look_up_of_another_booking_is_kept() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a flight")
        result = agent.handle("s", "New York to Los Angeles, and is BK-20481 still confirmed?")
        assert tools_of(result) == ["get_booking"]
        assert {"origin": "New York", "destination": "Los Angeles"}.items() <= slots_of(agent, "book_flight").items()


@pytest.mark.parametrize("text", ["Please cancel BK-31337 for me. How much of the fare will I get back?",
                                  "Please cancel BK-31337 for me, and also how much of the fare will I get back?"])
def test_a_request_then_a_question_about_it_answers_and_asks_are_you_sure(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["cancel_booking"]
        assert "Are you sure" in result.reply


def test_a_change_and_an_alert_in_one_message_do_both_in_turn() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Change BK-20481 to Dec 15 and set me a price alert for London to Paris under $120, thanks")
        assert stack_of(agent) == ["price_alert", "modify_booking"]


@pytest.mark.parametrize(("text", "origin"), [("I want to fly from New York... no, Boston, to Chicgo", "Boston"),
                                              ("I want to fly from New York - no, Boston, to Chicago", "Boston")])
def test_a_place_taken_back_after_a_pause_gives_way_to_the_next(text: str, origin: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert slots_of(agent, "book_flight")["origin"] == origin


def test_a_value_held_said_again_keeps_its_slot() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to fly from Boston to Chicago")
        agent.handle("s", "Actually was it New York I said? No no, Boston is right")
        assert {"origin": "Boston", "destination": "Chicago"}.items() <= slots_of(agent, "book_flight").items()


def test_the_last_of_two_repairs_in_one_turn_stands() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a price alert boston to chicago")
        result = agent.handle("s", "Hmm, actually is $100 too low? Make it $130. No, $120.")
        assert "$120" in result.reply


def test_scrapping_the_task_as_an_idea_then_asking_a_question_answers_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a price alert boston to chicago under 120 dollars")
        result = agent.handle("s", "Meh, scrap the alert idea. What's flying Boston to Chicago on Dec 15?")
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == []


def test_an_option_named_is_no_pets_name_and_a_pet_is_named_like_a_person() -> None:
    with talking("vetpractice", VET) as agent:
        agent.handle("s", "could you book my dog in to see Dr Patel on Thursday at 10am?")
        slots = slots_of(agent, "book_appointment")
        assert slots["vet"] == "Dr Patel" and slots.get("pet_name") is None
    with talking("vetpractice", VET) as agent:
        agent.handle("s", "Hi there, our rabbit Clover hasn't been eating her hay properly, could I get her seen on "
                          "Friday morning, say 9:30?")
        assert slots_of(agent, "book_appointment")["pet_name"] == "Clover"
    with talking("vetpractice", VET) as agent:
        agent.handle("s", "can i get a repeat of apoquel for Bella pls, shes nearly out")
        assert slots_of(agent, "repeat_prescription")["pet_name"] == "Bella"


def test_a_name_slot_takes_the_name_not_the_rest_of_the_message() -> None:
    with talking("vetpractice", VET) as agent:
        result = agent.handle("s", "have Bella's blood results come back yet? the vet said 2-3 days and I'm going out of my mind")
        assert tools_of(result) == ["get_test_results"]


def test_an_emergency_told_mid_booking_of_the_same_pet_is_reported() -> None:
    with talking("vetpractice", VET) as agent:
        agent.handle("s", "can I book my cat in for a checkup")
        result = agent.handle("s", "omg hang on the cat's just collapsed in the hallway and she's breathing really weird")
        assert tools_of(result) == ["emergency_line"] and stack_of(agent) == ["book_appointment"]


def test_same_time_on_another_day_keeps_the_time_checked() -> None:
    with talking("vetpractice", VET) as agent:
        agent.handle("s", "hiya cud u chek my apointment VA-1001 pls x")
        agent.handle("s", "can we move it to fri same time")
        assert slots_of(agent, "move_appointment")["new_when"] == "2026-12-04T10:00"


@pytest.mark.parametrize(("text", "day"), [("started on sunday i think", date(2026, 11, 29)),
                                           ("cutting out since yesterday", date(2026, 11, 30)),
                                           ("about 2 hours ago", date(2026, 12, 1))])
def test_a_day_asked_of_the_past_is_the_day_gone_by(text: str, day: date) -> None:
    assert [d for d, *_ in find_dates(text, TODAY, past=True)] == [day]


def test_answers_to_a_details_or_notes_question_are_kept_whole() -> None:
    with talking("broadband", BROADBAND) as agent:
        agent.handle("s", "hi need to report a fualt")
        agent.handle("s", "bb-330921")
        agent.handle("s", "this morning")
        agent.handle("s", "router is flashing orange and nothing will load, tried turning it off and on already")
        assert slots_of(agent, "report_fault")["details"].startswith("router is flashing orange")


def test_what_are_you_able_to_sort_out_asks_for_help() -> None:
    assert lx.HELP.match("is this automated? what are you able to sort out for me")
