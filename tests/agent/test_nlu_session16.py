"""Everyday readings fixed in the sixteenth session: a word of the last turn put right ('Move*, not mice'); a
bare day that corrects a date keeps its month; a request put as 'is it possible to ...' for one's own booking;
the thing a verb is done to says which of two tasks with that verb is meant; names in any alphabet."""

from __future__ import annotations

from datetime import date

import pytest

from dialstack.agent import lexicon as lx
from dialstack.state.dates import find_dates

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

RHEUM = PACKS / "rheumclinic"
REPAIRS = PACKS / "tenantrepairs"
SPEECH = PACKS / "speechtherapy"
TODAY = date(2026, 12, 1)


# -- a word of the last turn put right (autocorrect) -----------------------------------------------------------
def test_a_starred_word_said_against_the_one_typed_reads_the_last_turn_again_as_meant() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to mice my flight BK-12345 to the 18th")
        result = agent.handle("s", "Move*, not mice, sorry")
        assert stack_of(agent) == ["modify_booking"] and "go ahead" in result.reply
        assert {"booking_ref": "BK-12345", "new_date": "2026-12-18"}.items() <= slots_of(agent, "modify_booking").items()


def test_a_yes_said_with_a_spelling_put_right_is_the_yes() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Cancel my boo king BK-12345")
        result = agent.handle("s", "Yes please. And sorry, booking, not boo king")
        assert tools_of(result) == ["cancel_booking"] and stack_of(agent) == []


def test_thanks_after_a_spelling_put_right_searches_nothing_again() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Search fights from London to Paris on Jan 15")
        result = agent.handle("s", "flights* obviously, but thanks, that's what I wanted")
        assert tools_of(result) == [] and stack_of(agent) == []


def test_a_starred_number_word_sets_the_count() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book a flight from New York to Los Angeles for tow people on Dec 20")
        agent.handle("s", "Two* people. Not tow.")
        assert slots_of(agent, "book_flight")["passengers"] == 2


@pytest.mark.parametrize(("said", "before", "meant"), [
    ("Move*, not mice, sorry", "I want to mice my flight", "I want to Move my flight"),
    ("Yes please. And sorry, booking, not boo king", "Cancel my boo king BK-1", "Cancel my booking BK-1"),
    ("*flights", "search fights to Paris", "search flights to Paris"),
])
def test_a_word_put_right_is_found_against_the_last_turn(said: str, before: str, meant: str) -> None:
    fixed = lx.word_put_right(said, before)
    assert fixed is not None and fixed[1] == meant


@pytest.mark.parametrize(("said", "before"), [
    ("not today", "book it today"),  # no word meant
    ("I want to fly* to Paris now", "I want to fly to Rome"),  # more said than the repair
    ("Paris, not Rome", "fly to Paris"),  # the word 'meant' was said already
])
def test_a_turn_that_puts_no_word_right_is_no_repair(said: str, before: str) -> None:
    assert lx.word_put_right(said, before) is None


def test_a_value_said_against_the_one_held_is_a_correction_of_the_slot() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book a flight from London to Rome on Jan 15")
        agent.handle("s", "I meant Paris, not Rome")
        assert slots_of(agent, "book_flight")["destination"] == "Paris"


# -- dates -----------------------------------------------------------------------------------------------------
def test_a_bare_day_that_corrects_a_date_keeps_the_month_of_the_date_held() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book me a flight from London to Paris")
        agent.handle("s", "January 20th")
        agent.handle("s", "No, wait, the 21st. Ugh.")
        assert slots_of(agent, "book_flight")["date"] == "2027-01-21"


def test_a_bare_day_is_read_against_the_date_given_and_only_when_it_is_still_to_come() -> None:
    assert find_dates("no, the 21st", TODAY, date(2027, 1, 20))[0][0] == date(2027, 1, 21)
    assert find_dates("the 21st", TODAY, None)[0][0] == date(2026, 12, 21)
    assert find_dates("no wait the 3rd", date(2026, 12, 10), date(2026, 12, 20))[0][0] == date(2027, 1, 3)


