"""Where the travel database lives, creating it on first use, and cheap fresh copies for tests."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from .data import DEFAULT_SEED, SCHEMA_VERSION, generate

DB_FILENAME = "travel.db"
DB_ENV = "DIALSTACK_TRAVEL_DB"


class TravelDatabaseError(RuntimeError):
    """The travel database exists but cannot be used (wrong schema version, corrupt)."""


def resolve_db_path(ctx: Any = None) -> Path:
    """The travel database of a call: ``ctx.data_dir``, else ``$DIALSTACK_TRAVEL_DB``, else the user data dir."""
    data_dir = getattr(ctx, "data_dir", None)
    if data_dir is not None:
        return Path(data_dir) / DB_FILENAME
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV])
    from platformdirs import user_data_dir

    return Path(user_data_dir("dialstack", appauthor=False)) / DB_FILENAME


def ensure_database(path: Path | str, start_date: date, seed: int = DEFAULT_SEED) -> Path:
    """Create the database at ``path`` unless it exists; return the path.

    Generation writes a temporary file next to ``path`` and renames it into place, so a
    concurrent reader never sees a half-built database.
    """
    target = Path(path)
    if target.exists():
        _check_version(target)
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".travel-", suffix=".db", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        conn = sqlite3.connect(tmp)
        try:
            generate(conn, start_date, seed)
        finally:
            conn.close()
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def template_database(cache_dir: Path | str, start_date: date, seed: int = DEFAULT_SEED) -> Path:
    """A generated database for ``(start_date, seed)`` in ``cache_dir``, built at most once."""
    return ensure_database(Path(cache_dir) / f"travel-{seed}-{start_date.isoformat()}.db", start_date, seed)


def fresh_copy(template: Path | str, data_dir: Path | str) -> Path:
    """Copy a template database into ``data_dir`` as its travel database (one per conversation)."""
    target = Path(data_dir) / DB_FILENAME
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    return target


def connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=5.0)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def open_database(ctx: Any = None, start_date: date | None = None) -> sqlite3.Connection:
    """Connect to the call's travel database, generating it first if it does not exist yet.

    A new database starts on ``start_date`` or, by default, on the day of the call's clock.
    """
    path = resolve_db_path(ctx)
    if not path.exists():
        now = getattr(ctx, "now", None)
        ensure_database(path, start_date or (now().date() if now else date.today()))
    return connect(path)


def _check_version(path: Path) -> None:
    try:
        with sqlite3.connect(path) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise TravelDatabaseError(f"{path} is not a travel database ({exc}); delete it to regenerate") from exc
    if row is None or int(row[0]) != SCHEMA_VERSION:
        found = row[0] if row else "none"
        raise TravelDatabaseError(
            f"{path} has travel schema version {found}, this dialstack needs {SCHEMA_VERSION}; delete it to regenerate")
