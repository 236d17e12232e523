"""Turn history on SQLite: commit, rebuild, rollback, prune.

Functions take a connection that the caller (``SQLiteStore``) holds inside a transaction.

**Lines.** Every turn row belongs to a *line* of its session. Line 0 is the first; a
rollback to turn N starts a new line that *forks* from the line holding turn N: the new
line owns the turns after N and reads turns up to N through its parent (a ``lines`` row:
``parent``, ``fork_turn``). So a rollback writes a pointer, never moves rows, and costs
the same whatever follows the turn it goes back to. The head (``heads``) names the live
line and its last turn.

**Branches.** A ``branch`` rollback records the turns it leaves behind as an abandoned
branch: the view of the old line from turn N+1 to its last turn (a ``branches`` row,
numbered 1, 2, ... per session). Every turn row is seen by exactly one view, the live one
or one branch.

**States.** Each turn row (schema v4) holds its full state, compressed against a base
(``store.blobs``): reading any turn is one row and its base, whatever the history did,
and a branch reads on its own. ``TurnRow.diff`` (the JSON Patch from the turn before)
is computed on read. Rows of schema v3 hold a patch instead (``state`` NULL), read as
before: the nearest snapshot at or before the turn plus the patches after it; the first
turn of a v3 branch, and the first turn kept by pruning, get a snapshot so that they
read on their own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from dialstack.state.diff import apply_patch, decode, encode, make_patch
from dialstack.store import blobs, records
from dialstack.store.blobs import Readers, pack_state, unpack_state
from dialstack.store.protocol import JSON, StoreError, TurnRecord, TurnRow, UnknownSessionError

LIVE = 0

Segment = tuple[int, int, int | None]  # (line, after turn, up to turn or None = open): the turns a line owns


class UnknownTurnError(StoreError):
    """The turn asked for does not exist (out of range, pruned, or on another branch)."""


class Head(NamedTuple):  # a tuple: built on every commit, ~4x cheaper than a frozen dataclass
    line: int
    turn: int
    version: int
    replay: int  # v3 rows: patch operations from the nearest snapshot to the head (0 for v4 rows)


@dataclass(frozen=True)
class View:
    """The turns of the live history (``branch`` 0) or of one abandoned branch."""

    session_id: str
    branch: int
    segments: tuple[Segment, ...]  # newest first
    first: int | None  # lowest turn when known (a branch), else found on demand
    last: int  # 0 when there are no turns


class Lines:
    """Line ancestry, cached: a line's parent and fork point never change once written."""

    def __init__(self) -> None:
        self._chains: dict[tuple[str, int], tuple[Segment, ...]] = {}

    def chain(self, conn: sqlite3.Connection, session_id: str, line: int) -> tuple[Segment, ...]:
        key = (session_id, line)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = _walk(conn, session_id, line)
        return found


def _walk(conn: sqlite3.Connection, session_id: str, line: int) -> tuple[Segment, ...]:
    segments: list[Segment] = []
    upper: int | None = None
    while line != 0:
        row = conn.execute("SELECT parent, fork_turn FROM lines WHERE session_id=? AND line=?", (session_id, line)).fetchone()
        if row is None:
            raise StoreError(f"session {session_id!r} names line {line}, which is missing: the database is damaged")
        segments.append((line, row[1], upper))
        line, upper = row[0], row[1]
    segments.append((0, 0, upper))
    return tuple(segments)


def compact(value: Any) -> str:
    return encode(value).decode()


# -- heads and views -------------------------------------------------------------------


def head(conn: sqlite3.Connection, session_id: str) -> Head | None:
    """The session's head; ``None`` when it has no turn yet (``UnknownSessionError`` if no session)."""
    row = conn.execute("SELECT line, turn, version, replay FROM heads WHERE session_id=?", (session_id,)).fetchone()
    if row is None:
        require_session(conn, session_id)
        return None
    return Head(*row)


