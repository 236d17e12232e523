"""Everyday readings fixed from the forty-first and forty-second fresh sets: words texted without
their vowels, a wish stated before a request, a stop before going back to a paused task, a count
repaired with its reason after it, and 'the same for friday' keeping the time of the task before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx
from dialstack.agent.slot_reading import count_repairs
from dialstack.state.slot_values import LevelSlot

from .nlu_support import CTX, NLU, PACKS, talking, tools_of



def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


# -- words texted without their vowels ---------------------------------------------------------------
@pytest.mark.parametrize(("typed", "meant"), [("chk", "check"), ("bkng", "book"), ("cncl", "cancel"), ("flght", "flight")])
def test_a_word_texted_without_its_vowels_is_read_as_the_pack_word_it_shortens(typed: str, meant: str) -> None:
    assert NLU.scorer.mend(typed) == lx.stem(meant)


def test_a_texted_check_of_a_booking_checks_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "cn u chk my bkng BK-12345 thx")
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == []


def test_a_texted_cancellation_asks_before_it_cancels() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "pls cncl bk-20481")
        assert stack_of(agent) == [("cancel_booking", "active")] and tools_of(result) == []


def test_a_typo_mended_into_a_function_word_asks_for_no_task() -> None:
    # 'wnt' is 'want', which names no task: the booking its other words ask for is what starts
    assert "want" not in NLU.scorer.stems("hi i wnt to bok a flght frm nyc to la on dec 15 plz")
    with talking("travel") as agent:
        result = agent.handle("s", "hi i wnt to bok a flght frm nyc to la on dec 15 plz")
        assert stack_of(agent) == [("book_flight", "active")] and tools_of(result) == []


@given(st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=3, max_size=8))
def test_a_vowelless_word_is_mended_to_one_word_with_the_same_first_and_last_letter_or_kept(typed: str) -> None:
    mended = NLU.scorer.mend(typed)
    assert mended == typed or mended[0] == typed[0]


# -- a wish stated, then a request -------------------------------------------------------------------
def test_a_preference_stated_before_a_request_is_saved_and_the_request_done_after() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "i prefer window seats, and can you list my bookings")
        assert tools_of(result) == ["save_preferences", "list_bookings"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["i prefer window seats", "we'd rather fly in the morning", "my usual preference is aisle"])
def test_a_preference_is_stated_in_several_ways(text: str) -> None:
    assert lx.STATES_A_WISH.match(text)


@pytest.mark.parametrize("text", ["can you list my bookings", "what do you prefer", "is a window seat better",
                                  "I like the movie Hotel Mumbai", "I need to find something for me and my friend to do",
                                  "I want to search for some nice events"])
def test_a_request_or_a_question_is_no_wish_stated(text: str) -> None:
    assert not lx.STATES_A_WISH.match(text)


def test_a_request_with_a_detail_after_and_is_one_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i need a flight from boston to miami on the 10th and can you make it a window seat")
        flow = agent.load("s").stack.flows[0]
        assert [f.name for f in agent.load("s").stack.flows] == ["book_flight"] and flow.slots["seat"].value == "window"


# -- stopping the task in progress to go back to a paused one ---------------------------------------
def test_never_mind_that_then_going_back_drops_the_task_in_progress_and_resumes_the_one_named() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from chicago to miami")
        agent.handle("s", "actually i want to change my booking BK-12345 first")
        result = agent.handle("s", "never mind that, lets go back to booking the flight")
        assert stack_of(agent) == [("book_flight", "active")]
        assert "modify_booking" in result.transitions.get("cancelled", [])


def test_scrapping_a_paused_task_by_name_still_cancels_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from chicago to miami")
        agent.handle("s", "actually i want to change my booking BK-12345 first")
        agent.handle("s", "scrap the new flight booking")
        assert stack_of(agent) == [("modify_booking", "active")]


@pytest.mark.parametrize("text", ["never mind that, lets go back to the booking", "nvm it. back to the booking",
                                  "forget this - can we return to the flight"])
def test_never_mind_that_then_going_back_lets_the_task_in_progress_go(text: str) -> None:
    assert lx.CANCEL_TO_GO_BACK.match(text)


@pytest.mark.parametrize("text", ["never mind that, friday is fine", "nvm that, make it 2 passengers",
                                  "never mind that, i meant from new york"])
def test_never_mind_that_then_a_value_is_a_correction_that_keeps_the_task(text: str) -> None:
    assert not lx.CANCEL_TO_GO_BACK.match(text) and not lx.CANCEL_LEAD.match(text)
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on the 10th for 1 passenger")
        agent.handle("s", text)
        assert stack_of(agent) == [("book_flight", "active")]


# -- a count repaired, with its reason after it -----------------------------------------------------
def test_make_that_three_with_a_reason_after_it_repairs_the_count_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight for me n my wife from seattle to denver")
        agent.handle("s", "this friday")
        result = agent.handle("s", "actually make that 3, my son is coming too")
        flow = agent.load("s").stack.flows[0]
        assert flow.slots["passengers"].value == 3 and tools_of(result) == [] and "shall I go ahead" in result.reply


@pytest.mark.parametrize(("text", "n"), [("make that 3", 3), ("make it 4 because my sister is coming", 4),
                                         ("i meant two, as my son stays home", 2)])
def test_a_count_repair_may_give_its_reason(text: str, n: int) -> None:
    seats = LevelSlot("seats", params={"min": 1, "max": 9, "integer": True})
    seats.fill(2, CTX, source="user")
    assert count_repairs({"seats": seats}, text)["seats"].value == n


@pytest.mark.parametrize("text", ["make that 3, 2 adults and 1 child", "make it 3, on the 12th"])
def test_a_reason_with_a_number_of_its_own_is_no_count_repair(text: str) -> None:
    seats = LevelSlot("seats", params={"min": 1, "max": 9, "integer": True})
    seats.fill(2, CTX, source="user")
    assert count_repairs({"seats": seats}, text) == {}


# -- the same again for another day keeps the time --------------------------------------------------
def test_the_same_for_friday_after_a_booking_keeps_its_time_and_reads_it_back() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "book a nurse appointment in person thursday at 2pm for Jo Bloggs")
        agent.handle("s", "yes")
        result = agent.handle("s", "can you do the same for friday")
        flow = agent.load("s").stack.flows[0]
        assert flow.slots["when"].value == "2026-12-04T14:00" and "shall I go ahead" in result.reply
        assert tools_of(result) == []


def test_the_same_for_friday_at_another_time_takes_the_time_said() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "book a nurse appointment in person thursday at 2pm for Jo Bloggs")
        agent.handle("s", "yes")
        agent.handle("s", "can you do the same for friday at 10am")
        assert agent.load("s").stack.flows[0].slots["when"].value == "2026-12-04T10:00"


# -- the forty-third fresh sets ------------------------------------------------------------------------
PAEDS = PACKS / "paeds"
TRANSPORT = PACKS / "patient_transport"


def slots_of(agent: Agent, index: int = 0) -> dict[str, object]:
    return {n: s.value for n, s in agent.load("s").stack.flows[index].slots.items()}


@pytest.mark.parametrize("text", ["pls cancel it", "plz cancel BK-20481", "please cancel it"])
def test_please_in_texting_is_a_lead_in_before_the_verb(text: str) -> None:
    assert lx.opener(text) == "cancel"


def test_a_cancellation_then_a_booking_in_one_message_queues_the_booking() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "pls cancel BK-20481, and book a flight from boston to denver on dec 31")
        assert stack_of(agent) == [("book_flight", "pending"), ("cancel_booking", "active")]
        assert "booking a new flight" in result.reply


def test_a_house_number_answering_the_address_is_no_count_of_people() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        for text in ("need transport to st lukes tmrw at 2pm", "no", "no"):
            agent.handle("s", text)
        result = agent.handle("s", "27 Green Lane")
        assert slots_of(agent)["pickup_address"] == "27 Green Lane" and slots_of(agent)["passengers"] == 1
        assert "shall I go ahead" in result.reply


def test_an_hour_repaired_in_the_same_turn_is_no_count_of_children() -> None:
    with talking("paeds", PAEDS) as agent:
        agent.handle("s", "can i book an immunisation for wednesday at 10, no wait make it 11")
        assert slots_of(agent)["when"] == "2026-12-02T11:00" and slots_of(agent)["children"] == 1


@pytest.mark.parametrize(("text", "n"), [("need to book vaccinations for my 2 kids tomorrow at 9:30am", 2),
                                         ("jabs for 3 children tomorrow at 9:30am please", 3)])
def test_kids_count_for_a_number_of_children(text: str, n: int) -> None:
    with talking("paeds", PAEDS) as agent:
        agent.handle("s", text)
        assert slots_of(agent)["children"] == n


def test_a_count_of_people_said_with_its_unit_is_still_read_unasked() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", "need transport to st lukes tmrw at 2pm for 2 people")
        assert slots_of(agent)["passengers"] == 2


@pytest.mark.parametrize(("text", "wheelchair"), [
    ("book me transport for tuesday the 8th at 9, no wait make it 10", None),
    ("book a ride to city general tmrw at 10, she uses a wheelchair", "yes"),
    ("book a ride to city general tmrw at 10, no wheelchair needed", "no"),
])
def test_a_yes_no_slot_not_asked_is_filled_only_by_its_own_words(text: str, wheelchair: str | None) -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", text)
        assert slots_of(agent)["wheelchair"] == wheelchair


def test_thanks_after_a_check_starts_nothing() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", "is PT-1002 still going ahead on monday?")
        result = agent.handle("s", "ok good, thank u")
        assert stack_of(agent) == [] and tools_of(result) == []


@pytest.mark.parametrize("text", ["ok good, thank u", "great thx", "perfect, thank you so much"])
def test_thanks_in_closing_words_is_only_thanks(text: str) -> None:
    assert lx.only_thanks(text)


@pytest.mark.parametrize("text", ["ok thanks, book it", "thanks, and cancel BK-1", "good"])
def test_thanks_with_a_request_or_no_thanks_is_not_only_thanks(text: str) -> None:
    assert not lx.only_thanks(text)


@pytest.mark.parametrize(("domain", "pack", "text"), [
    ("paeds", PAEDS, "if my son is poorly on the day can i cancel?"),
    ("paeds", PAEDS, "ok and can i move an appointment online or do i have to ring?"),
    ("paeds", PAEDS, "my sons got a bit of a temp, should we still come in for his jab tomorrow?"),
    ("patient_transport", TRANSPORT, "if i cancel a ride the day before is that ok?"),
    ("travel", None, "is it possible to change the date of a flight after i've paid for it?"),
])
def test_a_question_about_what_the_service_allows_is_answered_and_starts_nothing(domain: str, pack: Path | None,
                                                                                 text: str) -> None:
    with talking(domain, pack) as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and len(tools_of(result)) == 1 and result.understanding["act"] == "digress"


def test_a_question_naming_its_booking_is_about_that_booking_not_what_is_allowed() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "if it's possible can you cancel BK-20481?")
        assert "answer_faq" not in tools_of(result) and result.understanding["flow"] != "faq"


def test_nvm_and_the_task_in_progress_drops_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to change BK-12345")
        agent.handle("s", "oh wait, first can u set a price alert for la to tokyo")
        result = agent.handle("s", "nah nvm the alert")
        assert stack_of(agent) == [("modify_booking", "paused")] and result.transitions.get("cancelled") == ["price_alert"]


def test_dropping_a_queued_part_keeps_the_read_back_question_open() -> None:
    with talking("travel") as agent:
        agent.handle("s", "can u send the itinerary of BK-12345 to ana@example.com, and set a price alert for boston to "
                          "paris below $400")
        dropped = agent.handle("s", "actually dont bother with the price alert")
        assert "shall I go ahead" in dropped.reply
        result = agent.handle("s", "ok go ahead")
        assert tools_of(result) == ["send_itinerary"] and stack_of(agent) == []


def test_seats_for_a_party_with_no_booking_named_book_new_ones() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "need 3 seats from new york to los angeles on friday")
        assert stack_of(agent) == [("book_flight", "active")] and slots_of(agent)["passengers"] == 3
        assert "shall I go ahead" in result.reply


def test_the_time_at_what_to_change_asks_the_appointment_time_not_the_date_of_birth() -> None:
    with talking("paeds", PAEDS) as agent:
        for text in ("book a dev check for Mia Khan on friday at 3pm", "20 nov 2024", "no"):
            agent.handle("s", text)
        agent.handle("s", "the time")
        assert slots_of(agent)["when"] is None and slots_of(agent)["date_of_birth"] == "2024-11-20"
        agent.handle("s", "4pm")
        assert slots_of(agent)["when"] == "2026-12-04T16:00"


def test_a_day_with_its_time_at_the_read_back_changes_the_appointment_not_the_date_of_birth() -> None:
    with talking("paeds", PAEDS) as agent:
        agent.handle("s", "i'd like to book a paediatrician appointment for Sam Jones tomorrow at 2pm")
        agent.handle("s", "15 june 2020")
        agent.handle("s", "no, make it thursday at 2pm")
        assert slots_of(agent)["when"] == "2026-12-03T14:00" and slots_of(agent)["date_of_birth"] == "2020-06-15"


def test_naming_the_address_at_what_to_change_asks_for_it_again_and_keeps_a_name_with_the() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        for text in ("need transport to st lukes tmrw at 2pm", "no", "no", "27 Green Lane", "no"):
            agent.handle("s", text)
        asked = agent.handle("s", "the pickup address")
        assert "pickup address" in asked.reply and slots_of(agent)["pickup_address"] is None
        agent.handle("s", "The Willows, Station Road")
        assert slots_of(agent)["pickup_address"] == "The Willows, Station Road"


def test_weds_is_wednesday() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", "book me transport to the royal on weds at 2pm")
        assert slots_of(agent)["pickup_time"] == "2026-12-02T14:00"


# -- the forty-fourth fresh sets and the SGD kit's checks ----------------------------------------------
GLOW = PACKS / "glow"
SEXUAL_HEALTH = PACKS / "sexualhealth"


def test_a_word_left_as_typed_is_not_dropped_for_being_a_function_word() -> None:
    # ('what's' reads 'what', which mends to nothing else: it stays a word of the turn, as before)
    assert "what" in NLU.scorer.stems("Yes, what's their number and do they allow pets?")


@pytest.mark.parametrize("text", ["cool thx bye", "brilliant, cheers, bye", "super, thats all thanks"])
def test_a_closing_may_judge_in_everyday_words(text: str) -> None:
    assert lx.is_closing(text)


def test_a_goodbye_after_small_talk_says_goodbye() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hey how r u today?")
        result = agent.handle("s", "cool thx bye")
        assert result.understanding["rule"] == "says_goodbye"


def test_thanks_while_an_offer_to_go_back_waits_keeps_the_offer() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to miami")
        agent.handle("s", "actually whats the status of BK-12345")
        thanked = agent.handle("s", "thanks for that")
        assert thanked.reply.startswith("You're welcome!") and "continue booking a new flight" in thanked.reply
        agent.handle("s", "yes")
        assert stack_of(agent) == [("book_flight", "active")]


def test_an_address_in_parts_is_taken_whole() -> None:
    with talking("sexualhealth", SEXUAL_HEALTH) as agent:
        for text in ("can you send me a home testing kit", "the full one pls"):
            agent.handle("s", text)
        agent.handle("s", "Flat 3, 22 Oak Road, Leeds LS6 1AA")
        assert slots_of(agent)["address"] == "Flat 3, 22 Oak Road, Leeds LS6 1AA"


def test_making_an_appointment_asks_for_a_new_one() -> None:
    with talking("sexualhealth", SEXUAL_HEALTH) as agent:
        agent.handle("s", "can i make an appointment")
        assert stack_of(agent) == [("book_appointment", "active")]


def test_a_question_naming_another_value_mid_booking_is_answered_and_changes_nothing() -> None:
    with talking("glow", GLOW) as agent:
        agent.handle("s", "i'd like to book a facial")
        result = agent.handle("s", "can i tan before laser?")
        assert slots_of(agent)["treatment"] == "facial" and tools_of(result) == ["answer_faq"]


def test_asking_for_another_value_instead_changes_it() -> None:
    with talking("glow", GLOW) as agent:
        agent.handle("s", "i'd like to book a facial")
        agent.handle("s", "can we do laser instead?")
        assert slots_of(agent)["treatment"] == "laser hair removal"


@pytest.mark.parametrize(("text", "kept"), [("The Willows, Station Road", True), ("The Shard", True),
                                            ("The Ac Hotel Porte Maillot", False), ("The Nationals Vs Royals", False)])
def test_the_opens_a_name_of_one_word_only(text: str, kept: bool) -> None:
    from dialstack.agent.slot_reading import remainder
    found = remainder(text, (), frozenset())
    assert found is not None and str(found.value).startswith("The") is kept


# -- the review of the session's own rules -----------------------------------------------------------
def test_forgetting_the_paused_task_and_carrying_on_cancels_the_paused_one() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago")
        agent.handle("s", "actually set a price alert for la to tokyo first")
        agent.handle("s", "forget the flight, let's carry on with the alert")
        assert stack_of(agent) == [("price_alert", "active")]


def test_nvm_the_task_in_progress_then_the_paused_one_cancels_the_one_in_progress() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago")
        agent.handle("s", "actually set a price alert for la to tokyo first")
        result = agent.handle("s", "nvm the alert, lets do the flight")
        assert "price_alert" in result.transitions.get("cancelled", []) and stack_of(agent)[0][0] == "book_flight"


@pytest.mark.parametrize(("text", "wheelchair", "escort"), [
    ("book a ride to city general friday 10am, she doesnt need a wheelchair", "no", None),
    ("book a ride to city general friday 10am, wheelchair not needed", "no", None),
    ("book a ride to city general friday 10am, she won't need a wheelchair", "no", None),
    ("book a ride to city general friday 10am. wheelchair no escort yes", "no", "yes"),
])
def test_a_yes_no_slot_reads_the_negation_around_its_own_words(text: str, wheelchair: str, escort: str | None) -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", text)
        assert (slots_of(agent)["wheelchair"], slots_of(agent)["escort"]) == (wheelchair, escort)


@pytest.mark.parametrize("text", ["i'd like to cancel my booking, is that ok?", "book a flight boston to chicago friday, is that ok?"])
def test_a_request_ending_on_is_that_ok_is_a_request(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert "answer_faq" not in tools_of(result) and stack_of(agent) != []


def test_a_preference_before_a_request_in_a_pack_that_keeps_none_starts_only_the_request() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "i'd rather have it by video, and can you check DC-1001")
        assert [name for name, _ in stack_of(agent)] != ["book_appointment"]
        assert all(name != "book_appointment" for name, _ in stack_of(agent))


def test_seats_on_my_booking_change_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i need 2 seats instead of 1 on my booking")
        assert stack_of(agent) == [("modify_booking", "active")]


@pytest.mark.parametrize("typed", ["pls", "cld", "dnt", "shd", "cnt"])
def test_texted_function_words_are_not_mended_into_task_words(typed: str) -> None:
    assert NLU.scorer.mend(typed) == typed


def test_the_same_for_friday_morning_says_its_own_time() -> None:
    with talking("diabetes", PACKS / "diabetes") as agent:
        agent.handle("s", "book a nurse appointment in person thursday at 2pm for Jo Bloggs")
        agent.handle("s", "yes")
        agent.handle("s", "can you do the same for friday morning")
        assert agent.load("s").stack.flows[0].slots["when"].value != "2026-12-04T14:00"


def test_a_count_repaired_because_someone_is_coming_is_no_hour() -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", "need transport to st lukes tmrw at 2pm for 2 people")
        agent.handle("s", "make it 3, my daughter is coming too")
        assert slots_of(agent)["passengers"] == 3 and slots_of(agent)["pickup_time"] == "2026-12-02T14:00"


def test_tickets_count_places_on_a_workshop() -> None:
    with talking("wellbeing", PACKS / "wellbeing") as agent:
        agent.handle("s", "book 2 tickets for the anxiety workshop")
        assert slots_of(agent)["places"] == 2


def test_a_date_of_birth_asked_for_is_read_with_a_time_beside_it() -> None:
    with talking("paeds", PAEDS) as agent:
        agent.handle("s", "book a dev check for Leo Brown on friday at 3pm")
        agent.handle("s", "3 march 2022, 10am is fine")
        assert slots_of(agent)["date_of_birth"] == "2022-03-03"


@pytest.mark.parametrize(("text", "wheelchair"), [("she uses a wheelchair", "yes"), ("she doesnt need a wheelchair", "no"),
                                                  ("yes", "yes"), ("no", "no")])
def test_a_yes_no_question_is_answered_in_its_own_words_too(text: str, wheelchair: str) -> None:
    with talking("patient_transport", TRANSPORT) as agent:
        agent.handle("s", "book a ride to city general friday 10am")
        agent.handle("s", text)
        assert slots_of(agent)["wheelchair"] == wheelchair


def test_not_caring_whether_a_ride_is_shared_negates_nothing() -> None:
    from dialstack.agent.options import flag_value
    from dialstack.domain.models import SlotSpec
    spec = SlotSpec(name="shared_ride", type="CategorySlot", params={"options": ["True", "False"]})
    found = flag_value(spec, ["True", "False"], "I don't care if it's a shared ride")
    assert found is not None and found.value == "True"


@pytest.mark.parametrize("typed", ["hmm", "hmmm", "mmm", "shh", "grr"])
def test_a_sound_written_without_vowels_is_no_word(typed: str) -> None:
    assert NLU.scorer.mend(typed) == typed  # (the travel pack's plan takes a 'home')
