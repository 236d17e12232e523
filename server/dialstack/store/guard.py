"""What the gate and the tool runtime keep in the store so that several processes agree.

- **Session owners**: a session belongs to the principal that created it
  (``sessions.user_id``); :meth:`Guard.own_session` creates it for the caller or says
  whose it is.
- **Taint**: the kinds of data (``private``, ``untrusted``) that reached a session's
  context (``context_kinds``) and a connection's (``connection_kinds``). A connection's
  taint is copied into every session it uses, so naming a fresh session sheds nothing.
- **Provenance**: per session, digests of values by where they came from (:data:`Origin`:
  untrusted tool output, whole or inside a text, private output, what the user typed, the
  records the user named; ``provenance``); never the values themselves.
- **Approval nonces**: one row per approval request; consuming it is one ``UPDATE``
  that succeeds once (``approval_nonces``).
- **Idempotency claims**: a key is claimed (a unique row, in the same transaction that
  checks for a receipt) before its handler runs; the receipt is saved and the claim
  dropped together (``idempotency_claims``). A second process sees the claim
  (still running) or the receipt (the recorded result), never an empty slot.

Functions here hold the store's lock and run in its transactions; they are SQLite's.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Literal, Protocol, get_args

from dialstack.clock import Clock
from dialstack.store.protocol import JSON, Receipt, StoreError
from dialstack.store.records import receipt as _receipt
from dialstack.store.records import save_receipt as _save_receipt

GUARD_SCHEMA = """
CREATE TABLE IF NOT EXISTS connection_kinds (
    connection TEXT NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (connection, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS provenance (
    session_id TEXT NOT NULL,
    digest TEXT NOT NULL,
    origin TEXT NOT NULL,
    PRIMARY KEY (session_id, digest, origin)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS approval_nonces (
    nonce TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    used_at REAL
);
CREATE TABLE IF NOT EXISTS idempotency_claims (
    key TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    args_digest TEXT NOT NULL,
    owner TEXT NOT NULL,
    claimed_at REAL NOT NULL
);
"""

# Where a recorded value came from (``dialstack.tools.provenance`` says what each means): a whole field
# of untrusted output, something inside an untrusted text, text the user typed, a value of a record
# the user named, private output.
Origin = Literal["untrusted", "untrusted_text", "user", "named", "private"]
ORIGINS: frozenset[str] = frozenset(get_args(Origin))


def create_tables(conn: sqlite3.Connection) -> None:
    for statement in GUARD_SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


@dataclass(frozen=True)
class Claim:
    """The answer to claiming an idempotency key.

    ``status``: ``claimed`` (run the handler, then :meth:`Guard.finish_claim`),
    ``recorded`` (``receipt`` holds the first call's result) or ``running`` (another call
    holds the key: ``tool``, ``args_digest`` and ``owner`` say which).
    """

    status: Literal["claimed", "recorded", "running"]
    receipt: Receipt | None = None
    tool: str = ""
    args_digest: str = ""
    owner: str = ""


class SQLiteBacked(Protocol):
    """What the guard uses of its store (``SQLiteStore``): its transactions, clock and sessions."""

    _clock: Clock

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def ensure_session(self, session_id: str, domain: str, user_id: str = "default") -> None: ...

    def session_info(self, session_id: str) -> JSON | None: ...


class Guard:
    """Session ownership, taint, provenance, approval nonces and idempotency claims of one store."""

    def __init__(self, store: SQLiteBacked) -> None:
        if not hasattr(store, "_tx"):
            raise StoreError(f"{type(store).__name__} keeps no guard tables; use a SQLiteStore (or InMemoryStore)")
        self.store = store

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self.store._tx() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self.store._read() as conn:
            yield conn

    def _now(self) -> float:
        return self.store._clock.time()

    # -- owners --------------------------------------------------------------
    def own_session(self, session_id: str, domain: str, principal: str) -> str | None:
        """Create ``session_id`` for ``principal`` if it is new; the other owner's name if it is not theirs."""
        self.store.ensure_session(session_id, domain, principal)  # refuses a session of another domain
        info = self.store.session_info(session_id)
        owner = str(info["user_id"]) if info else principal
        return None if owner == principal else owner

    # -- taint ---------------------------------------------------------------
    def taint(self, session_id: str, connection: str | None) -> frozenset[str]:
        """The session's kinds, after copying in the connection's (which stick to the session)."""
        with self._tx() if connection is not None else self._read() as conn:
            if connection is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO context_kinds(session_id, kind) "
                    "SELECT ?, kind FROM connection_kinds WHERE connection=?",
                    (session_id, connection),
                )
            rows = conn.execute("SELECT kind FROM context_kinds WHERE session_id=?", (session_id,)).fetchall()
        return frozenset(kind for (kind,) in rows)

    def connection_kinds(self, connection: str) -> frozenset[str]:
        with self._read() as conn:
            rows = conn.execute("SELECT kind FROM connection_kinds WHERE connection=?", (connection,)).fetchall()
        return frozenset(kind for (kind,) in rows)

    def add_taint(self, session_id: str, connection: str | None, kinds: Iterable[str]) -> None:
        kinds = sorted(set(kinds))
        if not kinds:
            return
        with self._tx() as conn:
            conn.executemany("INSERT OR IGNORE INTO context_kinds(session_id, kind) VALUES (?, ?)",
                             [(session_id, k) for k in kinds])
            if connection is not None:
                conn.executemany("INSERT OR IGNORE INTO connection_kinds(connection, kind) VALUES (?, ?)",
                                 [(connection, k) for k in kinds])

    # -- provenance ----------------------------------------------------------
    def record_values(self, session_id: str, origin: Origin, digests: Iterable[str]) -> None:
        if origin not in ORIGINS:  # a row no rule reads would make a value look unseen: refuse it
            raise StoreError(f"unknown provenance origin {origin!r}; expected one of {', '.join(sorted(ORIGINS))}")
        rows = [(session_id, d, origin) for d in set(digests)]
        if rows:
            with self._tx() as conn:
                conn.executemany("INSERT OR IGNORE INTO provenance(session_id, digest, origin) VALUES (?, ?, ?)", rows)

    def origins(self, session_id: str, digests: Iterable[str]) -> dict[str, frozenset[str]]:
        """For each of ``digests`` recorded in the session, the origins it was recorded with."""
        wanted = sorted(set(digests))
        found: dict[str, set[str]] = {}
        with self._read() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for digest, origin in conn.execute(
                    f"SELECT digest, origin FROM provenance WHERE session_id=? AND digest IN ({marks})", (session_id, *chunk)
                ):
                    found.setdefault(digest, set()).add(origin)
        return {d: frozenset(o) for d, o in found.items()}

    # -- approval nonces -----------------------------------------------------
    def issue_nonce(self, session_id: str) -> str:
        nonce = secrets.token_urlsafe(18)
        with self._tx() as conn:
            conn.execute("INSERT INTO approval_nonces(nonce, session_id, created_at) VALUES (?, ?, ?)",
                         (nonce, session_id, self._now()))
        return nonce

    def consume_nonce(self, nonce: str, session_id: str) -> bool:
        """True once for a nonce issued for ``session_id``; False if unknown, another session's or used."""
        with self._tx() as conn:
            done = conn.execute(
                "UPDATE approval_nonces SET used_at=? WHERE nonce=? AND session_id=? AND used_at IS NULL",
                (self._now(), nonce, session_id),
            ).rowcount
        return done == 1

    # -- idempotency claims --------------------------------------------------
    def claim(self, key: str, tool: str, args_digest: str, owner: str, *, stale_after: float) -> Claim:
        """Claim ``key`` for one run, unless it has a receipt or a live claim (one transaction).

        A claim older than ``stale_after`` seconds (its process died mid-call) is taken over.
        """
        now = self._now()
        with self._tx() as conn:
            recorded = _receipt(conn, key)
            if recorded is not None:
                return Claim("recorded", receipt=recorded)
            row = conn.execute(
                "SELECT tool, args_digest, owner, claimed_at FROM idempotency_claims WHERE key=?", (key,)
            ).fetchone()
            if row is not None and now - row[3] < stale_after:
                return Claim("running", tool=row[0], args_digest=row[1], owner=row[2])
            conn.execute(
                "INSERT OR REPLACE INTO idempotency_claims(key, tool, args_digest, owner, claimed_at) VALUES (?, ?, ?, ?, ?)",
                (key, tool, args_digest, owner, now),
            )
        return Claim("claimed")

    def running_claim(self, key: str, *, stale_after: float) -> Claim | None:
        """The live claim on ``key``, if any (a read; claims nothing)."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT tool, args_digest, owner, claimed_at FROM idempotency_claims WHERE key=?", (key,)
            ).fetchone()
        if row is None or self._now() - row[3] >= stale_after:
            return None
        return Claim("running", tool=row[0], args_digest=row[1], owner=row[2])

    def finish_claim(self, key: str, result: Receipt | None) -> None:
        """Save the key's receipt (on success) and release its claim, in one transaction."""
        if result is not None:
            json.dumps(result.result)  # not JSON-compatible: fail before the transaction
        with self._tx() as conn:
            if result is not None:
                _save_receipt(conn, result)
            conn.execute("DELETE FROM idempotency_claims WHERE key=?", (key,))