@pytest.mark.parametrize(("text", "day"), [
    ("from New York to Los Angeles for Christmas, on the 22nd of December", date(2026, 12, 22)),
    ("home for Christmas on Dec 20", date(2026, 12, 20)),
    ("I want make appointment with doctor for my rheumatism, 7 December 9:30", date(2026, 12, 7)),
])
def test_the_day_said_wins_over_the_occasion_and_a_time_after_the_month_is_no_day(text: str, day: date) -> None:
    assert [d for d, *_ in find_dates(text, TODAY)] == [day]


def test_christmas_alone_is_still_a_day() -> None:
    assert find_dates("can I fly on christmas day", TODAY)[0][0] == date(2026, 12, 25)


def test_since_the_weekend_is_no_day_to_come() -> None:
    assert find_dates("swollen and hot since the weekend", TODAY) == []


def test_a_day_in_how_one_feels_is_not_the_day_wanted() -> None:
    with talking("rheumclinic", RHEUM) as agent:
        result = agent.handle("s", "hi ther. my hands are bad today so typing slow. i need to bok an apointment "
                                   "with the nurse specialst")
        assert "when" not in slots_of(agent, "book_appointment") and "day and time" in result.reply


def test_a_day_said_as_free_is_the_day_wanted() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I'm free today, I need a flight from Boston to Chicago today")
        assert slots_of(agent, "book_flight")["date"] == "2026-12-01"


# -- requests in other words -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Is possible to change the day of my reserve BK-20481?",
                                  "is it possible to change the date of my booking BK-20481?"])
def test_is_it_possible_to_change_my_booking_asks_for_the_change(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["modify_booking"] and tools_of(result) == []
        assert slots_of(agent, "modify_booking")["booking_ref"] == "BK-20481"


def test_is_it_possible_to_change_the_date_in_general_is_a_question_for_the_faq() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "is it possible to change the date after i've paid?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_the_thing_a_verb_is_done_to_says_which_of_two_moves_is_meant() -> None:
    with talking("rheumclinic", RHEUM) as agent:
        agent.handle("s", "I want to move my appointment")
        assert stack_of(agent) == ["reschedule_appointment"]


def test_it_after_a_check_of_an_appointment_is_that_appointment() -> None:
    with talking("rheumclinic", RHEUM) as agent:
        agent.handle("s", "hey cn u chk my appt RC-1002 pls")
        agent.handle("s", "ugh cant do thurs, cn i move it 2 fri 11th at 9?")
        assert stack_of(agent) == ["reschedule_appointment"]
        assert slots_of(agent, "reschedule_appointment")["appointment_ref"] == "RC-1002"


def test_a_verb_and_its_thing_name_the_task_over_a_side_question_in_the_same_turn() -> None:
    with talking("speechtherapy", SPEECH) as agent:
        agent.handle("s", "Right. I think I'd like to book the assessment anyway, then at least we're in the system. "
                          "Could we do Friday the 4th at half one? That's when her brother is at school.")
        assert stack_of(agent) == ["book_assessment"]
        assert slots_of(agent, "book_assessment")["when"] == "2026-12-04T13:30"


def test_an_order_in_a_later_clause_books_what_was_found() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hey whats the cheapest way to get from boston to chicago on dec 15?")
        result = agent.handle("s", "fine the 15th it is then, book me the cheapest seat")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply


def test_the_cheapest_one_misspelt_after_a_search_books_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "flights london to paris jan 15?")
        result = agent.handle("s", "ok bok the cheapst one")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply


# -- letting go, saying yes, asking ----------------------------------------------------------------------------
def test_someone_else_doing_it_themselves_lets_the_task_go() -> None:
    with talking("travel") as agent:
        agent.handle("s", "can u book a flight from chicago to boston for my dad")
        agent.handle("s", "nvm he says he'll just do it himself lol")
        assert stack_of(agent) == []


@pytest.mark.parametrize("answer", ["yes, finally", "yes pleese"])
def test_a_yes_with_impatience_or_a_typo_is_the_yes(answer: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "move BK-20481 to the 3rd")
        result = agent.handle("s", answer)
        assert tools_of(result) == ["update_booking"]


