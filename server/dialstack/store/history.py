"""Turn history on SQLite: commit, rebuild, rollback, prune.

Functions take a connection that the caller (``SQLiteStore``) holds inside a transaction.

Branches: turns on the live line have ``branch = 0``. A ``branch`` rollback moves the
later turns to a new branch number (1, 2, ... per session); they no longer count for the
live line but stay readable (``turn_rows(..., branch=n)``). The first turn of every
abandoned branch carries a snapshot, so a branch rebuilds on its own even after the live
line under its fork point has been discarded or pruned.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any, Literal

from dialstack.store import records
from dialstack.state.diff import Patch, apply_patch, canonical
from dialstack.store.protocol import JSON, StoreError, TurnRecord, TurnRow, UnknownSessionError

LIVE = 0


class UnknownTurnError(StoreError):
    """The turn asked for does not exist (out of range, pruned, or on another branch)."""


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def head(conn: sqlite3.Connection, session_id: str) -> tuple[int, int] | None:
    """``(turn, version)`` of the session's head; ``None`` when it has no turn yet."""
    row = conn.execute("SELECT turn, version FROM heads WHERE session_id=?", (session_id,)).fetchone()
    if row is None:
        require_session(conn, session_id)
    return row


def head_state(conn: sqlite3.Connection, session_id: str) -> str | None:
    row = conn.execute("SELECT state FROM heads WHERE session_id=?", (session_id,)).fetchone()
    return row[0] if row else None


def require_session(conn: sqlite3.Connection, session_id: str) -> None:
    if conn.execute("SELECT 1 FROM sessions WHERE session_id=?", (session_id,)).fetchone() is None:
        raise UnknownSessionError(
            f"no session {session_id!r} in this database; list the sessions with "
            f"`dialstack history`, or check --db / DIALSTACK_DB"
        )


def insert_turn(
    conn: sqlite3.Connection,
    session_id: str,
    turn: int,
    record: TurnRecord,
    patch: Patch,
    state_text: str,
    *,
    snapshot: bool,
    version: int,
    now: float,
) -> None:
    """Write one turn's rows: turn, diff, snapshot, frame, audit, new head."""
    frame_id = records.store_frame(conn, session_id, record.frame, now) if record.frame else None
    turn_id = conn.execute(
        "INSERT INTO turns(session_id, turn, user_text, reply, created_at, meta, frame_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (session_id, turn, record.user_text, record.reply, now, compact(record.meta), frame_id),
    ).lastrowid
    conn.execute("INSERT INTO diffs(turn_id, patch) VALUES (?, ?)", (turn_id, compact(patch)))
    if snapshot:
        conn.execute("INSERT INTO snapshots(turn_id, state) VALUES (?, ?)", (turn_id, state_text))
    for entry in record.audit:
        records.add_audit(conn, session_id, entry, now, turn_id=turn_id)
    conn.execute(
        "INSERT INTO heads(session_id, turn, version, state) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(session_id) DO UPDATE SET turn=excluded.turn, version=excluded.version, "
        "state=excluded.state",
        (session_id, turn, version, state_text),
    )


def turn_range(conn: sqlite3.Connection, session_id: str, branch: int = LIVE) -> tuple[int, int] | None:
    row = conn.execute(
        "SELECT MIN(turn), MAX(turn) FROM turns WHERE session_id=? AND branch=?", (session_id, branch)
    ).fetchone()
    return None if row[0] is None else (row[0], row[1])


def check_turn(conn: sqlite3.Connection, session_id: str, turn: int, branch: int = LIVE) -> None:
    span = turn_range(conn, session_id, branch)
    if span is not None and span[0] <= turn <= span[1]:
        return
    require_session(conn, session_id)
    where = "live line" if branch == LIVE else f"branch {branch}"
    have = "no turns" if span is None else f"turns {span[0]} to {span[1]}"
    raise UnknownTurnError(
        f"session {session_id!r} has no turn {turn} on its {where} (it has {have}; earlier "
        f"turns may have been pruned); pick a turn in that range"
    )


def state_at(conn: sqlite3.Connection, session_id: str, turn: int, branch: int = LIVE) -> JSON:
    """The exact state after ``turn``: the nearest snapshot at or before it, plus diffs."""
    check_turn(conn, session_id, turn, branch)
    snap = conn.execute(
        "SELECT t.turn, s.state FROM turns t JOIN snapshots s ON s.turn_id = t.id "
        "WHERE t.session_id=? AND t.branch=? AND t.turn<=? ORDER BY t.turn DESC LIMIT 1",
        (session_id, branch, turn),
    ).fetchone()
    if snap is None:
        raise StoreError(f"session {session_id!r} has no snapshot at or before turn {turn}: the database is damaged")
    state = json.loads(snap[1])
    patches = conn.execute(
        "SELECT d.patch FROM turns t JOIN diffs d ON d.turn_id = t.id "
        "WHERE t.session_id=? AND t.branch=? AND t.turn>? AND t.turn<=? ORDER BY t.turn",
        (session_id, branch, snap[0], turn),
    ).fetchall()
    if len(patches) != turn - snap[0]:
        raise StoreError(f"session {session_id!r} is missing diffs between turns {snap[0]} and {turn}: the database is damaged")
    for (patch,) in patches:
        state = apply_patch(state, json.loads(patch))
    return state


