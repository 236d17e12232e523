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
or one branch, and the first turn of every branch carries a snapshot, so a branch reads
on its own even after the live history under its fork has been discarded or pruned.

**Rebuilds.** The state after a turn is the nearest snapshot at or before it plus the
JSON Patches after it. A snapshot is written at turn 1, when the turn asks for one,
every ``snapshot_every`` turns, and whenever replaying from the last one would apply more
than ``REPLAY_OPS`` patch operations: reading any turn costs a bounded amount of work.
"""

from __future__ import annotations

import sqlite3
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from dialstack.state.diff import apply_patch, decode, encode
from dialstack.store import records
from dialstack.store.protocol import JSON, StoreError, TurnRecord, TurnRow, UnknownSessionError

LIVE = 0
REPLAY_OPS = 24  # a snapshot once replaying from the last one would apply more operations than this

Segment = tuple[int, int, int | None]  # (line, after turn, up to turn or None = open): the turns a line owns


class UnknownTurnError(StoreError):
    """The turn asked for does not exist (out of range, pruned, or on another branch)."""


@dataclass(frozen=True)
class Head:
    line: int
    turn: int
    version: int
    replay: int  # patch operations from the nearest snapshot to the head


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


_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_codecs = threading.local()  # a zstd (de)compressor is reusable, ~3x faster so, but not shared across threads


def _zstd() -> tuple[Any, Any]:
    pair = getattr(_codecs, "pair", None)
    if pair is None:
        import zstandard

        pair = _codecs.pair = (zstandard.ZstdCompressor(level=1), zstandard.ZstdDecompressor())
    return pair


def pack_state(text: bytes) -> bytes:
    """A snapshot as stored: the state's JSON, zstd-compressed."""
    return _zstd()[0].compress(text)


def unpack_state(stored: bytes | str) -> Any:
    """A stored snapshot: zstd (this release), zlib (early v3 files) or plain JSON text (v0-v2)."""
    if isinstance(stored, str):
        return decode(stored)
    if stored[:4] == _ZSTD_MAGIC:
        return decode(_zstd()[1].decompress(stored))
    return decode(zlib.decompress(stored))


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


def state_at(conn: sqlite3.Connection, v: View, turn: int) -> tuple[JSON, int]:
    """The exact state after ``turn`` and the patch operations replayed to get it.

    One query per line crossed: the rows from ``turn`` down to the nearest snapshot.
    """
    if turn < 1 or turn > v.last or (v.first is not None and turn < v.first):
        raise _unknown(conn, v, turn)
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


_ROW = "turn, user_text, reply, created_at, patch, frame_id, meta"


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


def turn_rows(conn: sqlite3.Connection, v: View, last: int | None) -> list[TurnRow]:
    if last is not None and last <= 0:
        return []
    rows = _rows_desc(conn, v, _ROW, last)
    return [
        TurnRow(
            session_id=v.session_id,
            turn=turn,
            user_text=user_text,
            reply=reply,
            created_at=created_at,
            diff=decode(patch),
            frame=records.load_frame(conn, frame_id) if frame_id else None,
            meta=decode(meta),
            branch=v.branch,
        )
        for turn, user_text, reply, created_at, patch, frame_id, meta in reversed(rows)
    ]


def states(conn: sqlite3.Connection, v: View, last: int | None) -> Iterator[tuple[TurnRow, JSON]]:
    """Each turn row with the state after it, rebuilt once and carried forward."""
    rows = turn_rows(conn, v, last)
    state: Any = None
    for row in rows:
        if state is None:
            state = state_at(conn, v, row.turn)[0]
        else:
            state = apply_patch(state, decode(encode(row.diff)))  # the row's own diff stays untouched
        yield row, decode(encode(state))


# -- writes -----------------------------------------------------------------------------


