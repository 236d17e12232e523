"""Everyday readings fixed in the fifteenth session: a plan's legs are each read back before they are booked; a
question asked before the yes is answered, never taken for the yes; the task said only to be put aside names no task."""

from __future__ import annotations

from datetime import date

import pytest

from dialstack.agent import lexicon as lx
from dialstack.state.dates import find_dates

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

ENDOSCOPY = PACKS / "endoscopy"


# -- a plan: each leg that books is read back before it is booked --------------------------------------------
def test_a_plan_accepted_waits_for_a_yes_to_its_first_leg_before_booking_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "London to Paris on Jan 15 then Paris to Rome on Jan 20. Book both.")
        result = agent.handle("s", "yes")
        assert stack_of(agent) == ["plan_trip", "book_flight"] and agent.load("s").has_plan
        assert "create_booking" not in tools_of(result) and "go ahead" in result.reply
        result = agent.handle("s", "yes")
        assert "create_booking" in tools_of(result) and stack_of(agent) == ["plan_trip", "book_flight"]
        assert slots_of(agent, "book_flight")["origin"] == "Paris"


def test_a_side_question_while_a_legs_read_back_waits_is_answered_and_the_plan_stays() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Boston to Chicago on Dec 10, then Chicago to New York on Dec 14. Plan it for me.")
        agent.handle("s", "sounds great, yes")
        result = agent.handle("s", "wait, what's your baggage allowance?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent)[0] == "plan_trip"


def test_home_named_again_at_the_end_of_a_trip_is_the_last_leg() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Can you help me plan a trip? Boston to Chicago on Dec 10, then Chicago to "
                                   "New York on Dec 14, then home to Boston on Dec 18.")
        assert "3. booking a new flight (destination Boston, origin New York, date December 18)" in result.reply


def test_the_day_said_for_the_way_back_is_the_return_legs() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "plan a trip from Boston to Paris on Jan 5 and back on Jan 12")
        assert "2. booking a new flight (origin Paris, date January 12, 2027, destination Boston)" in result.reply


