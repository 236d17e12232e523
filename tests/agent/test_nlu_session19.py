"""Everyday readings fixed in the nineteenth session: yes and no in Nigerian English, Taglish, a teenager's and an office's
words ('Oya go ahead', 'sige po', 'yes omg', 'Approved, please action.'); two orders in one message, each with its own
task; a wish with its values for a booking that finds its own flight, past the tie; more of what a look-up found ('any
others?'); counts said as a form's field or with 'more' ('passengers: 2', '2 more days'); an option said in its own
words is no day ('for the weekend'); a question put inside a request, asked outright."""

from __future__ import annotations

import pytest

from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

TOOLHIRE = PACKS / "toolhire"
YOGA = PACKS / "yogastudio"


def _is_yes(text: str) -> bool:
    return bool(lx.AFFIRM.match(lx.plain_words(text)))


# -- yes and no in more voices --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Oya go ahead", "No wahala, go ahead", "Sharp sharp, send am", "sige po", "oo, sige",
                                  "literally yes", "yes omg", "whatever yeah do it", "Confirmed, please action.",
                                  "Approved, please action.", "Yes, please action the alert as well.", "spot on mate",
                                  "Correct in every particular. Proceed.", "yep, charge it to my card",
                                  "lgtm, book it", "Yes oo, go ahead", "Ebi so, go ahead", "Proper, sorted, book it",
                                  "Right, proper. Go on then, book it", "It is good for me, voilà", "Oui, yes",
                                  "Voilà, it is perfect, you can reserve", "Da, is correct", "Da, book", "yes, sadly",
                                  "yes comma go ahead period"])
def test_a_yes_in_its_own_voice_is_a_yes(text: str) -> None:
    assert _is_yes(text)


@pytest.mark.parametrize("text", ["whatever", "omg no", "charge it", "lol", "no, I'm not sure"])
def test_the_words_said_with_a_yes_are_no_yes_alone(text: str) -> None:
    assert not _is_yes(text)


def test_a_yes_in_nigerian_english_books_the_flight_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me a flight from Boston to Chicago on Dec 15")
        result = agent.handle("s", "Oya, go ahead")
        assert tools_of(result) == ["search_flights", "create_booking"] and stack_of(agent) == []


def test_hindi_na_to_the_offer_to_go_back_drops_the_paused_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a flight from London to Paris")
        agent.handle("s", "wait, check BK-31337 first")
        result = agent.handle("s", "hindi na po, may flight na pala ako")
        assert stack_of(agent) == [] and "book_flight" in result.transitions["cancelled"]


# -- Taglish requests -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("said", "plain"), [
    ("Hi po, pwede po ba mag book ng flight from New York to Los Angeles?", "Hi, can I book the flight from New York to Los Angeles?"),
    ("pls po i-email niyo sa akin, maria.santos@yahoo.com", "pls email it to me, maria.santos@yahoo.com"),
    ("sige po book ko na yung cheapest, 3 kami", "ok I'll book the cheapest, we are 3"),
    ("ay 4 pala kami", "ay we are 4"),
])
def test_taglish_is_read_in_plain_english(said: str, plain: str) -> None:
    assert lx.plain_words(said) == plain


@pytest.mark.parametrize("text", ["I need a PO box address", "we are going to Paris", "Send it to Nina Ko", "book Ko Samui"])
def test_english_words_like_taglish_ones_are_left_alone(text: str) -> None:
    assert lx.plain_words(text) == text


def test_pwede_po_ba_mag_book_starts_the_booking_with_its_cities() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Hi po, pwede po ba mag book ng flight from New York to Los Angeles?")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "New York", "destination": "Los Angeles"}.items() <= slots_of(agent, "book_flight").items()


# -- two orders in one message --------------------------------------------------------------------------------------
def test_a_reminder_and_an_itinerary_for_two_bookings_are_both_done_in_turn() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Set a check-in reminder for BK-12345 and email the itinerary for BK-31337 to ops@travelco.com")
        assert stack_of(agent) == ["send_itinerary", "checkin_reminder"]
        assert slots_of(agent, "checkin_reminder")["booking_ref"] == "BK-12345" and "go ahead" in result.reply
        agent.handle("s", "yes")
        assert stack_of(agent) == ["send_itinerary"]
        assert slots_of(agent, "send_itinerary")["booking_ref"] == "BK-31337"


