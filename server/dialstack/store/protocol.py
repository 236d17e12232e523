"""The store protocol: everything dialstack persists, behind one interface.

SQLite (``dialstack.store.sqlite.SQLiteStore``) is the embedded default. Every method is
synchronous and safe to call from several threads; a turn commits in one transaction.
States are the JSON-compatible dicts produced by ``DialogueState.serialize()``: the store
never interprets them beyond diffing (JSON Patch) and replaying.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

JSON = dict[str, Any]


class StoreError(Exception):
    """A store operation that cannot be done; the message says why and what to do."""


class SchemaVersionError(StoreError):
    """The database was written by another schema version and cannot be used as is."""


class UnknownSessionError(StoreError):
    pass


class HeadMovedError(StoreError):
    """A turn was computed from a head that another writer has since moved; nothing was written."""


@dataclass(frozen=True)
class TurnRecord:
    """What one turn commits, atomically."""

    user_text: str
    reply: str
    state: JSON  # the full state after the turn
    frame: JSON | None = None
    audit: list[JSON] = field(default_factory=list)  # tool calls and gate decisions of this turn
    snapshot: bool = False  # take a full snapshot (RES popped more than one completed flow)
    meta: JSON = field(default_factory=dict)  # understanding, flags, timings: for history views
    context_kinds: frozenset[str] = frozenset()  # gate kinds the session's context gained (added, never removed)


@dataclass(frozen=True)
class TurnContext:
    """What a turn reads before it runs, in one read transaction (``Store.turn_context``)."""

    domain: str | None  # the session's domain; None when the session does not exist yet
    version: int  # the head's version (0 before the first turn): pass it to commit_turn
    turn: int  # the head's turn number (0 before the first turn)
    state: JSON | None  # the head state; None when it is the version the caller knows, or no turn yet
    preferences: JSON
    recent: list[tuple[str, str]]  # (user_text, reply) of the last few turns, oldest first
    context_kinds: frozenset[str]


@dataclass(frozen=True)
class TurnRow:
    session_id: str
    turn: int  # 1-based, per session
    user_text: str
    reply: str
    created_at: float
    diff: list[JSON]  # JSON Patch from the previous turn's state
    frame: JSON | None
    meta: JSON
    branch: int


@dataclass(frozen=True)
class ScratchpadEntry:
    session_id: str
    entry_id: int
    key: str
    text: str
    source: str  # flow name or tool that wrote it
    created_at: float


@dataclass(frozen=True)
class Receipt:
    """The recorded result of a non-idempotent call, keyed by its idempotency key."""

    key: str
    tool: str
    result: JSON
    is_error: bool
    created_at: float


@runtime_checkable
class Store(Protocol):
    # -- sessions ----------------------------------------------------------
    def ensure_session(self, session_id: str, domain: str, user_id: str = "default") -> None: ...
    def session_info(self, session_id: str) -> JSON | None: ...  # {session_id, domain, user_id, created_at, turns}
    def list_sessions(self) -> list[JSON]: ...

    # -- turns, diffs, snapshots -------------------------------------------
    def load_state(self, session_id: str) -> JSON | None: ...  # state after the latest turn, None if none
    def commit_turn(self, session_id: str, record: TurnRecord, *, expected_version: int | None = None) -> int: ...
    # returns the new turn number; with expected_version, HeadMovedError unless the head is still that version
    def turn_context(self, session_id: str, user_id: str, *, known_version: int | None = None, recent: int = 3) -> TurnContext: ...
    def turns(self, session_id: str, last: int | None = None) -> list[TurnRow]: ...  # oldest first
    def state_at(self, session_id: str, turn: int) -> JSON: ...  # rebuilt from nearest snapshot + diffs
    def rollback(self, session_id: str, to_turn: int, mode: Literal["branch", "discard"] = "branch") -> JSON: ...
    def prune(self, session_id: str, max_history_messages: int) -> int: ...  # returns rows removed

    # -- scratchpad and preferences ----------------------------------------
    def scratchpad(self, session_id: str, last: int | None = None) -> list[ScratchpadEntry]: ...
    def write_scratchpad(self, session_id: str, key: str, text: str, source: str) -> ScratchpadEntry: ...
    def preferences(self, user_id: str) -> JSON: ...
    def set_preferences(self, user_id: str, values: JSON) -> JSON: ...  # merges, returns all

    # -- frames --------------------------------------------------------------
    def save_frame(self, session_id: str, frame: JSON) -> str: ...  # returns table_id
    def frame_page(self, table_id: str, offset: int, limit: int) -> JSON: ...

    # -- tools: audit, receipts, gate context -------------------------------
    def audit(self, session_id: str, entry: JSON) -> None: ...
    def audit_log(self, session_id: str) -> list[JSON]: ...
    def receipt(self, key: str) -> Receipt | None: ...
    def save_receipt(self, receipt: Receipt) -> None: ...
    def context_kinds(self, session_id: str) -> frozenset[str]: ...  # {"private", "untrusted"}
    def add_context_kinds(self, session_id: str, kinds: frozenset[str]) -> None: ...

    def close(self) -> None: ...
