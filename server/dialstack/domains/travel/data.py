"""Generate the travel database deterministically from a seed and a start date.

The same ``(seed, start_date)`` always yields the same rows, so tests are reproducible.
A year of flights is stored compactly: ``schedules`` holds each flight number's route and
times (they repeat daily), ``flights`` one row per flight number and day with its fare and
seats left.

Fixed facts other tests rely on:

- ``BK-12345`` is a confirmed New York → Los Angeles booking departing on the first
  December 15 on or after the start date;
- ``BK-40404`` is a cancelled booking; ``BK-20481`` and ``BK-31337`` are confirmed;
- every flight from New York to Los Angeles on the first December 24 on or after the start
  date is sold out (about 4 % of all other flights are sold out at random).
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import combinations

from .cities import CITIES, FAQ, City

SCHEMA_VERSION = 1
DEFAULT_SEED = 20240601
HORIZON_DAYS = 366
SOLD_OUT_ROUTE = ("New York", "Los Angeles")
SOLD_OUT_DAY = (12, 24)
DEFAULT_USER = "default"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cities (
    city_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE,
    country TEXT NOT NULL, region TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
    aliases TEXT NOT NULL, hub INTEGER NOT NULL);
CREATE TABLE airports (
    code TEXT PRIMARY KEY, city_id INTEGER NOT NULL REFERENCES cities(city_id), name TEXT NOT NULL);
CREATE TABLE schedules (
    flight_no INTEGER PRIMARY KEY, origin_city INTEGER NOT NULL, destination_city INTEGER NOT NULL,
    origin_airport TEXT NOT NULL, destination_airport TEXT NOT NULL,
    departure_minute INTEGER NOT NULL, duration_min INTEGER NOT NULL, seats INTEGER NOT NULL,
    distance_km INTEGER NOT NULL);
CREATE INDEX schedules_route ON schedules (origin_city, destination_city);
CREATE TABLE flights (
    dep_date TEXT NOT NULL, flight_no INTEGER NOT NULL REFERENCES schedules(flight_no),
    price_cents INTEGER NOT NULL, seats_left INTEGER NOT NULL,
    PRIMARY KEY (dep_date, flight_no)) WITHOUT ROWID;
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY, user_id TEXT NOT NULL, dep_date TEXT NOT NULL, flight_no INTEGER NOT NULL,
    passengers INTEGER NOT NULL, seat TEXT, status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
    total_cents INTEGER NOT NULL, refund_cents INTEGER, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX bookings_user ON bookings (user_id);
CREATE TABLE passengers (
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref), position INTEGER NOT NULL,
    full_name TEXT NOT NULL, PRIMARY KEY (booking_ref, position));
CREATE TABLE preferences (
    user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, key));
CREATE TABLE price_alerts (
    alert_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, origin_city INTEGER NOT NULL,
    destination_city INTEGER NOT NULL, travel_date TEXT, max_amount REAL NOT NULL, currency TEXT NOT NULL,
    max_usd_cents INTEGER NOT NULL, current_lowest_cents INTEGER, created_at TEXT NOT NULL);
CREATE TABLE checkin_reminders (
    reminder_id TEXT PRIMARY KEY, booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    hours_before INTEGER NOT NULL, remind_at TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE outbox (
    message_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, booking_ref TEXT, to_addr TEXT NOT NULL,
    subject TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE faq (topic TEXT PRIMARY KEY, keywords TEXT NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL);
"""


@dataclass(frozen=True)
class SeedBooking:
    ref: str
    origin: str
    destination: str
    status: str
    passengers: tuple[str, ...]
    seat: str | None


SEED_BOOKINGS: tuple[tuple[SeedBooking, int | None], ...] = (
    # (booking, days after the start date; None = the first Dec 15 on or after the start)
    (SeedBooking("BK-12345", "New York", "Los Angeles", "confirmed", ("Alex Morgan",), "aisle"), None),
    (SeedBooking("BK-20481", "Boston", "Chicago", "confirmed", ("Alex Morgan", "Sam Morgan"), "window"), 30),
    (SeedBooking("BK-31337", "London", "Paris", "confirmed", ("Alex Morgan",), None), 45),
    (SeedBooking("BK-40404", "Paris", "Rome", "cancelled", ("Alex Morgan",), "middle"), 20),
)


