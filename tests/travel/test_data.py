"""The generated database: deterministic, the right size, with the facts other tests rely on."""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from dialstack.domains.travel.data import HORIZON_DAYS, next_month_day
from dialstack import Agent
from dialstack.agent.result import Clock
from dialstack.domains.travel import data, handlers
from dialstack.domains.travel.db import TravelDatabaseError, ensure_database, fresh_copy, prepare, resolve_db_path
from dialstack.domains.travel.errors import DataNotPrepared
from dialstack.tools.context import ToolContext

from .conftest import START

TABLES = ("meta", "cities", "airports", "schedules", "flights", "bookings", "passengers", "faq")


def _digest(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        out = {}
        for table in TABLES:
            h = hashlib.sha256()
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
                h.update(repr(row).encode())
            out[table] = h.hexdigest()
        return out


def test_two_generations_with_the_same_seed_are_row_identical(tmp_path: Path) -> None:
    first = ensure_database(tmp_path / "a.db", START, seed=7)
    second = ensure_database(tmp_path / "b.db", START, seed=7)
    assert _digest(first) == _digest(second)


def test_a_different_seed_gives_different_fares(tmp_path: Path, template: Path) -> None:
    other = ensure_database(tmp_path / "c.db", START, seed=8)
    assert _digest(other)["flights"] != _digest(template)["flights"]
    assert _digest(other)["cities"] == _digest(template)["cities"]


def test_database_has_about_sixty_cities_and_a_year_of_flights(template: Path) -> None:
    with sqlite3.connect(template) as conn:
        cities = conn.execute("SELECT COUNT(*) FROM cities").fetchone()[0]
        flights = conn.execute("SELECT COUNT(*) FROM flights").fetchone()[0]
        first, last = conn.execute("SELECT MIN(dep_date), MAX(dep_date) FROM flights").fetchone()
        sold_out = conn.execute("SELECT COUNT(*) FROM flights WHERE seats_left = 0").fetchone()[0]
    assert 55 <= cities <= 70
    assert 20_000 <= flights <= 400_000
    assert (date.fromisoformat(last) - date.fromisoformat(first)).days == HORIZON_DAYS - 1
    assert 0.02 < sold_out / flights < 0.06


def test_multi_airport_cities_list_every_airport(template: Path) -> None:
    with sqlite3.connect(template) as conn:
        rows = conn.execute(
            "SELECT c.name, group_concat(a.code) FROM airports a JOIN cities c USING (city_id) GROUP BY c.name").fetchall()
    airports = {name: set(codes.split(",")) for name, codes in rows}
    assert airports["New York"] == {"JFK", "LGA", "EWR"}
    assert {"LHR", "LGW"} <= airports["London"]
    assert airports["Paris"] == {"CDG", "ORY"}
    assert airports["Chicago"] == {"ORD", "MDW"}


def test_bk_12345_is_confirmed_on_the_first_december_15_after_the_start(template: Path) -> None:
    with sqlite3.connect(template) as conn:
        status, day = conn.execute("SELECT status, dep_date FROM bookings WHERE booking_ref = 'BK-12345'").fetchone()
        cancelled = conn.execute("SELECT COUNT(*) FROM bookings WHERE status = 'cancelled'").fetchone()[0]
    assert (status, day) == ("confirmed", "2025-12-15")
    assert cancelled >= 1


def test_first_month_day_rolls_to_next_year_once_passed() -> None:
    assert next_month_day(date(2025, 12, 15), 12, 15) == date(2025, 12, 15)
    assert next_month_day(date(2025, 12, 16), 12, 15) == date(2026, 12, 15)


def test_ensure_database_keeps_an_existing_database(tmp_path: Path, template: Path) -> None:
    target = tmp_path / "travel.db"
    target.write_bytes(template.read_bytes())
    before = target.stat().st_mtime_ns
    assert ensure_database(target, date(2030, 1, 1)) == target
    assert target.stat().st_mtime_ns == before


def test_a_database_built_with_older_faq_answers_gets_todays_answers_and_keeps_its_bookings(
        tmp_path: Path, template: Path) -> None:
    target = fresh_copy(template, tmp_path)
    with sqlite3.connect(target) as conn:
        conn.execute("UPDATE faq SET answer = 'an old answer', keywords = 'seat' WHERE topic = 'seats'")
        conn.execute("UPDATE bookings SET seat = 'window' WHERE booking_ref = 'BK-12345'")
    ensure_database(target, START)
    with sqlite3.connect(target) as conn:
        assert "seated together" in conn.execute("SELECT answer FROM faq WHERE topic = 'seats'").fetchone()[0]
        assert conn.execute("SELECT seat FROM bookings WHERE booking_ref = 'BK-12345'").fetchone()[0] == "window"


def test_a_database_of_another_schema_version_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    target = tmp_path / "travel.db"
    with sqlite3.connect(target) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('schema_version', '999')")
    with pytest.raises(TravelDatabaseError, match="schema version 999"):
        ensure_database(target, START)


def test_db_path_comes_from_context_then_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Ctx:
        data_dir = tmp_path

    assert resolve_db_path(Ctx()) == tmp_path / "travel.db"
    monkeypatch.setenv("DIALSTACK_TRAVEL_DB", str(tmp_path / "env.db"))
    assert resolve_db_path(None) == tmp_path / "env.db"


def test_prepare_builds_a_finished_database_in_the_data_folder(tmp_path: Path) -> None:
    prepare(tmp_path, START)
    with sqlite3.connect(tmp_path / "travel.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == data.SCHEMA_VERSION
        assert conn.execute("SELECT value FROM meta WHERE key = 'start_date'").fetchone()[0] == START.isoformat()
    assert [p.name for p in tmp_path.iterdir()] == ["travel.db"]  # no temporary file left behind


def test_prepare_never_replaces_a_database_holding_bookings(tmp_path: Path, template: Path) -> None:
    fresh_copy(template, tmp_path)
    with sqlite3.connect(tmp_path / "travel.db") as conn:
        conn.execute("UPDATE bookings SET seat = 'window' WHERE booking_ref = 'BK-12345'")
    prepare(tmp_path, date(2030, 1, 1))
    with sqlite3.connect(tmp_path / "travel.db") as conn:
        assert conn.execute("SELECT seat FROM bookings WHERE booking_ref = 'BK-12345'").fetchone()[0] == "window"
        assert conn.execute("SELECT value FROM meta WHERE key = 'start_date'").fetchone()[0] == START.isoformat()


def test_prepare_replaces_an_empty_file_that_holds_no_data(tmp_path: Path) -> None:
    (tmp_path / "travel.db").touch()
    prepare(tmp_path, START)
    with sqlite3.connect(tmp_path / "travel.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM cities").fetchone()[0] > 50


def test_a_build_that_fails_leaves_no_database_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(conn: sqlite3.Connection, start: date, seed: int = 0) -> None:
        conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        raise MemoryError("out of memory half way")

    monkeypatch.setattr("dialstack.domains.travel.db.generate", broken)
    with pytest.raises(MemoryError):
        prepare(tmp_path, START)
    assert list(tmp_path.iterdir()) == []


def test_a_handler_without_a_prepared_database_says_so_and_creates_nothing(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", tool="list_cities", domain="travel", data_dir=tmp_path)
    with pytest.raises(DataNotPrepared, match="has not been set up yet") as raised:
        handlers.list_cities(ctx=ctx)
    assert str(tmp_path) not in str(raised.value)  # no local path reaches a client
    assert list(tmp_path.iterdir()) == []


def test_an_agent_has_its_travel_data_before_its_first_turn(tmp_path: Path) -> None:
    with Agent("travel", db=tmp_path / "chat.db", clock=Clock(datetime(2026, 12, 1, tzinfo=timezone.utc))):
        assert (tmp_path / "travel.db").is_file()  # built (or copied) at start, not inside the first tool call