def insert_turn(
    conn: sqlite3.Connection,
    session_id: str,
    current: Head | None,
    record: TurnRecord,
    patch: str,
    snapshot: bytes | None,
    *,
    replay: int,
    now: float,
) -> Head:
    """Write one turn's rows (turn with its patch, snapshot, frame, audit) and move the head."""
    line, turn, version = (current.line, current.turn + 1, current.version + 1) if current else (LIVE, 1, 1)
    frame_id = records.store_frame(conn, session_id, record.frame, now) if record.frame else None
    turn_id = conn.execute(
        "INSERT INTO turns(session_id, line, turn, user_text, reply, created_at, meta, frame_id, patch) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session_id, line, turn, record.user_text, record.reply, now, compact(record.meta), frame_id, patch),
    ).lastrowid
    if snapshot is not None:
        conn.execute("INSERT INTO snapshots(turn_id, state) VALUES (?, ?)", (turn_id, snapshot))
    for entry in record.audit:
        records.add_audit(conn, session_id, entry, now, turn_id=turn_id)
    if record.context_kinds:
        records.add_context_kinds(conn, session_id, record.context_kinds)
    if current is None:
        conn.execute(
            "INSERT INTO heads(session_id, line, turn, version, replay) VALUES (?, ?, ?, ?, ?)",
            (session_id, line, turn, version, replay),
        )
    else:
        conn.execute(
            "UPDATE heads SET turn=?, version=?, replay=? WHERE session_id=?", (turn, version, replay, session_id)
        )
    return Head(line, turn, version, replay)


def _row_at(conn: sqlite3.Connection, v: View, turn: int) -> tuple[int, str]:
    """``(id, patch)`` of the row holding ``turn`` in ``v``."""
    for line, _after, _top in _spans(v, turn - 1, turn):
        row = conn.execute(
            "SELECT id, patch FROM turns WHERE session_id=? AND line=? AND turn=?", (v.session_id, line, turn)
        ).fetchone()
        if row is not None:
            return row[0], row[1]
    raise _unknown(conn, v, turn)


def _ensure_snapshot(conn: sqlite3.Connection, turn_id: int, state: Any) -> None:
    conn.execute("INSERT OR IGNORE INTO snapshots(turn_id, state) VALUES (?, ?)", (turn_id, pack_state(encode(state))))


def rollback(
    conn: sqlite3.Connection, lines: Lines, session_id: str, to_turn: int, mode: Literal["branch", "discard"]
) -> tuple[JSON, Head | None]:
    """Make ``to_turn`` the head by starting a new line there; returns the state and the new head.

    ``branch`` records the later turns as an abandoned branch (a pointer: no row moves);
    ``discard`` deletes them.
    """
    if mode not in ("branch", "discard"):
        raise StoreError(f"rollback mode must be 'branch' or 'discard', not {mode!r}")
    current = head(conn, session_id)
    live = live_view(conn, lines, session_id, current)
    state, replay = state_at(conn, live, to_turn)
    if current is None or to_turn == current.turn:
        return state, current
    owner = next(line for line, _after, _top in _spans(live, to_turn - 1, to_turn))
    (line,) = conn.execute("SELECT COALESCE(MAX(line), 0) + 1 FROM lines WHERE session_id=?", (session_id,)).fetchone()
    conn.execute("INSERT INTO lines(session_id, line, parent, fork_turn) VALUES (?, ?, ?, ?)", (session_id, line, owner, to_turn))
    if mode == "branch":
        first_id, patch = _row_at(conn, live, to_turn + 1)
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
    moved = Head(line, to_turn, current.version + 1, replay)
    conn.execute(
        "UPDATE heads SET line=?, turn=?, version=?, replay=? WHERE session_id=?",
        (moved.line, moved.turn, moved.version, moved.replay, session_id),
    )
    return state, moved


def prune(conn: sqlite3.Connection, lines: Lines, session_id: str, keep: int) -> int:
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
    kept_id, _patch = _row_at(conn, live, first_kept)
    if conn.execute("SELECT 1 FROM snapshots WHERE turn_id=?", (kept_id,)).fetchone() is None:
        _ensure_snapshot(conn, kept_id, state_at(conn, live, first_kept)[0])
    removed = _delete_view(conn, live, first_kept - 1)
    doomed = conn.execute(
        "SELECT branch FROM branches WHERE session_id=? AND first_turn<=?", (session_id, first_kept)
    ).fetchall()
    for (branch,) in doomed:
        removed += _delete_view(conn, view(conn, lines, session_id, branch), None)
        conn.execute("DELETE FROM branches WHERE session_id=? AND branch=?", (session_id, branch))
    records.drop_orphan_frames(conn, session_id)
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
