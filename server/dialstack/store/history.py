"""Turn history on SQLite: commit, rebuild, rollback, prune.

Functions take a connection that the caller (``SQLiteStore``) holds inside a transaction.

**Lines.** Every turn row belongs to a *line* of its session. Line 0 is the first; a
rollback to turn N starts a new line that *forks* from the line holding turn N: the new
line owns the turns after N and reads turns up to N through its parent (a ``lines`` row:
``parent``, ``fork_turn``). So a rollback writes a pointer, never moves rows, and costs
the same whatever follows the turn it goes back to. The head (``heads``) names the live
line and its last turn.

**Rows** (schema v5, ``store.rows``): a turn row's id is its line's key and its turn, so
a line's turns are one range of ids and a commit writes no index. The head row (``heads``:
line, key, turn, version) is written when a session starts and at a rollback; the head
turn is the last row on the head's line (each turn committed since moves it on and adds
one to its version), so a commit does not write the head row either.

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
from dialstack.store.rows import HEAD_COLUMNS, LAST_TURN, turn_id, turn_number
from dialstack.store.protocol import JSON, StoreError, TurnRecord, TurnRow, UnknownSessionError

LIVE = 0

Segment = tuple[int, int, int, int | None]  # (line, its key, after turn, up to turn or None = open): the turns a line owns
Span = tuple[int, int, int, int]  # (line, its key, after turn, up to turn): ids key << 32 | after + 1 to key << 32 | up to


class UnknownTurnError(StoreError):
    """The turn asked for does not exist (out of range, pruned, or on another branch)."""


class Head(NamedTuple):  # a tuple: built on every commit, ~4x cheaper than a frozen dataclass
    line: int
    key: int  # the line's key
    turn: int
    version: int
    mark: int  # the version the heads row holds: it changes at a rollback, never at a commit


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
    while True:
        row = conn.execute("SELECT key, parent, fork_turn FROM lines WHERE session_id=? AND line=?", (session_id, line)).fetchone()
        if row is None:
            raise StoreError(f"session {session_id!r} names line {line}, which is missing: the database is damaged")
        key, parent, fork_turn = row
        if line == 0:
            segments.append((0, key, 0, upper))
            return tuple(segments)
        segments.append((line, key, fork_turn, upper))
        line, upper = parent, fork_turn


def compact(value: Any) -> str:
    return encode(value).decode()


# -- heads and views -------------------------------------------------------------------


def head(conn: sqlite3.Connection, session_id: str) -> Head | None:
    """The session's head; ``None`` when it has no turn yet (``UnknownSessionError`` if no session)."""
    row = conn.execute(f"SELECT {HEAD_COLUMNS} FROM heads h WHERE h.session_id=?", (session_id,)).fetchone()
    if row is None:
        require_session(conn, session_id)
        return None
    return head_of(*row)


def head_of(line: int, key: int, turn: int, version: int, last: int | None) -> Head:
    """The head from its row (``line, key, turn, version``) and ``last``, the id of the last
    turn committed on the line since the row was written (see ``rows.HEAD_COLUMNS``)."""
    if last is None:
        return Head(line, key, turn, version, version)
    moved = turn_number(last)
    return Head(line, key, moved, version + moved - turn, version)


def require_session(conn: sqlite3.Connection, session_id: str) -> None:
    if conn.execute("SELECT 1 FROM sessions WHERE session_id=?", (session_id,)).fetchone() is None:
        raise UnknownSessionError(
            f"no session {session_id!r} in this database; list the sessions with "
            f"`dialstack history`, or check --db / DIALSTACK_DB"
        )


def live_view(conn: sqlite3.Connection, lines: Lines, session_id: str, current: Head | None) -> View:
    if current is None:
        return View(session_id, LIVE, ((0, 0, 0, None),), None, 0)
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


def _spans(v: View, low: int, high: int) -> Iterator[Span]:
    """``(line, key, after, up_to)`` pieces of ``low < turn <= high`` in ``v``, newest first."""
    if v.first is not None:
        low = max(low, v.first - 1)
    high = min(high, v.last)
    for line, key, after, upper in v.segments:
        top = high if upper is None else min(upper, high)
        bottom = max(after, low)
        if top > bottom:
            yield line, key, bottom, top


