"""The four travel slot types: parsing tables, rejections with reasons, extraction from utterances."""

from __future__ import annotations

from typing import Any

import pytest

from dialstack.domains.travel.slots import DateSlot, LocationSlot, MoneySlot, PassengerCountSlot
from dialstack.state.slots import SlotContext

from .conftest import NOW

CTX = SlotContext(now=NOW)  # Thursday 2025-11-20; no vocabulary: LocationSlot uses the static city list
CITIES_VOCAB = SlotContext(now=NOW, vocabularies={"cities": [
    {"value": "New York", "synonyms": ["NYC", "JFK", "LGA", "EWR", "Big Apple"]},
    {"value": "Portland, Oregon", "synonyms": ["PDX"]},
    {"value": "Portland, Maine", "synonyms": ["PWM"]},
]})


@pytest.mark.parametrize(("text", "expected"), [
    ("2025-12-15", "2025-12-15"), ("Dec 15", "2025-12-15"), ("December 15th", "2025-12-15"),
    ("15/12", "2025-12-15"), ("12/15", "2025-12-15"), ("15th of December", "2025-12-15"),
    ("next Friday", "2025-11-21"), ("Friday", "2025-11-21"), ("tomorrow", "2025-11-21"),
    ("today", "2025-11-20"), ("day after tomorrow", "2025-11-22"), ("in 3 days", "2025-11-23"),
    ("in two weeks", "2025-12-04"), ("a week from today", "2025-11-27"), ("next month", "2025-12-20"),
    ("Jan 10", "2026-01-10"), ("Dec. 15, 2026", "2026-12-15"), ("the 3rd", "2025-12-03"),
])
def test_date_slot_reads_common_date_forms(text: str, expected: str) -> None:
    assert DateSlot("date").check(text, CTX).value == expected


def test_date_slot_rejects_a_past_date_asking_for_an_upcoming_one() -> None:
    result = DateSlot("date").check("November 1", CTX)
    assert not result.ok and result.reason == "November 1 is in the past — which upcoming date?"


@pytest.mark.parametrize("text", ["whenever", "Feb 30", ""])
def test_date_slot_rejects_what_is_not_a_date(text: str) -> None:
    assert not DateSlot("date").check(text, CTX).ok


def test_date_slot_fill_leaves_the_slot_unchanged_on_rejection() -> None:
    slot = DateSlot("date")
    slot.fill("Dec 15", CTX)
    slot.fill("November 1", CTX)
    assert slot.value == "2025-12-15" and slot.display == "December 15"


def test_date_slot_extracts_dates_from_an_utterance() -> None:
    found = DateSlot("date").extract("fly on December 20th and back the 28th of December", CTX)
    assert [c.value for c in found] == ["2025-12-20", "2025-12-28"]


@pytest.mark.parametrize(("text", "city"), [
    ("New York", "New York"), ("nyc", "New York"), ("JFK", "New York"), ("Big Apple", "New York"),
    ("LA", "Los Angeles"), ("Heathrow", "London"), ("Paris CDG", "Paris"), ("sao paulo", "São Paulo"),
    ("Bostn", "Boston"), ("from Chicago", "Chicago"), ("Chicago O'Hare", "Chicago"),
])
def test_location_slot_resolves_names_codes_and_typos(text: str, city: str) -> None:
    assert LocationSlot("origin", {"vocabulary": "cities"}).check(text, CTX).value == city


def test_location_slot_asks_back_for_an_ambiguous_name() -> None:
    result = LocationSlot("origin", {"vocabulary": "cities"}).check("Portland", CITIES_VOCAB)
    assert not result.ok and result.reason == "Portland — Oregon or Maine?"


def test_location_slot_names_a_city_we_do_not_fly_to() -> None:
    result = LocationSlot("origin", {"vocabulary": "cities"}).check("Gotham", CITIES_VOCAB)
    assert not result.ok and "we don't fly to Gotham" in result.reason


@pytest.mark.parametrize("text", ["Atlantis", "Gotham City", "Narnia"])
def test_location_slot_does_not_fuzzy_match_a_made_up_city_onto_a_real_one(text: str) -> None:
    result = LocationSlot("origin", {"vocabulary": "cities"}).check(text, CTX)
    assert not result.ok and f"we don't fly to {text}" in result.reason


def test_location_slot_reads_raw_list_cities_items_as_vocabulary() -> None:
    ctx = SlotContext(now=NOW, vocabularies={"cities": [
        {"city": "Chicago", "code": "CHI", "aliases": ["Windy City"],
         "airports": [{"code": "ORD", "name": "O'Hare International"}, {"code": "MDW", "name": "Midway International"}]},
    ]})
    assert LocationSlot("origin", {"vocabulary": "cities"}).check("MDW", ctx).value == "Chicago"
    assert not LocationSlot("origin", {"vocabulary": "cities"}).check("Boston", ctx).ok


