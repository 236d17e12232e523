"""Persistence behind one protocol (``Store``); SQLite is the embedded default."""

from __future__ import annotations

import os
from pathlib import Path

from dialstack.clock import SYSTEM_CLOCK, Clock
from dialstack.store.history import UnknownTurnError
from dialstack.store.memory import InMemoryStore
from dialstack.store.protocol import (
    JSON,
    HeadMovedError,
    Receipt,
    SchemaVersionError,
    ScratchpadEntry,
    Store,
    StoreError,
    TurnContext,
    TurnRecord,
    TurnRow,
    UnknownSessionError,
)
from dialstack.store.records import UnknownFrameError
from dialstack.store.sqlite import SQLiteStore

DB_ENV = "DIALSTACK_DB"

__all__ = [
    "DB_ENV",
    "HeadMovedError",
    "JSON",
    "InMemoryStore",
    "Receipt",
    "SQLiteStore",
    "SchemaVersionError",
    "ScratchpadEntry",
    "Store",
    "StoreError",
    "TurnContext",
    "TurnRecord",
    "TurnRow",
    "UnknownFrameError",
    "UnknownSessionError",
    "UnknownTurnError",
    "default_db_path",
    "open_store",
]


def default_db_path() -> Path:
    """``$DIALSTACK_DB`` if set, else ``dialstack.db`` in the user's data directory."""
    override = os.environ.get(DB_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir  # only here: a server given --db never needs it

    return Path(user_data_dir("dialstack")) / "dialstack.db"


def open_store(
    path: str | os.PathLike[str] | None = None, *, create: bool = True, snapshot_every: int = 50,
    clock: Clock = SYSTEM_CLOCK,
) -> SQLiteStore:
    """Open (creating unless ``create`` is false) the SQLite store at ``path`` or the default;
    the times it writes come from ``clock``."""
    target = Path(path).expanduser() if path is not None else default_db_path()
    if not create and not target.exists():
        raise StoreError(
            f"no database at {target}; run a conversation first, or pass --db PATH "
            f"(or set {DB_ENV}) to point at an existing one"
        )
    return SQLiteStore(target, snapshot_every=snapshot_every, clock=clock)
