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

from .nlu_support import CTX, NLU, talking

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"


def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


def tools_of(result: object) -> list[str]:
    return [c["tool"] for c in result.tool_calls]  # type: ignore[attr-defined]


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


@pytest.mark.parametrize("text", ["i prefer window seats", "we'd rather fly in the morning", "my usual preference is aisle",
                                  "i'd like a flight to rome"])
def test_a_wish_is_stated_in_several_ways(text: str) -> None:
    assert lx.STATES_A_WISH.match(text)


@pytest.mark.parametrize("text", ["can you list my bookings", "what do you prefer", "is a window seat better"])
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


@pytest.mark.parametrize("text", ["never mind that, lets go back", "nvm it. back to the booking", "never mind this - carry on"])
def test_never_mind_with_its_object_opens_a_turn_that_says_more(text: str) -> None:
    assert lx.CANCEL_LEAD.match(text)


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
