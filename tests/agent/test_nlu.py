"""System-1 understanding through ``Understander`` with the real travel domain."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.cli import main

from dialstack.agent.nlu import NLUView

from .nlu_support import CTX, FACTORY, IDLE, NLU, view_of

PACKS = Path(__file__).resolve().parent.parent / "fixtures" / "packs"


def waiting(flow: str, slot: str | None, **filled: object) -> NLUView:
    return view_of(FACTORY, flow, slot, **filled)


def understand(text: str, view: NLUView = IDLE):  # type: ignore[no-untyped-def]
    return NLU.understand(text, view, CTX)


@pytest.mark.parametrize(("text", "flow"), [
    ("I want to book a flight", "book_flight"),
    ("Show me flights from Boston to Chicago", "search_flights"),
    ("What flights are there from New York to Los Angeles on Dec 24?", "search_flights"),
    ("Is my reservation confirmed?", "check_booking"),
    ("I need to reschedule my flight", "modify_booking"),
    ("Please cancel my reservation", "cancel_booking"),
    ("What trips do I have coming up?", "list_bookings"),
    ("I'm vegetarian", "save_traveller"),
    ("Remind me to check in for BK-12345", "checkin_reminder"),
    ("Alert me when fares to Rome drop below $300", "price_alert"),
])
def test_a_request_starts_the_flow_it_names(text: str, flow: str) -> None:
    u = understand(text)
    assert (u.act, u.flow) == ("start", flow)


def test_the_top_three_flows_come_with_their_confidence_best_first() -> None:
    u = understand("Book me a flight to Denver")
    assert len(u.confidence) == 3 and u.confidence[0][0] == "book_flight"
    scores = [s for _, s in u.confidence]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]


@pytest.mark.parametrize("text", ["fly from Boston to Denver", "to Denver from Boston", "from Boston, going to Denver"])
def test_cue_words_assign_origin_and_destination_in_any_order(text: str) -> None:
    u = understand(text, waiting("book_flight", "origin"))
    assert {k: c.value for k, c in u.labels.items()} == {"origin": "Boston", "destination": "Denver"}


def test_several_values_in_one_utterance_fill_several_slots() -> None:
    u = understand("I want to fly from Boston to Denver next Friday for two people")
    assert (u.act, u.flow) == ("start", "book_flight")
    assert {k: c.value for k, c in u.labels.items()} == {
        "origin": "Boston", "destination": "Denver", "date": "2026-12-04", "passengers": 2}


def test_an_answer_fills_the_slot_being_asked() -> None:
    u = understand("Boston", waiting("book_flight", "origin"))
    assert u.act == "fill" and u.labels["origin"].value == "Boston"


def test_a_value_the_user_rules_out_is_not_read() -> None:
    u = understand("sorry, I meant to Denver, not Chicago", waiting("book_flight", "date", origin="Boston", destination="Chicago"))
    assert u.act == "correct" and {k: c.value for k, c in u.labels.items()} == {"destination": "Denver"}


def test_actually_make_it_corrects_the_slot_just_filled_not_the_one_asked() -> None:
    u = understand("Actually make it Boston", waiting("book_flight", "destination", origin="Chicago"))
    assert u.act == "correct" and u.labels["origin"].value == "Boston" and "destination" not in u.labels


def test_an_invalid_answer_is_refused_with_a_reason() -> None:
    u = understand("BK-12", waiting("check_booking", "booking_ref"))
    assert u.act == "fill" and not u.labels and "BK-12" in u.rejected["booking_ref"]


@pytest.mark.parametrize(("text", "kind"), [
    ("What cities do you support?", "question"),
    ("Do you fly to Tokyo?", "question"),
    ("help", "help"),
    ("what do you still need?", "status"),
    ("why do you need that?", "clarification"),
])
def test_digressions_are_recognised_and_store_nothing_in_the_task(text: str, kind: str) -> None:
    u = understand(text, waiting("book_flight", "destination", origin="Boston"))
    assert (u.act, u.digression_type) == ("digress", kind)
    # what a side question names goes to the flow that answers it ('Tokyo' is no destination)
    own = {s.name for s in NLU.domain.flow(u.flow).slots} if u.flow else set()
    assert set(u.labels) <= own and "destination" not in u.labels


@pytest.mark.parametrize("text", ["thanks!", "hello", "cool, thank you"])
def test_chitchat_is_never_stored_into_the_waiting_slot(text: str) -> None:
    u = understand(text, waiting("book_flight", "origin"))
    assert u.act == "chitchat" and not u.labels


@pytest.mark.parametrize("text", ["cancel", "never mind", "forget it", "stop", "forget it, it's fine as it is"])
def test_stop_words_cancel_the_active_flow(text: str) -> None:
    assert understand(text, waiting("book_flight", "origin")).act == "cancel"


def test_an_intent_change_starts_a_new_flow_instead_of_filling() -> None:
    u = understand("Actually, let me check my existing booking first", waiting("book_flight", "origin"))
    assert (u.act, u.flow) == ("start", "check_booking")


def test_going_back_to_a_paused_flow_is_a_resume() -> None:
    view = NLUView(None, None, paused=[("f1", "book_flight")])
    assert understand("let's go back to the booking", view).act == "resume"


@pytest.mark.parametrize(("text", "act"), [("Yes", "affirm"), ("no thanks", "deny")])
def test_yes_and_no_answer_a_resume_offer(text: str, act: str) -> None:
    view = NLUView(None, None, paused=[("f1", "book_flight")], pending_offer=True)
    assert understand(text, view).act == act


@pytest.mark.parametrize(("text", "value"), [("yes", "yes"), ("no", "no"), ("no, keep it", "no")])
def test_yes_and_no_fill_a_yes_no_slot_instead_of_affirming(text: str, value: str) -> None:
    view = waiting("cancel_booking", "confirm", booking_ref="BK-20481")
    u = understand(text, view)
    assert u.act == "fill" and u.labels["confirm"].value == value


FILLERS = st.sampled_from(["", "um ", "so ", "ok ", "hey, ", "well "])
ENDINGS = st.sampled_from(["", ".", "!", " please", " please!", "..."])
CLEAR = [("I want to book a flight", "start", "book_flight"), ("Check my booking", "start", "check_booking"),
         ("Show my bookings", "start", "list_bookings"), ("Cancel my booking", "start", "cancel_booking")]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CLEAR), lead=FILLERS, end=ENDINGS, upper=st.lists(st.booleans(), min_size=40, max_size=40))
def test_casing_punctuation_and_filler_words_do_not_change_a_clear_act(
    case: tuple[str, str, str], lead: str, end: str, upper: list[bool]
) -> None:
    text, act, flow = case
    noisy = "".join(ch.upper() if flip else ch.lower() for ch, flip in zip(lead + text + end, upper + [False] * 200))
    u = understand(noisy)
    assert (u.act, u.flow) == (act, flow)


@pytest.mark.parametrize("pack", ["restaurant", "helpdesk"])
def test_the_zero_shot_packs_validate(pack: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--pack", str(PACKS / pack)]) == 0, capsys.readouterr().out


def test_restating_the_task_in_progress_asks_on_instead_of_filling_the_slot() -> None:
    u = understand("I want to book a flight", waiting("book_flight", "origin"))
    assert (u.act, u.flow, u.labels, u.rejected) == ("fill", "book_flight", {}, {})


def test_an_optional_slot_does_not_guess_among_several_uncued_values() -> None:
    u = understand("Plan a round trip to Paris next month, then Rome")
    assert (u.act, u.flow) == ("start", "plan_trip")
    assert "home" not in u.labels


def test_an_optional_slot_takes_a_cued_value() -> None:
    u = understand("Plan a trip from Boston to Paris, then Rome")
    assert u.labels["home"].value == "Boston"