def test_a_check_and_a_reminder_asked_together_check_first() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hello! please check BK-12345, and please set a check-in reminder for it")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == ["checkin_reminder"]


def test_items_announced_before_a_colon_are_each_queued() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Two items for Mr. Hale, please: cancel booking BK-31337, and set up a price alert for "
                          "Boston to Chicago under $150.")
        assert stack_of(agent) == ["price_alert", "cancel_booking"]


def test_an_order_then_more_of_the_same_look_up_is_one_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Kindly check booking BK-20481 for Ms. Okafor and confirm the departure date.")
        assert stack_of(agent) == []


# -- which task -------------------------------------------------------------------------------------------------------
def test_a_party_that_needs_flights_from_a_city_starts_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "me and 3 of the squad need flights out of chicago")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "Chicago", "passengers": 4}.items() <= slots_of(agent, "book_flight").items()


@pytest.mark.parametrize("text", ["I need flights from boston to chicago, what do you have?",
                                  "need flights to paris from london, show me options"])
def test_a_wish_to_see_flights_still_searches(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["search_flights"]


@pytest.mark.parametrize("text", ["any others?", "What else can you find?", "Do you have anything else?",
                                  "ok, any other options?"])
def test_more_of_what_a_search_found_searches_again(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "show me flights from boston to chicago on dec 15")
        result = agent.handle("s", text)
        assert tools_of(result) == ["search_flights"]
        assert "Boston to Chicago" in result.reply


def test_where_were_we_with_nothing_open_asks_no_question_of_the_faq() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Where were we?")
        assert tools_of(result) == [] and result.understanding["rule"] == "asks_status"


@pytest.mark.parametrize("text", ["hi cn i hire a pressure washr for the wknd",
                                  "I'm painting the house and need to get up to the gutters, can I hire a ladder?"])
def test_asking_to_hire_a_tool_hires_it_rather_than_pricing_it(text: str) -> None:
    with talking("toolhire", pack=TOOLHIRE) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["hire_tool"]


def test_what_it_costs_to_hire_asks_the_price() -> None:
    with talking("toolhire", pack=TOOLHIRE) as agent:
        result = agent.handle("s", "What does it cost to hire a cement mixer?")
        assert tools_of(result) == ["get_prices"]


def test_a_question_put_inside_a_request_is_asked_outright() -> None:
    assert lx.plain_words("Could you tell me which classes I am booked into, please?") == \
        "Could you tell me which classes am I booked into, please?"
    with talking("yogastudio", pack=YOGA) as agent:
        result = agent.handle("s", "Could you tell me which classes I am booked into, please?")
        assert tools_of(result) == ["list_bookings"]


# -- values -----------------------------------------------------------------------------------------------------------
def test_a_numbered_list_of_fields_gives_each_its_value() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I wish to book a flight. Parameters as follows: 1) origin: Boston; 2) destination: Chicago; "
                          "3) date: 2026-12-15; 4) passengers: 2.")
        assert {"origin": "Boston", "destination": "Chicago", "date": "2026-12-15", "passengers": 2}.items() \
            <= slots_of(agent, "book_flight").items()


def test_an_amount_in_us_dollars_is_the_alert_price() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "set a price alert from new york to los angeles on dec 20, threshold 250 US dollars")
        assert slots_of(agent, "price_alert")["max_price"] == {"amount": 250.0, "currency": "USD"}
        assert "go ahead" in result.reply


@pytest.mark.parametrize(("text", "days"), [("gonna need to keep the mixer 2 more days, ref HP-2042", 2),
                                            ("extend HP-2042 by 3 extra days", 3)])
def test_more_days_are_the_days_added(text: str, days: int) -> None:
    with talking("toolhire", pack=TOOLHIRE) as agent:
        agent.handle("s", text)
        assert slots_of(agent, "extend_hire")["extra_days"] == days


def test_an_option_said_in_its_own_words_is_no_day() -> None:
    with talking("toolhire", pack=TOOLHIRE) as agent:
        agent.handle("s", "I want to hire a cement mixer for Friday")
        agent.handle("s", "for the weekend")
        assert {"start_date": "2026-12-04", "hire_period": "weekend"}.items() <= slots_of(agent, "hire_tool").items()


