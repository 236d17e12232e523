"""``SQLiteStore``: the embedded default ``Store`` (standard ``sqlite3``, WAL).

One connection per store, guarded by a lock: the MCP server's worker threads and the
orchestrator's thread share it safely, and every call is short (a turn commits in well
under a millisecond). Other processes (the CLI, a second server) coordinate through
SQLite's own locking; writers wait up to ``busy_timeout`` seconds.

A turn is one ``BEGIN IMMEDIATE`` transaction: the turn with its state, a new base when
one is due, frame and audit rows commit together or not at all (the turn row moves the
head: see ``store.history``). With ``expected_version`` it commits only onto the head the
turn started from (``HeadMovedError`` otherwise). The store remembers the head of each
session it last wrote with its compressor (``store.blobs``): the next commit writes its
turn row only if that is still the head (no rollback since, no turn after it: one
``INSERT ... SELECT`` checks and writes) and falls back to reading the head when another
writer moved it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import orjson

from dialstack.clock import SYSTEM_CLOCK, Clock
from dialstack.state.diff import encode
from dialstack.store import blobs, history, records, schema
from dialstack.store.blobs import Writer
from dialstack.store.history import Head
from dialstack.store.rows import HEAD_COLUMNS, HEAD_TURN, turn_id
from dialstack.store.protocol import (
    JSON,
    HeadMovedError,
    Receipt,
    ScratchpadEntry,
    StoreError,
    TurnContext,
    TurnRecord,
    TurnRow,
)

_CACHED_WRITERS = 16  # a writer holds a zstd compressor (~0.2 MB); one let go resumes from the head's base


class SQLiteStore:
    """Everything dialstack persists, in one SQLite file (or ``":memory:"``)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        snapshot_every: int = 50,
        clock: Clock = SYSTEM_CLOCK,
        busy_timeout: float = 10.0,
    ) -> None:
        if snapshot_every < 1:
            raise StoreError(f"snapshot_every must be at least 1, not {snapshot_every}")
        self.path = str(path)
        self.snapshot_every = snapshot_every  # a new base at least every this many turns
        self._clock = clock
        self._lock = threading.RLock()
        # session -> (the head this store last wrote, its writer): the next commit's head and compressor
        self._writers: OrderedDict[str, tuple[Head, Writer]] = OrderedDict()
        self._lines = history.Lines()
        self._readers = blobs.Readers()
        self._conn = _connect(self.path, busy_timeout)
        try:
            schema.prepare(self._conn, self.path, snapshot_every)
            self._conn.execute("PRAGMA foreign_keys=ON")  # after: migrations rebuild tables without firing their actions
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise _bad_database(self.path, exc) from exc
        except StoreError:
            self._conn.close()
            raise

    # -- plumbing ------------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; rolled back on any error."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: several statements see one consistent database."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self._writers.clear()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- sessions ------------------------------------------------------------------

    def ensure_session(self, session_id: str, domain: str, user_id: str = "default") -> None:
        with self._tx() as conn:
            row = conn.execute("SELECT domain FROM sessions WHERE session_id=?", (session_id,)).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO sessions(session_id, domain, user_id, created_at) VALUES (?, ?, ?, ?)",
                    (session_id, domain, user_id, self._clock.time()),
                )
            elif row[0] != domain:
                raise StoreError(
                    f"session {session_id!r} belongs to domain {row[0]!r}, not {domain!r}; "
                    f"use another session id for the {domain!r} domain"
                )

    def session_info(self, session_id: str) -> JSON | None:
        with self._read() as conn:
            rows = _session_rows(conn, session_id)
        return rows[0] if rows else None

    def list_sessions(self) -> list[JSON]:
        with self._read() as conn:
            return _session_rows(conn, None)

    # -- turns, diffs, snapshots -----------------------------------------------------

    def load_state(self, session_id: str) -> JSON | None:
        with self._read() as conn:
            current = history.head(conn, session_id) if _has_session(conn, session_id) else None
            return None if current is None else self._head_state(conn, session_id, current)

    def turn_context(self, session_id: str, user_id: str, *, known_version: int | None = None, recent: int = 3) -> TurnContext:
        """What a turn reads before it runs, in one read transaction.

        ``state`` is left out (``None``) when the head is still ``known_version``: the
        caller kept the state of its own last commit.
        """
        with self._read() as conn:
            row = conn.execute(
                f"SELECT s.domain, {HEAD_COLUMNS} FROM sessions s LEFT JOIN heads h ON h.session_id = s.session_id "
                "WHERE s.session_id=?",
                (session_id,),
            ).fetchone()
            domain = row[0] if row else None
            current = history.head_of(*row[1:]) if row and row[1] is not None else None
            state = None
            texts: list[tuple[str, str]] = []
            if current is not None:
                live = history.live_view(conn, self._lines, session_id, current)
                if current.version != known_version:
                    state = history.state_at(conn, self._readers, live, current.turn)[0]
                texts = history.recent_texts(conn, live, recent)
            return TurnContext(
                domain=domain,
                version=current.version if current else 0,
                turn=current.turn if current else 0,
                state=state,
                preferences=records.preferences(conn, user_id),
                recent=texts,
                context_kinds=records.context_kinds(conn, session_id),
            )

    def head_version(self, session_id: str) -> int:
        """The session's head version (0 before its first turn): it changes with every commit and rollback."""
        with self._read() as conn:
            current = history.head(conn, session_id)
        return current.version if current else 0

    def commit_turn(self, session_id: str, record: TurnRecord, *, expected_version: int | None = None) -> int:
        """Three statements when this store wrote the session's last turn: ``BEGIN``, one
        ``INSERT`` that checks the head and writes the turn row (no index, no head row), and
        ``COMMIT``; one more (a read of the head) every ``snapshot_every`` turns, for a new base."""
        state_text = _stored_text(record.state)
        with self._lock:  # as ``_tx``, written out: this is the per-turn path
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                moved, writer = self._commit(conn, session_id, record, state_text, expected_version)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self._writers[session_id] = (moved, writer)
            while len(self._writers) > _CACHED_WRITERS:
                self._writers.popitem(last=False)
        return moved.turn

    def _commit(
        self, conn: sqlite3.Connection, session_id: str, record: TurnRecord, state_text: bytes, expected_version: int | None
    ) -> tuple[Head, Writer]:
        """Inside the turn's transaction: write the turn after the head; the new head and the writer."""
        current, writer = self._writers.pop(session_id, (None, None))
        now = self._clock.time()
        if current is not None and writer is not None and expected_version in (None, current.version):
            moved = history.next_head(current)  # after the head this store remembers, if it still is the head
            if not self._base_due(writer, record):
                if history.insert_turn(conn, session_id, moved, record, writer.compress(state_text), writer.base, now=now, after=current):
                    return moved, writer
            elif history.still_head(conn, session_id, current):
                writer = blobs.add_base(conn, session_id, state_text)
                history.insert_turn(conn, session_id, moved, record, writer.compress(state_text), writer.base, now=now)
                return moved, writer
        # a new session, another process's turn or rollback, or another version expected: read the head
        current = history.head(conn, session_id)
        version = current.version if current else 0
        if expected_version is not None and version != expected_version:
            raise HeadMovedError(
                f"session {session_id!r} moved on while this turn ran (its head is now turn "
                f"{current.turn if current else 0}, version {version}; the turn started from version "
                f"{expected_version}); nothing was saved: load the session again and redo the turn"
            )
        if current is None:
            current, writer = history.start(conn, session_id), None
        else:
            writer = None if record.snapshot else blobs.resume_base(conn, turn_id(current.key, current.turn))
        moved = history.next_head(current)
        if writer is None or self._base_due(writer, record):
            writer = blobs.add_base(conn, session_id, state_text)
        history.insert_turn(conn, session_id, moved, record, writer.compress(state_text), writer.base, now=now)
        return moved, writer

    def _base_due(self, writer: Writer, record: TurnRecord) -> bool:
        """Whether the next turn starts a new base (see ``store.blobs``)."""
        return record.snapshot or writer.drifted or writer.uses >= self.snapshot_every

    def turns(self, session_id: str, last: int | None = None, *, branch: int = history.LIVE) -> list[TurnRow]:
        """Turns oldest first; ``branch`` > 0 reads an abandoned branch (see ``branches``)."""
        with self._read() as conn:
            return history.turn_rows(conn, self._readers, history.view(conn, self._lines, session_id, branch), last)

    def states(self, session_id: str, last: int | None = None, *, branch: int = history.LIVE) -> list[tuple[TurnRow, JSON]]:
        """Each turn with the state after it."""
        with self._read() as conn:
            return history.states(conn, self._readers, history.view(conn, self._lines, session_id, branch), last)

    def branches(self, session_id: str) -> list[JSON]:
        with self._read() as conn:
            return history.branches(conn, session_id)

    def state_at(self, session_id: str, turn: int, *, branch: int = history.LIVE) -> JSON:
        with self._read() as conn:
            return history.state_at(conn, self._readers, history.view(conn, self._lines, session_id, branch), turn)[0]

    def rollback(self, session_id: str, to_turn: int, mode: Literal["branch", "discard"] = "branch") -> JSON:
        with self._tx() as conn:
            self._writers.pop(session_id, None)
            state, _ = history.rollback(conn, self._lines, self._readers, session_id, to_turn, mode)
        return state

    def prune(self, session_id: str, max_history_messages: int) -> int:
        with self._tx() as conn:
            return history.prune(conn, self._lines, self._readers, session_id, max_history_messages)

    def _head_state(self, conn: sqlite3.Connection, session_id: str, current: Head) -> Any:
        live = history.live_view(conn, self._lines, session_id, current)
        return history.state_at(conn, self._readers, live, current.turn)[0]

    # -- scratchpad and preferences -----------------------------------------------------

    def scratchpad(self, session_id: str, last: int | None = None) -> list[ScratchpadEntry]:
        with self._read() as conn:
            return records.scratchpad(conn, session_id, last)

    def write_scratchpad(self, session_id: str, key: str, text: str, source: str) -> ScratchpadEntry:
        with self._tx() as conn:
            return records.write_scratchpad(conn, session_id, key, text, source, self._clock.time())

    def preferences(self, user_id: str) -> JSON:
        with self._read() as conn:
            return records.preferences(conn, user_id)

    def set_preferences(self, user_id: str, values: JSON) -> JSON:
        _state_text(values)
        with self._tx() as conn:
            return records.set_preferences(conn, user_id, values)

    # -- frames ------------------------------------------------------------------------

    def save_frame(self, session_id: str, frame: JSON) -> str:
        _state_text(frame)
        with self._tx() as conn:
            return records.store_frame(conn, session_id, frame, self._clock.time(), pinned=True)

    def frame_page(self, table_id: str, offset: int, limit: int) -> JSON:
        with self._read() as conn:
            return records.frame_page(conn, table_id, offset, limit)

    # -- tools: audit, receipts, gate context ------------------------------------------

    def audit(self, session_id: str, entry: JSON) -> None:
        self.audit_many([(session_id, entry)])

    def audit_many(self, entries: Sequence[tuple[str, JSON]]) -> None:
        """Several ``(session_id, entry)`` audit entries in one transaction, in order.

        Not part of the ``Store`` protocol: the tool runtime's batched audit writer uses it
        when a store has it (one commit per batch instead of one per call).
        """
        rows = [(session_id, _compact_text(entry)) for session_id, entry in entries]
        with self._tx() as conn:
            records.add_audits(conn, rows, self._clock.time())

    def audit_log(self, session_id: str) -> list[JSON]:
        with self._read() as conn:
            return records.audit_log(conn, session_id)

    def receipt(self, key: str) -> Receipt | None:
        with self._read() as conn:
            return records.receipt(conn, key)

    def save_receipt(self, receipt: Receipt) -> None:
        _state_text(receipt.result)
        with self._tx() as conn:
            records.save_receipt(conn, receipt)

    def context_kinds(self, session_id: str) -> frozenset[str]:
        with self._read() as conn:
            return records.context_kinds(conn, session_id)

    def add_context_kinds(self, session_id: str, kinds: frozenset[str]) -> None:
        with self._tx() as conn:
            records.add_context_kinds(conn, session_id, kinds)


