"""Everyday readings fixed in the thirteenth session: a closing at a read-back asks again; a task's own
verb taken back drops it; a change's 'to' names the new moment; a wish for this booking is no standing
preference; more ways of letting go, of asking what is allowed and of saying a time."""

from __future__ import annotations

from datetime import time

import pytest

from dialstack.agent import lexicon as lx
from dialstack.agent.freetext import in_capitals_only
from dialstack.state.times import find_times

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

BOOK_CHICAGO = "book a flight from boston to chicago on dec 15"


# -- a closing at a read-back says neither yes nor no -----------------------------------------------------
@pytest.mark.parametrize("text", ["lovely, that's everything, thanks", "that's all, thanks", "perfect, that's everything"])
def test_a_closing_at_a_read_back_asks_again_and_neither_books_nor_drops(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", text)
        assert tools_of(result) == [] and stack_of(agent) == ["book_flight"]
        assert "shall I go ahead" in result.reply


def test_a_goodbye_at_a_read_back_leaves_and_books_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", "thats everything i need thanks bye")
        assert tools_of(result) == [] and stack_of(agent) == []


def test_no_thanks_at_a_read_back_still_drops_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", "no thats all thanks")
        assert tools_of(result) == [] and stack_of(agent) == []


# -- the task's own verb taken back ----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["no don't book it, I've changed my mind about the whole trip", "dont book it",
                                  "please don't book that after all"])
def test_the_tasks_own_verb_taken_back_drops_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result) and stack_of(agent) == []


def test_the_verb_taken_back_then_another_request_does_that_request() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", "no dont book it, just search flights instead")
        assert tools_of(result) == ["search_flights"] and "create_booking" not in tools_of(result)


@pytest.mark.parametrize("text", ["don't book it yet", "don't book it until friday"])
def test_a_wait_is_no_verb_taken_back(text: str) -> None:
    assert not lx.DONT_DO_IT.match(text)


# -- letting go in more words ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["actually let's just leave it as it is, ignore me",
                                  "don't have the ref to hand sorry, just leave it",
                                  "hmm no idea where my letter with the number is... forget it for now"])
def test_letting_a_change_go_in_everyday_words_drops_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to change my booking")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == []


@pytest.mark.parametrize("text", ["ta, laters", "ttyl", "great stuff, thank you so much, bye"])
def test_british_and_texted_partings_close(text: str) -> None:
    assert lx.is_closing(text)


def test_a_no_then_a_remark_declines_the_offer_to_go_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago")
        agent.handle("s", "can you check BK-20481")
        agent.handle("s", "nope, no need now, that's the trip I was thinking of")
        assert stack_of(agent) == []


def test_a_no_then_a_value_to_the_offer_to_go_back_is_no_decline() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston")
        agent.handle("s", "can you check BK-20481")
        agent.handle("s", "no, to miami please")
        assert "book_flight" in stack_of(agent)


# -- a wish for this booking, and values of a change ----------------------------------------------------
def test_a_wish_said_with_a_booking_is_a_detail_of_that_booking() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "My sister and I would like to fly London to Paris on the 15th of January, "
                                   "we'd both prefer a window seat")
        assert stack_of(agent) == ["book_flight"] and tools_of(result) == []
        assert slots_of(agent, "book_flight").items() >= {"passengers": 2, "seat": "window", "origin": "London"}.items()


def test_a_standing_preference_still_saves_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "I prefer aisle seats")
        assert tools_of(result) == ["save_preferences"]


def test_x_would_be_better_than_y_replaces_y() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book boston to denver on the 10th of december")
        agent.handle("s", "hmm on reflection chicago would be better than denver")
        assert slots_of(agent, "book_flight").items() >= {"origin": "Boston", "destination": "Chicago"}.items()


@pytest.mark.parametrize("text", ["can i move my saturday session DS-2002 to monday",
                                  "can i move DS-2002 from saturday to monday"])
def test_a_change_to_a_day_takes_the_day_after_to(text: str) -> None:
    with talking("dialysisunit", PACKS / "dialysisunit") as agent:
        agent.handle("s", text)
        assert slots_of(agent, "swap_session")["new_when"] == "2026-12-07"


def test_a_change_of_a_flight_date_takes_the_date_after_to() -> None:
    with talking("travel") as agent:
        agent.handle("s", "move my dec 15 flight BK-12345 to dec 20")
        assert slots_of(agent, "modify_booking")["new_date"] == "2026-12-20"


