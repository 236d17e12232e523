"""'there', 'that day': a place or a day the talk already named goes into a new task, whatever
the two tasks call their slots."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from dialstack.agent.reference import implied_place, kind_of, referred, referred_values, reversed_trip
from dialstack.domain.models import SlotSpec
from dialstack.state.slots import BaseSlot, FreeTextSlot, SlotContext
from dialstack.state.slot_datetime import DateTimeSlot

CTX = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc), vocabularies={})


def slot(name: str, kind: type[BaseSlot] = FreeTextSlot, value: str | None = None,
         description: str = "") -> tuple[SlotSpec, BaseSlot]:
    spec = SlotSpec(name=name, type=kind.type_name, description=description)
    made = kind(name, {}, priority="required")
    if value is not None:
        made.fill(value, CTX)
    return spec, made


def task(*slots: tuple[SlotSpec, BaseSlot]) -> dict[str, tuple[SlotSpec, BaseSlot]]:
    return {spec.name: (spec, made) for spec, made in slots}


FLIGHT = task(slot("origin_city", value="Boston"), slot("destination_city", value="London"),
              slot("departure_date", DateTimeSlot, value="December 8"))


@pytest.mark.parametrize(("said", "kinds"), [
    ("I need a hotel there", {"place"}),
    ("find me a car to get there", {"place"}),
    ("any buses leaving from there?", {"origin"}),
    ("add it to my calendar that day", {"day"}),
    ("book a table for the same time", {"time"}),
    ("are there any hotels in Paris?", set()),
    ("is there a cheaper one?", set()),
    ("there is a problem with my booking", set()),
])
def test_only_an_explicit_reference_refers_back(said: str, kinds: set[str]) -> None:
    assert referred(said) == kinds


def test_a_place_referred_to_is_where_the_last_task_was_going() -> None:
    hotel = task(slot("location"), slot("check_in_date", DateTimeSlot))
    assert referred_values("I need a hotel there", hotel, [FLIGHT], set()) == {"location": "London"}


def test_from_there_fills_the_new_tasks_origin() -> None:
    bus = task(slot("from_location", description="The city the bus leaves from"),
               slot("to_location", description="The city the bus goes to"))
    assert referred_values("any buses leaving from there to Leeds?", bus, [FLIGHT], {"to_location"}) == {
        "from_location": "London"}


def test_that_day_fills_the_new_tasks_day_whatever_its_name() -> None:
    event = task(slot("event_name"), slot("event_date", DateTimeSlot))
    carried = referred_values("add it to my calendar that day", event, [FLIGHT], set())
    assert set(carried) == {"event_date"}


def test_a_value_the_user_said_is_never_replaced_by_a_reference() -> None:
    hotel = task(slot("location"))
    assert referred_values("a hotel there, in Paris", hotel, [FLIGHT], {"location"}) == {}


def test_a_day_is_a_day_though_its_name_names_a_role() -> None:
    spec, made = slot("pickup_date", DateTimeSlot)
    assert kind_of(spec, made) == "day"
    spec, made = slot("pickup_city")
    assert kind_of(spec, made) == "origin"


def test_a_new_task_that_needs_one_place_and_was_told_none_takes_where_the_talk_went() -> None:
    attractions = task(slot("location"))
    assert implied_place(attractions, [FLIGHT], set()) == {"location": "London"}


def test_a_task_with_two_places_to_fill_is_never_guessed_which() -> None:
    bus = task(slot("from_location", description="The city the bus leaves from"),
               slot("to_location", description="The city the bus goes to"))
    assert implied_place(bus, [FLIGHT], set()) == {}


def test_an_optional_place_is_not_filled_by_implication() -> None:
    spec = SlotSpec(name="location", type="FreeTextSlot", priority="optional")
    assert implied_place({"location": (spec, FreeTextSlot("location", {}, priority="optional"))}, [FLIGHT], set()) == {}


def test_a_flight_back_goes_from_where_the_last_trip_went_to_where_it_came_from() -> None:
    new = task(slot("origin_city"), slot("destination_city"))
    assert reversed_trip("and a flight back on the 14th", new, [FLIGHT], set()) == \
        {"origin_city": "London", "destination_city": "Boston"}


def test_an_end_of_the_way_back_that_the_user_names_stays_as_said() -> None:
    new = task(slot("origin_city"), slot("destination_city"))
    assert reversed_trip("the return to Denver", new, [FLIGHT], {"destination_city"}) == {"origin_city": "London"}


def test_a_new_trip_that_says_nothing_of_coming_back_reverses_nothing() -> None:
    new = task(slot("origin_city"), slot("destination_city"))
    assert reversed_trip("and another flight on the 14th", new, [FLIGHT], set()) == {}