def turn_rows(conn: sqlite3.Connection, session_id: str, last: int | None, branch: int = LIVE) -> list[TurnRow]:
    require_session(conn, session_id)
    sql = (
        "SELECT t.turn, t.user_text, t.reply, t.created_at, d.patch, t.frame_id, t.meta "
        "FROM turns t JOIN diffs d ON d.turn_id = t.id WHERE t.session_id=? AND t.branch=? "
        "ORDER BY t.turn DESC"
    )
    params: tuple[Any, ...] = (session_id, branch)
    if last is not None:
        sql, params = sql + " LIMIT ?", (*params, max(last, 0))
    rows = conn.execute(sql, params).fetchall()
    return [
        TurnRow(
            session_id=session_id,
            turn=turn,
            user_text=user_text,
            reply=reply,
            created_at=created_at,
            diff=json.loads(patch),
            frame=records.load_frame(conn, frame_id) if frame_id else None,
            meta=json.loads(meta),
            branch=branch,
        )
        for turn, user_text, reply, created_at, patch, frame_id, meta in reversed(rows)
    ]


def states(conn: sqlite3.Connection, session_id: str, last: int | None, branch: int = LIVE) -> Iterator[tuple[TurnRow, JSON]]:
    """Each turn row with the state after it, rebuilt once and carried forward."""
    rows = turn_rows(conn, session_id, last, branch)
    state: JSON | None = None
    for row in rows:
        if state is None:
            state = state_at(conn, session_id, row.turn, branch)
        else:
            state = apply_patch(state, row.diff)
        yield row, json.loads(compact(state))


def rollback(conn: sqlite3.Connection, session_id: str, to_turn: int, mode: Literal["branch", "discard"]) -> tuple[JSON, str]:
    """Make ``to_turn`` the head; returns the state there and its canonical text."""
    if mode not in ("branch", "discard"):
        raise StoreError(f"rollback mode must be 'branch' or 'discard', not {mode!r}")
    state = state_at(conn, session_id, to_turn)
    later = conn.execute(
        "SELECT id FROM turns WHERE session_id=? AND branch=? AND turn=?", (session_id, LIVE, to_turn + 1)
    ).fetchone()
    if later is not None and mode == "branch":
        _detach_branch(conn, session_id, to_turn, later[0], state)
    elif later is not None:
        conn.execute("DELETE FROM turns WHERE session_id=? AND branch=? AND turn>?", (session_id, LIVE, to_turn))
        records.drop_orphan_frames(conn, session_id)
    text = canonical(state)
    conn.execute(
        "UPDATE heads SET turn=?, version=version+1, state=? WHERE session_id=?", (to_turn, text, session_id)
    )
    return state, text


def _detach_branch(conn: sqlite3.Connection, session_id: str, to_turn: int, first_id: int, state: JSON) -> None:
    has_snapshot = conn.execute("SELECT 1 FROM snapshots WHERE turn_id=?", (first_id,)).fetchone()
    if has_snapshot is None:
        (patch,) = conn.execute("SELECT patch FROM diffs WHERE turn_id=?", (first_id,)).fetchone()
        first_state = apply_patch(json.loads(compact(state)), json.loads(patch))
        conn.execute("INSERT INTO snapshots(turn_id, state) VALUES (?, ?)", (first_id, canonical(first_state)))
    (branch,) = conn.execute("SELECT next_branch FROM sessions WHERE session_id=?", (session_id,)).fetchone()
    conn.execute(
        "UPDATE turns SET branch=? WHERE session_id=? AND branch=? AND turn>?", (branch, session_id, LIVE, to_turn)
    )
    conn.execute("UPDATE sessions SET next_branch=next_branch+1 WHERE session_id=?", (session_id,))


def prune(conn: sqlite3.Connection, session_id: str, keep: int) -> int:
    """Keep the last ``keep`` live turns; drop older turns and branches forked before them."""
    if keep < 1:
        raise StoreError(f"max_history_messages must be at least 1, not {keep}")
    span = turn_range(conn, session_id)
    if span is None:
        require_session(conn, session_id)
        return 0
    first_kept = span[1] - keep + 1
    if first_kept <= span[0]:
        return 0
    (kept_id,) = conn.execute(
        "SELECT id FROM turns WHERE session_id=? AND branch=? AND turn=?", (session_id, LIVE, first_kept)
    ).fetchone()
    if conn.execute("SELECT 1 FROM snapshots WHERE turn_id=?", (kept_id,)).fetchone() is None:
        state = state_at(conn, session_id, first_kept)
        conn.execute("INSERT INTO snapshots(turn_id, state) VALUES (?, ?)", (kept_id, canonical(state)))
    removed = conn.execute(
        "DELETE FROM turns WHERE session_id=? AND ((branch=? AND turn<?) OR branch IN ("
        " SELECT branch FROM turns WHERE session_id=? AND branch<>? GROUP BY branch HAVING MIN(turn)<=?))",
        (session_id, LIVE, first_kept, session_id, LIVE, first_kept),
    ).rowcount
    records.drop_orphan_frames(conn, session_id)
    return removed


def branches(conn: sqlite3.Connection, session_id: str) -> list[JSON]:
    """The abandoned branches: ``{branch, first_turn, last_turn}`` each."""
    require_session(conn, session_id)
    rows = conn.execute(
        "SELECT branch, MIN(turn), MAX(turn) FROM turns WHERE session_id=? AND branch<>? GROUP BY branch ORDER BY branch",
        (session_id, LIVE),
    ).fetchall()
    return [{"branch": b, "first_turn": lo, "last_turn": hi} for b, lo, hi in rows]
