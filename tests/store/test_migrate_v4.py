"""A schema v4 file (a turn row per (session, line, turn) beside a unique index, the head
rewritten at every commit), written by that release's DDL, opens as v5 with nothing lost."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import zstandard

from dialstack.store import SQLiteStore, TurnRecord
from dialstack.store.rows import turn_number
from dialstack.store.schema import SCHEMA_VERSION

V4 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (session_id TEXT PRIMARY KEY, domain TEXT NOT NULL, user_id TEXT NOT NULL,
    created_at REAL NOT NULL, next_branch INTEGER NOT NULL DEFAULT 1);
CREATE TABLE heads (session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn INTEGER NOT NULL, version INTEGER NOT NULL,
    line INTEGER NOT NULL DEFAULT 0, replay INTEGER NOT NULL DEFAULT 1073741824);
CREATE TABLE frames (table_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, attrs TEXT NOT NULL, total INTEGER NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL);
CREATE TABLE frame_rows (table_id TEXT NOT NULL REFERENCES frames(table_id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    row TEXT NOT NULL, PRIMARY KEY (table_id, idx)) WITHOUT ROWID;
CREATE TABLE turns (id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn INTEGER NOT NULL, line INTEGER NOT NULL DEFAULT 0, user_text TEXT NOT NULL, reply TEXT NOT NULL,
    created_at REAL NOT NULL, meta TEXT NOT NULL,
    frame_id TEXT REFERENCES frames(table_id), patch TEXT NOT NULL DEFAULT '[]', state BLOB, base INTEGER,
    UNIQUE (session_id, line, turn));
CREATE TABLE snapshots (turn_id INTEGER PRIMARY KEY REFERENCES turns(id) ON DELETE CASCADE, state TEXT NOT NULL);
CREATE TABLE scratchpad (entry_id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL,
    source TEXT NOT NULL, created_at REAL NOT NULL);
CREATE INDEX scratchpad_session ON scratchpad(session_id, entry_id);
CREATE TABLE preferences (user_id TEXT PRIMARY KEY, prefs TEXT NOT NULL);
CREATE TABLE tool_audit (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL,
    turn_id INTEGER REFERENCES turns(id) ON DELETE SET NULL, entry TEXT NOT NULL, created_at REAL NOT NULL);
CREATE INDEX tool_audit_session ON tool_audit(session_id, id);
CREATE INDEX tool_audit_turn ON tool_audit(turn_id);
CREATE TABLE receipts (key TEXT PRIMARY KEY, tool TEXT NOT NULL, result TEXT NOT NULL, is_error INTEGER NOT NULL,
    created_at REAL NOT NULL);
CREATE TABLE context_kinds (session_id TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (session_id, kind)) WITHOUT ROWID;
CREATE TABLE connection_kinds (connection TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (connection, kind)) WITHOUT ROWID;
CREATE TABLE provenance (session_id TEXT NOT NULL, digest TEXT NOT NULL, origin TEXT NOT NULL,
    PRIMARY KEY (session_id, digest, origin)) WITHOUT ROWID;
CREATE TABLE approval_nonces (nonce TEXT PRIMARY KEY, session_id TEXT NOT NULL, created_at REAL NOT NULL, used_at REAL);
CREATE TABLE idempotency_claims (key TEXT PRIMARY KEY, tool TEXT NOT NULL, args_digest TEXT NOT NULL, owner TEXT NOT NULL,
    claimed_at REAL NOT NULL);
CREATE TABLE lines (session_id TEXT NOT NULL, line INTEGER NOT NULL, parent INTEGER NOT NULL, fork_turn INTEGER NOT NULL,
    PRIMARY KEY (session_id, line)) WITHOUT ROWID;
CREATE TABLE branches (session_id TEXT NOT NULL, branch INTEGER NOT NULL, line INTEGER NOT NULL,
    first_turn INTEGER NOT NULL, last_turn INTEGER NOT NULL, PRIMARY KEY (session_id, branch)) WITHOUT ROWID;
CREATE TABLE bases (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, state BLOB NOT NULL);
INSERT INTO meta VALUES ('schema_version', '4');
"""

LINE0 = [{"n": n, "archive": list(range(n))} for n in range(1, 7)]  # turns 1-6; 5 and 6 abandoned by a rollback to 4
LINE1 = [{"n": n, "again": True, "archive": list(range(n))} for n in range(5, 8)]  # turns 5-7 after it: the head


def _text(state: object) -> bytes:
    return json.dumps(state, separators=(",", ":")).encode()


