"""Tool handlers on a fresh database copy: happy paths and the domain errors users can hit."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import Any

import pytest

from dialstack.agent.llm.offline import error_category

from dialstack.domains.travel import faq, handlers, profile
from dialstack.domains.travel.errors import (
    AmbiguousCity,
    BookingNotChangeable,
    PastDate,
    SoldOut,
    TravelError,
    UnknownBooking,
    UnknownCity,
)
from dialstack.tools.context import ToolContext, ToolInputError

from .conftest import NOW


def _sold_out_flight(ctx: ToolContext) -> str:
    with sqlite3.connect(ctx.data_dir / "travel.db") as conn:  # type: ignore[operator]
        dep_date, flight_no = conn.execute(
            "SELECT dep_date, flight_no FROM flights WHERE seats_left = 0 AND dep_date > '2025-12-01' "
            "ORDER BY dep_date, flight_no LIMIT 1").fetchone()
    return f"DS{flight_no}-{dep_date.replace('-', '')}"


def test_list_cities_gives_codes_airports_and_aliases(ctx: ToolContext) -> None:
    cities = {c["city"]: c for c in handlers.list_cities(ctx=ctx)["cities"]}
    assert cities["New York"]["code"] == "NYC"
    assert {a["code"] for a in cities["New York"]["airports"]} == {"JFK", "LGA", "EWR"}
    assert "Big Apple" in cities["New York"]["aliases"]
    assert "LA" in cities["Los Angeles"]["aliases"]


def test_search_returns_flights_cheapest_first(ctx: ToolContext) -> None:
    result = handlers.search_flights(origin="Boston", destination="Chicago", date="2025-12-20", ctx=ctx)
    prices = [f["price"] for f in result["flights"]]
    assert result["count"] == len(prices) > 0
    assert prices == sorted(prices)
    assert result["flights"][0]["flight_id"].startswith("DS")


def test_search_accepts_iata_codes_and_aliases(ctx: ToolContext) -> None:
    by_name = handlers.search_flights(origin="New York", destination="Los Angeles", date="2025-12-16", ctx=ctx)
    by_code = handlers.search_flights(origin="NYC", destination="LA", date="2025-12-16", ctx=ctx)
    by_airport = handlers.search_flights(origin="JFK", destination="LAX", date="2025-12-16", ctx=ctx)
    assert by_name["flights"] == by_code["flights"]
    assert all(f["origin_airport"] == "JFK" for f in by_airport["flights"])


def test_search_leaves_out_flights_above_the_budget_in_any_currency(ctx: ToolContext) -> None:
    every = handlers.search_flights(origin="London", destination="Paris", date="2025-12-18", ctx=ctx)
    cheapest = every["flights"][0]["price"]
    capped = handlers.search_flights(origin="London", destination="Paris", date="2025-12-18",
                                     max_price={"amount": cheapest / 1.08, "currency": "EUR"}, ctx=ctx)
    assert [f["price"] for f in capped["flights"]] == [cheapest]


def test_search_excludes_sold_out_flights(ctx: ToolContext) -> None:
    result = handlers.search_flights(origin="New York", destination="Los Angeles", date="2025-12-24", ctx=ctx)
    assert result["count"] == 0 and result["route_served"] is True


def test_search_rejects_an_unknown_city_naming_it(ctx: ToolContext) -> None:
    with pytest.raises(UnknownCity, match="don't fly to Gotham"):
        handlers.search_flights(origin="Gotham", destination="Paris", date="2025-12-20", ctx=ctx)


def test_search_asks_back_for_an_ambiguous_city(ctx: ToolContext) -> None:
    with pytest.raises(AmbiguousCity, match="Portland — Oregon or Maine"):
        handlers.search_flights(origin="Portland", destination="Boston", date="2025-12-20", ctx=ctx)


def test_search_rejects_a_past_date(ctx: ToolContext) -> None:
    with pytest.raises(PastDate, match="November 1 is in the past"):
        handlers.search_flights(origin="Boston", destination="Chicago", date="2025-11-01", ctx=ctx)


def test_domain_errors_are_tool_input_errors(ctx: ToolContext) -> None:
    with pytest.raises(ToolInputError):
        handlers.get_booking(booking_ref="BK-99999", ctx=ctx)


def test_get_booking_reports_bk_12345_confirmed_for_december_15(ctx: ToolContext) -> None:
    booking = handlers.get_booking(booking_ref="bk-12345", ctx=ctx)
    assert (booking["status"], booking["departure_date"]) == ("confirmed", "2025-12-15")
    assert (booking["origin"], booking["destination"]) == ("New York", "Los Angeles")


def test_get_booking_with_a_wrong_reference_says_so(ctx: ToolContext) -> None:
    with pytest.raises(UnknownBooking, match="couldn't find a booking with reference BK-99999") as raised:
        handlers.get_booking(booking_ref="BK-99999", ctx=ctx)
    # the offline skill runner files it under not_found, so the flow re-asks the reference
    assert error_category(str(raised.value))[0] == "not_found"


def test_create_booking_takes_seats_and_can_be_listed(ctx: ToolContext) -> None:
    flight = handlers.search_flights(origin="Boston", destination="Denver", date="2025-11-28", passengers=2, ctx=ctx)["flights"][0]
    booking = handlers.create_booking(flight_id=flight["flight_id"], passengers=2, seat="window", ctx=ctx)
    assert booking["booking_ref"].startswith("BK-") and booking["status"] == "confirmed"
    assert booking["total_price"] == pytest.approx(flight["price"] * 2)
    again = handlers.search_flights(origin="Boston", destination="Denver", date="2025-11-28", ctx=ctx)
    seats = {f["flight_id"]: f["seats_left"] for f in again["flights"]}
    assert seats.get(flight["flight_id"], 0) == flight["seats_left"] - 2
    refs = [b["booking_ref"] for b in handlers.list_bookings(ctx=ctx)["bookings"]]
    assert booking["booking_ref"] in refs


def test_create_booking_on_a_sold_out_flight_fails(ctx: ToolContext) -> None:
    with pytest.raises(SoldOut, match="sold out"):
        handlers.create_booking(flight_id=_sold_out_flight(ctx), ctx=ctx)


def test_create_booking_of_a_departed_flight_fails(make_ctx: Any) -> None:
    later = make_ctx(now=datetime(2025, 12, 20, tzinfo=timezone.utc))
    with pytest.raises(PastDate, match="already departed"):
        handlers.create_booking(flight_id="DS100-20251215", ctx=later)


def test_create_booking_uses_the_saved_seat_preference(ctx: ToolContext) -> None:
    profile.save_preferences(seat="aisle", full_name="Ana Lima", ctx=ctx)
    flight = handlers.search_flights(origin="Miami", destination="Atlanta", date="2025-12-02", ctx=ctx)["flights"][0]
    booking = handlers.create_booking(flight_id=flight["flight_id"], ctx=ctx)
    assert booking["seat"] == "aisle" and booking["passenger_names"] == ["Ana Lima"]


def test_update_booking_moves_it_to_a_new_date(ctx: ToolContext) -> None:
    moved = handlers.update_booking(booking_ref="BK-12345", new_date="2025-12-20", ctx=ctx)
    assert moved["departure_date"] == "2025-12-20" and moved["changes"] == ["date"]
    assert handlers.get_booking(booking_ref="BK-12345", ctx=ctx)["departure_date"] == "2025-12-20"


def test_update_booking_to_a_sold_out_day_fails_and_changes_nothing(ctx: ToolContext) -> None:
    with pytest.raises(SoldOut, match="no seats left"):
        handlers.update_booking(booking_ref="BK-12345", new_date="2025-12-24", ctx=ctx)
    assert handlers.get_booking(booking_ref="BK-12345", ctx=ctx)["departure_date"] == "2025-12-15"


def test_update_booking_without_changes_asks_what_to_change(ctx: ToolContext) -> None:
    with pytest.raises(TravelError, match="what to change"):
        handlers.update_booking(booking_ref="BK-12345", ctx=ctx)


def test_cancel_booking_refunds_in_full_more_than_a_week_ahead(ctx: ToolContext) -> None:
    result = handlers.cancel_booking(booking_ref="BK-12345", ctx=ctx)
    booking = handlers.get_booking(booking_ref="BK-12345", ctx=ctx)
    assert result["full_refund"] is True and result["refund"] == booking["total_price"]
    assert booking["status"] == "cancelled"


def test_cancel_booking_within_a_week_refunds_half(make_ctx: Any) -> None:
    late = make_ctx(now=datetime(2025, 12, 12, tzinfo=timezone.utc))
    total = handlers.get_booking(booking_ref="BK-12345", ctx=late)["total_price"]
    result = handlers.cancel_booking(booking_ref="BK-12345", ctx=late)
    assert result["refund"] == pytest.approx(total / 2, abs=0.01) and result["full_refund"] is False


def test_cancelling_a_cancelled_booking_fails(ctx: ToolContext) -> None:
    with pytest.raises(BookingNotChangeable, match="already cancelled"):
        handlers.cancel_booking(booking_ref="BK-40404", ctx=ctx)


def test_save_preferences_writes_the_store_too(ctx: ToolContext, make_ctx: Any) -> None:
    class Store:
        saved: dict[str, Any] = {}

        def set_preferences(self, user_id: str, values: dict[str, Any]) -> dict[str, Any]:
            self.saved[user_id] = values
            return values

    store = Store()
    result = profile.save_preferences(meal="vegan", ctx=make_ctx(store=store))
    assert result["preferences"] == {"meal": "vegan"}
    assert store.saved == {"default": {"meal": "vegan"}}
    assert profile.get_preferences(ctx=ctx)["preferences"] == {"meal": "vegan"}


def test_price_alert_reports_the_current_lowest_fare(ctx: ToolContext) -> None:
    alert = profile.create_price_alert(origin="Boston", destination="Paris",
                                       max_price={"amount": 300, "currency": "USD"}, ctx=ctx)
    assert alert["alert_id"] == "PA-0001" and alert["current_lowest"] > 0


def test_checkin_reminder_is_set_24_hours_before_departure(ctx: ToolContext) -> None:
    reminder = profile.schedule_checkin_reminder(booking_ref="BK-12345", ctx=ctx)
    departure = datetime.fromisoformat(reminder["departure"])
    assert (departure - datetime.fromisoformat(reminder["remind_at"])).total_seconds() == 24 * 3600


def test_checkin_reminder_for_a_cancelled_booking_fails(ctx: ToolContext) -> None:
    with pytest.raises(BookingNotChangeable):
        profile.schedule_checkin_reminder(booking_ref="BK-40404", ctx=ctx)


@pytest.mark.parametrize("question", ["What cities do you support?", "What cities do you fly to?",
                                      "Which airports do you serve?"])
def test_faq_answers_supported_cities_from_the_database(ctx: ToolContext, question: str) -> None:
    answer = faq.answer_faq(question=question, ctx=ctx)
    assert answer["topic"] == "cities"
    assert "New York" in answer["answer"] and "Los Angeles" in answer["answer"] and "Chicago" in answer["answer"]
    assert len(answer["cities"]) == len(handlers.list_cities(ctx=ctx)["cities"])


@pytest.mark.parametrize(("question", "topic"), [
    ("How much baggage can I bring?", "baggage"), ("What is your refund policy?", "refunds"),
    ("Do you fly to Tokyo?", "city"), ("Can I bring my dog?", "pets"), ("What's the meaning of life?", "none"),
])
def test_faq_matches_questions_to_topics(ctx: ToolContext, question: str, topic: str) -> None:
    assert faq.answer_faq(question=question, ctx=ctx)["topic"] == topic


def test_handlers_use_the_injected_clock_not_the_wall_clock(make_ctx: Any) -> None:
    assert handlers.search_flights(origin="Boston", destination="Chicago", date=NOW.date().isoformat(),
                                   ctx=make_ctx())["date"] == "2025-11-20"


def test_faq_without_a_question_lists_the_supported_cities(ctx: ToolContext) -> None:
    assert faq.answer_faq(question=None, ctx=ctx)["topic"] == "cities"
