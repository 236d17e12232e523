"""Everyday readings fixed from the thirty-sixth fresh sets: a greeting before a request does not hide
its verb, 'any flights ...' asks what there is, 'what time are you open' is the FAQ's 'when are you
open', 'switch my seat' changes a booking, and going back to a paused task by the words of its label."""

from __future__ import annotations


import pytest

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, talking



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
                                  "any seats will do", "any days next week", "any flights to rome on dec 10 work for me",
                                  "any flights from boston to denver on dec 12 under 300 book the cheapest"])
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


# -- round 37: a proposal with a time books; a day kept when only the time is asked again -----------------
def test_a_proposed_day_and_time_after_the_thing_needed_starts_the_booking_not_a_look_up() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        agent.handle("s", "my daughter needs a food challenge for peanuts. could we do tuesday the 8th at 10?")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "book_appointment" and flow.slots["service"].value == "food challenge"


def test_a_question_about_free_times_on_a_day_still_looks_them_up() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        result = agent.handle("s", "any free times on tuesday the 8th?")
        assert [c["tool"] for c in result.tool_calls] == ["find_free_times"]


def test_a_time_said_alone_after_that_time_is_taken_keeps_the_day() -> None:
    with talking("allergy", PACKS / "allergy") as agent:
        agent.handle("s", "move AL-1004 to dec 3 at 10am")  # (Dr. Okafor sees AL-1001 then)
        taken = agent.handle("s", "yes")
        assert "taken" in taken.reply
        agent.handle("s", "10:30 then")
        assert agent.load("s").stack.flows[0].slots["new_when"].value == "2026-12-03T10:30"


@pytest.mark.parametrize("change, expected", [("the time pls", "2026-12-10T16:30"), ("the day", None)])
def test_naming_the_time_to_change_keeps_the_day_and_naming_the_day_does_not(change: str, expected: str | None) -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        agent.handle("s", "book a dating scan on thursday the 10th at 9am for ana ruiz")
        agent.handle("s", "no")
        agent.handle("s", change)
        agent.handle("s", "4:30pm")
        assert agent.load("s").stack.flows[0].slots["when"].value == expected


def test_a_day_and_time_slot_asked_again_for_its_time_keeps_its_day() -> None:
    from dialstack.state.slots import DateTimeSlot, SlotContext
    from datetime import datetime, timezone
    slot = DateTimeSlot("when", {"time": "required"})
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    slot.fill("2026-12-03T10:00", ctx)
    assert slot.ask_again(keep_day=True) and slot.value is None and slot.prompt == "" and not slot.filled
    assert slot.fill(slot.extract("10:30 then", ctx)[0].value, ctx).ok and slot.value == "2026-12-03T10:30"


def test_a_kept_day_survives_the_round_trip_through_the_stored_state() -> None:
    from dialstack.state.slots import DateTimeSlot, SlotContext
    from datetime import datetime, timezone
    slot = DateTimeSlot("when", {"time": "required"})
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    slot.fill("2026-12-03T10:00", ctx)
    slot.ask_again(keep_day=True)
    again = DateTimeSlot("when", {"time": "required"})
    again.load_value(slot.dump_value())
    assert again.kept_day == "2026-12-03" and again.check("4pm", ctx).value == "2026-12-03T16:00"
    assert DateTimeSlot.from_dict(slot.to_dict()).kept_day == "2026-12-03"
    again.clear()
    assert again.kept_day is None and not again.check("4pm", ctx).ok


def test_a_day_slot_with_no_time_required_is_cleared_as_before() -> None:
    from dialstack.state.slots import DateTimeSlot
    slot = DateTimeSlot("day", {"time": "none"})
    slot.value = "2026-12-03"
    assert not slot.ask_again(keep_day=True) and slot.value is None and slot.kept_day is None


# -- a correction that says 'wait no', counts said twice, question words as names --------------------
def test_a_changed_day_after_wait_no_corrects_the_booking_and_keeps_its_time() -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        agent.handle("s", "book a glucose test pls")
        agent.handle("s", "tues 8th at 9am")
        agent.handle("s", "oh wait no, wednesday the 9th, same time")
        assert stack_of(agent) == [("book_appointment", "active")]
        assert agent.load("s").stack.flows[0].slots["when"].value == "2026-12-09T09:00"