def test_rather_than_the_task_in_progress_replaces_it() -> None:
    with talking("dialysisunit", PACKS / "dialysisunit") as agent:
        agent.handle("s", "I want to book an extra session on Friday")
        agent.handle("s", "hmm actually no, rather than an extra one can I just move my Saturday one DS-2002 to Friday instead")
        assert stack_of(agent) == ["swap_session"]


def test_the_named_value_is_wrong_asks_for_it_again() -> None:
    with talking("dialysisunit", PACKS / "dialysisunit") as agent:
        for turn in ("need a lift to dialysis on saturday morning at 7:30", "no i can walk fine", "12 Rose Cottages, Hebden Bridge"):
            agent.handle("s", turn)
        result = agent.handle("s", "no, the pickup address is wrong")
        assert "pickup_address" not in slots_of(agent, "book_transport")
        assert slots_of(agent, "book_transport")["wheelchair"] == "no" and "address" in result.reply


@pytest.mark.parametrize(("answer", "kept"), [("Galway in Ireland", "Galway in Ireland"),
                                              ("The Old Rectory, Church Lane, Little Snoring",
                                               "The Old Rectory, Church Lane, Little Snoring")])
def test_a_place_answer_is_kept_whole(answer: str, kept: str) -> None:
    with talking("dialysisunit", PACKS / "dialysisunit") as agent:
        if answer.startswith("The"):
            for turn in ("need a lift to dialysis on saturday morning at 7:30", "no"):
                agent.handle("s", turn)
            agent.handle("s", answer)
            assert slots_of(agent, "book_transport")["pickup_address"] == kept
        else:
            for turn in ("can you arrange holiday dialysis for me", "leaving on the 2nd of feb", "3 weeks"):
                agent.handle("s", turn)
            agent.handle("s", answer)
            assert slots_of(agent, "holiday_dialysis")["destination"] == kept


# -- questions of what is allowed, look-ups in phrasal verbs ---------------------------------------------
@pytest.mark.parametrize("text", ["are children allowed to travel on their own?", "is my dog allowed in the cabin?",
                                  "do you allow pets?"])
def test_asking_whether_something_is_allowed_is_answered(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_a_question_at_a_read_back_is_answered_and_the_read_back_stands() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", "before I say yes, are children allowed to travel on their own?")
        assert tools_of(result) == ["answer_faq"] and "shall I go ahead" in result.reply


@pytest.mark.parametrize("text", ["actually before that, can you bring up my existing reservation",
                                  "can u pull up my reservation"])
def test_pulling_up_a_reservation_checks_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to book a flight from london")
        agent.handle("s", text)
        assert stack_of(agent) == ["book_flight", "check_booking"]


def test_a_question_in_the_faqs_words_right_after_a_check_is_answered() -> None:
    with talking("travel") as agent:
        agent.handle("s", "can you check BK-20481")
        result = agent.handle("s", "does that flight come with a free checked bag?")
        assert tools_of(result) == ["answer_faq"]


# -- times ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "said"), [("7.30 in the morning", time(7, 30)), ("by 7.30", time(7, 30)),
                                            ("12.30 this afternoon", time(12, 30))])
def test_a_dotted_time_with_its_part_of_the_day_is_a_time(text: str, said: time) -> None:
    assert [t for t, _, _ in find_times(text)] == [said]


@pytest.mark.parametrize("text", ["$7.30 in the morning", "it costs 7.30"])
def test_a_price_with_a_dot_is_no_time(text: str) -> None:
    assert find_times(text) == []


@pytest.mark.parametrize(("said", "meant"), [("wednesday at 4, no sorry, 5", "2026-12-02T17:00"),
                                             ("wednesday at 4 no wait make it 5", "2026-12-02T17:00")])
def test_an_hour_repaired_in_the_same_breath_wins(said: str, meant: str) -> None:
    with talking("menoclinic", PACKS / "menoclinic") as agent:
        agent.handle("s", "need to book a nurse appt")
        agent.handle("s", said)
        assert slots_of(agent, "book_appointment")["when"] == meant


# -- the fifty-first round ---------------------------------------------------------------------------------
def test_how_much_one_is_allowed_to_bring_is_answered_whatever_trip_it_names() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Good morning, I am flying out to see my grandchildren after Christmas and I was "
                                   "wondering how much luggage I am allowed to bring along with me. Many thanks.")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_or_must_they_asks_what_is_allowed() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "And may I keep my walking stick with me in the cabin, or must it go in the hold?")
        assert tools_of(result) == ["answer_faq"]