def _connect(path: str, busy_timeout: float) -> sqlite3.Connection:
    if path != ":memory:" and not path.startswith("file:"):
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {path}: {exc.strerror}; pass another --db PATH") from exc
    try:
        conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {path}: {exc}; check the path and its permissions") from exc
    try:
        # 4 KiB pages (a new file only): a commit writes fewer bytes to the WAL than with 8 KiB
        # (~8 % faster commits, ~1 % larger files with states stored against bases)
        conn.execute("PRAGMA page_size=4096")
        _use_wal(conn, busy_timeout)
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _bad_database(path, exc) from exc
    return conn


def _use_wal(conn: sqlite3.Connection, busy_timeout: float) -> None:
    """Switch a file to WAL. Another process opening the same new file at the same moment holds
    the lock the switch needs, and SQLite reports 'database is locked' at once instead of waiting
    (the busy handler is not used for a change of journal mode): wait for it, up to the timeout."""
    deadline = time.monotonic() + busy_timeout
    pause = 0.005
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def _bad_database(path: str, exc: sqlite3.DatabaseError) -> StoreError:
    return StoreError(
        f"{path} is not a usable dialstack database ({exc}); point --db (or DIALSTACK_DB) "
        f"at a dialstack SQLite file, or at a new path to start a fresh one"
    )