@pytest.mark.parametrize("text, count", [("for me and my partner, 2 people", 2), ("me and my mum, 3 people", 3),
                                         ("me and my husband, 2 adults", 2), ("me, my wife and 2 kids", 4),
                                         ("me and my partner", 2)])
def test_a_total_said_after_the_people_listed_is_the_party_not_more_people(text: str, count: int) -> None:
    from dialstack.state.text import people_listed
    assert [f.value for f in people_listed(text)] == [count]


@pytest.mark.parametrize("text", ["whens my next appointment", "whats booked", "wheres my appointment"])
def test_a_question_word_without_its_apostrophe_is_left_out_of_a_value(text: str) -> None:
    from dialstack.agent.slot_reading import remainder
    assert remainder(text, [], frozenset(lx.stem(w) for w in ("next", "appointment", "booked"))) is None


def test_whens_my_next_appointment_asks_whose_instead_of_taking_whens_as_the_name() -> None:
    with talking("antenatal", PACKS / "antenatal") as agent:
        result = agent.handle("s", "whens my next appointment")
        assert stack_of(agent) == [("list_appointments", "active")] and result.tool_calls == []


# -- travel: wanting things for a group, 'X then', a question and a request in one turn --------------
def test_a_group_that_needs_flights_books_them() -> None:
    with talking("travel") as agent:
        agent.handle("s", "we're a group of 6 and need flights from houston to cancun")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "book_flight" and flow.slots["passengers"].value == 6


def test_a_place_settled_on_with_then_at_the_read_back_changes_the_destination() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book london to rome on dec 10")
        agent.handle("s", "hmm madrid then")
        slots = agent.load("s").stack.flows[0].slots
        assert (slots["origin"].value, slots["destination"].value) == ("London", "Madrid")


def test_a_question_and_a_request_in_one_turn_answer_the_question_then_start_the_request() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hi, whats the status of BK-20481, and can you also set a check-in reminder for it")
        assert [c["tool"] for c in result.tool_calls] == ["get_booking"]
        reminder = agent.load("s").stack.flows[0]
        assert stack_of(agent) == [("checkin_reminder", "active")] and reminder.slots["booking_ref"].value == "BK-20481"
        assert "check-in reminder" in result.reply and "shall I go ahead" in result.reply
        done = agent.handle("s", "yes")
        assert [c["tool"] for c in done.tool_calls] == ["schedule_checkin_reminder"] and stack_of(agent) == []


def test_the_later_part_of_a_request_waits_until_the_first_is_done() -> None:
    with talking("travel") as agent:
        first = agent.handle("s", "cancel BK-31337 and set me up a price alert from London to Rome under $200")
        assert stack_of(agent) == [("price_alert", "pending"), ("cancel_booking", "active")]
        assert "price alert" in first.reply and first.tool_calls == []
        agent.handle("s", "yes")
        assert stack_of(agent) == [("price_alert", "active")]


def test_stopping_the_first_part_still_leaves_the_next_part_to_start() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337 and set me up a price alert from London to Rome under $200")
        agent.handle("s", "no")
        assert [name for name, _ in stack_of(agent)] == ["price_alert"]


# -- the review of rounds 36-37 ------------------------------------------------------------------------
@pytest.mark.parametrize("change, slot, value", [("switch it to 2 passengers", "passengers", 2),
                                                  ("swap to an aisle seat", "seat", "aisle"),
                                                  ("can we switch the date to dec 11", "date", "2026-12-11")])
def test_switching_a_value_at_the_read_back_changes_the_booking_in_progress(change: str, slot: str, value: object) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book london to rome on dec 10")
        agent.handle("s", change)
        assert stack_of(agent) == [("book_flight", "active")] and agent.load("s").stack.flows[0].slots[slot].value == value


def test_changing_a_booking_named_by_its_reference_mid_booking_starts_the_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book london to rome on dec 10")
        agent.handle("s", "change my booking BK-20481 to dec 11")
        assert stack_of(agent) == [("book_flight", "paused"), ("modify_booking", "active")]


