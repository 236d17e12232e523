"""Read queries and value helpers shared by the travel handlers: cities, flights, bookings, money."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any

from .errors import TravelError, InvalidDate, PastDate, UnknownBooking, UnknownFlight
from .places import CityRecord

CURRENCY = "USD"
USD_PER_UNIT: dict[str, float] = {
    "USD": 1.0, "EUR": 1.08, "GBP": 1.27, "CAD": 0.73, "AUD": 0.66, "CHF": 1.13, "JPY": 0.0067, "MXN": 0.055,
}
_FLIGHT_ID = re.compile(r"^DS(\d{3,4})-(\d{4})(\d{2})(\d{2})$")


def to_usd_cents(amount: float, currency: str) -> int:
    rate = USD_PER_UNIT.get(currency.upper())
    if rate is None:
        known = ", ".join(USD_PER_UNIT)
        raise TravelError(f"I can't compare prices in {currency}; use one of {known}.")
    return int(round(amount * rate * 100))


def parse_money(value: Any) -> tuple[float, str] | None:
    """``300``, ``{"amount": 300, "currency": "EUR"}`` or None → ``(amount, currency)``."""
    if value is None:
        return None
    if isinstance(value, dict):
        return float(value["amount"]), str(value.get("currency") or CURRENCY).upper()
    return float(value), CURRENCY


def parse_travel_date(value: str, today: date, *, what: str = "The date") -> date:
    """An ISO date that is today or later."""
    try:
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise InvalidDate(f"{what} {value!r} is not a date; use the form YYYY-MM-DD.") from exc
    if day < today:
        raise PastDate(f"{day:%B} {day.day} is in the past — which upcoming date?")
    return day


def money(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


def flight_id(dep_date: str, flight_no: int) -> str:
    return f"DS{flight_no}-{dep_date.replace('-', '')}"


def parse_flight_id(value: str) -> tuple[str, int]:
    match = _FLIGHT_ID.match(value.strip().upper())
    if not match:
        raise UnknownFlight(f"{value!r} is not a flight id; expected the form DS123-20251215 from a flight search.")
    number, y, m, d = match.groups()
    return f"{y}-{m}-{d}", int(number)


_FLIGHT_COLUMNS = """
SELECT f.dep_date, f.flight_no, f.price_cents, f.seats_left, s.departure_minute, s.duration_min,
       s.origin_airport, s.destination_airport, o.name AS origin, d.name AS destination
"""
_CITY_NAMES = "JOIN cities o ON o.city_id = s.origin_city JOIN cities d ON d.city_id = s.destination_city\n"
_FLIGHT_SQL = _FLIGHT_COLUMNS + "FROM flights f JOIN schedules s USING (flight_no)\n" + _CITY_NAMES
# A route's flights of a day: its few schedules first (index schedules_route), then each one's flight
# of the day by primary key. CROSS JOIN keeps that order: left to itself, SQLite reads every flight of
# the day (about a thousand) and looks each one's schedule up.
ROUTE_FLIGHTS_SQL = (_FLIGHT_COLUMNS + "FROM schedules s CROSS JOIN flights f ON f.dep_date = ? AND f.flight_no = s.flight_no\n"
                     + _CITY_NAMES + "WHERE s.origin_city = ? AND s.destination_city = ?")
# The lowest fare with a seat left on a route between two days: each day of the span joined to each of
# the route's schedules, one primary-key read per pair (a range over dep_date would read every flight
# of every day of the span).
LOWEST_FARE_SQL = """
WITH RECURSIVE days(day) AS (SELECT ? UNION ALL SELECT date(day, '+1 day') FROM days WHERE day < ?)
SELECT MIN(f.price_cents) FROM schedules s CROSS JOIN days CROSS JOIN flights f
    ON f.dep_date = days.day AND f.flight_no = s.flight_no