def require_session(conn: sqlite3.Connection, session_id: str) -> None:
    if conn.execute("SELECT 1 FROM sessions WHERE session_id=?", (session_id,)).fetchone() is None:
        raise UnknownSessionError(
            f"no session {session_id!r} in this database; list the sessions with "
            f"`dialstack history`, or check --db / DIALSTACK_DB"
        )


def live_view(conn: sqlite3.Connection, lines: Lines, session_id: str, current: Head | None) -> View:
    if current is None:
        return View(session_id, LIVE, ((0, 0, None),), None, 0)
    return View(session_id, LIVE, lines.chain(conn, session_id, current.line), None, current.turn)


def view(conn: sqlite3.Connection, lines: Lines, session_id: str, branch: int = LIVE) -> View:
    if branch == LIVE:
        return live_view(conn, lines, session_id, head(conn, session_id))
    row = conn.execute(
        "SELECT line, first_turn, last_turn FROM branches WHERE session_id=? AND branch=?", (session_id, branch)
    ).fetchone()
    if row is None:
        require_session(conn, session_id)
        return View(session_id, branch, (), None, 0)
    line, first, last = row
    return View(session_id, branch, lines.chain(conn, session_id, line), first, last)


def _spans(v: View, low: int, high: int) -> Iterator[tuple[int, int, int]]:
    """``(line, after, up_to)`` pieces of ``low < turn <= high`` in ``v``, newest first."""
    if v.first is not None:
        low = max(low, v.first - 1)
    high = min(high, v.last)
    for line, after, upper in v.segments:
        top = high if upper is None else min(upper, high)
        bottom = max(after, low)
        if top > bottom:
            yield line, bottom, top


def first_turn(conn: sqlite3.Connection, v: View) -> int | None:
    """The view's lowest turn: one indexed lookup per line, oldest line first."""
    if v.first is not None:
        return v.first if v.last else None
    for line, after, top in reversed(list(_spans(v, 0, v.last))):
        row = conn.execute(
            "SELECT turn FROM turns WHERE session_id=? AND line=? AND turn>? AND turn<=? ORDER BY turn LIMIT 1",
            (v.session_id, line, after, top),
        ).fetchone()
        if row is not None:
            return int(row[0])
    return None


def turn_range(conn: sqlite3.Connection, v: View) -> tuple[int, int] | None:
    """``(first, last)`` turn of the view: the last is the head (or the branch's end)."""
    first = first_turn(conn, v)
    return None if first is None else (first, v.last)


def _unknown(conn: sqlite3.Connection, v: View, turn: int) -> StoreError:
    span = turn_range(conn, v)
    if span is not None and span[0] <= turn <= span[1]:
        return StoreError(
            f"session {v.session_id!r} is missing snapshots or diffs up to turn {turn}: the database is damaged"
        )
    where = "live line" if v.branch == LIVE else f"branch {v.branch}"
    have = "no turns" if span is None else f"turns {span[0]} to {span[1]}"
    return UnknownTurnError(
        f"session {v.session_id!r} has no turn {turn} on its {where} (it has {have}; earlier "
        f"turns may have been pruned); pick a turn in that range"
    )


# -- rebuilds ---------------------------------------------------------------------------


def state_at(conn: sqlite3.Connection, readers: Readers, v: View, turn: int) -> tuple[JSON, int]:
    """The exact state after ``turn`` and the patch operations replayed to get it (v3 rows only)."""
    if turn < 1 or turn > v.last or (v.first is not None and turn < v.first):
        raise _unknown(conn, v, turn)
    for line, _after, _top in _spans(v, turn - 1, turn):
        row = conn.execute(
            "SELECT state, base FROM turns WHERE session_id=? AND line=? AND turn=?", (v.session_id, line, turn)
        ).fetchone()
        if row is None:
            break
        if row[0] is not None:
            return readers.state(conn, row[0], row[1]), 0
        return _replay(conn, v, turn)
    raise _unknown(conn, v, turn)