def test_after_a_closed_day_the_whole_moment_is_asked_again() -> None:
    with talking("nurses", PACKS / "nurseclinic") as agent:
        agent.handle("s", "book a flu jab for sat 5th dec at 10am for tom lee")
        closed = agent.handle("s", "yes")
        assert "Monday to Friday" in closed.reply and agent.load("s").stack.flows[0].slots["when"].value is None


def test_a_question_after_oops_is_answered_not_taken_for_a_repair() -> None:
    with talking("travel") as agent:
        agent.handle("s", "modify BK-20481 to dec 29")
        result = agent.handle("s", "oops, whats the status of BK-31337?")
        assert [c["tool"] for c in result.tool_calls] == ["get_booking"]


# -- queued parts: stopped, dropped, counted, told -------------------------------------------------------
def test_forgetting_the_first_part_starts_the_next_one() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver and set a price alert london to rome under 200")
        result = agent.handle("s", "forget it")
        assert stack_of(agent) == [("price_alert", "active")] and "price alert" in result.reply


@pytest.mark.parametrize("stop", ["thats all thanks", "stop everything, cancel both"])
def test_stopping_everything_drops_the_parts_still_waiting(stop: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver and set a price alert london to rome under 200")
        agent.handle("s", stop)
        assert stack_of(agent) == []
        result = agent.handle("s", "book a flight from nyc to miami on dec 3")
        assert "$200" not in result.reply and "max_price" not in {k for k, v in agent.load("s").stack.flows[0].slots.items() if v.filled}


def test_a_waiting_part_named_as_not_wanted_is_cancelled_and_the_first_goes_on() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver on dec 12 and set a price alert london to rome under 200")
        agent.handle("s", "dont bother with the price alert")
        assert stack_of(agent) == [("book_flight", "active")]


def test_where_are_we_names_the_parts_still_waiting() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver and set a price alert london to rome under 200")
        result = agent.handle("s", "where are we?")
        assert "After that: setting a price alert" in result.reply


# -- round 38 ---------------------------------------------------------------------------------------------
def test_a_request_opening_with_a_keyword_only_one_task_opens_its_examples_with_asks_for_that_task() -> None:
    with talking("donors", PACKS / "donors") as agent:
        agent.handle("s", "need to reschedule my plasma appt")
        assert stack_of(agent) == [("move_donation", "active")]


def test_a_word_a_pack_uses_as_a_thing_is_no_verb_of_a_request() -> None:
    with talking("travel") as agent:
        scorer = agent.understander.scorer
        assert all(not verb.endswith("s") for verb in scorer.request_verbs)
        assert scorer.requested_flows("could you show me all the trips I've got booked") != {"search_flights"}


def test_whats_booked_under_my_name_lists_ones_own_bookings() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hey whats booked under my name")
        assert [c["tool"] for c in result.tool_calls] == ["list_bookings"]


@pytest.mark.parametrize("text", ["I need a flu jab appointment", "i need a blood pressure check appointment"])
def test_a_thing_asked_for_with_a_value_before_its_noun_books_a_new_one(text: str) -> None:
    with talking("pharmacy", PACKS / "commpharmacy") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == [("book_appointment", "active")]


def test_an_example_with_one_keyword_swapped_for_another_of_its_flow_is_that_flows_task() -> None:
    with talking("pharmacy", PACKS / "commpharmacy") as agent:
        agent.handle("s", "book bp check fri")
        result = agent.handle("s", "wat time do u close on sat?")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == [("book_appointment", "active")]


@pytest.mark.parametrize("text, read", [("is the flu jab free for over 65s?", "is the flu jab cost for over 65s?"),
                                        ("can i get it for free", "can i get it for cost"),
                                        ("is friday free", "is friday free"), ("any free slots for 2 people", None)])
def test_free_meaning_no_charge_is_read_as_cost_and_free_meaning_open_is_kept(text: str, read: str | None) -> None:
    assert lx.free_of_charge(text) == (read or text)


def test_whether_the_flu_jab_is_free_for_over_65s_is_answered_by_the_faq() -> None:
    with talking("pharmacy", PACKS / "commpharmacy") as agent:
        result = agent.handle("s", "is the flu jab free for over 65s?")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == []


def test_a_question_among_the_parts_is_answered_at_once_and_the_task_asks_last() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "book me boston to chicago and also whats the baggage allowance?")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == [("book_flight", "active")]
        assert result.reply.rstrip().endswith("?") and "carry-on" in result.reply


