"""Travel tool handlers for the traveller: preferences, price alerts and check-in reminders."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from . import calls
from .errors import BookingNotChangeable, TravelError, UnknownCity
from .places import resolve_city
from .queries import (
    CURRENCY,
    LOWEST_FARE_SQL,
    get_booking_row,
    money,
    parse_money,
    parse_travel_date,
    stored_preferences,
    to_usd_cents,
)

ALERT_WINDOW_DAYS = 30


def save_preferences(seat: str | None = None, meal: str | None = None, email: str | None = None,
                     full_name: str | None = None, *, ctx: Any = None) -> dict[str, Any]:
    """Store the traveller's details; later bookings and ``memory_manager`` read them back."""
    values = {k: v for k, v in {"seat": seat, "meal": meal, "email": email, "full_name": full_name}.items()
              if v not in (None, "")}
    if not values:
        raise TravelError("Tell me what to save: a seat (window, aisle, middle), a meal, an email or a name.")
    user, stamp = calls.user_id(ctx), calls.now(ctx).isoformat()
    with calls.database(ctx, write=True) as conn:
        conn.executemany(
            "INSERT INTO preferences VALUES (?, ?, ?, ?) ON CONFLICT (user_id, key) "
            "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            [(user, key, json.dumps(value), stamp) for key, value in values.items()])
        preferences = stored_preferences(conn, user)
    store = getattr(ctx, "store", None)
    if store is not None:
        store.set_preferences(user, values)
    return {"saved": True, "updated": sorted(values), "preferences": preferences}


def get_preferences(*, ctx: Any = None) -> dict[str, Any]:
    with calls.database(ctx) as conn:
        return {"preferences": stored_preferences(conn, calls.user_id(ctx))}


def create_price_alert(origin: str, destination: str, max_price: Any, date: str | None = None,
                       *, ctx: Any = None) -> dict[str, Any]:
    """Watch a route (one day, or the next 30 days) for fares at or below a target price."""
    amount, currency = parse_money(max_price) or (0.0, CURRENCY)
    if amount <= 0:
        raise TravelError("The target price must be more than zero, for example $300.")
    target = to_usd_cents(amount, currency)
    today = calls.today(ctx)
    day = parse_travel_date(date, today) if date else None
    with calls.database(ctx, write=True) as conn:
        src, _ = resolve_city(conn, origin)
        dst, _ = resolve_city(conn, destination)
        if src.city_id == dst.city_id:
            raise UnknownCity(f"{src.name} is both the origin and the destination; which route should I watch?")
        first, last = (day, day) if day else (today, today + timedelta(days=ALERT_WINDOW_DAYS))
        lowest = conn.execute(LOWEST_FARE_SQL, (first.isoformat(), last.isoformat(), src.city_id, dst.city_id)).fetchone()[0]
        number = conn.execute("SELECT COUNT(*) FROM price_alerts").fetchone()[0] + 1
        alert_id = f"PA-{number:04d}"
        conn.execute("INSERT INTO price_alerts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            alert_id, calls.user_id(ctx), src.city_id, dst.city_id, day.isoformat() if day else None,
            amount, currency, target, lowest, calls.now(ctx).isoformat()))
    return {
        "alert_id": alert_id,
        "origin": src.name,
        "destination": dst.name,
        "date": day.isoformat() if day else None,
        "max_price": {"amount": amount, "currency": currency},
        "current_lowest": money(lowest),
        "currency": CURRENCY,
        "already_below": lowest is not None and lowest <= target,
    }


def schedule_checkin_reminder(booking_ref: str, hours_before: int | None = 24, *, ctx: Any = None) -> dict[str, Any]:
    """Remind the traveller to check in ``hours_before`` departure (24 by default)."""
    hours = hours_before or 24
    now = calls.naive_now(ctx)
    with calls.database(ctx, write=True) as conn:
        booking = get_booking_row(conn, booking_ref)
        ref = booking["booking_ref"]
        if booking["status"] == "cancelled":
            raise BookingNotChangeable(f"Booking {ref} is cancelled, so there is nothing to check in for.")
        departure = datetime.fromisoformat(booking["dep_date"]) + timedelta(minutes=booking["departure_minute"])
        if departure <= now:
            raise BookingNotChangeable(f"Booking {ref} has already departed.")
        remind_at = departure - timedelta(hours=hours)
        if remind_at <= now:
            raise TravelError(f"Booking {ref} departs in less than {hours} hours: check-in is already open. "
                              "Would a shorter reminder time work?")
        number = conn.execute("SELECT COUNT(*) FROM checkin_reminders").fetchone()[0] + 1
        reminder_id = f"CR-{number:04d}"
        conn.execute("INSERT INTO checkin_reminders VALUES (?, ?, ?, ?, ?)",
                     (reminder_id, ref, hours, remind_at.isoformat(timespec="minutes"), calls.now(ctx).isoformat()))
    return {"reminder_id": reminder_id, "booking_ref": ref, "hours_before": hours,
            "remind_at": remind_at.isoformat(timespec="minutes"), "departure": departure.isoformat(timespec="minutes")}