def test_thanks_i_guess_after_a_search_books_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "flights london to paris jan 15?")
        agent.handle("s", "FINE. THANKS I GUESS.")
        assert stack_of(agent) == []


def test_a_question_in_a_later_clause_of_a_first_sentence_is_answered_before_the_yes() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "Before I say yes, dear, will I get all my money back? My pension doesn't "
                                   "stretch very far these days.")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["cancel_booking"]


def test_a_reference_followed_by_a_jibe_is_the_answer() -> None:
    with talking("travel") as agent:
        agent.handle("s", "move my flight to the 3rd")
        result = agent.handle("s", "BK-20481, which you'd know if you were any good")
        assert slots_of(agent, "modify_booking")["booking_ref"] == "BK-20481" and "go ahead" in result.reply


@pytest.mark.parametrize(("text", "question"), [
    ("BK-20481, which you'd know if you were any good", False),
    ("ok, which one is cheaper", True),
])
def test_a_relative_clause_asks_nothing(text: str, question: bool) -> None:
    assert lx.is_question(text) is question


# -- values ----------------------------------------------------------------------------------------------------
def test_a_name_in_another_alphabet_is_kept_whole() -> None:
    with talking("rheumclinic", RHEUM) as agent:
        agent.handle("s", "I want make appointment with doctor for my rheumatism, 7 December 9:30")
        agent.handle("s", "Tomasz Wiśniewski")
        assert slots_of(agent, "book_appointment")["patient_name"] == "Tomasz Wiśniewski"


def test_a_greeting_gives_no_time_of_day() -> None:
    with talking("tenantrepairs", REPAIRS) as agent:
        agent.handle("s", "Good morning. The door on my bathroom cabinet has come loose and I would like somebody "
                          "to fix it please.")
        assert "access" not in slots_of(agent, "report_repair")


def test_a_reference_answers_a_question_that_asks_for_it() -> None:
    with talking("tenantrepairs", REPAIRS) as agent:
        agent.handle("s", "My heating has stopped working completely and I am 82 and the house is very cold.")
        result = agent.handle("s", "My tenancy reference is TN-40217")
        assert tools_of(result) == ["log_emergency"] and "TN-40217" in result.reply


def test_a_report_that_tells_what_is_wrong_keeps_it_as_the_details() -> None:
    with talking("tenantrepairs", REPAIRS) as agent:
        agent.handle("s", "the tiles are coming off the wall in the kitchen, want to report it")
        assert "tiles" in slots_of(agent, "report_repair")["details"]


# -- round 62: literal, formal and texted words ----------------------------------------------------------------
HANDS = PACKS / "handtherapy"
WASTE = PACKS / "councilwaste"