WHERE s.origin_city = ? AND s.destination_city = ? AND f.seats_left > 0
"""


def flight_dict(row: sqlite3.Row) -> dict[str, Any]:
    departure = datetime.fromisoformat(row["dep_date"]) + timedelta(minutes=row["departure_minute"])
    arrival = departure + timedelta(minutes=row["duration_min"])
    return {
        "flight_id": flight_id(row["dep_date"], row["flight_no"]),
        "flight_number": f"DS {row['flight_no']}",
        "origin": row["origin"],
        "origin_airport": row["origin_airport"],
        "destination": row["destination"],
        "destination_airport": row["destination_airport"],
        "departure": departure.isoformat(timespec="minutes"),
        "arrival": arrival.isoformat(timespec="minutes"),
        "duration_min": row["duration_min"],
        "price": money(row["price_cents"]),
        "seats_left": row["seats_left"],
    }


def find_flights(conn: sqlite3.Connection, origin: CityRecord, destination: CityRecord, day: date, *,
                 passengers: int = 1, max_usd_cents: int | None = None,
                 origin_airport: str | None = None, destination_airport: str | None = None) -> list[sqlite3.Row]:
    """Bookable flights of a day on a route, cheapest first (sold-out flights excluded)."""
    sql = ROUTE_FLIGHTS_SQL + " AND f.seats_left >= ?"
    params: list[Any] = [day.isoformat(), origin.city_id, destination.city_id, passengers]
    if max_usd_cents is not None:
        sql += " AND f.price_cents <= ?"
        params.append(max_usd_cents)
    if origin_airport:
        sql += " AND s.origin_airport = ?"
        params.append(origin_airport)
    if destination_airport:
        sql += " AND s.destination_airport = ?"
        params.append(destination_airport)
    return conn.execute(sql + " ORDER BY f.price_cents, s.departure_minute, f.flight_no", params).fetchall()


def get_flight(conn: sqlite3.Connection, dep_date: str, flight_no: int) -> sqlite3.Row:
    row = conn.execute(_FLIGHT_SQL + " WHERE f.dep_date = ? AND f.flight_no = ?", (dep_date, flight_no)).fetchone()
    if row is None:
        raise UnknownFlight(f"There is no flight {flight_id(dep_date, flight_no)}; search flights again to pick one.")
    return row


def route_has_flights(conn: sqlite3.Connection, origin: CityRecord, destination: CityRecord) -> bool:
    return conn.execute("SELECT 1 FROM schedules WHERE origin_city = ? AND destination_city = ? LIMIT 1",
                        (origin.city_id, destination.city_id)).fetchone() is not None


_BOOKING_SQL = """
SELECT b.*, s.departure_minute, s.duration_min, s.origin_airport, s.destination_airport,
       s.origin_city, s.destination_city, o.name AS origin, d.name AS destination
FROM bookings b JOIN schedules s USING (flight_no)
JOIN cities o ON o.city_id = s.origin_city JOIN cities d ON d.city_id = s.destination_city
"""


def normalize_ref(value: str) -> str:
    return value.strip().upper()


def get_booking_row(conn: sqlite3.Connection, booking_ref: str, user_id: str | None = None) -> sqlite3.Row:
    ref = normalize_ref(booking_ref)
    row = conn.execute(_BOOKING_SQL + " WHERE b.booking_ref = ?", (ref,)).fetchone()
    if row is None or (user_id is not None and row["user_id"] != user_id):
        raise UnknownBooking(f"I couldn't find a booking with reference {ref}: it was not found in our records. Could you check the reference?")
    return row


def list_booking_rows(conn: sqlite3.Connection, user_id: str, status: str | None = None) -> list[sqlite3.Row]:
    sql = _BOOKING_SQL + " WHERE b.user_id = ?"
    params: list[Any] = [user_id]
    if status:
        sql += " AND b.status = ?"
        params.append(status)
    return conn.execute(sql + " ORDER BY b.dep_date, s.departure_minute, b.booking_ref", params).fetchall()


def booking_dict(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    departure = datetime.fromisoformat(row["dep_date"]) + timedelta(minutes=row["departure_minute"])
    names = [r[0] for r in conn.execute(
        "SELECT full_name FROM passengers WHERE booking_ref = ? ORDER BY position", (row["booking_ref"],))]
    return {
        "booking_ref": row["booking_ref"],
        "status": row["status"],
        "flight_id": flight_id(row["dep_date"], row["flight_no"]),
        "flight_number": f"DS {row['flight_no']}",
        "departure_date": row["dep_date"],
        "departure_time": departure.strftime("%H:%M"),
        "origin": row["origin"],
        "origin_airport": row["origin_airport"],
        "destination": row["destination"],
        "destination_airport": row["destination_airport"],
        "passengers": row["passengers"],
        "passenger_names": names,
        "seat": row["seat"],
        "total_price": money(row["total_cents"]),
        "currency": CURRENCY,
        "refund": money(row["refund_cents"]),
    }


def stored_preferences(conn: sqlite3.Connection, user_id: str) -> dict[str, Any]:
    return {r["key"]: json.loads(r["value"]) for r in conn.execute(
        "SELECT key, value FROM preferences WHERE user_id = ? ORDER BY key", (user_id,))}