def test_going_to_see_someone_is_one_request_not_two() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Hello, I would like to book a flight to go and see my grandchildren please.")
        assert stack_of(agent) == [("book_flight", "active")]


def test_needing_to_see_whats_up_with_a_booking_checks_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "need 2 see whats up with my trip bk-31337")
        assert [c["tool"] for c in result.tool_calls] == ["get_booking"]


def test_asking_for_help_with_a_request_is_no_part_of_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "so im planning a round trip from boston to paris, then rome, and back home sometime in january,"
                          " can you help me set that up?")
        assert [name for name, _ in stack_of(agent)] == ["plan_trip"]


def test_a_preference_saved_by_the_first_part_is_used_by_the_next() -> None:
    with talking("travel") as agent:
        first = agent.handle("s", "pls save window seat as my preference, then book me london to dublin on dec 11")
        assert "seat window" in first.reply
        done = agent.handle("s", "yes")
        assert [c["tool"] for c in done.tool_calls] == ["search_flights", "create_booking"]


# -- round 39 ---------------------------------------------------------------------------------------------
def test_asking_what_to_do_for_the_task_in_hand_goes_to_the_faq_whatever_its_words() -> None:
    with talking("fertility", PACKS / "fertility") as agent:
        agent.handle("s", "i need to book a scan")
        result = agent.handle("s", "wait, do i need a full bladder for it??")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == [("book_appointment", "active")]


@pytest.mark.parametrize("text", ["do i need a full bladder for it??", "what if i panic inside the machine",
                                  "is it ok to eat before", "can i bring my husband", "how should i prepare"])
def test_a_question_of_what_to_do_asks_advice(text: str) -> None:
    assert lx.ASKS_ADVICE.search(text)


@pytest.mark.parametrize("text", ["what is the weather tomorrow?", "whats the capital of france", "do you like cats"])
def test_a_question_about_other_things_asks_no_advice(text: str) -> None:
    assert not lx.ASKS_ADVICE.search(text)


def test_asked_for_a_day_and_time_a_question_of_free_times_looks_them_up_and_comes_back() -> None:
    with talking("fertility", PACKS / "fertility") as agent:
        agent.handle("s", "book a blood test pls")
        result = agent.handle("s", "hmm what times r free on friday?")
        assert [c["tool"] for c in result.tool_calls] == ["find_free_times"]
        agent.handle("s", "ok 10:30 on friday then")
        assert agent.load("s").stack.flows[0].slots["when"].value == "2026-12-04T10:30"


def test_a_day_one_cannot_make_is_no_new_time_and_can_we_move_it_moves_it() -> None:
    with talking("fertility", PACKS / "fertility") as agent:
        agent.handle("s", "hi, i cant make my scan on monday anymore, can we move it?")
        flow = agent.load("s").stack.flows[0]
        assert flow.name == "reschedule_appointment" and flow.slots["new_time"].value is None


@pytest.mark.parametrize("before, ruled_out", [("i cant make my scan on ", True), ("I can't make it ", True),
                                               ("i can make it on ", False), ("cant make it friday but how about ", False)])
def test_a_moment_after_cant_make_is_ruled_out(before: str, ruled_out: bool) -> None:
    assert bool(lx.GIVEN_UP_BEFORE.search(before)) is ruled_out


# -- round 40 ---------------------------------------------------------------------------------------------
def test_a_reason_that_someone_else_must_be_asked_starts_no_task() -> None:
    with talking("injuries", PACKS / "injuries") as agent:
        agent.handle("s", "book a sprain check with a nurse at riverside tomorrow at 10am for maya lee")
        agent.handle("s", "actually no, forget it, i need to check with her dad first")
        assert stack_of(agent) == []


@pytest.mark.parametrize("text", ["i need to check with her dad first", "let me ask my wife", "i'll run it by my boss"])
def test_asking_someone_else_is_consulting(text: str) -> None:
    assert lx.CONSULTS.search(text)


def test_not_remembering_when_ones_appointment_is_checks_it() -> None:
    with talking("injuries", PACKS / "injuries") as agent:
        agent.handle("s", "Hello dear, I can't remember what time my appointment is on Monday.")
        assert stack_of(agent) == [("check_appointment", "active")]