def _replay(conn: sqlite3.Connection, v: View, turn: int) -> tuple[JSON, int]:
    """A v3 row's state: the rows from ``turn`` down to the nearest snapshot, one query per line crossed."""
    patches: list[str] = []
    expected = turn
    base: Any = None
    for line, after, top in _spans(v, 0, turn):
        rows = conn.execute(
            "SELECT t.turn, t.patch, s.state FROM turns t LEFT JOIN snapshots s ON s.turn_id = t.id "
            "WHERE t.session_id=? AND t.line=? AND t.turn>? AND t.turn<=? ORDER BY t.turn DESC",
            (v.session_id, line, after, top),
        )
        for number, patch, snapshot in rows:
            if number != expected:
                raise _unknown(conn, v, turn)
            if snapshot is not None:
                base = snapshot
                break
            patches.append(patch)
            expected -= 1
        if base is not None:
            break
        if expected != after:
            raise _unknown(conn, v, turn)
    if base is None:
        raise _unknown(conn, v, turn)
    state = unpack_state(base)
    replayed = 0
    if patches:
        patches.reverse()
        for ops in decode("[" + ",".join(patches) + "]"):  # one parse for all of them
            replayed += len(ops)
            state = apply_patch(state, ops)
    return state, replayed


_ROW = "turn, user_text, reply, created_at, patch, frame_id, meta, state, base"


def _rows_desc(conn: sqlite3.Connection, v: View, columns: str, limit: int | None) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    for line, after, top in _spans(v, 0, v.last):
        sql = f"SELECT {columns} FROM turns WHERE session_id=? AND line=? AND turn>? AND turn<=? ORDER BY turn DESC"
        params: tuple[Any, ...] = (v.session_id, line, after, top)
        if limit is not None:
            sql, params = sql + " LIMIT ?", (*params, limit - len(found))
        found.extend(conn.execute(sql, params).fetchall())
        if limit is not None and len(found) >= limit:
            break
    return found


def recent_texts(conn: sqlite3.Connection, v: View, last: int) -> list[tuple[str, str]]:
    """``(user_text, reply)`` of the last ``last`` turns, oldest first."""
    if last <= 0 or not v.last:
        return []
    return list(reversed(_rows_desc(conn, v, "user_text, reply", last)))  # type: ignore[arg-type]


def turn_rows(conn: sqlite3.Connection, readers: Readers, v: View, last: int | None) -> list[TurnRow]:
    return [row for row, _state in states(conn, readers, v, last)]


def states(conn: sqlite3.Connection, readers: Readers, v: View, last: int | None) -> list[tuple[TurnRow, JSON]]:
    """Each turn row (``diff``: the patch from the turn before) with the state after it."""
    if last is not None and last <= 0:
        return []
    rows = list(reversed(_rows_desc(conn, v, _ROW, last)))
    out: list[tuple[TurnRow, JSON]] = []
    before: Any = None  # the state after the previous row, once known
    for turn, user_text, reply, created_at, patch, frame_id, meta, blob, base in rows:
        if blob is not None:
            state = readers.state(conn, blob, base)
            if before is None:
                before = _state_before(conn, readers, v, turn)
            diff = make_patch(before, state)
        else:
            diff = decode(patch)
            state = state_at(conn, readers, v, turn)[0] if before is None else apply_patch(decode(encode(before)), decode(patch))
        row = TurnRow(
            session_id=v.session_id,
            turn=turn,
            user_text=user_text,
            reply=reply,
            created_at=created_at,
            diff=diff,
            frame=records.load_frame(conn, frame_id) if frame_id else None,
            meta=decode(meta),
            branch=v.branch,
        )
        out.append((row, state))
        before = state
    return out


