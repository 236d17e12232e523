"""The travel database's route queries read a route's schedules first and give what a plain scan
gives; a connection keeps its cities once read, and a rebuilt database's cities are read anew."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.domains.travel import handlers, profile
from dialstack.domains.travel.connection import _connect
from dialstack.domains.travel.places import places
from dialstack.domains.travel.queries import LOWEST_FARE_SQL, ROUTE_FLIGHTS_SQL
from dialstack.tools.context import ToolContext

from .conftest import START

# the queries as first written: every flight of the day (or span) joined to its schedule
PLAIN_DAY = """SELECT f.dep_date, f.flight_no, f.price_cents, f.seats_left FROM flights f JOIN schedules s USING (flight_no)
               WHERE f.dep_date = ? AND s.origin_city = ? AND s.destination_city = ? ORDER BY f.flight_no"""
PLAIN_LOWEST = """SELECT MIN(f.price_cents) FROM flights f JOIN schedules s USING (flight_no)
                  WHERE s.origin_city = ? AND s.destination_city = ? AND f.dep_date BETWEEN ? AND ? AND f.seats_left > 0"""


@pytest.fixture(scope="module")
def conn(template: Path) -> Iterator[sqlite3.Connection]:
    connection = _connect(template)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def routes(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    return [tuple(r) for r in conn.execute("SELECT DISTINCT origin_city, destination_city FROM schedules ORDER BY 1, 2")]


def _plan(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> str:
    return " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params))


@settings(max_examples=60, deadline=None)
@given(route=st.integers(0, 10_000), offset=st.integers(-2, 370))
def test_a_routes_flights_of_a_day_are_those_a_scan_of_the_day_finds(
        conn: sqlite3.Connection, routes: list[tuple[int, int]], route: int, offset: int) -> None:
    origin, destination = routes[route % len(routes)]
    day = (START + timedelta(days=offset)).isoformat()
    found = conn.execute(ROUTE_FLIGHTS_SQL + " ORDER BY f.flight_no", (day, origin, destination)).fetchall()
    plain = conn.execute(PLAIN_DAY, (day, origin, destination)).fetchall()
    assert [tuple(r)[:4] for r in found] == [tuple(r) for r in plain]


@settings(max_examples=60, deadline=None)
@given(route=st.integers(0, 10_000), offset=st.integers(-2, 370), span=st.integers(0, 40))
def test_the_lowest_fare_of_a_span_is_the_one_a_scan_of_the_span_finds(
        conn: sqlite3.Connection, routes: list[tuple[int, int]], route: int, offset: int, span: int) -> None:
    origin, destination = routes[route % len(routes)]
    first = START + timedelta(days=offset)
    last = (first + timedelta(days=span)).isoformat()
    lowest = conn.execute(LOWEST_FARE_SQL, (first.isoformat(), last, origin, destination)).fetchone()[0]
    assert lowest == conn.execute(PLAIN_LOWEST, (origin, destination, first.isoformat(), last)).fetchone()[0]


def test_route_queries_read_the_routes_schedules_first_not_every_flight_of_the_day(conn: sqlite3.Connection) -> None:
    day = START.isoformat()
    route = _plan(conn, ROUTE_FLIGHTS_SQL, (day, 1, 2))
    assert route.index("USING INDEX schedules_route") < route.index("SEARCH f USING PRIMARY KEY (dep_date=? AND flight_no=?)")
    lowest = _plan(conn, LOWEST_FARE_SQL, (day, (START + timedelta(days=30)).isoformat(), 1, 2))
    assert "SEARCH f USING PRIMARY KEY (dep_date=? AND flight_no=?)" in lowest
    assert "dep_date>?" not in lowest


def test_a_connection_reads_its_cities_once_and_resolves_names_as_before(ctx: ToolContext) -> None:
    statements: list[str] = []
    for _ in range(3):
        found = handlers.search_flights(origin="JFK", destination="Chicago", date=(START + timedelta(days=8)).isoformat(), ctx=ctx)
        assert (found["origin"], found["destination"]) == ("New York", "Chicago")
        assert all(f["origin_airport"] == "JFK" for f in found["flights"])
        if not statements:  # the first call opened the runtime's connection: trace the ones after it
            shared = next(iter(ctx.resources._items.values()))  # type: ignore[attr-defined]
            shared._conn.set_trace_callback(statements.append)
    alert = profile.create_price_alert(origin="Big Apple", destination="LAX", max_price=300, ctx=ctx)
    assert (alert["origin"], alert["destination"]) == ("New York", "Los Angeles")
    assert not [s for s in statements if "FROM cities" in s or "FROM airports" in s]


def test_a_plain_connection_reads_the_cities_of_its_own_file(template: Path) -> None:
    plain = sqlite3.connect(template)
    plain.row_factory = sqlite3.Row
    try:
        assert places(plain).resolve("O'Hare International")[1] == "ORD"
        assert places(plain) is not places(plain)  # nothing kept on a connection that is not a PlacesConnection
    finally:
        plain.close()