def test_a_question_then_a_remark_naming_a_reference_checks_what_it_names() -> None:
    with talking("injuries", PACKS / "injuries") as agent:
        result = agent.handle("s", "is AP-1002 at northgate or riverside? i forgot lol")
        assert [c["tool"] for c in result.tool_calls] == ["get_appointment"]


@pytest.mark.parametrize("text", ["is AP-1002 at northgate or riverside? i forgot lol", "are you open sunday? just wondering"])
def test_a_first_sentence_asked_makes_the_turn_a_question(text: str) -> None:
    assert lx.is_question(text)


def test_a_pattern_with_an_optional_hyphen_is_a_reference() -> None:
    from dialstack.agent.scoring import _is_reference
    from dialstack.state.slots import ExactSlot
    assert _is_reference(ExactSlot("ref", {"pattern": "AP-?\\d{4}"})) and not _is_reference(ExactSlot("e", {"pattern": "[^@]+@.+"}))


@pytest.mark.parametrize("text, places", [("book a place on the online course for 2 people", 2),
                                          ("book the tuesday evening one for three ppl pls", 3),
                                          ("a place please", 1)])
def test_a_number_said_outright_counts_before_a_or_one(text: str, places: int) -> None:
    with talking("nutrition", PACKS / "nutrition") as agent:
        agent.handle("s", text)
        assert agent.load("s").stack.flows[0].slots["places"].value == places


# -- the review of rounds 38-39 ----------------------------------------------------------------------------
def test_both_of_us_and_drop_a_detail_stops_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver and set a price alert london to rome under 200")
        agent.handle("s", "dec 12, both of us, and drop the window seat")
        assert stack_of(agent) == [("price_alert", "pending"), ("book_flight", "active")]


@pytest.mark.parametrize("text", ["cancel both", "stop everything", "forget all of it", "scrap the lot"])
def test_stopping_everything_is_said_in_so_many_words(text: str) -> None:
    assert lx.STOPS_EVERYTHING.search(text)


def test_free_for_me_is_still_a_free_time() -> None:
    assert lx.free_of_charge("is friday at 2 free for me?") == "is friday at 2 free for me?"


@pytest.mark.parametrize("text, when", [("i cant make it before 3pm on friday", "2026-12-04T15:00")])
def test_a_moment_after_cant_make_it_before_is_the_new_one(text: str, when: str) -> None:
    with talking("fertility", PACKS / "fertility") as agent:
        agent.handle("s", "book a blood test pls")
        agent.handle("s", text)
        assert agent.load("s").stack.flows[0].slots["when"].value == when


@pytest.mark.parametrize("text, ref", [("i cant make my appointment NC-1002 so pls cancel it", "NC-1002")])
def test_the_appointment_one_cannot_make_is_still_the_one_named(text: str, ref: str) -> None:
    with talking("nurses", PACKS / "nurseclinic") as agent:
        agent.handle("s", text)
        assert agent.load("s").stack.flows[0].slots["appointment_ref"].value == ref


def test_tell_me_among_the_parts_is_answered_at_once() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "book me a flight boston to chicago on dec 12 and tell me the baggage allowance")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"] and stack_of(agent) == [("book_flight", "active")]


def test_a_time_offered_as_a_question_is_no_request_for_advice() -> None:
    with talking("fertility", PACKS / "fertility") as agent:
        agent.handle("s", "book a blood test pls")
        result = agent.handle("s", "can i take the 10am on friday?")
        assert result.tool_calls == []


def test_changing_a_value_of_the_booking_in_progress_in_the_words_of_another_task_changes_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book london to rome on dec 10")
        agent.handle("s", "can we change the date to dec 11")
        assert stack_of(agent) == [("book_flight", "active")] and agent.load("s").stack.flows[0].slots["date"].value == "2026-12-11"


def test_what_time_you_open_while_asked_when_is_the_side_question() -> None:
    with talking("sleepclinic", PACKS / "sleepclinic") as agent:
        agent.handle("s", "i want to book a cpap fitting")
        result = agent.handle("s", "what time do you open?")
        assert [c["tool"] for c in result.tool_calls] == ["answer_faq"]