def test_a_weekday_and_its_date_with_an_option_of_the_same_words_keep_both() -> None:
    with talking("toolhire", pack=TOOLHIRE) as agent:
        agent.handle("s", "Can I hire a carpet cleaner on Saturday 12th December for the weekend")
        assert {"start_date": "2026-12-12", "hire_period": "weekend"}.items() <= slots_of(agent, "hire_tool").items()


def test_a_value_said_instead_after_scratch_that_puts_the_value_right() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need a flight from Chicago to New York")
        agent.handle("s", "nah scratch that, boston instead")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "Chicago", "destination": "Boston"}.items() <= slots_of(agent, "book_flight").items()


def test_scratch_that_alone_still_stops_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need a flight from Chicago to New York")
        result = agent.handle("s", "nah scratch that")
        assert stack_of(agent) == [] and "book_flight" in result.transitions["cancelled"]


# -- the sixty-ninth round ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Hmm wait, no, leave it, I will still travel", "no period"])
def test_a_no_in_its_own_voice_is_a_no(text: str) -> None:
    assert lx.DENY.match(lx.plain_words(text))


@pytest.mark.parametrize("text", ["Nah forget it bruv, can't be bothered", "cancel that period",
                                  "On reflection, do not proceed with the reminder; that will be all."])
def test_a_stop_in_its_own_voice_is_a_stop(text: str) -> None:
    assert lx.CANCEL.match(lx.plain_words(text))


@pytest.mark.parametrize(("said", "written"), [("yes comma go ahead period", "yes, go ahead."),
                                               ("can I change it question mark", "can I change it?"),
                                               ("what is the cancellation period", "what is the cancellation period"),
                                               ("is there a grace period", "is there a grace period")])
def test_punctuation_said_aloud_is_written(said: str, written: str) -> None:
    assert lx.plain_words(said) == written


@pytest.mark.parametrize("text", ["Cheers mate, that's peak, laters", "cheers, that's sorted, laters"])
def test_london_goodbyes_close(text: str) -> None:
    assert lx.is_closing(lx.plain_words(text))


def test_a_status_question_then_a_reminder_set_an_all_does_both() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Yo what's the status of BK-20481, and set us a check-in reminder for it an' all")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == ["checkin_reminder"]
        assert slots_of(agent, "checkin_reminder")["booking_ref"] == "BK-20481"


def test_items_counted_off_are_each_done() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "I require two things: first, a search for flights from New York to Los Angeles on "
                                   "15 December; second, a check-in reminder for BK-12345.")
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == ["checkin_reminder"]


def test_is_possible_change_a_named_booking_asks_for_the_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Is possible change date for booking BK-12345?")
        assert stack_of(agent) == ["modify_booking"]
        assert slots_of(agent, "modify_booking")["booking_ref"] == "BK-12345"


def test_booking_after_a_search_books_what_was_searched() -> None:
    with talking("travel") as agent:
        agent.handle("s", "show me flights from boston to chicago on dec 15")
        result = agent.handle("s", "ok, book a flight")
        assert {"origin": "Boston", "destination": "Chicago", "date": "2026-12-15"}.items() \
            <= slots_of(agent, "book_flight").items()
        assert "go ahead" in result.reply and tools_of(result) == []


def test_booking_other_places_after_a_search_carries_nothing_of_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "show me flights from boston to chicago on dec 15")
        agent.handle("s", "I want to book a flight to Paris from London")
        held = slots_of(agent, "book_flight")
        assert {"origin": "London", "destination": "Paris"}.items() <= held.items() and held.get("date") is None


def test_a_booking_named_by_its_reference_is_no_new_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to mice my flight BK-12345 to the 18th")
        assert "book_flight" not in stack_of(agent)


def test_a_yes_then_a_side_question_at_the_read_back_books_and_answers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", "Yes, that's correct. Can I bring my cat?")
        assert tools_of(result) == ["search_flights", "create_booking", "answer_faq"]
        assert stack_of(agent) == [] and "booked" in result.reply and "cabin" in result.reply


@pytest.mark.parametrize("text", ["yes but can I bring my cat?", "Yes. Can you also set a price alert?"])
def test_a_yes_with_a_doubt_or_a_request_books_nothing_yet(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result)


@pytest.mark.parametrize(("text", "said"), [('7 o"clock in the evening', '7 o"clock in the evening'),
                                            ("quarter past 6 in the evening", "quarter past 6 in the evening"),
                                            ("at 8 o clock", "8 o clock")])
