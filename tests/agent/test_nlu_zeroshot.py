"""Generic System-1 rules, shown on the blind packs (pharmacy, banking, car rental).

Each rule is domain-independent; the packs only supply a domain the rules were not written for.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from dialstack.agent import lexicon as lx
from dialstack.agent.nlu import ActiveView, NLUView, Understander
from dialstack.domain import load_domain
from dialstack.state.factory import FlowFactory
from dialstack.state.slots import SlotContext

PACKS = Path(__file__).resolve().parent.parent / "fixtures" / "packs"
CTX = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc), vocabularies={})
IDLE = NLUView(active=None, waiting_for_slot=None, paused=[])


class Pack:
    def __init__(self, name: str) -> None:
        self.domain = load_domain(name, PACKS / name)
        self.factory = FlowFactory(self.domain.ontology)
        self.nlu = Understander(self.domain, self.factory.slots.make)

    def view(self, flow: str, slot: str | None, **filled: object) -> NLUView:
        instance = self.factory.create(flow, now=0)
        instance.fill_slots_by_label(dict(filled), CTX)
        last = next(reversed(filled), None)
        return NLUView(ActiveView(flow, instance.spec, instance.slots, last), slot, paused=[])

    def understand(self, text: str, view: NLUView = IDLE):  # type: ignore[no-untyped-def]
        return self.nlu.understand(text, view, CTX)


@pytest.fixture(scope="module")
def carrental() -> Pack:
    return Pack("carrental")


@pytest.fixture(scope="module")
def banking() -> Pack:
    return Pack("banking")


@pytest.fixture(scope="module")
def pharmacy() -> Pack:
    return Pack("pharmacy")


def test_a_leading_no_answers_the_confirmation_even_when_a_keyword_points_elsewhere(carrental: Pack) -> None:
    view = carrental.view("cancel_rental", "confirm", rental_ref="RNT-48213")
    u = carrental.understand("no wait, keep it", view)
    assert (u.act, u.labels["confirm"].value) == ("fill", "no")


def test_a_leading_no_followed_by_a_clear_new_request_still_starts_it(banking: Pack) -> None:
    view = banking.view("transfer_money", "confirm", amount=100, from_account="checking", to_account="savings")
    u = banking.understand("no, I lost my debit card, please freeze my card ending 4821 right now", view)
    assert (u.act, u.flow) == ("start", "freeze_card")


def test_a_yes_no_word_inside_a_correction_is_not_the_confirmations_answer(pharmacy: Pack) -> None:
    view = pharmacy.view("transfer_prescription", "confirm", medication="metformin", old_pharmacy="CVS", store="Oak Park")
    u = pharmacy.understand("actually make that main street, not oak park", view)
    assert u.act == "correct"
    assert {k: c.value for k, c in u.labels.items()} == {"store": "Main Street"}


@pytest.mark.parametrize("text", ["actually forget it", "ok never mind", "hmm, cancel that"])
def test_a_filler_before_a_stop_word_still_cancels(banking: Pack, text: str) -> None:
    u = banking.understand(text, banking.view("schedule_payment", "amount", payee="Landlord"))
    assert (u.act, u.flow) == ("cancel", "schedule_payment")


def test_an_utterance_opening_with_small_talk_and_asking_nothing_is_chitchat(banking: Pack) -> None:
    view = banking.view("schedule_payment", "amount", payee="Landlord", frequency="monthly")
    u = banking.understand("lol this is so much easier than calling", view)
    assert u.act == "chitchat" and not u.labels


def test_a_keyword_phrase_made_of_function_words_counts_only_as_a_phrase(banking: Pack) -> None:
    loose, phrased = dict(banking.nlu.rank("so much")), dict(banking.nlu.rank("how much"))
    assert loose["check_balance"] < phrased["check_balance"]
    assert banking.understand("how much do I have in checking?").flow == "check_balance"


def test_the_unit_after_a_number_names_the_slot_it_fills(carrental: Pack) -> None:
    view = carrental.view("rent_car", "driver_age", branch="Downtown", car_class="SUV", days=4)
    u = carrental.understand("and change it to 6 days", view)
    assert u.act == "correct" and u.labels["days"].value == 6 and "driver_age" not in u.labels


@pytest.mark.parametrize(("text", "days"), [("a week", 7), ("two weeks", 14), ("for the week", 7)])
def test_weeks_count_as_days_for_a_slot_measured_in_days(carrental: Pack, text: str, days: int) -> None:
    view = carrental.view("rent_car", "days", branch="Downtown", car_class="economy")
    u = carrental.understand(text, view)
    assert (u.act, u.labels["days"].value) == ("fill", days)


def test_weeks_are_not_read_into_a_number_that_is_not_days(pharmacy: Pack) -> None:
    view = pharmacy.view("dose_reminder", "doses_per_day", medication="metformin")
    u = pharmacy.understand("a week", view)
    assert "doses_per_day" not in u.labels


def test_free_text_beside_other_required_slots_is_asked_not_guessed_from_the_request(pharmacy: Pack) -> None:
    u = pharmacy.understand("I want to transfer my prescription")
    assert (u.act, u.flow) == ("start", "transfer_prescription")
    assert "old_pharmacy" not in u.labels


def test_digits_inside_a_code_are_not_a_number_for_another_slot(carrental: Pack) -> None:
    view = carrental.view("extend_rental", "rental_ref")
    u = carrental.understand("RNT-123", view)
    assert "extra_days" not in u.labels
    assert "doesn't look like" in u.rejected["rental_ref"]


def test_yes_no_lead_keeps_the_rest_of_the_sentence() -> None:
    m = lx.YES_NO_LEAD.match("no wait, keep it")
    assert m is not None and m["rest"] == "wait, keep it"