def test_a_long_thanks_for_today_after_a_booking_searches_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        agent.handle("s", "Yes please, that would be lovely.")
        result = agent.handle("s", "Thank you ever so much, that is everything for today.")
        assert tools_of(result) == [] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["eh, don't bother with any of it, I'll just take the train",
                                  "ok I'll look at trains instead, bye"])
def test_doing_it_another_way_oneself_drops_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_search_of_another_route_mid_booking_pauses_the_booking_unchanged() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from new york to los angeles")
        result = agent.handle("s", "oh random q, are there any boston to chicago flights on the 15th and what do they go for?")
        assert tools_of(result) == ["search_flights"]
        assert slots_of(agent, "book_flight").items() >= {"origin": "New York", "destination": "Los Angeles"}.items()


@pytest.mark.parametrize("text", ["lmk if flights nyc to miami ever go under 200 bucks",
                                  "let me know if flights from new york to london go under $400"])
def test_being_told_when_a_fare_goes_under_a_price_sets_an_alert(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["price_alert"]
        assert {"origin", "destination", "max_price"} <= set(slots_of(agent, "price_alert"))


def test_let_me_know_when_my_flight_leaves_sets_no_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "let me know when my flight leaves")
        assert "price_alert" not in stack_of(agent)


def test_a_no_that_asks_to_try_again_is_no_decline_but_a_no_to_anything_else_is() -> None:
    from dialstack.agent.nlu import _asks_more
    assert _asks_more("try again") and _asks_more("something else please")
    assert not _asks_more("I don't need anything else.") and not _asks_more("nothing else thanks")


def test_a_shortened_verb_is_the_pack_word_it_shortens() -> None:
    with talking("inrclinic", PACKS / "inrclinic") as agent:
        agent.handle("s", "need 2 resched my blood test")
        assert stack_of(agent) == ["move_inr_test"]


def test_its_fine_never_mind_drops_the_call_back_and_looks_nothing_up() -> None:
    with talking("inrclinic", PACKS / "inrclinic") as agent:
        agent.handle("s", "I had a nosebleed this morning that took about twenty minutes to stop")
        result = agent.handle("s", "oh it's fine actually, never mind, it's stopped now and I'll mention it at my next test")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_thing_in_capitals_is_no_patients_name() -> None:
    with talking("orthotics", PACKS / "orthotics") as agent:
        agent.handle("s", "hiya, my little boy needs to come in for a fitting for his new AFOs")
        assert "patient_name" not in slots_of(agent, "book_appointment")


def test_a_verb_with_its_particle_names_the_task() -> None:
    with talking("orthotics", PACKS / "orthotics") as agent:
        agent.handle("s", "Can you call off my casting appointment please")
        assert stack_of(agent) == ["cancel_appointment"]


def test_a_fault_is_told_as_a_story() -> None:
    with talking("orthotics", PACKS / "orthotics") as agent:
        agent.handle("s", "My daughter's wrist splint needs mending, can I send it in for repair")
        agent.handle("s", "the velcro strap's worn right through so it keeps slipping off")
        assert "strap" in str(slots_of(agent, "order_repair")["fault"])


def test_dropping_a_task_to_do_it_oneself_starts_nothing() -> None:
    with talking("orthotics", PACKS / "orthotics") as agent:
        agent.handle("s", "the knee joint on my prosthetic leg has broken and needs fixing")
        agent.handle("s", "hmm actually forget the repair, I'll just drop it in to reception myself")
        assert stack_of(agent) == []


# -- what the review of this session's rules found --------------------------------------------------------
@pytest.mark.parametrize("text", ["don't book it, the date is wrong", "don't book it, it should be the 19th",
                                  "don't book it, is there an earlier flight?"])
def test_the_verb_taken_back_then_a_repair_or_a_question_keeps_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver on dec 18")
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result) and "book_flight" in stack_of(agent)


@pytest.mark.parametrize(("text", "flow"), [("I'd prefer to cancel BK-20481", "cancel_booking"),
                                            ("i'd prefer to fly from boston to denver on dec 18", "book_flight")])