def _ids(span: Span) -> tuple[int, int]:
    """The span's turn rows as ids: ``id > low AND id <= high``."""
    _line, key, after, top = span
    return turn_id(key, after), turn_id(key, top)


def _row_id(v: View, turn: int) -> int | None:
    """The id of the row holding ``turn`` in ``v`` (it may be missing: pruned, discarded)."""
    for span in _spans(v, turn - 1, turn):
        return turn_id(span[1], turn)
    return None


def first_turn(conn: sqlite3.Connection, v: View) -> int | None:
    """The view's lowest turn: one indexed lookup per line, oldest line first."""
    if v.first is not None:
        return v.first if v.last else None
    for span in reversed(list(_spans(v, 0, v.last))):
        row = conn.execute("SELECT id FROM turns WHERE id>? AND id<=? ORDER BY id LIMIT 1", _ids(span)).fetchone()
        if row is not None:
            return turn_number(row[0])
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
    row_id = _row_id(v, turn)
    row = None if row_id is None else conn.execute("SELECT state, base FROM turns WHERE id=?", (row_id,)).fetchone()
    if row is None:
        raise _unknown(conn, v, turn)
    if row[0] is not None:
        return readers.state(conn, row[0], row[1]), 0
    return _replay(conn, v, turn)


def _replay(conn: sqlite3.Connection, v: View, turn: int) -> tuple[JSON, int]:
    """A v3 row's state: the rows from ``turn`` down to the nearest snapshot, one query per line crossed."""
    patches: list[str] = []
    expected = turn
    base: Any = None
    for span in _spans(v, 0, turn):
        rows = conn.execute(
            "SELECT t.id, t.patch, s.state FROM turns t LEFT JOIN snapshots s ON s.turn_id = t.id "
            "WHERE t.id>? AND t.id<=? ORDER BY t.id DESC",
            _ids(span),
        )
        for row_id, patch, snapshot in rows:
            if turn_number(row_id) != expected:
                raise _unknown(conn, v, turn)
            if snapshot is not None:
                base = snapshot
                break
            patches.append(patch)
            expected -= 1
        if base is not None:
            break
        if expected != span[2]:
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


_ROW = f"id & {LAST_TURN}, user_text, reply, created_at, patch, frame_id, meta, state, base"


def _rows_desc(conn: sqlite3.Connection, v: View, columns: str, limit: int | None) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    for span in _spans(v, 0, v.last):
        sql = f"SELECT {columns} FROM turns WHERE id>? AND id<=? ORDER BY id DESC"
        params: tuple[Any, ...] = _ids(span)
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


def next_head(current: Head) -> Head:
    return Head(current.line, current.key, current.turn + 1, current.version + 1, current.mark)


def start(conn: sqlite3.Connection, session_id: str) -> Head:
    """A session's head before its first turn: line 0 (its ``lines`` row) at turn 0, version 0."""
    key = conn.execute(
        "INSERT INTO lines(session_id, line, parent, fork_turn) VALUES (?, ?, 0, 0)", (session_id, LIVE)
    ).lastrowid
    assert key is not None
    conn.execute("INSERT INTO heads(session_id, line, key, turn, version) VALUES (?, ?, ?, 0, 0)", (session_id, LIVE, key))
    return Head(LIVE, key, 0, 0, 0)


def still_head(conn: sqlite3.Connection, session_id: str, current: Head) -> bool:
    """Whether ``current`` is still the session's head: no rollback rewrote the heads row
    (its version is still ``current.mark``) and no turn was committed after it."""
    row = conn.execute(
        "SELECT version, EXISTS (SELECT 1 FROM turns WHERE id=?) FROM heads WHERE session_id=?",
        (turn_id(current.key, current.turn + 1), session_id),
    ).fetchone()
    return row is not None and row[0] == current.mark and not row[1]