@pytest.mark.parametrize(("text", "flow"), [
    ("Is it possible to displace my flight BK-12345 to another day?", "modify_booking"),
    ("I would like to verify the state of my reservation BK-31337.", "check_booking"),
])
def test_verbs_said_literally_from_french_name_their_task(text: str, flow: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert flow in stack_of(agent) or flow == "check_booking" and tools_of(result) == ["get_booking"]


@pytest.mark.parametrize("answer", ["Affirmative. Proceed.", "Acknowledged. Proceed with the booking."])
def test_a_yes_in_formal_words_books(answer: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 17")
        result = agent.handle("s", answer)
        assert "create_booking" in tools_of(result) and stack_of(agent) == []


def test_end_of_session_is_a_goodbye() -> None:
    with talking("travel") as agent:
        agent.handle("s", "search flights from boston to chicago on dec 17")
        agent.handle("s", "Thank you. End of session.")
        assert stack_of(agent) == []


@pytest.mark.parametrize("turn", ["Finally no, I renounce. Forget this demand."])
def test_letting_go_in_words_said_literally_drops_the_task(turn: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a ticket from Boston to Chicago.")
        agent.handle("s", turn)
        assert stack_of(agent) == []


def test_i_dont_think_i_need_it_after_all_to_the_offer_to_go_back_drops_the_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book Los Angeles to New York, I think on the 29th of December")
        agent.handle("s", "Hold on, before I decide, can you look up my booking BK-12345?")
        agent.handle("s", "No, I don't think I need the new one after all.")
        assert stack_of(agent) == []


def test_a_day_put_forward_unsure_at_the_read_back_changes_the_date() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Could you book me London to Paris on January 5th?")
        agent.handle("s", "Wait, hmm, maybe January 6th would be better?")
        assert slots_of(agent, "book_flight")["date"] == "2027-01-06"


def test_back_to_two_sets_the_count_again() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book Paris to London for two of us on January 20th.")
        agent.handle("s", "Hmm, actually my sister might come too... make it three.")
        agent.handle("s", "No, she just texted, she can't. Back to two.")
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["passengers"] == 2


def test_the_day_held_said_again_in_a_correction_is_what_is_taken_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book me a flight tae Paris fae Boston on the 10th of December")
        agent.handle("s", "Naw hang on, no the 10th, the 11th")
        assert slots_of(agent, "book_flight")["date"] == "2026-12-11"


def test_hours_and_before_texted_set_the_reminder() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a reminder 4 bk-31337 like 12 hrs b4")
        assert slots_of(agent, "checkin_reminder")["hours_before"] == 12


def test_a_day_one_is_out_is_ruled_out() -> None:
    with talking("councilwaste", WASTE) as agent:
        result = agent.handle("s", "I need to move my bulky collection BW-20311, I won't be in on Thursday")
        assert "new_date" not in slots_of(agent, "reschedule_collection") and "Which day" in result.reply


def test_rather_than_cancelling_put_as_a_question_moves_it_instead() -> None:
    with talking("handtherapy", HANDS) as agent:
        agent.handle("s", "please cancel HT-20421")
        agent.handle("s", "oh wait, rather than cancelling could you just move it to Friday the 15th at 3pm?")
        assert stack_of(agent) == ["reschedule_appointment"]


def test_a_dotted_time_said_against_the_hour_it_replaces_is_a_time() -> None:
    from dialstack.state.times import find_times
    assert [t.strftime("%H:%M") for t, *_ in find_times("wait no 9.30 not 9")] == ["09:30"]
    assert find_times("it costs 9.30 not 9") == []


def test_sorry_misspelt_is_no_name() -> None:
    with talking("bloodclinic", PACKS / "bloodclinic") as agent:
        agent.handle("s", "need to bok an INR chek for wensday")
        agent.handle("s", "2pm")
        agent.handle("s", "no sory 2:30 not 2")
        assert "patient_name" not in slots_of(agent, "book_appointment")


def test_a_short_name_in_capitals_keeps_its_last_word() -> None:
    with talking("speechtherapy", SPEECH) as agent:
        agent.handle("s", "Hi, I'm a key worker at a nursery. Could a therapist come and see one of our children?")
        agent.handle("s", "Monday 14th")
        agent.handle("s", "Little Acorns Nursery")
        assert slots_of(agent, "request_school_visit")["school"] == "Little Acorns Nursery"


def test_a_name_spelt_again_with_a_letter_replaces_the_one_held() -> None:
    with talking("speechtherapy", SPEECH) as agent:
        agent.handle("s", "hey wanna book an assessmnt 4 my son, hes 2 n not really talkin yet")
        agent.handle("s", "tmrw at 11?")
        agent.handle("s", "ok gr8. hes called Alfie Dunn")
        agent.handle("s", "oh wait its Alfie Dunne with an e")
        assert slots_of(agent, "book_assessment")["child_name"] == "Alfie Dunne"


def test_a_question_about_ones_own_booking_after_a_greeting_looks_it_up() -> None:
    with talking("councilwaste", WASTE) as agent:
        result = agent.handle("s", "hiya did my booking for the fridge go through? ref is BW-20312")
        assert tools_of(result) == ["get_collection"] and stack_of(agent) == []


def test_a_place_let_go_is_not_searched_again() -> None:
    with talking("travel") as agent:
        agent.handle("s", "What flights are there from New York to Los Angeles on December 17?")
        agent.handle("s", "Hmm. Do you also go to Denver? Just curious.")
        result = agent.handle("s", "No, forget Denver. Book the cheapest one from that search.")
        assert "Denver" not in result.reply