def test_a_time_keeps_its_part_of_the_day_and_any_way_of_writing_o_clock(text: str, said: str) -> None:
    from dialstack.state.times import find_times
    (_, start, end), = find_times(text)
    assert text[start:end] == said


# -- the seventieth round -----------------------------------------------------------------------------------------
GP = PACKS / "gpsurgery"
BOATS = PACKS / "boathire"


@pytest.mark.parametrize("text", ["aye, gaun yersel", "aye, fire it ower"])
def test_a_scots_yes_is_a_yes(text: str) -> None:
    assert _is_yes(text)


@pytest.mark.parametrize(("said", "plain"), [("naw? whit aboot Edinburgh then", "no? what about Edinburgh then"),
                                             ("a flight fae Glasgow tae London", "a flight from Glasgow to London"),
                                             ("I should like to know whether it is still in order",
                                              "I should like to know whether it is still confirmed")])
def test_scots_and_indian_english_are_read_in_plain_words(said: str, plain: str) -> None:
    assert lx.plain_words(said) == plain


def test_dont_book_anything_as_of_now_i_will_revert_stops_the_booking() -> None:
    text = "Sorry, please don't book anything as of now, I will revert after my manager's approval."
    assert lx.CANCEL.match(lx.plain_words(text))


def test_thanks_for_the_prompt_support_asks_nothing() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Thanks for the prompt support.")
        assert tools_of(result) == [] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["For the day 18", "I want to make a reservation for the day 18"])
def test_the_day_and_its_number_is_a_day_of_the_month(text: str) -> None:
    from datetime import date

    from dialstack.state.dates import find_dates
    assert [d for d, _, _ in find_dates(text, date(2026, 12, 1))] == [date(2026, 12, 18)]


@pytest.mark.parametrize("text", ["Could you kindly tell me which cities your company flies to?",
                                  "my son tells me I must 'check in' before I fly. What does that mean, please?"])
def test_what_a_word_means_or_which_cities_are_flown_is_a_side_question(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_a_request_then_a_side_question_joined_by_and_does_both() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "can u set a checkin reminder for BK-20481 and whats the baggage allowence")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["checkin_reminder"]


def test_i_see_then_a_request_is_the_request() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I see. Then I should be grateful if you would remind me to check in for my flight, "
                          "reference BK-31337.")
        assert stack_of(agent) == ["checkin_reminder"]


def test_a_typed_request_for_a_new_test_makes_one() -> None:
    with talking("gpsurgery", pack=GP) as agent:
        agent.handle("s", "hi can i bok a blood tset for tomorow morning pls")
        assert stack_of(agent) == ["book_blood_test"]


def test_an_example_in_other_words_but_values_it_cannot_hold_is_no_example_of_it() -> None:
    with talking("gpsurgery", pack=GP) as agent:
        agent.handle("s", "Can I book a face to face with a GP please?")
        assert stack_of(agent) == ["book_appointment"]
        assert {"clinician": "GP", "mode": "face-to-face"}.items() <= slots_of(agent, "book_appointment").items()


def test_a_short_reason_loses_its_article_but_a_story_keeps_it() -> None:
    with talking("gpsurgery", pack=GP) as agent:
        agent.handle("s", "I need a fit note please, I've been off since last monday")
        agent.handle("s", "a slipped disc")
        assert slots_of(agent, "sick_note")["reason"] == "slipped disc"


def test_forget_it_to_the_offer_to_go_back_drops_the_task_offered() -> None:
    with talking("gpsurgery", pack=GP) as agent:
        agent.handle("s", "I'd like to book an appointment with the pharmacist")
        agent.handle("s", "actually what appointments have I got?")
        result = agent.handle("s", "ah I've already got one with the pharmacist, forget it then")
        assert stack_of(agent) == [] and "book_appointment" in result.transitions["cancelled"]


@pytest.mark.parametrize("text", ["hey r we allowed to take a boat out without an adult? im 17",
                                  "ok good to know. and is there a minimum age for the motorboats?"])
def test_what_the_service_allows_is_asked_of_the_side_task(text: str) -> None:
    with talking("boathire", pack=BOATS) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == []


