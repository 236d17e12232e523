"""Review fixes: cancelling the task in progress in plain words, a flow's strong verb first,
a negative amount refused by the money slot, 'yesterday' read (and refused) as a past date,
and free text that keeps only what the flow's trigger words leave."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent import Agent
from dialstack.agent.embedding import load_embedder
from dialstack.agent.nlu import NLUView, Understander
from dialstack.agent.scoring import _swapped
from dialstack.domain import load_domain
from dialstack.domains.travel.slots import DateSlot, MoneySlot
from dialstack.state.factory import FlowFactory
from dialstack.store.memory import InMemoryStore

from .nlu_support import CTX, DOMAIN, FACTORY, IDLE, NLU, view_of

PACKS = Path(__file__).resolve().parent.parent / "fixtures" / "packs"


BOOKING = view_of(FACTORY, "book_flight", "destination", origin="Boston")


# -- 1. giving up the task in progress ----------------------------------------------------------
@pytest.mark.parametrize("text", [
    "never mind, cancel that", "I don't want to book anymore", "I changed my mind", "forget the flight",
    "I no longer need this flight", "I don't need it anymore", "ok I changed my mind about the flight",
])
def test_plain_words_giving_up_cancel_the_active_flow(text: str) -> None:
    u = NLU.understand(text, BOOKING, CTX)
    assert (u.act, u.flow) == ("cancel", "book_flight")


@pytest.mark.parametrize("text", ["I don't need any", "forget the date"])
def test_giving_up_a_detail_or_saying_none_is_not_cancelling(text: str) -> None:
    assert NLU.understand(text, BOOKING, CTX).act != "cancel"


def test_changing_ones_mind_about_a_value_is_a_correction() -> None:
    u = NLU.understand("actually I changed my mind, make it Denver", BOOKING, CTX)
    assert u.act == "correct" and u.labels["origin"].value == "Denver"


def test_cancelling_another_booking_by_its_words_still_starts_that_flow() -> None:
    u = NLU.understand("I also need to cancel my reservation BK-12345", BOOKING, CTX)
    assert (u.act, u.flow) == ("start", "cancel_booking")


# -- 2. a flow's strong verb first; a negative amount -----------------------------------------
def test_a_request_opening_with_a_flows_verb_is_not_taken_over_by_a_slot_word() -> None:
    u = NLU.understand("book a flight from Boston to Chicago on Dec 15 with a max price of 500 dollars", IDLE, CTX)
    assert (u.act, u.flow) == ("start", "book_flight")
    assert u.labels["max_price"].value == {"amount": 500.0, "currency": "USD"}


def test_a_price_alert_request_still_sets_an_alert() -> None:
    u = NLU.understand("Alert me when fares to Rome drop below $300", IDLE, CTX)
    assert (u.act, u.flow) == ("start", "price_alert")


@pytest.mark.parametrize("text", ["-5 dollars", "$-5", "-$5", "minus 5 dollars", "negative 20 euros"])
def test_a_negative_amount_is_refused_with_a_reason_never_made_positive(text: str) -> None:
    result = MoneySlot("max_price").check(text, CTX)
    assert not result.ok and "negative" in result.reason


def test_a_negative_amount_in_a_request_reaches_the_slot_to_be_refused() -> None:
    u = NLU.understand("book a flight from Boston to Chicago on Dec 15 with a max price of -5 dollars", IDLE, CTX)
    assert u.flow == "book_flight"
    assert not FACTORY.slots.make(DOMAIN.flow("book_flight").slot("max_price")).check(
        u.labels["max_price"].value, CTX).ok


def test_a_range_is_not_a_negative_amount() -> None:
    assert MoneySlot("max_price").check("100-200 dollars", CTX).ok


# -- 4. past dates are read, then refused ------------------------------------------------------
@pytest.mark.parametrize(("text", "day"), [
    ("yesterday", "November 30"), ("day before yesterday", "November 29"), ("last Friday", "November 27"),
])
def test_a_past_day_is_read_and_refused_as_in_the_past(text: str, day: str) -> None:
    result = DateSlot("date").check(text, CTX)
    assert not result.ok and result.reason.startswith(f"{day} is in the past")


# -- 3. free text keeps what the flow's trigger words leave ------------------------------------
class Library:
    def __init__(self) -> None:
        self.domain = load_domain("library", PACKS / "library")
        self.factory = FlowFactory(self.domain.ontology)
        self.nlu = Understander(self.domain, self.factory.slots.make)

    def understand(self, text: str, view: NLUView = IDLE):  # type: ignore[no-untyped-def]
        return self.nlu.understand(text, view, CTX)


@pytest.fixture(scope="module")
def library() -> Library:
    return Library()


@pytest.mark.parametrize(("text", "title"), [
    ("find a book", None), ("I'd like to find a book, please", None), ("Find A Book", None),
    ("is Dune available", "Dune"), ("Is Dune available?", "Dune"), ("Do you have The Hobbit?", "The Hobbit"),
    ("Hi, could you search the catalogue for The Lord of the Rings please?", "The Lord of the Rings"),
])
def test_the_words_that_start_a_flow_are_not_its_free_text_value(library: Library, text: str, title: str | None) -> None:
    u = library.understand(text)
    assert (u.act, u.flow) == ("start", "find_book")
    assert (u.labels["title"].value if "title" in u.labels else None) == title


def test_a_free_text_slot_beside_other_required_slots_is_not_guessed(library: Library) -> None:
    u = library.understand("place a hold for pickup at Harbor")
    assert u.flow == "borrow_book" and set(u.labels) == {"branch"}


@pytest.mark.parametrize(("text", "act", "title"), [
    ("what time do you open?", "digress", None), ("thanks!", "chitchat", None), ("I changed my mind", "cancel", None),
    ("I want to find a book", "fill", None), ("The Hobbit", "fill", "The Hobbit"), ("is Dune available", "fill", "Dune"),
])
def test_a_question_small_talk_or_the_task_restated_is_never_stored_as_the_title(
    library: Library, text: str, act: str, title: str | None,
) -> None:
    view = view_of(library.factory, "find_book", "title")
    u = library.understand(text, view)
    assert u.act == act
    assert (u.labels["title"].value if "title" in u.labels else None) == title


def test_an_answer_beside_another_value_keeps_only_its_own_words(library: Library) -> None:
    u = library.understand("The Hobbit, at the Central library", view_of(library.factory, "borrow_book", "title"))
    assert {k: c.value for k, c in u.labels.items()} == {"title": "The Hobbit", "branch": "Central"}


@pytest.mark.parametrize(("flow", "text"), [
    ("plan_trip", "Plan a round trip to Paris next month, then Rome"), ("faq", "What cities do you fly to?"),
])
def test_a_slot_that_holds_the_whole_request_keeps_the_whole_utterance(flow: str, text: str) -> None:
    slot = "request" if flow == "plan_trip" else "question"
    spec = DOMAIN.flow(flow)
    labels, _ = NLU.reader.read(spec, {s.name: FACTORY.slots.make(s) for s in spec.slots}, text, CTX, None)
    assert labels[slot].value == text


# -- typos are mended, words spelled right are not ------------------------------------------------


@pytest.mark.skipif(load_embedder() is None, reason="the embedder's vocabulary tells a word from a typo")
@pytest.mark.parametrize(("said", "kept", "not_read_as"), [("we had a fight about it", "fight", "flight"),
                                                            ("never mind, I found it", "found", "round")])
def test_a_word_spelled_right_is_never_mended_into_a_pack_word(said: str, kept: str, not_read_as: str) -> None:
    stems = NLU.scorer.stems(said)
    assert kept in stems and not_read_as not in stems


def test_a_typo_is_mended_into_the_pack_word_it_misspells() -> None:
    assert "reserv" in NLU.scorer.stems("can I change my reservaton")


def test_two_neighbouring_letters_swapped_are_mended() -> None:
    assert _swapped("mvoe", "move") and _swapped("flgiht", "flight") and not _swapped("move", "move") \
        and not _swapped("mode", "move")


@pytest.mark.skipif(load_embedder() is None, reason="the embedder's vocabulary tells a word from a typo")
@pytest.mark.parametrize(("word", "real"), [("cheapest", True), ("quickest", True), ("bostn", False), ("mvoe", False)])
def test_a_word_with_a_common_ending_is_a_word(word: str, real: bool) -> None:
    assert load_embedder().is_word(word) is real


def test_a_plan_of_one_step_is_that_task_with_no_plan_to_review(tmp_path: Path) -> None:
    agent = Agent("travel", store=InMemoryStore(), data_dir=tmp_path)
    try:
        result = agent.handle("s", "hi, I'm hoping to book a trip from Los Angeles to New York")
        state = agent.load("s")
    finally:
        agent.close()
    assert [f.name for f in state.stack.flows] == ["book_flight"]
    assert "plan" not in result.reply.lower()