def _state_before(conn: sqlite3.Connection, readers: Readers, v: View, turn: int) -> Any:
    """The state after ``turn - 1`` as ``v``'s turns see it (a branch: at its fork); ``{}``
    before turn 1, and where that turn is gone (pruned, discarded)."""
    if turn <= 1:
        return {}
    try:
        return state_at(conn, readers, View(v.session_id, v.branch, v.segments, None, turn - 1), turn - 1)[0]
    except StoreError:
        return {}


# -- writes -----------------------------------------------------------------------------


def next_head(current: Head | None) -> Head:
    return Head(current.line, current.turn + 1, current.version + 1, 0) if current else Head(LIVE, 1, 1, 0)


def move_head(conn: sqlite3.Connection, session_id: str, current: Head | None, moved: Head) -> bool:
    """Point the session's head at ``moved`` if it is still ``current`` (same version); False otherwise."""
    if current is None:
        conn.execute(
            "INSERT INTO heads(session_id, line, turn, version, replay) VALUES (?, ?, ?, ?, ?)",
            (session_id, moved.line, moved.turn, moved.version, moved.replay),
        )
        return True
    return conn.execute(
        "UPDATE heads SET line=?, turn=?, version=?, replay=? WHERE session_id=? AND version=?",
        (moved.line, moved.turn, moved.version, moved.replay, session_id, current.version),
    ).rowcount == 1


def insert_turn(
    conn: sqlite3.Connection, session_id: str, at: Head, record: TurnRecord, state: bytes, base: int, *, now: float
) -> None:
    """Write one turn's rows at head ``at``: the turn with its state (compressed against
    ``base``), its frame and audit entries, the context kinds it added."""
    frame_id = records.store_frame(conn, session_id, record.frame, now) if record.frame else None
    turn_id = conn.execute(
        "INSERT INTO turns(session_id, line, turn, user_text, reply, created_at, meta, frame_id, patch, state, base) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?)",
        (session_id, at.line, at.turn, record.user_text, record.reply, now, compact(record.meta) if record.meta else "{}", frame_id,
         state, base),
    ).lastrowid
    for entry in record.audit:
        records.add_audit(conn, session_id, entry, now, turn_id=turn_id)
    if record.context_kinds:
        records.add_context_kinds(conn, session_id, record.context_kinds)


def _row_at(conn: sqlite3.Connection, v: View, turn: int) -> tuple[int, str, bool]:
    """``(id, patch, v3)`` of the row holding ``turn`` in ``v``; ``v3``: it stores a patch, not its state."""
    for line, _after, _top in _spans(v, turn - 1, turn):
        row = conn.execute(
            "SELECT id, patch, state IS NULL FROM turns WHERE session_id=? AND line=? AND turn=?", (v.session_id, line, turn)
        ).fetchone()
        if row is not None:
            return row[0], row[1], bool(row[2])
    raise _unknown(conn, v, turn)


def _ensure_snapshot(conn: sqlite3.Connection, turn_id: int, state: Any) -> None:
    conn.execute("INSERT OR IGNORE INTO snapshots(turn_id, state) VALUES (?, ?)", (turn_id, pack_state(encode(state))))


