"""The SQLite schema, its version check and its migrations.

The ``meta`` table holds ``schema_version``. Opening a database:

- empty file → the current schema is created;
- an older version this dialstack knows → migrated in one transaction, then used;
- a newer or unknown version, or tables without a version → ``SchemaVersionError``,
  and nothing is read or written.

Version history:

- 0: the pre-release layout: ``turns`` held the full state of every turn (no diffs,
  no snapshots, no head). Migrated by turning full states into diffs + snapshots.
- 1: diffs, snapshots, head state, branches, frames, audit, receipts, context kinds.
- 2: the gate's and runtime's tables (``store.guard``): connection taint, provenance
  digests, approval nonces, idempotency claims. Migrated by creating them.
- 3: rollback by pointer. Each turn row belongs to a ``line`` (the v2 ``branch`` column,
  renamed); ``lines`` records where a line forked from its parent, ``branches`` names the
  abandoned ones (a line and a turn range); the patch sits on the turn row (no ``diffs``
  table); the head is a pointer (line, turn, version, patch operations since the last
  snapshot), not a copy of the state; new snapshots are zstd-compressed JSON. Migrated in
  place: v2 branch B becomes line B, forked from line 0 just before its first turn.
- 4: each new turn row holds its full state, zstd-compressed against a base state of its
  session (``bases``; ``turns.state``, ``turns.base``; see ``store.blobs``) instead of a
  patch: a commit does not diff, a read does not replay. Migrated by adding the table and
  columns; v3 rows keep their patches and snapshots and are read as before.
- 5: a turn row is keyed by its place: ``turns.id`` is ``line key << 32 | turn``, where a
  line's key (``lines.key``) is unique in the whole file; every line has a ``lines`` row,
  line 0 too. The table's own b-tree finds a turn, so a commit writes no index (v4 kept a
  ``UNIQUE (session_id, line, turn)`` index beside the table). The head row (``heads``:
  line, its key, turn, version) is written when a session starts and at a rollback, not
  at every commit: the head turn is the last row of the head's line, and each turn since
  the head row was written adds one to its version. Migrated by rebuilding ``turns``,
  ``lines`` and ``heads`` (snapshot and audit links follow the new ids).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from dialstack.state.diff import encode, make_patch
from dialstack.store import guard
from dialstack.store.protocol import SchemaVersionError

SCHEMA_VERSION = 5

NO_SNAPSHOT_NEARBY = 1 << 30  # v3 heads: a replay count that made the next commit write a snapshot

LINES_V3 = """
CREATE TABLE lines (
    session_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    parent INTEGER NOT NULL,
    fork_turn INTEGER NOT NULL,
    PRIMARY KEY (session_id, line)
) WITHOUT ROWID;
CREATE TABLE branches (
    session_id TEXT NOT NULL,
    branch INTEGER NOT NULL,
    line INTEGER NOT NULL,
    first_turn INTEGER NOT NULL,
    last_turn INTEGER NOT NULL,
    PRIMARY KEY (session_id, branch)
) WITHOUT ROWID
"""

BASES_V4 = """
CREATE TABLE bases (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    state BLOB NOT NULL
);
ALTER TABLE turns ADD COLUMN state BLOB;
ALTER TABLE turns ADD COLUMN base INTEGER
"""

LAYOUT_V5 = """
CREATE TABLE lines (
    key INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    parent INTEGER NOT NULL,
    fork_turn INTEGER NOT NULL,
    UNIQUE (session_id, line)
);
CREATE TABLE heads (
    session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    key INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    version INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE turns_v5 (
    id INTEGER PRIMARY KEY,
    user_text TEXT NOT NULL,
    reply TEXT NOT NULL,
    created_at REAL NOT NULL,
    meta TEXT NOT NULL,
    frame_id TEXT REFERENCES frames(table_id),
    patch TEXT,
    state BLOB,
    base INTEGER
)
"""

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    domain TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    next_branch INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE heads (
    session_id TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE frames (
    table_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    attrs TEXT NOT NULL,
    total INTEGER NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE frame_rows (
    table_id TEXT NOT NULL REFERENCES frames(table_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE TABLE turns (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    branch INTEGER NOT NULL DEFAULT 0,
    user_text TEXT NOT NULL,
    reply TEXT NOT NULL,
    created_at REAL NOT NULL,
    meta TEXT NOT NULL,
    frame_id TEXT REFERENCES frames(table_id),
    UNIQUE (session_id, branch, turn)
);
CREATE TABLE diffs (
    turn_id INTEGER PRIMARY KEY REFERENCES turns(id) ON DELETE CASCADE,
    patch TEXT NOT NULL
);
CREATE TABLE snapshots (
    turn_id INTEGER PRIMARY KEY REFERENCES turns(id) ON DELETE CASCADE,
    state TEXT NOT NULL
);
CREATE TABLE scratchpad (
    entry_id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX scratchpad_session ON scratchpad(session_id, entry_id);
CREATE TABLE preferences (user_id TEXT PRIMARY KEY, prefs TEXT NOT NULL);
CREATE TABLE tool_audit (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id INTEGER REFERENCES turns(id) ON DELETE SET NULL,
    entry TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX tool_audit_session ON tool_audit(session_id, id);
CREATE INDEX tool_audit_turn ON tool_audit(turn_id);
CREATE TABLE receipts (
    key TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    result TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE context_kinds (
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (session_id, kind)
) WITHOUT ROWID;
"""

_FIX = (
    "Use the dialstack release that wrote it, or point --db (or DIALSTACK_DB) at another file."
)


def prepare(conn: sqlite3.Connection, path: str, snapshot_every: int) -> None:
    """Create, migrate or refuse the database behind ``conn`` (inside one transaction)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _read_version(conn, path)
        if version is None:
            _create(conn)
        while version is not None and version < SCHEMA_VERSION:
            MIGRATIONS[version](conn, snapshot_every)
            version = _read_version(conn, path)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _read_version(conn: sqlite3.Connection, path: str) -> int | None:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "meta" not in tables:
        raise SchemaVersionError(
            f"{path} is a SQLite database but not a dialstack one (no meta table; it has "
            f"{', '.join(sorted(tables))}). {_FIX}"
        )
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    raw = row[0] if row else None
    if raw is None or not str(raw).isdigit():
        raise SchemaVersionError(
            f"{path} has no readable dialstack schema version (found {raw!r}); this dialstack "
            f"reads schema versions 0 to {SCHEMA_VERSION}. {_FIX}"
        )
    version = int(raw)
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{path} was written with dialstack schema version {version}, newer than the "
            f"{SCHEMA_VERSION} this dialstack supports. Upgrade dialstack "
            f"(pip install -U dialstack), or point --db (or DIALSTACK_DB) at another file."
        )
    return version


def _create(conn: sqlite3.Connection) -> None:
    """A new database: the v4 layout, then its migration on empty tables (one layout for all)."""
    _create_v4(conn)
    _migrate_v4(conn, 0)


def _create_v4(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA_V1.split(";"):
        if statement.strip():
            conn.execute(statement)
    guard.create_tables(conn)
    _lines_layout(conn)
    _bases_layout(conn)
    _set_version(conn, 4)


def _set_version(conn: sqlite3.Connection, version: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(version),))


def _migrate_v1(conn: sqlite3.Connection, snapshot_every: int) -> None:
    """v2 adds the guard tables (see ``store.guard``); nothing existing changes."""
    guard.create_tables(conn)
    _set_version(conn, 2)


def _migrate_v2(conn: sqlite3.Connection, snapshot_every: int) -> None:
    """v3 rolls back by pointer (see the version history); v2 rows stay where they are."""
    _lines_layout(conn)
    _set_version(conn, 3)


def _migrate_v3(conn: sqlite3.Connection, snapshot_every: int) -> None:
    """v4 stores each new turn's state against a base (see the version history)."""
    _bases_layout(conn)
    _set_version(conn, 4)


def _migrate_v4(conn: sqlite3.Connection, snapshot_every: int) -> None:
    """v5 keys each turn row by its line's key and turn (see the version history).

    Runs with foreign keys off (``SQLiteStore`` turns them on after ``prepare``): the v4
    turns table is dropped without firing its actions, and the links to turn rows
    (``snapshots.turn_id``, ``tool_audit.turn_id``) are moved to the new ids by hand. A
    new id (a line key of at least 1, shifted) is above every v4 id, so none collides.
    """
    conn.execute("ALTER TABLE lines RENAME TO lines_v4")
    conn.execute("ALTER TABLE heads RENAME TO heads_v4")
    for statement in LAYOUT_V5.split(";"):
        conn.execute(statement)
    conn.execute(
        "INSERT INTO lines(session_id, line, parent, fork_turn) SELECT session_id, 0, 0, 0 FROM "
        "(SELECT session_id FROM turns UNION SELECT session_id FROM heads_v4) ORDER BY session_id"
    )
    conn.execute(
        "INSERT INTO lines(session_id, line, parent, fork_turn) "
        "SELECT session_id, line, parent, fork_turn FROM lines_v4 ORDER BY session_id, line"
    )
    conn.execute("CREATE TEMP TABLE turn_ids (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
    conn.execute(
        "INSERT INTO temp.turn_ids SELECT t.id, (l.key << 32) | t.turn FROM turns t "
        "JOIN lines l ON l.session_id = t.session_id AND l.line = t.line"
    )
    conn.execute(
        "INSERT INTO turns_v5(id, user_text, reply, created_at, meta, frame_id, patch, state, base) "
        "SELECT m.new, t.user_text, t.reply, t.created_at, t.meta, t.frame_id, "
        "CASE WHEN t.state IS NULL THEN t.patch END, t.state, t.base "
        "FROM turns t JOIN temp.turn_ids m ON m.old = t.id"
    )
    conn.execute("DELETE FROM snapshots WHERE turn_id NOT IN (SELECT old FROM temp.turn_ids)")  # none: cascaded
    conn.execute("UPDATE snapshots SET turn_id = (SELECT new FROM temp.turn_ids WHERE old = snapshots.turn_id)")
    conn.execute(
        "UPDATE tool_audit SET turn_id = (SELECT new FROM temp.turn_ids WHERE old = tool_audit.turn_id) "
        "WHERE turn_id IS NOT NULL"
    )
    conn.execute(
        "INSERT INTO heads(session_id, line, key, turn, version) SELECT h.session_id, h.line, l.key, h.turn, h.version "
        "FROM heads_v4 h JOIN lines l ON l.session_id = h.session_id AND l.line = h.line"
    )
    for table in ("turns", "heads_v4", "lines_v4", "temp.turn_ids"):
        conn.execute(f"DROP TABLE {table}")
    # renamed only now: renaming the v4 table away would carry the references to it along
    conn.execute("ALTER TABLE turns_v5 RENAME TO turns")
    _set_version(conn, 5)


def _bases_layout(conn: sqlite3.Connection) -> None:
    for statement in BASES_V4.split(";"):
        conn.execute(statement)


def _lines_layout(conn: sqlite3.Connection) -> None:
    """Turn the v1/v2 ``turns``/``diffs``/``heads`` into the v3 layout, in place.

    In place (``ALTER TABLE``), not by copying into new tables: dropping ``turns`` would
    fire its foreign-key actions (snapshots cascade), and the pragma that turns them off
    cannot change inside the migration's transaction. A new database runs this too, on
    empty tables, so new and migrated databases have one layout.
    """
    conn.execute("ALTER TABLE turns RENAME COLUMN branch TO line")
    conn.execute("ALTER TABLE turns ADD COLUMN patch TEXT NOT NULL DEFAULT '[]'")
    conn.execute("UPDATE turns SET patch = (SELECT d.patch FROM diffs d WHERE d.turn_id = turns.id)")
    conn.execute("DROP TABLE diffs")
    conn.execute("ALTER TABLE heads ADD COLUMN line INTEGER NOT NULL DEFAULT 0")
    conn.execute(f"ALTER TABLE heads ADD COLUMN replay INTEGER NOT NULL DEFAULT {NO_SNAPSHOT_NEARBY}")
    conn.execute("ALTER TABLE heads DROP COLUMN state")
    for statement in LINES_V3.split(";"):
        conn.execute(statement)
    conn.execute(
        "INSERT INTO lines(session_id, line, parent, fork_turn) "
        "SELECT session_id, line, 0, MIN(turn) - 1 FROM turns WHERE line <> 0 GROUP BY session_id, line"
    )
    conn.execute(
        "INSERT INTO branches(session_id, branch, line, first_turn, last_turn) "
        "SELECT session_id, line, line, MIN(turn), MAX(turn) FROM turns WHERE line <> 0 GROUP BY session_id, line"
    )


def _migrate_v0(conn: sqlite3.Connection, snapshot_every: int) -> None:
    """v0 kept ``sessions(session_id, domain, user_id, created_at)`` and
    ``turns(session_id, turn, user_text, reply, state, created_at)`` with full states.
    Each full state becomes a diff against the previous one, with snapshots at turn 1
    and every ``snapshot_every`` turns, and the last one becomes the head."""
    conn.execute("ALTER TABLE sessions RENAME TO sessions_v0")
    conn.execute("ALTER TABLE turns RENAME TO turns_v0")
    _create_v4(conn)
    conn.execute(
        "INSERT INTO sessions(session_id, domain, user_id, created_at) "
        "SELECT session_id, domain, user_id, created_at FROM sessions_v0"
    )
    session_ids = [row[0] for row in conn.execute("SELECT session_id FROM sessions_v0")]
    for session_id in session_ids:
        _migrate_v0_turns(conn, session_id, snapshot_every)
    conn.execute("DROP TABLE turns_v0")
    conn.execute("DROP TABLE sessions_v0")


def _migrate_v0_turns(conn: sqlite3.Connection, session_id: str, snapshot_every: int) -> None:
    previous: object = {}
    last_turn = 0
    rows = conn.execute(
        "SELECT turn, user_text, reply, state, created_at FROM turns_v0 "
        "WHERE session_id=? ORDER BY turn",
        (session_id,),
    ).fetchall()
    for turn, user_text, reply, state_text, created_at in rows:
        state = json.loads(state_text)
        cursor = conn.execute(
            "INSERT INTO turns(session_id, turn, user_text, reply, created_at, meta, patch) "
            "VALUES (?, ?, ?, ?, ?, '{}', ?)",
            (session_id, turn, user_text, reply, created_at, _compact(make_patch(previous, state))),
        )
        if turn == rows[0][0] or turn % snapshot_every == 0:
            conn.execute("INSERT INTO snapshots VALUES (?, ?)", (cursor.lastrowid, encode(state).decode()))
        previous, last_turn = state, turn
    if rows:
        conn.execute(
            "INSERT INTO heads(session_id, line, turn, version, replay) VALUES (?, 0, ?, 1, ?)",
            (session_id, last_turn, NO_SNAPSHOT_NEARBY),
        )


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection, int], None]] = {
    0: _migrate_v0, 1: _migrate_v1, 2: _migrate_v2, 3: _migrate_v3, 4: _migrate_v4,
}