def test_location_slot_extracts_cities_but_not_lowercase_words_that_look_like_codes() -> None:
    slot = LocationSlot("origin", {"vocabulary": "cities"})
    assert [c.value for c in slot.extract("I want to fly from New York to LA", CTX)] == ["New York", "Los Angeles"]
    assert slot.extract("I saw the sea and I'm mad", CTX) == []


def test_location_slot_extracts_an_unknown_place_for_check_to_reject() -> None:
    found = LocationSlot("destination", {"vocabulary": "cities"}).extract("a flight from Boston to Gotham", CTX)
    assert [(c.value, c.score < 0.5) for c in found] == [("Boston", False), ("Gotham", True)]


@pytest.mark.parametrize(("raw", "expected", "display"), [
    ("$300", {"amount": 300.0, "currency": "USD"}, "$300"),
    ("250 EUR", {"amount": 250.0, "currency": "EUR"}, "€250"),
    ("1,200 dollars", {"amount": 1200.0, "currency": "USD"}, "$1,200"),
    ("£99.50", {"amount": 99.5, "currency": "GBP"}, "£99.50"),
    ("300", {"amount": 300.0, "currency": "USD"}, "$300"),
    ("two hundred dollars", {"amount": 200.0, "currency": "USD"}, "$200"),
    ("under 400", {"amount": 400.0, "currency": "USD"}, "$400"),
    ({"amount": 50, "currency": "chf"}, {"amount": 50.0, "currency": "CHF"}, "50 CHF"),
])
def test_money_slot_reads_amount_and_currency(raw: Any, expected: dict[str, Any], display: str) -> None:
    result = MoneySlot("max_price").check(raw, CTX)
    assert (result.value, result.display) == (expected, display)


@pytest.mark.parametrize("raw", ["cheap", "$0", {"amount": 10, "currency": "XYZ"}])
def test_money_slot_rejects_unusable_amounts(raw: Any) -> None:
    assert not MoneySlot("max_price").check(raw, CTX).ok


def test_money_slot_extracts_marked_amounts_first() -> None:
    found = MoneySlot("max_price").extract("flights under 400 to Paris, max $350", CTX)
    assert [(c.value["amount"], c.score) for c in found] == [(400.0, 0.6), (350.0, 0.9)]


@pytest.mark.parametrize(("raw", "count"), [
    ("2", 2), (3, 3), ("three", 3), ("just me", 1), ("me and my wife", 2), ("4 people", 4), ("for two", 2),
])
def test_passenger_count_reads_digits_and_words(raw: Any, count: int) -> None:
    assert PassengerCountSlot("passengers", {"min": 1, "max": 9}).check(raw, CTX).value == count


@pytest.mark.parametrize(("raw", "reason"), [
    ("12", "at most 9"), ("0", "At least 1"), (2.5, "whole number"), ("lots", "number from 1 to 9"),
])
def test_passenger_count_rejects_out_of_range_with_a_reason(raw: Any, reason: str) -> None:
    result = PassengerCountSlot("passengers", {"min": 1, "max": 9}).check(raw, CTX)
    assert not result.ok and reason in result.reason


def test_passenger_count_extracts_counted_travellers_not_dates() -> None:
    found = PassengerCountSlot("passengers", {"min": 1, "max": 9}).extract("3 tickets on Dec 15 for two", CTX)
    assert sorted(c.value for c in found) == [2, 3]


@pytest.mark.parametrize(("said", "cities"), [("get me a ticket boston to nyc on the 6th", ["Boston", "New York"]),
                                             ("how much r flights seatle to san fran", ["Seattle", "San Francisco"]),
                                             ("i want to go to sea", []), ("a ticket from den", [])])
def test_a_city_code_in_lower_case_after_a_cue_and_a_misspelt_city_before_to_are_read(said: str, cities: list[str]) -> None:
    found = [c.value for c in LocationSlot("origin", {"vocabulary": "cities"}).extract(said, CTX) if c.score >= 0.5]
    assert found == cities


@pytest.mark.parametrize(("said", "count"), [("for me, my wife and our two kids", 4), ("me and my husband and our son", 3)])
def test_passengers_named_one_by_one_are_counted(said: str, count: int) -> None:
    assert PassengerCountSlot("passengers", {}).extract(said, CTX)[0].value == count


def test_ppl_counts_people() -> None:
    assert PassengerCountSlot("passengers", {}).extract("boston to denver on dec 11, 2 ppl", CTX)[0].value == 2