def next_month_day(start: date, month: int, day: int) -> date:
    """The first ``month``/``day`` on or after ``start``."""
    candidate = date(start.year, month, day)
    return candidate if candidate >= start else date(start.year + 1, month, day)


def distance_km(a: City, b: City) -> float:
    """Great-circle distance (haversine)."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(h))


def route_network() -> dict[tuple[int, int], int]:
    """Undirected routes ``(i, j)`` (indexes into CITIES, i < j) mapped to their daily frequency.

    Hubs of a region are all linked; every other city flies to its three nearest hubs in its
    region and its nearest neighbour; each hub flies to the two nearest hubs of every other
    region up to 11,000 km away.
    """
    routes: dict[tuple[int, int], int] = {}

    def link(i: int, j: int, per_day: int) -> None:
        key = (min(i, j), max(i, j))
        routes[key] = max(routes.get(key, 0), per_day)

    indexed = list(enumerate(CITIES))
    hubs = [(i, c) for i, c in indexed if c.hub]
    for (i, a), (j, b) in combinations(hubs, 2):
        km = distance_km(a, b)
        if a.region == b.region:
            link(i, j, 3 if km < 1200 else 2)
    for i, a in hubs:
        for region in {c.region for _, c in hubs} - {a.region}:
            nearest = sorted((distance_km(a, b), j) for j, b in hubs if b.region == region)
            for km, j in nearest[:2]:
                if km < 11000:
                    link(i, j, 1)
    for i, city in indexed:
        if city.hub:
            continue
        same = [(distance_km(city, other), j) for j, other in indexed if j != i and other.region == city.region]
        hubs = sorted((d, j) for d, j in same if CITIES[j].hub) or sorted(
            (distance_km(city, other), j) for j, other in indexed if other.hub)
        for _, j in hubs[:3]:
            link(i, j, 1)
        neighbours = sorted((d, j) for d, j in same if not CITIES[j].hub)
        for _, j in neighbours[:1]:
            link(i, j, 1)
    return dict(sorted(routes.items()))


def _schedule_rows(rng: random.Random) -> list[tuple]:
    rows: list[tuple] = []
    flight_no = 100
    for (i, j), per_day in route_network().items():
        for o, d in ((i, j), (j, i)):
            origin, dest = CITIES[o], CITIES[d]
            km = distance_km(origin, dest)
            duration = int(round((km / 820 * 60 + 35) / 5) * 5)
            seats = 150 if km < 1500 else 186 if km < 4000 else 280 if km < 9000 else 350
            first = rng.randrange(6 * 60, 10 * 60, 5)
            for k in range(per_day):
                minute = (first + k * rng.randrange(4 * 60, 6 * 60, 5)) % (24 * 60)
                rows.append((flight_no, o + 1, d + 1, rng.choice(origin.airports).code,
                             rng.choice(dest.airports).code, minute, duration, seats, int(km)))
                flight_no += 1
    return rows


def _base_fare(km: float) -> float:
    return 49 + 0.075 * km if km < 6000 else 200 + 0.05 * km


def _season(day: date) -> float:
    if (day.month == 12 and day.day >= 15) or (day.month == 1 and day.day <= 5):
        return 1.25
    if day.month in (7, 8):
        return 1.15
    return 1.0


def _flight_rows(rng: random.Random, schedules: list[tuple], start: date) -> list[tuple]:
    weekday_factor = (0.95, 0.9, 0.9, 1.0, 1.15, 1.05, 1.15)
    sold_out_day = next_month_day(start, *SOLD_OUT_DAY).isoformat()
    names = {c.name: n + 1 for n, c in enumerate(CITIES)}
    sold_out_route = (names[SOLD_OUT_ROUTE[0]], names[SOLD_OUT_ROUTE[1]])
    base = [(s[0], _base_fare(s[8]) * (0.9 + 0.25 * (s[5] / 1440)), s[7], (s[1], s[2]) == sold_out_route) for s in schedules]
    rows: list[tuple] = []
    random_ = rng.random
    for offset in range(HORIZON_DAYS):
        day = start + timedelta(days=offset)
        iso = day.isoformat()
        factor = weekday_factor[day.weekday()] * _season(day)
        for flight_no, fare, seats, special in base:
            price = max(29, round(fare * factor * (0.75 + 0.65 * random_()))) * 100 - 1
            roll = random_()
            seats_left = 0 if roll < 0.04 or (special and iso == sold_out_day) else 1 + int(roll * seats) % seats
            rows.append((iso, flight_no, price, seats_left))
    return rows


def generate(conn: sqlite3.Connection, start: date, seed: int = DEFAULT_SEED) -> None:
    """Create the schema and fill every table in one transaction on an empty database."""
    rng = random.Random(seed)
    created = f"{start.isoformat()}T00:00:00+00:00"
    conn.executescript(SCHEMA)
    with conn:
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema_version", str(SCHEMA_VERSION)), ("seed", str(seed)), ("start_date", start.isoformat())])
        conn.executemany("INSERT INTO cities VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            (n + 1, c.name, c.code, c.country, c.region, c.lat, c.lon, json.dumps(list(c.aliases)), int(c.hub))
            for n, c in enumerate(CITIES)])
        conn.executemany("INSERT INTO airports VALUES (?, ?, ?)", [
            (a.code, n + 1, a.name) for n, c in enumerate(CITIES) for a in c.airports])
        schedules = _schedule_rows(rng)
        conn.executemany("INSERT INTO schedules VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", schedules)
        conn.executemany("INSERT INTO flights VALUES (?, ?, ?, ?)", _flight_rows(rng, schedules, start))
        conn.executemany("INSERT INTO faq VALUES (?, ?, ?, ?)", FAQ)
        _seed_bookings(conn, start, created)


def refresh_faq(conn: sqlite3.Connection) -> bool:
    """Bring the FAQ table of a database built by an earlier dialstack up to this one's answers (the FAQ
    is reference data shipped with the code; bookings and the rest are left alone). True if it changed."""
    wanted = sorted(FAQ)
    if [tuple(r) for r in conn.execute("SELECT topic, keywords, question, answer FROM faq ORDER BY topic")] == wanted:
        return False
    with conn:  # (one transaction: a reader sees the old answers or the new ones)
        conn.execute("DELETE FROM faq")
        conn.executemany("INSERT INTO faq VALUES (?, ?, ?, ?)", wanted)
    return True


def _seed_bookings(conn: sqlite3.Connection, start: date, created: str) -> None:
    for booking, offset in SEED_BOOKINGS:
        day = next_month_day(start, 12, 15) if offset is None else start + timedelta(days=offset)
        flight_no, price = conn.execute(
            """SELECT f.flight_no, f.price_cents FROM flights f JOIN schedules s USING (flight_no)
               JOIN cities o ON o.city_id = s.origin_city JOIN cities d ON d.city_id = s.destination_city
               WHERE f.dep_date = ? AND o.name = ? AND d.name = ? AND f.seats_left >= ?
               ORDER BY f.price_cents, f.flight_no LIMIT 1""",
            (day.isoformat(), booking.origin, booking.destination, len(booking.passengers)),
        ).fetchone()
        count = len(booking.passengers)
        cancelled = booking.status == "cancelled"
        if not cancelled:
            conn.execute("UPDATE flights SET seats_left = seats_left - ? WHERE dep_date = ? AND flight_no = ?",
                         (count, day.isoformat(), flight_no))
        conn.execute("INSERT INTO bookings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            booking.ref, DEFAULT_USER, day.isoformat(), flight_no, count, booking.seat, booking.status,
            price * count, price * count if cancelled else None, created, created))
        conn.executemany("INSERT INTO passengers VALUES (?, ?, ?)",
                         [(booking.ref, k + 1, name) for k, name in enumerate(booking.passengers)])