def test_a_preference_that_is_the_request_itself_is_that_request(text: str, flow: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == [flow]


@pytest.mark.parametrize("said", ["wednesday at 4, no, 2 of us are coming", "wednesday at 4, sorry 1 more thing"])
def test_a_number_after_a_no_that_counts_something_repairs_no_hour(said: str) -> None:
    with talking("menoclinic", PACKS / "menoclinic") as agent:
        agent.handle("s", "need to book a nurse appt")
        agent.handle("s", said)
        assert slots_of(agent, "book_appointment")["when"] == "2026-12-02T16:00"


@pytest.mark.parametrize("text", ["I take 1.25 in the morning", "is the 9.50 in the morning fee the same?"])
def test_a_dose_or_a_price_beside_a_part_of_the_day_is_no_time(text: str) -> None:
    assert find_times(text) == []


def test_ignore_me_after_a_value_keeps_the_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver on dec 18")
        agent.handle("s", "make it 2 passengers")
        agent.handle("s", "sorry, ignore me")
        assert stack_of(agent) == ["book_flight"]


def test_raising_a_topic_is_no_look_up() -> None:
    assert lx.plain_words("can I bring up my back pain at the review?") == "can I bring up my back pain at the review?"
    assert lx.plain_words("can you bring up my booking") == "can you look up my booking"


def test_children_in_a_booking_are_passengers_not_a_question() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "need to book 2 adults and 2 children from boston to denver on dec 18")
        assert stack_of(agent) == ["book_flight"] and "can't do" not in result.reply
        assert slots_of(agent, "book_flight")["passengers"] == 4


@pytest.mark.parametrize("answer", ["Staying in Leeds", "Probably in Cornwall", "With Friends in Dublin"])
def test_words_before_a_place_are_not_part_of_it(answer: str) -> None:
    with talking("dialysisunit", PACKS / "dialysisunit") as agent:
        for turn in ("can you arrange holiday dialysis for me", "leaving on the 2nd of feb", "3 weeks"):
            agent.handle("s", turn)
        agent.handle("s", answer)
        assert slots_of(agent, "holiday_dialysis")["destination"] == answer.split(" in ")[-1]


def test_ciao_is_a_goodbye() -> None:
    assert lx.is_closing("thanks, ciao") and lx.PARTING.search("ok ciao")


def test_a_no_with_a_count_to_an_offer_to_go_back_is_no_decline() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        agent.handle("s", "can you check BK-20481")
        agent.handle("s", "no, 2 please")
        assert "book_flight" in stack_of(agent)


def test_me_and_my_two_children_are_three_passengers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight for me and my 2 children from boston to denver on dec 18")
        assert slots_of(agent, "book_flight")["passengers"] == 3


# -- the fifty-second round ---------------------------------------------------------------------------------
def test_wishing_the_assistants_morning_well_is_small_talk() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hey there, hope your morning's going well :)")
        assert "didn't understand" not in result.reply and stack_of(agent) == []


@pytest.mark.parametrize("text", ["ah wait, I've changed my mind, no booking today", "you know what, just drop it"])
def test_changing_ones_mind_in_more_words_drops_the_booking_and_sets_nothing(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 10")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_yes_with_thanks_for_the_patience_confirms() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 10")
        result = agent.handle("s", "yes please, thank you for being so patient")
        assert "create_booking" in tools_of(result)


def test_an_interjection_before_the_next_steps_verb_takes_what_was_found() -> None:
    with talking("travel") as agent:
        agent.handle("s", "show me flights from london to paris on jan 8")
        agent.handle("s", "righto, book the cheapest one for me thanks")
        assert slots_of(agent, "book_flight").items() >= {"origin": "London", "destination": "Paris"}.items()


def test_dont_worry_ill_do_it_later_as_a_last_sentence_drops_the_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need to reschedule my flight, something's come up")
        agent.handle("s", "oh, it's in my other email account... don't worry, I'll do it later")
        assert stack_of(agent) == []


def test_a_british_do_you_lot_asks_about_the_service() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "cheers. out of curiosity, do you lot fly to Melbourne?")
        assert tools_of(result) == ["answer_faq"]


def test_a_question_to_the_service_tied_with_a_look_up_is_answered() -> None:
    with talking("fractureclinic", PACKS / "fractureclinic") as agent:
        result = agent.handle("s", "wat time do u shut on fridays")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["thank you so much, that's a weight off my mind", "thanks, you've been really helpful"])
def test_thanks_then_a_remark_starts_nothing(text: str) -> None:
    assert lx.thanks_then_remark(text)


@pytest.mark.parametrize("text", ["thanks, now cancel BK-12345", "thanks, and book me one to paris too", "thanks, can you check it?"])
def test_thanks_then_a_request_is_no_remark(text: str) -> None:
    assert not lx.thanks_then_remark(text)


def test_an_example_asked_then_a_remark_is_that_examples_task() -> None:
    with talking("breastscreening", PACKS / "breastscreening") as agent:
        result = agent.handle("s", "when's my mammogram again? I've lost the letter")
        assert tools_of(result) == ["list_appointments"]


