"""Where the travel database lives, building it before the first turn (the pack's prepare hook), and copies for tests."""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

from ...tools.prepare import build_file
from .data import DEFAULT_SEED, SCHEMA_VERSION, generate, refresh_faq

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


def prepare(data_dir: Path, today: date) -> None:
    """The pack's ``prepare`` hook: build ``data_dir/travel.db`` starting on ``today`` unless a valid one is there."""
    ensure_database(Path(data_dir) / DB_FILENAME, today)


def ensure_database(path: Path | str, start_date: date, seed: int = DEFAULT_SEED) -> Path:
    """Create the database at ``path`` unless a valid one is there; return the path.

    Generation writes a temporary file next to ``path`` and renames it into place, so a
    concurrent reader never sees a half-built database, and an existing database (with its
    bookings) is never replaced. Concurrent builders are kept apart by the caller (the
    prepare runner's lock).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    build_file(target, lambda tmp: _build(tmp, target, start_date, seed), _is_valid)
    conn = sqlite3.connect(target, timeout=30)
    try:
        refresh_faq(conn)  # (a database built by an earlier version keeps its bookings, gets today's answers)
    except sqlite3.OperationalError:
        pass  # (a database the user made read-only keeps its answers: it still serves them)
    finally:
        conn.close()
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


SIDECARS = ("-wal", "-shm", "-journal")  # SQLite's files next to a database


def _build(tmp: Path, target: Path, start: date, seed: int) -> None:
    """Generate into ``tmp``; then, as ``target`` is missing or empty, drop what a deleted database left beside it.

    A WAL or journal file named after ``target`` belongs to an earlier file (deleted while a
    server had it open): SQLite would replay its pages into the new database.
    """
    _generate_file(tmp, start, seed)
    for suffix in SIDECARS:
        target.with_name(target.name + suffix).unlink(missing_ok=True)


def _generate_file(path: Path, start: date, seed: int) -> None:
    conn = sqlite3.connect(path)
    try:
        generate(conn, start, seed)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # written last: marks a finished build
        conn.commit()
    finally:
        conn.close()


def _is_valid(path: Path) -> bool:
    """True for a finished travel database of this schema; False for an empty file; else raise."""
    if path.stat().st_size == 0:
        return False
    _check_version(path)
    return True


def _check_version(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            marker = conn.execute("PRAGMA user_version").fetchone()[0]
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise TravelDatabaseError(f"{path} is not a travel database ({exc}); delete it to regenerate") from exc
    if row is None or int(row[0]) != SCHEMA_VERSION or marker not in (0, SCHEMA_VERSION):  # 0: built before the marker
        found = row[0] if row else "none"
        raise TravelDatabaseError(
            f"{path} has travel schema version {found}, this dialstack needs {SCHEMA_VERSION}; delete it to regenerate")