def rollback(
    conn: sqlite3.Connection, lines: Lines, readers: Readers, session_id: str, to_turn: int, mode: Literal["branch", "discard"]
) -> tuple[JSON, Head | None]:
    """Make ``to_turn`` the head by starting a new line there; returns the state and the new head.

    ``branch`` records the later turns as an abandoned branch (a pointer: no row moves);
    ``discard`` deletes them.
    """
    if mode not in ("branch", "discard"):
        raise StoreError(f"rollback mode must be 'branch' or 'discard', not {mode!r}")
    current = head(conn, session_id)
    live = live_view(conn, lines, session_id, current)
    state, replay = state_at(conn, readers, live, to_turn)
    if current is None or to_turn == current.turn:
        return state, current
    owner = next(line for line, _after, _top in _spans(live, to_turn - 1, to_turn))
    (line,) = conn.execute("SELECT COALESCE(MAX(line), 0) + 1 FROM lines WHERE session_id=?", (session_id,)).fetchone()
    conn.execute("INSERT INTO lines(session_id, line, parent, fork_turn) VALUES (?, ?, ?, ?)", (session_id, line, owner, to_turn))
    if mode == "branch":
        first_id, patch, v3 = _row_at(conn, live, to_turn + 1)
        if v3:  # a v3 row replays from a snapshot: the branch's first turn gets one
            _ensure_snapshot(conn, first_id, apply_patch(decode(encode(state)), decode(patch)))
        (branch,) = conn.execute("SELECT next_branch FROM sessions WHERE session_id=?", (session_id,)).fetchone()
        conn.execute(
            "INSERT INTO branches(session_id, branch, line, first_turn, last_turn) VALUES (?, ?, ?, ?, ?)",
            (session_id, branch, current.line, to_turn + 1, current.turn),
        )
        conn.execute("UPDATE sessions SET next_branch=next_branch+1 WHERE session_id=?", (session_id,))
    else:
        for piece_line, after, top in _spans(live, to_turn, current.turn):
            conn.execute(
                "DELETE FROM turns WHERE session_id=? AND line=? AND turn>? AND turn<=?", (session_id, piece_line, after, top)
            )
        records.drop_orphan_frames(conn, session_id)
        blobs.drop_unused_bases(conn, session_id)
    moved = Head(line, to_turn, current.version + 1, replay)
    conn.execute(
        "UPDATE heads SET line=?, turn=?, version=?, replay=? WHERE session_id=?",
        (moved.line, moved.turn, moved.version, moved.replay, session_id),
    )
    return state, moved


def prune(conn: sqlite3.Connection, lines: Lines, readers: Readers, session_id: str, keep: int) -> int:
    """Keep the last ``keep`` live turns; drop older turns and branches forked before them."""
    if keep < 1:
        raise StoreError(f"max_history_messages must be at least 1, not {keep}")
    live = live_view(conn, lines, session_id, head(conn, session_id))
    span = turn_range(conn, live)
    if span is None:
        return 0
    first_kept = span[1] - keep + 1
    if first_kept <= span[0]:
        return 0
    kept_id, _patch, v3 = _row_at(conn, live, first_kept)
    if v3 and conn.execute("SELECT 1 FROM snapshots WHERE turn_id=?", (kept_id,)).fetchone() is None:
        _ensure_snapshot(conn, kept_id, state_at(conn, readers, live, first_kept)[0])
    removed = _delete_view(conn, live, first_kept - 1)
    doomed = conn.execute(
        "SELECT branch FROM branches WHERE session_id=? AND first_turn<=?", (session_id, first_kept)
    ).fetchall()
    for (branch,) in doomed:
        removed += _delete_view(conn, view(conn, lines, session_id, branch), None)
        conn.execute("DELETE FROM branches WHERE session_id=? AND branch=?", (session_id, branch))
    records.drop_orphan_frames(conn, session_id)
    blobs.drop_unused_bases(conn, session_id)
    return removed


def _delete_view(conn: sqlite3.Connection, v: View, up_to: int | None) -> int:
    removed = 0
    for line, after, top in list(_spans(v, 0, v.last if up_to is None else up_to)):
        removed += conn.execute(
            "DELETE FROM turns WHERE session_id=? AND line=? AND turn>? AND turn<=?", (v.session_id, line, after, top)
        ).rowcount
    return removed


def branches(conn: sqlite3.Connection, session_id: str) -> list[JSON]:
    """The abandoned branches: ``{branch, first_turn, last_turn}`` each."""
    require_session(conn, session_id)
    rows = conn.execute(
        "SELECT branch, first_turn, last_turn FROM branches WHERE session_id=? ORDER BY branch", (session_id,)
    ).fetchall()
    return [{"branch": b, "first_turn": lo, "last_turn": hi} for b, lo, hi in rows]