_TURN_COLUMNS = "turns(id, user_text, reply, created_at, meta, frame_id, state, base)"


def insert_turn(
    conn: sqlite3.Connection, session_id: str, at: Head, record: TurnRecord, state: bytes, base: int, *, now: float,
    after: Head | None = None,
) -> bool:
    """Write one turn's rows at head ``at``: the turn with its state (compressed against
    ``base``), its frame and audit entries, the context kinds it added.

    With ``after`` (the head ``at`` follows) the turn row is written only if that is
    still the session's head: its heads row is unchanged (``after.mark``: no rollback)
    and no row holds turn ``at`` yet (no other writer's turn). One statement checks and
    writes; False when it did not write (a stored frame stays: frames are shared by content).
    """
    if at.turn > LAST_TURN:
        raise StoreError(f"session {session_id!r} has reached the last turn number a line can hold ({LAST_TURN}); start a new session")
    frame_id = records.store_frame(conn, session_id, record.frame, now) if record.frame else None
    row_id = turn_id(at.key, at.turn)
    values = (row_id, record.user_text, record.reply, now, compact(record.meta) if record.meta else "{}", frame_id, state, base)
    if after is None:
        conn.execute(f"INSERT INTO {_TURN_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
    elif not conn.execute(
        f"INSERT OR IGNORE INTO {_TURN_COLUMNS} SELECT ?, ?, ?, ?, ?, ?, ?, ? FROM heads WHERE session_id=? AND version=?",
        (*values, session_id, after.mark),
    ).rowcount:
        return False
    for entry in record.audit:
        records.add_audit(conn, session_id, entry, now, turn_id=row_id)
    if record.context_kinds:
        records.add_context_kinds(conn, session_id, record.context_kinds)
    return True


def _row_at(conn: sqlite3.Connection, v: View, turn: int) -> tuple[int, str, bool]:
    """``(id, patch, v3)`` of the row holding ``turn`` in ``v``; ``v3``: it stores a patch, not its state."""
    row_id = _row_id(v, turn)
    row = None if row_id is None else conn.execute("SELECT patch, state IS NULL FROM turns WHERE id=?", (row_id,)).fetchone()
    if row is None or row_id is None:
        raise _unknown(conn, v, turn)
    return row_id, row[0], bool(row[1])


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
    state = state_at(conn, readers, live, to_turn)[0]
    if current is None or to_turn == current.turn:
        return state, current
    owner = next(span[0] for span in _spans(live, to_turn - 1, to_turn))
    (line,) = conn.execute("SELECT COALESCE(MAX(line), 0) + 1 FROM lines WHERE session_id=?", (session_id,)).fetchone()
    key = conn.execute(
        "INSERT INTO lines(session_id, line, parent, fork_turn) VALUES (?, ?, ?, ?)", (session_id, line, owner, to_turn)
    ).lastrowid
    assert key is not None
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
        for span in _spans(live, to_turn, current.turn):
            conn.execute("DELETE FROM turns WHERE id>? AND id<=?", _ids(span))
        records.drop_orphan_frames(conn, session_id)
        blobs.drop_unused_bases(conn, session_id)
    moved = Head(line, key, to_turn, current.version + 1, current.version + 1)
    conn.execute(
        "UPDATE heads SET line=?, key=?, turn=?, version=? WHERE session_id=?",
        (moved.line, moved.key, moved.turn, moved.version, session_id),
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
    for span in list(_spans(v, 0, v.last if up_to is None else up_to)):
        removed += conn.execute("DELETE FROM turns WHERE id>? AND id<=?", _ids(span)).rowcount
    return removed


def branches(conn: sqlite3.Connection, session_id: str) -> list[JSON]:
    """The abandoned branches: ``{branch, first_turn, last_turn}`` each."""
    require_session(conn, session_id)
    rows = conn.execute(
        "SELECT branch, first_turn, last_turn FROM branches WHERE session_id=? ORDER BY branch", (session_id,)
    ).fetchall()
    return [{"branch": b, "first_turn": lo, "last_turn": hi} for b, lo, hi in rows]