# -- the fifty-third round -----------------------------------------------------------------------------------
def test_a_city_with_a_please_after_it_is_still_the_city() -> None:
    with talking("travel") as agent:
        for turn in ("i want to book a flight", "from boston", "chicgao pls"):
            agent.handle("s", turn)
        assert slots_of(agent, "book_flight")["destination"] == "Chicago"


def test_an_order_opening_with_the_tasks_verb_keeps_its_details() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Book NYC to LAX, Dec 18, 1 pax, aisle.")
        assert stack_of(agent) == ["book_flight"] and tools_of(result) == []
        assert slots_of(agent, "book_flight")["seat"] == "aisle"


@pytest.mark.parametrize("text", ["Aye, on ye go", "Aye, crack on"])
def test_a_scots_yes_confirms(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 10")
        result = agent.handle("s", text)
        assert "create_booking" in tools_of(result)


def test_do_you_folks_asks_about_the_service() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Hey, do you folks fly out of Toronto at all?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["ugh, I don't actually know her email off the top of my head. cancel this for now",
                                  "Oh dear, I ought to speak to her first. Let's not carry on with this for now, thank you."])
def test_a_last_sentence_that_stops_drops_the_task(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "send the itinerary for BK-12345")
        agent.handle("s", text)
        assert stack_of(agent) == []


def test_naming_the_slot_to_change_with_its_new_value_changes_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 10 for 2")
        agent.handle("s", "no")
        agent.handle("s", "the number of people, there's three of us now")
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["passengers"] == 3


def test_forgetting_the_whole_thing_at_a_read_back_is_no_new_date() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 20")
        agent.handle("s", "no forget the whole thing, I'll think about it some more next week")
        assert stack_of(agent) == []


def test_a_price_alert_for_a_city_watches_that_destination() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a price alert for tokyo")
        assert slots_of(agent, "price_alert")["destination"] == "Tokyo"


def test_skip_it_with_the_reason_drops_the_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a price alert for tokyo")
        agent.handle("s", "ok actually, skip it, I'm not going to Japan after all")
        assert stack_of(agent) == []


def test_a_value_the_offered_task_holds_names_it_and_changes_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me on a flight from New York to Los Angeles")
        agent.handle("s", "out of interest, what are flights from Boston to Chicago going for on Dec 15?")
        agent.handle("s", "ok. for the LA one, December 16 please")
        assert slots_of(agent, "book_flight").items() >= {"origin": "New York", "date": "2026-12-16"}.items()


# -- what the second review (old 6acaad9 against c3e7c90, 768 situations) found -------------------------------
@pytest.mark.parametrize("text", ["i'll take the 10am one, bye", "ok, I'll just go with that, bye"])
def test_taking_what_is_offered_then_bye_is_no_plan_of_ones_own(text: str) -> None:
    assert not lx.is_closing(text)


@pytest.mark.parametrize("text", ["don't book it, thanks anyway", "don't book it, I'll do it later"])
def test_the_verb_taken_back_with_thanks_or_a_later_drops_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_CHICAGO)
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_name_typed_in_capitals_is_still_a_name() -> None:
    assert not in_capitals_only("JOHN SMITH") and not in_capitals_only("MARY")
    assert in_capitals_only("AFOs") and in_capitals_only("MRI")


@pytest.mark.parametrize(("text", "said"), [("friday 2.10 in the afternoon", time(14, 10)),
                                            ("friday 9.20 in the morning", time(9, 20))])
def test_a_dotted_time_off_the_quarter_hour_is_read_whole(text: str, said: time) -> None:
    assert [t for t, _, _ in find_times(text)] == [said]


def test_changing_ones_mind_about_a_detail_keeps_the_booking() -> None:
    assert not lx.ABANDON.match("changed my mind, no aisle")


def test_being_told_when_something_is_available_is_no_price_alert() -> None:
    assert lx.plain_words("lmk when boston to denver is available on dec 18") == \
        "lmk when boston to denver is available on dec 18"


def test_asking_whether_the_service_has_ones_booking_is_no_faq() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "ok, do you have my booking?")
        assert "answer_faq" not in tools_of(result)


@pytest.mark.parametrize("text", ["thanks, that's the wrong date though", "thanks, it's for my mum so she needs an aisle seat"])
def test_thanks_then_a_remark_that_asks_for_something_is_no_small_talk(text: str) -> None:
    assert not lx.thanks_then_remark(text)


def test_bringing_up_several_things_lists_them() -> None:
    with talking("menoclinic", PACKS / "menoclinic") as agent:
        result = agent.handle("s", "can you bring up my appointments")
        assert tools_of(result) == ["list_appointments"]