# -- a question asked before the yes ---------------------------------------------------------------------------
@pytest.mark.parametrize("question", [
    "Before I confirm, would you be good enough to tell me whether the fare will be refunded in full?",
    "Will she get the whole fare back if it's cancelled today?",
])
def test_a_question_asked_at_a_cancellations_yes_no_question_is_answered_and_cancels_nothing(question: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need to cancel BK-31337")
        result = agent.handle("s", question)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["cancel_booking"]
        assert "Are you sure" in result.reply


def test_a_look_up_asked_at_a_read_back_still_runs() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", "wait, before that - what have i already got booked?")
        assert "answer_faq" not in tools_of(result) and stack_of(agent)[-1] in ("check_booking", "list_bookings")


@pytest.mark.parametrize("answer", ["Aye, cancel it", "I am quite certain. Please cancel it."])
def test_a_yes_in_scots_or_in_formal_words_cancels(answer: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-20481")
        result = agent.handle("s", answer)
        assert tools_of(result) == ["cancel_booking"] and stack_of(agent) == []


@pytest.mark.parametrize("answer", ["Yes, that is satisfactory.", "that is write go ahead", "yes thats rite"])
def test_a_yes_judged_formally_or_dictated_books(answer: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", answer)
        assert "create_booking" in tools_of(result)


def test_proceeding_with_the_booking_offered_back_resumes_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        agent.handle("s", "Before you proceed, kindly tell me how much luggage I am permitted to bring.")
        result = agent.handle("s", "Very well. You may proceed with the booking.")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply


def test_a_formal_goodbye_at_a_read_back_changes_no_date() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        agent.handle("s", "Thank you; that concludes my business for today.")
        assert slots_of(agent, "book_flight")["date"] == "2026-12-15"


def test_ta_very_much_thats_me_is_a_goodbye() -> None:
    assert lx.is_closing("Ta very much, that's me") and not lx.is_closing("yes that's me")


# -- questions while a day is asked for ----------------------------------------------------------------------
@pytest.mark.parametrize("start, question", [
    ("I need to book a colonoscopy", "before I pick a day... will I be awake for it? the idea of it really scares me"),
    ("I need to move EN-2041", "also if I have the sedation can I drive myself home after or do I need someone"),
])
def test_a_question_asked_while_a_day_is_asked_for_is_answered_not_read_as_a_day(start: str, question: str) -> None:
    with talking("endoscopy", ENDOSCOPY) as agent:
        agent.handle("s", start)
        result = agent.handle("s", question)
        assert tools_of(result) == ["answer_faq"] and "couldn't read" not in result.reply


# -- days and times --------------------------------------------------------------------------------------------
def test_a_day_of_the_month_by_its_number_with_a_time_moves_the_appointment() -> None:
    with talking("endoscopy", ENDOSCOPY) as agent:
        agent.handle("s", "move EN-2043 to 16th 11am")
        assert slots_of(agent, "move_appointment")["new_when"] == "2026-12-16T11:00"


def test_a_day_the_user_cannot_do_is_not_the_new_day() -> None:
    with talking("endoscopy", ENDOSCOPY) as agent:
        agent.handle("s", "I work nights and cant do EN-2044 on the 17th, need to move it")
        assert "new_when" not in slots_of(agent, "move_appointment")


@pytest.mark.parametrize("text, day", [
    ("16th 11am", date(2026, 12, 16)), ("to 22nd please", date(2026, 12, 22)), ("16th at 9:30", date(2026, 12, 16)),
])
def test_a_bare_ordinal_day_with_a_time_or_a_cue_is_a_date(text: str, day: date) -> None:
    assert [d for d, _, _ in find_dates(text, date(2026, 12, 1))] == [day]


@pytest.mark.parametrize("text", ["my 2nd booking", "on 3rd floor", "move to 2nd row"])
def test_an_ordinal_that_counts_something_is_no_date(text: str) -> None:
    assert find_dates(text, date(2026, 12, 1)) == []


# -- the task put aside, the task asked for instead ------------------------------------------------------------
def test_rather_than_cancelling_a_move_replaces_the_cancellation() -> None:
    with talking("endoscopy", ENDOSCOPY) as agent:
        agent.handle("s", "cancel EN-2044")
        agent.handle("s", "actually no wait, rather than cancelling could I just move it to the week after? the 22nd at 10")
        assert stack_of(agent) == ["move_appointment"]
        assert slots_of(agent, "move_appointment")["new_when"] == "2026-12-22T10:00"


def test_postponing_instead_of_cancelling_changes_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-12345")
        agent.handle("s", "Wait, instead of cancelling can I just postpone it to 5th January?")
        assert stack_of(agent) == ["modify_booking"] and slots_of(agent, "modify_booking")["booking_ref"] == "BK-12345"


def test_preponing_a_flight_is_a_change_of_its_date() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to prepone my flight BK-20481 to 28th December")
        assert slots_of(agent, "modify_booking") == {"booking_ref": "BK-20481", "new_date": "2026-12-28"}


def test_dont_cancel_it_to_the_reference_question_stops_the_cancellation() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel my booking")
        result = agent.handle("s", "wait no dont cancel it keep it")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_negation_does_not_reach_into_the_next_sentence() -> None:
    assert "cancel" in lx.content_stems("toddler sick cant go. cancel it")
    with talking("travel") as agent:
        agent.handle("s", "check BK-31337")
        agent.handle("s", "toddler sick cant go. cancel it")
        assert stack_of(agent) == ["cancel_booking"] and slots_of(agent, "cancel_booking")["booking_ref"] == "BK-31337"


# -- carry-over and getting things -------------------------------------------------------------------------------
def test_book_cheapest_after_a_search_books_what_was_found() -> None:
    with talking("travel") as agent:
        agent.handle("s", "flights ny to la saturday")
        agent.handle("s", "book cheapest")
        held = slots_of(agent, "book_flight")
        assert (held["origin"], held["destination"], held["date"]) == ("New York", "Los Angeles", "2026-12-05")


def test_seats_wanted_for_a_city_are_a_new_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "need 2 seats to miami")
        assert stack_of(agent) == ["book_flight"]
        assert slots_of(agent, "book_flight") == {"destination": "Miami", "passengers": 2}


def test_tell_me_when_that_flight_leaves_checks_the_booking_just_kept() -> None:
    with talking("travel") as agent:
        agent.handle("s", "please cancel my reservation BK 31337")
        agent.handle("s", "no wait don't cancel it i still need it")
        result = agent.handle("s", "actually just tell me when that flight leaves")
        assert tools_of(result) == ["get_booking"] and "Jan 15" in result.reply


def test_a_check_said_after_a_clause_of_when_pauses_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need to book a flight for my patient from New York to Los Angeles")
        result = agent.handle("s", "Hang on, before we go any further I should check her other booking, it's BK-20481")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == ["book_flight"]


def test_a_later_sentence_that_asks_makes_a_question() -> None:
    assert lx.is_question("before I pick a day... will I be awake for it? the idea of it really scares me")
    assert not lx.is_question("book me for friday. will it hurt? I want to book it")


# -- later in the session: rounds 58 and 59 ----------------------------------------------------------------------
LYMPH = PACKS / "lymphclinic"
FALLS = PACKS / "falls"


def test_us_both_counts_two_passengers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "could you book us both on a flight from Boston to Chicago on December 15?")
        assert slots_of(agent, "book_flight")["passengers"] == 2


@pytest.mark.parametrize("question", ["oh and can I stay in the room with her? she gets a bit muddled",
                                      "hold on do kids need own seat"])
def test_a_question_at_a_read_back_goes_to_the_faq(question: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", question)
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["book_flight"]


def test_kk_bye_is_a_goodbye() -> None:
    assert lx.is_closing("kk bye")


def test_he_can_make_it_after_all_keeps_the_session_and_books_nothing() -> None:
    with talking("lymphclinic", LYMPH) as agent:
        agent.handle("s", "I need to cancel my husband's fitting, the reference is LY-1002")
        result = agent.handle("s", "oh hang on, no, don't cancel it, he says he can make it after all")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_leaving_the_task_offered_back_for_another_day_declines_it() -> None:
    with talking("lymphclinic", LYMPH) as agent:
        agent.handle("s", "great, my arm's a balloon again. book me a fitting")
        agent.handle("s", "hold on, is my MLD on thursday still happening? LY-1001")
        agent.handle("s", "no, leave the fitting, I'll sort it out another day")
        assert stack_of(agent) == []


def test_the_hours_asked_in_words_the_faq_does_not_use_are_answered() -> None:
    with talking("lymphclinic", LYMPH) as agent:
        result = agent.handle("s", "what time do you shut anyway?")
        assert tools_of(result) == ["answer_faq"]


def test_a_turn_in_capitals_names_no_patient_by_its_capitals() -> None:
    with talking("lymphclinic", LYMPH) as agent:
        agent.handle("s", "HELLO I WOULD LIKE TO BOOK ONE OF THE DRAINAGE SESSIONS FOR MY LEG")
        assert "patient_name" not in slots_of(agent, "book_session")


@pytest.mark.parametrize("text, held", [
    ("Aye hiya, I'm needing a flight from London tae Paris the morra",
     {"origin": "London", "destination": "Paris", "date": "2026-12-02"}),
    ("Book me a flight tae Paris fae Boston on the 10th of December",
     {"origin": "Boston", "destination": "Paris", "date": "2026-12-10"}),
])
def test_scots_words_for_to_from_and_tomorrow_are_read(text: str, held: dict[str, str]) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert {k: v for k, v in slots_of(agent, "book_flight").items() if k in held} == held


def test_a_shout_asked_for_when_fares_drop_is_a_price_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Can ye gie us a shout if flights from Seattle to Honolulu drop below $350?")
        assert stack_of(agent) == ["price_alert"]


def test_a_dog_asked_about_is_a_pet_question() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Can I take ma wee dug on the plane wi' me?")
        assert tools_of(result) == ["answer_faq"]


def test_what_details_have_you_noted_asks_the_status() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I have to book a flight for my father from Boston")
        result = agent.handle("s", "What all details have you noted till now?")
        assert "booking a new flight" in result.reply and stack_of(agent) == ["book_flight"]


def test_an_errand_said_while_here_starts_it_and_changes_nothing_held() -> None:
    with talking("endoscopy", ENDOSCOPY) as agent:
        agent.handle("s", "my wife needs a gastroscopy booking, can you do that")
        agent.handle("s", "oh and while I'm here, I still haven't had the prep kit for my own colonoscopy, EN-2044")
        assert stack_of(agent) == ["book_procedure", "request_prep_kit"]
        assert slots_of(agent, "book_procedure")["procedure"] == "gastroscopy"


def test_one_task_said_across_an_and_starts_once_and_never_shows_a_stack_error() -> None:
    with talking("falls", FALLS) as agent:
        result = agent.handle("s", "I'd like to book my dad onto the online strength and balance class, he's not very mobile")
        assert stack_of(agent) == ["join_class"] and "cannot push" not in result.reply


@pytest.mark.parametrize("answer", ["Yep chur", "Yeah sweet", "yes corect", "yes please, go ahead, fingers crossed"])
def test_a_yes_in_kiwi_or_misspelt_words_agrees(answer: str) -> None:
    assert lx.agrees(answer)


# -- letting go and keeping, in more words -------------------------------------------------------------------
PREOP = PACKS / "preop"


@pytest.mark.parametrize("start, words", [
    ("I need to move my pre-op assessment", "I haven't got the letter with me, never mind, I'll phone the clinic"),
    ("I need to book a pre-op assessment for my hip replacement",
     "ah wait, I haven't got next month's rota yet so I can't pick a day. leave it with me and I'll message again"),
    ("book a pre-op for my knee replacement on thursday at 10am, name Sarah Cole",
     "actually hold off, I want to check with my husband about the childcare first. I'll get back to you"),
])
def test_a_task_put_off_with_a_reason_is_let_go_and_nothing_runs(start: str, words: str) -> None:
    with talking("preop", PREOP) as agent:
        agent.handle("s", start)
        result = agent.handle("s", words)
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_request_then_a_remark_about_calling_back_is_no_goodbye() -> None:
    assert not lx.is_closing("book friday. ok I'll call you back")
    assert lx.is_closing("Yeah nah actually, hold off, I'll sort it with the missus first")


@pytest.mark.parametrize("words", [
    "hmm, no actually, keep it for now, they might still fit me in",
    "Oh my, hold everything! Doris has just telephoned and the tournament is back on, so I'll be keeping that flight after all.",
])
def test_keeping_it_in_other_words_answers_the_cancellations_question_with_no(words: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-12345")
        result = agent.handle("s", words)
        assert stack_of(agent) == [] and tools_of(result) == [] and "kept" in result.reply


def test_withdrawing_a_change_at_its_read_back_lets_it_go() -> None:
    with talking("travel") as agent:
        agent.handle("s", "change BK-20481 to dec 30")
        result = agent.handle("s", "On reflection, I withdraw that instruction; the original date shall stand.")
        assert stack_of(agent) == [] and tools_of(result) == []


# -- the falls pack: a day in a story, an address, a name said again -------------------------------------------
def test_the_day_a_fall_happened_is_not_the_day_wanted() -> None:
    with talking("falls", FALLS) as agent:
        agent.handle("s", "Good morning dear. I had a tumble in the kitchen on Sunday and my doctor says I ought to have "
                          "one of your falls assessments. Could you arrange that for me please.")
        assert "when" not in slots_of(agent, "book_assessment")


def test_can_you_tell_me_when_an_appointment_is_looks_it_up() -> None:
    with talking("falls", FALLS) as agent:
        result = agent.handle("s", "Hi. Can you tell me when our patient's falls appointment is? Reference FP-1020.")
        assert tools_of(result) == ["get_booking"]
    assert lx.plain_words("let me know if the price drops below 300").startswith("notify me")


@pytest.mark.parametrize("answer", ["The address is 7 Willow Drive, Ponteland", "7 Willow Drive, Ponteland"])
def test_a_street_address_keeps_its_town_and_is_never_a_name(answer: str) -> None:
    with talking("falls", FALLS) as agent:
        agent.handle("s", "I'd like a home hazard check please")
        agent.handle("s", answer)
        held = slots_of(agent, "request_hazard_check")
        assert held["address"] == "7 Willow Drive, Ponteland" and "patient_name" not in held


def test_a_name_said_again_to_the_address_question_is_no_address() -> None:
    with talking("falls", FALLS) as agent:
        agent.handle("s", "Hello, I'd like to request a pendant alarm for my mother please")
        agent.handle("s", "Her name is Rosemary Quinn")
        agent.handle("s", "Oh, and while I think of it, can someone also check her house for trip hazards? The stairs worry me.")
        agent.handle("s", "Rosemary Quinn")
        assert "address" not in slots_of(agent, "request_hazard_check")


# -- round 60: a word taken back at once, yes in Irish words ---------------------------------------------------
@pytest.mark.parametrize("said, meant", [
    ("Can you cancel - sorry, check - my booking BK-20481?", "Can you check my booking BK-20481?"),
    ("For two - no, three people, my sister's coming too", "For three people, my sister's coming too"),
    ("The 15th of January - sorry, December!", "The 15th of December!"),
    ("Boston - no, wait", "Boston - no, wait"),  # (not a word of the same kind: nothing is taken back)
])
def test_a_word_taken_back_at_once_is_replaced_by_the_one_said_after_it(said: str, meant: str) -> None:
    assert lx.plain_words(said) == meant


def test_a_task_taken_back_mid_sentence_is_not_started() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Can you cancel - sorry, check - my booking BK-20481?")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == []


@pytest.mark.parametrize("answer", ["Go on so", "Go ahead, grand", "Grand so, go ahead", "yse"])
def test_a_yes_in_irish_words_or_swapped_letters_agrees(answer: str) -> None:
    assert lx.agrees(answer)


def test_a_yes_then_a_question_at_a_read_back_still_books() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", "Yes, that's correct - will I get an email?")
        assert "create_booking" in tools_of(result)


def test_a_permission_asked_of_someone_else_is_no_question_to_the_faq() -> None:
    assert not lx.is_question("can my friends drive the car too? it's RNT-48213")
    assert lx.is_question("oh and can I stay in the room with her? she gets a bit muddled")


def test_a_laughing_remark_then_asking_after_the_assistant_is_small_talk() -> None:
    assert lx.asks_after_you("haha sorry my cat is on the keyboard. hows your day going")


SPEECH = PACKS / "speechtherapy"


@pytest.mark.parametrize("text", ["actually leave that with me, I'll speak to her mum first and get back to you",
                                  "top man, cheers, bye",
                                  "That's everything, thank you so much, you've been really kind."])
def test_goodbyes_and_putting_off_in_more_words(text: str) -> None:
    assert lx.is_closing(text)


def test_another_task_said_to_be_better_replaces_the_one_in_progress() -> None:
    with talking("speechtherapy", SPEECH) as agent:
        agent.handle("s", "Oliver's session on the 14th, ST-1004, I don't think we can make it. Could we move it?")
        agent.handle("s", "Actually, I think it's better to just cancel it and rebook when he's well again.")
        assert stack_of(agent) == ["cancel_session"] and slots_of(agent, "cancel_session")["session_ref"] == "ST-1004"