def _state_text(value: Any) -> bytes:
    try:
        return encode(value)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot store a value that is not JSON-compatible: {exc}") from exc


# orjson as ``encode`` uses it, keys in the state's own order: a stored state need not be
# canonical (nothing compares stored texts) and sorting is a third of the encoding's cost
_AS_GIVEN = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def _stored_text(state: Any) -> bytes:
    """A turn's state as its row stores it (compressed against its base): compact JSON."""
    try:
        return orjson.dumps(state, option=_AS_GIVEN)
    except orjson.JSONEncodeError:
        return _state_text(state)  # what orjson refuses but JSON allows, or a clear StoreError


def _compact_text(value: Any) -> str:
    try:
        return encode(value).decode()
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot store a value that is not JSON-compatible: {exc}") from exc


def _has_session(conn: sqlite3.Connection, session_id: str) -> bool:
    return conn.execute("SELECT 1 FROM sessions WHERE session_id=?", (session_id,)).fetchone() is not None


def _session_rows(conn: sqlite3.Connection, session_id: str | None) -> list[JSON]:
    sql = (
        f"SELECT s.session_id, s.domain, s.user_id, s.created_at, COALESCE({HEAD_TURN}, 0) "
        "FROM sessions s LEFT JOIN heads h ON h.session_id = s.session_id"
    )
    params: tuple[str, ...] = ()
    if session_id is not None:
        sql, params = sql + " WHERE s.session_id=?", (session_id,)
    rows = conn.execute(sql + " ORDER BY s.created_at, s.session_id", params).fetchall()
    keys = ("session_id", "domain", "user_id", "created_at", "turns")
    return [dict(zip(keys, row)) for row in rows]