def test_oh_no_what_about_sunday_puts_the_day_forward() -> None:
    with talking("boathire", pack=BOATS) as agent:
        agent.handle("s", "is there a motorboat free on saturday?")
        result = agent.handle("s", "oh no. what about sunday then")
        assert tools_of(result) == ["check_availability"] and "Dec 6" in result.reply


# -- the seventy-first round --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["sure that's grand, work away", "Jawohl, please book it.", "yep good as gold",
                                  "grand job, book it", "That is correct, thank you dear."])
def test_an_irish_german_or_australian_yes_is_a_yes(text: str) -> None:
    assert lx.agrees(lx.plain_words(text))


@pytest.mark.parametrize("text", ["ah go way, yer man just told me the conference is off. forget the flight",
                                  "hmm, no. she hasn't confirmed her dates yet. forget the new flight for now."])
def test_forget_the_flight_after_a_story_stops(text: str) -> None:
    assert lx.CANCEL.match(lx.plain_words(text))


def test_me_and_my_mam_are_two() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me and my mam from Boston to Chicago on the 31st")
        assert slots_of(agent, "book_flight")["passengers"] == 2


@pytest.mark.parametrize("text", ["check BK-20481 for me, also set a check-in reminder for it",
                                  "what's the status on BK-20481? also set a check-in reminder for it"])
def test_also_joins_two_requests(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == ["checkin_reminder"]


def test_a_yes_and_a_side_question_to_are_you_sure_cancels_and_answers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "yes cancel it. oh and btw do you fly to Tokyo?")
        assert tools_of(result) == ["cancel_booking", "answer_faq"] and stack_of(agent) == []


def test_a_day_something_else_was_moved_to_is_no_new_day() -> None:
    with talking("travel") as agent:
        agent.handle("s", "ok. my husband's surgery got moved to the 18th, so please move BK-12345 to Dec 20")
        assert slots_of(agent, "modify_booking")["new_date"] == "2026-12-20"


def test_a_weekday_said_for_every_one_is_the_next_one() -> None:
    from datetime import date

    from dialstack.state.dates import find_dates
    assert [d for d, _, _ in find_dates("loaves for Fridays at 7am", date(2026, 12, 1))] == [date(2026, 12, 4)]


def test_a_yes_with_the_tasks_own_verb_and_an_irish_filler_cancels() -> None:
    with talking("travel") as agent:
        agent.handle("s", "c'mere, I want to cancel BK-12345")
        result = agent.handle("s", "right so, go ahead and cancel it, sure look")
        assert tools_of(result) == ["cancel_booking"] and stack_of(agent) == []


def test_a_weekday_refused_in_the_plural_is_no_day() -> None:
    from datetime import date

    from dialstack.state.dates import find_dates
    assert [d for d, _, _ in find_dates("she cant do thursdays, tuesday the 8th", date(2026, 12, 1))] == [date(2026, 12, 8)]


@pytest.mark.parametrize(("text", "day"), [("book flight boston chicago december fifteen", "2026-12-15"),
                                           ("december twenty-one", "2026-12-21")])
def test_a_day_said_as_a_number_word_after_its_month_is_read(text: str, day: str) -> None:
    from datetime import date

    from dialstack.state.dates import find_dates
    assert [d.isoformat() for d, _, _ in find_dates(text, date(2026, 12, 1))] == [day]


@pytest.mark.parametrize("text", ["in december two of us are going", "may five of us come?"])
def test_a_count_after_a_month_or_may_is_no_day(text: str) -> None:
    from datetime import date

    from dialstack.state.dates import find_dates
    assert find_dates(text, date(2026, 12, 1)) == []


def test_an_amount_in_words_is_the_alert_price() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set price alert new york los angeles under two hundred dollars")
        assert slots_of(agent, "price_alert")["max_price"] == {"amount": 200.0, "currency": "USD"}


def test_a_wish_after_an_australian_greeting_books() -> None:
    with talking("travel") as agent:
        agent.handle("s", "g'day mate, need a flight Boston to Chicago on the 15th, just me")
        assert stack_of(agent) == ["book_flight"]


@pytest.mark.parametrize("text", ["hang on mate, at the servo, one sec", "hang on mate"])
def test_a_wait_with_where_one_is_asks_to_wait(text: str) -> None:
    assert lx.asks_to_wait(text)


def test_a_place_alone_after_hang_on_is_no_wait() -> None:
    assert not lx.asks_to_wait("hang on, at the airport now")
