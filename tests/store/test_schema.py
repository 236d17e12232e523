"""Opening a database: create, migrate an older schema, refuse what it cannot read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dialstack.store import SchemaVersionError, SQLiteStore, StoreError, TurnRecord
from dialstack.store.schema import SCHEMA_VERSION
from dialstack.state.diff import apply_diff

V0 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '0');
CREATE TABLE sessions (session_id TEXT PRIMARY KEY, domain TEXT, user_id TEXT, created_at REAL);
CREATE TABLE turns (session_id TEXT, turn INTEGER, user_text TEXT, reply TEXT, state TEXT, created_at REAL,
                    PRIMARY KEY (session_id, turn));
"""


def v0_database(path: Path, states: list[dict[str, object]]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(V0)
    conn.execute("INSERT INTO sessions VALUES ('old', 'travel', 'bob', 1.0)")
    for turn, state in enumerate(states, start=1):
        conn.execute("INSERT INTO turns VALUES ('old', ?, ?, ?, ?, ?)", (turn, f"u{turn}", f"r{turn}", json.dumps(state), float(turn)))
    conn.commit()
    conn.close()


def schema_version(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
    finally:
        conn.close()


def test_a_new_file_gets_the_current_schema(db_path: Path) -> None:
    SQLiteStore(db_path).close()
    assert schema_version(db_path) == str(SCHEMA_VERSION)


def test_a_v0_database_is_migrated_with_every_state_intact(db_path: Path) -> None:
    states = [{"stack": [{"name": "f", "state": "active", "n": n}], "archive": list(range(n))} for n in range(1, 8)]
    v0_database(db_path, states)
    with SQLiteStore(db_path, snapshot_every=3) as store:
        assert store.session_info("old") == {"session_id": "old", "domain": "travel", "user_id": "bob", "created_at": 1.0, "turns": 7}
        assert [row.user_text for row in store.turns("old")] == [f"u{n}" for n in range(1, 8)]
        for turn, state in enumerate(states, start=1):
            assert store.state_at("old", turn) == state
        assert store.load_state("old") == states[-1]
    assert schema_version(db_path) == str(SCHEMA_VERSION)


def test_a_newer_schema_is_refused_with_what_to_do(db_path: Path) -> None:
    SQLiteStore(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaVersionError, match=rf"version 99, newer than the {SCHEMA_VERSION} .*Upgrade dialstack"):
        SQLiteStore(db_path)


def test_an_unreadable_version_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', 'beta');")
    conn.close()
    with pytest.raises(SchemaVersionError, match="'beta'"):
        SQLiteStore(db_path)


def test_another_programs_sqlite_file_is_refused_untouched(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.executescript("CREATE TABLE photos (id INTEGER);")
    conn.close()
    with pytest.raises(SchemaVersionError, match="not a dialstack one.*photos"):
        SQLiteStore(db_path)
    conn = sqlite3.connect(db_path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["photos"]
    conn.close()


def test_a_file_that_is_not_sqlite_is_a_clear_store_error(db_path: Path) -> None:
    db_path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="not a usable dialstack database"):
        SQLiteStore(db_path)


def v1_database(path: Path, live: list[dict[str, object]], branch: list[dict[str, object]]) -> None:
    """A v1 file as that release wrote it: turns 1..len(live) live, then ``branch`` as branch 1
    (forked after turn 2, its first turn with a snapshot), diffs, and the head state."""
    from dialstack.state.diff import make_patch
    from dialstack.store.schema import SCHEMA_V1

    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V1)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    conn.execute("INSERT INTO sessions VALUES ('old', 'travel', 'bob', 1.0, 2)")

    def add(turn: int, line: int, state: dict[str, object], previous: object, snapshot: bool) -> None:
        cursor = conn.execute(
            "INSERT INTO turns(session_id, turn, branch, user_text, reply, created_at, meta) VALUES ('old', ?, ?, ?, 'r', ?, '{}')",
            (turn, line, f"u{turn}.{line}", float(turn)),
        )
        conn.execute("INSERT INTO diffs VALUES (?, ?)", (cursor.lastrowid, json.dumps(make_patch(previous, state))))
        if snapshot:
            conn.execute("INSERT INTO snapshots VALUES (?, ?)", (cursor.lastrowid, json.dumps(state)))

    previous: object = {}
    for turn, state in enumerate(live, start=1):
        add(turn, 0, state, previous, turn == 1)
        previous = state
    previous = live[1]
    for turn, state in enumerate(branch, start=3):
        add(turn, 1, state, previous, turn == 3)
        previous = state
    conn.execute("INSERT INTO heads VALUES ('old', ?, 7, ?)", (len(live), json.dumps(live[-1])))
    conn.commit()
    conn.close()


def test_a_v1_database_with_a_branch_is_migrated_and_keeps_reading_and_writing(db_path: Path) -> None:
    live = [{"live": n, "items": list(range(n))} for n in range(1, 6)]
    branch = [{"branch": n} for n in range(3, 7)]
    v1_database(db_path, live, branch)
    with SQLiteStore(db_path, snapshot_every=50) as store:
        assert [store.state_at("old", t) for t in range(1, 6)] == live
        assert store.load_state("old") == live[-1]
        assert store.branches("old") == [{"branch": 1, "first_turn": 3, "last_turn": 6}]
        assert [store.state_at("old", t, branch=1) for t in range(3, 7)] == branch
        assert [row.user_text for row in store.turns("old", branch=1)] == ["u3.1", "u4.1", "u5.1", "u6.1"]
        assert store.commit_turn("old", TurnRecord("next", "r", {"live": 6})) == 6
        store.rollback("old", 4)  # the new line is numbered after the migrated branch's
        assert store.branches("old")[-1] == {"branch": 2, "first_turn": 5, "last_turn": 6}
        assert store.state_at("old", 6, branch=2) == {"live": 6}
        assert store.state_at("old", 5, branch=1) == branch[2]
    assert schema_version(db_path) == str(SCHEMA_VERSION)


def test_v3_rows_read_next_to_v4_ones_with_readable_diffs_and_zlib_snapshots(db_path: Path) -> None:
    import zlib

    live = [{"live": n, "items": list(range(n))} for n in range(1, 6)]
    v1_database(db_path, live, [{"branch": 3}])
    conn = sqlite3.connect(db_path)  # turn 1's snapshot as an early v3 release compressed it
    conn.execute("UPDATE snapshots SET state=? WHERE turn_id=1", (zlib.compress(json.dumps(live[0]).encode(), 1),))
    conn.commit()
    conn.close()
    with SQLiteStore(db_path, snapshot_every=50) as store:
        assert store.state_at("old", 2) == live[1]
        store.commit_turn("old", TurnRecord("six", "r", {"live": 6, "items": [0]}))
        rows = store.states("old")
        assert [state for _row, state in rows] == [*live, {"live": 6, "items": [0]}]
        before: object = {}
        for row, state in rows:  # v3 rows show their stored patch, v4 rows one computed on read
            assert row.diff and apply_diff(before, row.diff) == state
            before = state
