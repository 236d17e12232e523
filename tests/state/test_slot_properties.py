"""Property tests for slots: check() never raises on any JSON value, fill() is all-or-nothing,
and every slot round-trips through the registry."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.domain.models import SlotSpec
from dialstack.state import SlotRegistry

from .conftest import CITIES, NOW, travel_ontology
from dialstack.state import SlotContext

CTX = SlotContext(now=NOW, vocabularies={"cities": CITIES})
REGISTRY = SlotRegistry.for_domain(travel_ontology())
SPECS = [
    SlotSpec(name="note", type="BaseSlot"),
    SlotSpec(name="columns", type="GroupSlot"),
    SlotSpec(name="sources", type="SourceSlot", params={"min_size": 2}),
    SlotSpec(name="targets", type="TargetSlot"),
    SlotSpec(name="removals", type="RemovalSlot"),
    SlotSpec(name="question", type="FreeTextSlot", params={"max_length": 20}),
    SlotSpec(name="level", type="LevelSlot", params={"min": 0, "max": 10, "integer": True}),
    SlotSpec(name="budget", type="RangeSlot", params={"min": 0, "max": 1000}),
    SlotSpec(name="booking_ref", type="ExactSlot", params={"pattern": r"BK-\d{5}", "normalize": "upper"}),
    SlotSpec(name="prefs", type="DictionarySlot", params={"keys": ["seat", "meal"]}),
    SlotSpec(name="seat", type="CategorySlot", params={"options": ["window", "aisle", "middle"]}),
    SlotSpec(name="confirm", type="CategorySlot", params={"options": ["yes", "no"]}),
    SlotSpec(name="seats", type="ChecklistSlot", params={"options": ["window", "aisle", "middle"]}),
    SlotSpec(name="origin", type="LocationSlot"),
    SlotSpec(name="passengers", type="PassengerCountSlot"),
]
SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats()
WORDS = st.sampled_from(["window", "aisle", "two", "BK-12345", "yes", "no", "100-300", "seat: aisle", "LA", ""])
JSON = st.recursive(SCALARS | st.text(max_size=12) | WORDS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(spec=st.sampled_from(SPECS), first=JSON, second=JSON)
def test_fill_is_all_or_nothing_and_round_trips(spec: SlotSpec, first: Any, second: Any) -> None:
    slot = REGISTRY.make(spec)
    slot.fill(first, CTX)
    before = slot.to_dict()
    result = slot.fill(second, CTX)
    if result.ok:
        assert slot.value == result.value and slot.filled
    else:
        assert result.reason and slot.to_dict() == before
    assert REGISTRY.restore(slot.to_dict()).to_dict() == slot.to_dict()


@settings(max_examples=200, deadline=None)
@given(spec=st.sampled_from(SPECS), text=st.text(max_size=40) | WORDS)
def test_extracted_candidates_pass_their_own_check(spec: SlotSpec, text: str) -> None:
    slot = REGISTRY.make(spec)
    for candidate in slot.extract(text, CTX):
        assert 0 <= candidate.start <= candidate.end <= len(text)
        if candidate.score >= 0.5:
            assert slot.check(candidate.value, CTX).ok
