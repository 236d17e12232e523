"""Properties of System-1 understanding through the public ``Understander`` API (issue 8, "Tests").

- A question, a closing or small talk never fills a free-text slot, whatever content words and
  city names it carries (utterances generated from templates); a question naming a city never
  fills the city asked for.
- Casing and punctuation do not change a clear act.

The properties that fail today are strict xfails naming what happens instead: each turns into a
failure (XPASS) once understanding is fixed, and its marker is then removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dialstack.agent.nlu import NLUView, Understander, Understanding
from dialstack.domain import load_domain
from dialstack.state.factory import FlowFactory

from .nlu_support import CITIES, CTX, FACTORY, IDLE, NLU, view_of

PACKS = Path(__file__).resolve().parent.parent / "fixtures" / "packs"
BANKING = load_domain("banking", PACKS / "banking")
BANKING_FACTORY = FlowFactory(BANKING.ontology)
BANKING_NLU = Understander(BANKING, BANKING_FACTORY.slots.make)
CARRENTAL = load_domain("carrental", PACKS / "carrental")
CARRENTAL_FACTORY = FlowFactory(CARRENTAL.ontology)
CARRENTAL_NLU = Understander(CARRENTAL, CARRENTAL_FACTORY.slots.make)

# (understander, factory, flow, free-text slot): the free-text questions a flow asks
FREE_TEXT = [
    (NLU, FACTORY, "save_traveller", "full_name"),
    (BANKING_NLU, BANKING_FACTORY, "add_payee", "nickname"),
    (CARRENTAL_NLU, CARRENTAL_FACTORY, "schedule_delivery", "address"),
]

CITY = st.sampled_from([c["value"] for c in CITIES])
WORD = st.sampled_from([
    "luggage", "pets", "snacks", "weather", "hotels", "museums", "parking", "wifi", "trains",
    "beaches", "food", "taxis", "nightlife", "markets", "prices", "strollers", "bikes", "umbrellas",
])
QUESTION = st.sampled_from([
    "what {w} do you have in {c}?", "do you fly to {c}?", "is {c} good for {w}?",
    "how are the {w} in {c}?", "can I bring {w} to {c}?", "why do you need that?",
    "where exactly is {c}?", "which {w} would you recommend in {c}?", "what about {w}?",
    "are there {w} near {c} airport?", "how much are {w} in {c}", "is it safe to take {w} in {c}?",
])
CLOSING = st.sampled_from([
    "thanks, that's all", "that's everything, bye", "no thanks, that's all I needed",
    "ok cheers, goodbye", "thank you so much, bye!", "that's it for today, thanks",
    "great, thanks for your help", "all good, see you",
])
SMALL_TALK = st.sampled_from([
    "haha you're funny", "how are you today?", "lovely {w} in {c} this time of year",
    "I love {c}", "you're a great bot", "lol", "good morning!", "my cat loves {w}",
    "ugh, {w} again", "nice one", "hello?", "I was in {c} once, great {w}",
])


def _fills(u: Understanding, flow: str, slot: str) -> bool:
    """Whether ``u`` puts a value in ``flow``'s ``slot`` (the flow asking for it)."""
    return slot in u.labels and u.flow in (None, flow) and u.act not in ("start", "digress")


def _waiting(factory: FlowFactory, flow: str, slot: str) -> NLUView:
    return view_of(factory, flow, slot)


KINDS = {"question": QUESTION, "closing": CLOSING, "small talk": SMALL_TALK}
FAILING_TODAY: dict[tuple[str, str], str] = {}  # (kind, flow) -> what happens instead, while it fails
CASES = [
    pytest.param(kind, where, id=f"{kind}-{where[2]}", marks=[pytest.mark.xfail(strict=True, reason=f"issue 8: {why}")]
                 if (why := FAILING_TODAY.get((kind, where[2]))) else [])
    for kind in KINDS for where in FREE_TEXT
]


@pytest.mark.parametrize(("kind", "where"), CASES)
@settings(max_examples=80, deadline=None)
@given(data=st.data(), word=WORD, city=CITY)
def test_no_question_closing_or_small_talk_fills_a_free_text_slot(
    kind: str, where: tuple[Understander, FlowFactory, str, str], data: st.DataObject, word: str, city: str,
) -> None:
    nlu, factory, flow, slot = where
    text = data.draw(KINDS[kind]).format(w=word, c=city)
    u = nlu.understand(text, _waiting(factory, flow, slot), CTX)
    assert not _fills(u, flow, slot), (text, u.to_dict())


@settings(max_examples=60, deadline=None)
@given(template=QUESTION, word=WORD, city=CITY)
def test_a_question_naming_a_city_never_fills_the_city_asked_for(template: str, word: str, city: str) -> None:
    text = template.format(w=word, c=city)
    view = view_of(FACTORY, "book_flight", "destination", origin="Boston")
    u = NLU.understand(text, view, CTX)
    assert not (u.flow in (None, "book_flight") and u.act in ("fill", "correct") and "destination" in u.labels), \
        (text, u.to_dict())


def test_a_name_given_at_the_name_question_fills_it() -> None:
    """The properties above are not met by a slot that never fills."""
    u = NLU.understand("Maria Gomez", view_of(FACTORY, "save_traveller", "full_name"), CTX)
    assert _fills(u, "save_traveller", "full_name") and u.labels["full_name"].value == "Maria Gomez"


OFFER = NLUView(None, None, paused=[("f1", "book_flight")], pending_offer=True)
# (text, view, the act it is); the flow is compared between the clean and the noisy text
CLEAR = [
    ("yes", OFFER, "affirm"),
    ("yes please", OFFER, "affirm"),
    ("no thanks", OFFER, "deny"),
    ("cancel", view_of(FACTORY, "book_flight", "origin"), "cancel"),
    ("never mind", view_of(FACTORY, "book_flight", "date", origin="Boston", destination="Denver"), "cancel"),
    ("book a flight to Paris", IDLE, "start"),
    ("check booking BK-12345", IDLE, "start"),
    ("what cities do you support", view_of(FACTORY, "book_flight", "origin"), "digress"),
]
PUNCTUATION = st.sampled_from(["", ".", "!", "!!", "...", " .", ",", " !"])  # not "?": "yes?" may be a question


def _same_act(case: tuple[str, NLUView, str], noisy_text: str) -> None:
    text, view, act = case
    clean = NLU.understand(text, view, CTX)
    assert clean.act == act, (text, clean.to_dict())
    noisy = NLU.understand(noisy_text, view, CTX)
    assert (noisy.act, noisy.flow) == (clean.act, clean.flow), (noisy_text, noisy.to_dict())


@settings(max_examples=120, deadline=None)
@given(case=st.sampled_from(CLEAR), lead=st.sampled_from(["", " ", "  "]),
       flips=st.lists(st.booleans(), min_size=40, max_size=40))
def test_casing_does_not_change_a_clear_act(case: tuple[str, NLUView, str], lead: str, flips: list[bool]) -> None:
    _same_act(case, lead + "".join(ch.upper() if f else ch.lower() for ch, f in zip(case[0], flips + [False] * 200)))


@example(case=CLEAR[3], end=",", shout=False)
@settings(max_examples=120, deadline=None)
@given(case=st.sampled_from(CLEAR), end=PUNCTUATION, shout=st.booleans())
def test_trailing_punctuation_does_not_change_a_clear_act(case: tuple[str, NLUView, str], end: str, shout: bool) -> None:
    _same_act(case, (case[0].upper() if shout else case[0]) + end)