def v4_database(path: Path) -> None:
    """Session 'old' as v4 wrote it: turns 1-2 are v3 rows (a patch each, a snapshot at
    turn 1), the rest v4 rows (state compressed against base 1); a rollback to turn 4
    made line 1 and branch 1; the head is line 1, turn 7, version 10. Turn 3 has an audit row."""
    conn = sqlite3.connect(path)
    conn.executescript(V4)
    conn.execute("INSERT INTO sessions VALUES ('old', 'travel', 'bob', 1.0, 2)")
    base_text = _text(LINE0[2])
    conn.execute("INSERT INTO bases(id, session_id, state) VALUES (1, 'old', ?)", (zstandard.ZstdCompressor(level=1).compress(base_text),))
    against = zstandard.ZstdCompressor(
        level=1, dict_data=zstandard.ZstdCompressionDict(base_text, dict_type=zstandard.DICT_TYPE_RAWCONTENT), write_checksum=False
    )

    def add(line: int, turn: int, state: dict[str, object]) -> int:
        if turn <= 2:  # a v3 row: the patch from the turn before, no state
            patch = [{"op": "add", "path": "", "value": state}] if turn == 1 else [
                {"op": "replace", "path": "/n", "value": 2}, {"op": "add", "path": "/archive/-", "value": 1}]
            cursor = conn.execute(
                "INSERT INTO turns(session_id, turn, line, user_text, reply, created_at, meta, patch) VALUES ('old', ?, ?, ?, 'r', ?, '{}', ?)",
                (turn, line, f"u{turn}.{line}", float(turn), json.dumps(patch)),
            )
            if turn == 1:
                conn.execute("INSERT INTO snapshots VALUES (?, ?)", (cursor.lastrowid, json.dumps(state)))
        else:
            cursor = conn.execute(
                "INSERT INTO turns(session_id, turn, line, user_text, reply, created_at, meta, patch, state, base) "
                "VALUES ('old', ?, ?, ?, 'r', ?, '{}', '', ?, 1)",
                (turn, line, f"u{turn}.{line}", float(turn), against.compress(_text(state))),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    ids = {turn: add(0, turn, state) for turn, state in enumerate(LINE0, start=1)}
    conn.execute("INSERT INTO tool_audit(session_id, turn_id, entry, created_at) VALUES ('old', ?, '{\"tool\":\"t3\"}', 3.0)", (ids[3],))
    conn.execute("INSERT INTO lines VALUES ('old', 1, 0, 4)")
    conn.execute("INSERT INTO branches VALUES ('old', 1, 0, 5, 6)")
    for turn, state in enumerate(LINE1, start=5):
        add(1, turn, state)
    conn.execute("INSERT INTO heads(session_id, turn, version, line, replay) VALUES ('old', 7, 10, 1, 0)")
    conn.commit()
    conn.close()


def test_a_v4_database_opens_as_v5_with_every_turn_branch_head_and_audit_link(db_path: Path) -> None:
    v4_database(db_path)
    with SQLiteStore(db_path) as store:
        assert store.session_info("old")["turns"] == 7  # type: ignore[index]
        assert [store.state_at("old", t) for t in range(1, 8)] == [*LINE0[:4], *LINE1]
        assert [row.user_text for row in store.turns("old")] == ["u1.0", "u2.0", "u3.0", "u4.0", "u5.1", "u6.1", "u7.1"]
        assert store.branches("old") == [{"branch": 1, "first_turn": 5, "last_turn": 6}]
        assert [store.state_at("old", t, branch=1) for t in (5, 6)] == LINE0[4:]
        assert store.head_version("old") == 10 and store.load_state("old") == LINE1[-1]
        linked = store._conn.execute("SELECT turn_id FROM tool_audit").fetchall()  # white-box: the audit row follows its turn
        assert [turn_number(row_id) for (row_id,) in linked] == [3]
        assert store.audit_log("old") == [{"tool": "t3"}]
        assert store.commit_turn("old", TurnRecord("eight", "r", {"n": 8}), expected_version=10) == 8
        assert store.head_version("old") == 11
        store.rollback("old", 6)
        assert store.branches("old")[-1] == {"branch": 2, "first_turn": 7, "last_turn": 8}
        assert store.commit_turn("old", TurnRecord("seven", "r", {"n": 7, "third": True})) == 7
        assert store.state_at("old", 8, branch=2) == {"n": 8} and store.state_at("old", 2) == LINE0[1]
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%v4%'").fetchall() == []
    finally:
        conn.close()
