"""Travel tool handlers for cities, flights and bookings: real SQL on the travel database.

Each handler takes the tool's validated arguments as keyword arguments plus ``ctx`` (a
``ToolContext``) and returns a dict matching the tool's ``output_schema`` in
``manifests/travel.yaml``. Domain problems raise a :class:`TravelError` whose message is
shown to the user.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any

from . import calls
from .errors import BookingNotChangeable, PastDate, SoldOut, TravelError, UnknownCity
from .places import places, resolve_city
from .queries import (
    CURRENCY,
    ROUTE_FLIGHTS_SQL,
    booking_dict,
    find_flights,
    flight_dict,
    get_booking_row,
    get_flight,
    list_booking_rows,
    money,
    parse_flight_id,
    parse_money,
    parse_travel_date,
    route_has_flights,
    stored_preferences,
    to_usd_cents,
)

FULL_REFUND_DAYS = 7
LATE_REFUND_SHARE = 0.5


def list_cities(*, ctx: Any = None) -> dict[str, Any]:
    """Every city we fly to, with its main code, airports, aliases and country."""
    with calls.database(ctx) as conn:
        cities = [c.as_item() for c in places(conn).cities]
    return {"count": len(cities), "cities": cities}


def search_flights(origin: str, destination: str, date: str, passengers: int | None = 1,
                   max_price: Any = None, *, ctx: Any = None) -> dict[str, Any]:
    """Bookable flights of one day between two cities (or airports), cheapest first."""
    count = passengers or 1
    day = parse_travel_date(date, calls.today(ctx))
    limit = parse_money(max_price)
    with calls.database(ctx) as conn:
        src, src_airport = resolve_city(conn, origin)
        dst, dst_airport = resolve_city(conn, destination)
        if src.city_id == dst.city_id:
            raise UnknownCity(f"{src.name} is both the origin and the destination; where would you like to fly to?")
        rows = find_flights(conn, src, dst, day, passengers=count,
                            max_usd_cents=to_usd_cents(*limit) if limit else None,
                            origin_airport=src_airport, destination_airport=dst_airport)
        flights = [flight_dict(r) for r in rows]
        served = route_has_flights(conn, src, dst)
    return {
        "count": len(flights),
        "origin": src.name,
        "destination": dst.name,
        "date": day.isoformat(),
        "passengers": count,
        "currency": CURRENCY,
        "route_served": served,
        "flights": flights,
    }


def get_booking(booking_ref: str, *, ctx: Any = None) -> dict[str, Any]:
    with calls.database(ctx) as conn:
        return booking_dict(conn, get_booking_row(conn, booking_ref))


def list_bookings(status: str | None = None, *, ctx: Any = None) -> dict[str, Any]:
    wanted = None if status in (None, "all") else status
    with calls.database(ctx) as conn:
        bookings = [booking_dict(conn, r) for r in list_booking_rows(conn, calls.user_id(ctx), wanted)]
    return {"count": len(bookings), "bookings": bookings}


def create_booking(flight_id: str, passengers: int | None = 1, seat: str | None = None,
                   passenger_names: list[str] | None = None, *, ctx: Any = None) -> dict[str, Any]:
    """Book seats on a flight from a search; the seat defaults to the saved preference."""
    count = passengers or 1
    dep_date, flight_no = parse_flight_id(flight_id)
    with calls.database(ctx, write=True) as conn:
        flight = get_flight(conn, dep_date, flight_no)
        _ensure_future(flight, calls.naive_now(ctx))
        _take_seats(conn, flight, count)
        user = calls.user_id(ctx)
        prefs = stored_preferences(conn, user)
        names = list(passenger_names or [])
        if not names and prefs.get("full_name"):
            names = [prefs["full_name"]]
        names += [f"Passenger {k + 1}" for k in range(len(names), count)]
        ref = _new_reference(conn, flight_id)
        stamp = calls.now(ctx).isoformat()
        conn.execute("INSERT INTO bookings VALUES (?, ?, ?, ?, ?, ?, 'confirmed', ?, NULL, ?, ?)", (
            ref, user, dep_date, flight_no, count, seat or prefs.get("seat"), flight["price_cents"] * count,
            stamp, stamp))
        conn.executemany("INSERT INTO passengers VALUES (?, ?, ?)", [(ref, k + 1, n) for k, n in enumerate(names[:count])])
        return booking_dict(conn, get_booking_row(conn, ref))


def update_booking(booking_ref: str, new_date: str | None = None, passengers: int | None = None,
                   seat: str | None = None, *, ctx: Any = None) -> dict[str, Any]:
    """Move a booking to another date on the same route, or change its passenger count or seat."""
    if new_date is None and passengers is None and seat is None:
        raise TravelError("Tell me what to change: the date, the number of passengers or the seat.")
    with calls.database(ctx, write=True) as conn:
        booking = get_booking_row(conn, booking_ref)
        _ensure_changeable(booking, calls.naive_now(ctx), "change")
        ref, old_count = booking["booking_ref"], booking["passengers"]
        count = passengers or old_count
        changes: list[str] = []
        dep_date, flight_no, price = booking["dep_date"], booking["flight_no"], None
        if new_date is not None and new_date != booking["dep_date"]:
            day = parse_travel_date(new_date, calls.today(ctx), what="The new date")
            flight = _replacement_flight(conn, booking, day, count)
            dep_date, flight_no, price = flight["dep_date"], flight["flight_no"], flight["price_cents"]
            changes.append("date")
        if (dep_date, flight_no) != (booking["dep_date"], booking["flight_no"]) or count != old_count:
            _release_seats(conn, booking["dep_date"], booking["flight_no"], old_count)
            _take_seats(conn, get_flight(conn, dep_date, flight_no), count)
            if price is None:
                price = booking["total_cents"] // old_count
            if count != old_count:
                changes.append("passengers")
        if seat is not None and seat != booking["seat"]:
            changes.append("seat")
        total = booking["total_cents"] if price is None else price * count
        conn.execute(
            "UPDATE bookings SET dep_date = ?, flight_no = ?, passengers = ?, seat = ?, total_cents = ?, updated_at = ? "
            "WHERE booking_ref = ?",
            (dep_date, flight_no, count, seat if seat is not None else booking["seat"], total,
             calls.now(ctx).isoformat(), ref))
        _fit_passenger_names(conn, ref, count)
        result = booking_dict(conn, get_booking_row(conn, ref))
    result["changes"] = changes
    return result


def cancel_booking(booking_ref: str, *, ctx: Any = None) -> dict[str, Any]:
    """Cancel a booking and refund it: in full more than 7 days ahead, half within 7 days."""
    with calls.database(ctx, write=True) as conn:
        booking = get_booking_row(conn, booking_ref)
        now = calls.naive_now(ctx)
        _ensure_changeable(booking, now, "cancel")
        departure = _departure(booking)
        share = 1.0 if departure - now > timedelta(days=FULL_REFUND_DAYS) else LATE_REFUND_SHARE
        refund = int(round(booking["total_cents"] * share))
        _release_seats(conn, booking["dep_date"], booking["flight_no"], booking["passengers"])
        conn.execute("UPDATE bookings SET status = 'cancelled', refund_cents = ?, updated_at = ? WHERE booking_ref = ?",
                     (refund, calls.now(ctx).isoformat(), booking["booking_ref"]))
    return {"booking_ref": booking["booking_ref"], "status": "cancelled", "refund": money(refund),
            "currency": CURRENCY, "full_refund": share == 1.0}


# ---------------------------------------------------------------- helpers


def _departure(row: sqlite3.Row) -> datetime:
    return datetime.fromisoformat(row["dep_date"]) + timedelta(minutes=row["departure_minute"])


def _ensure_future(flight: sqlite3.Row, now: datetime) -> None:
    departure = _departure(flight)
    if departure <= now:
        raise PastDate(f"Flight DS {flight['flight_no']} on {departure:%B} {departure.day} has already departed — "
                       "which upcoming date?")


def _ensure_changeable(booking: sqlite3.Row, now: datetime, action: str) -> None:
    ref = booking["booking_ref"]
    if booking["status"] == "cancelled":
        raise BookingNotChangeable(f"Booking {ref} is already cancelled, so I can't {action} it.")
    if _departure(booking) <= now:
        raise BookingNotChangeable(f"Booking {ref} has already departed, so I can't {action} it.")


def _take_seats(conn: sqlite3.Connection, flight: sqlite3.Row, count: int) -> None:
    cursor = conn.execute(
        "UPDATE flights SET seats_left = seats_left - ? WHERE dep_date = ? AND flight_no = ? AND seats_left >= ?",
        (count, flight["dep_date"], flight["flight_no"], count))
    if cursor.rowcount == 1:
        return
    day = date.fromisoformat(flight["dep_date"])
    left = flight["seats_left"]
    if left <= 0:
        raise SoldOut(f"Flight DS {flight['flight_no']} from {flight['origin']} to {flight['destination']} "
                      f"on {day:%B} {day.day} is sold out. Would another flight or date work?")
    raise SoldOut(f"Flight DS {flight['flight_no']} on {day:%B} {day.day} has only {left} seat"
                  f"{'s' if left != 1 else ''} left, not {count}.")


def _release_seats(conn: sqlite3.Connection, dep_date: str, flight_no: int, count: int) -> None:
    conn.execute("UPDATE flights SET seats_left = seats_left + ? WHERE dep_date = ? AND flight_no = ?",
                 (count, dep_date, flight_no))


def _replacement_flight(conn: sqlite3.Connection, booking: sqlite3.Row, day: date, count: int) -> sqlite3.Row:
    """The same flight number on the new day when it has seats, else the cheapest on the route."""
    rows = conn.execute(
        ROUTE_FLIGHTS_SQL + " AND f.seats_left >= ? ORDER BY f.flight_no != ?, f.price_cents, f.flight_no",
        (day.isoformat(), booking["origin_city"], booking["destination_city"], count, booking["flight_no"]),
    ).fetchall()
    if not rows:
        raise SoldOut(f"There are no seats left from {booking['origin']} to {booking['destination']} "
                      f"on {day:%B} {day.day}. Would another date work?")
    return rows[0]


def _fit_passenger_names(conn: sqlite3.Connection, ref: str, count: int) -> None:
    conn.execute("DELETE FROM passengers WHERE booking_ref = ? AND position > ?", (ref, count))
    have = conn.execute("SELECT COUNT(*) FROM passengers WHERE booking_ref = ?", (ref,)).fetchone()[0]
    conn.executemany("INSERT INTO passengers VALUES (?, ?, ?)",
                     [(ref, k + 1, f"Passenger {k + 1}") for k in range(have, count)])


def _new_reference(conn: sqlite3.Connection, seed: str) -> str:
    """A fresh ``BK-nnnnn`` reference, deterministic for a given database state."""
    taken = conn.execute("SELECT COUNT(*) FROM bookings").fetchone()[0]
    rng = random.Random(f"{seed}:{taken}")
    while True:
        ref = f"BK-{rng.randrange(10000, 100000)}"
        if conn.execute("SELECT 1 FROM bookings WHERE booking_ref = ?", (ref,)).fetchone() is None:
            return ref

