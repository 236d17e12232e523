"""Per-session records on SQLite: scratchpad, preferences, frames, audit, receipts, gate kinds.

Functions take a connection the caller holds (inside a transaction where they write).
Frames are content-addressed: the ``table_id`` is a hash of the session and the frame,
so saving the same frame twice (by the tool layer, then with the turn) stores its rows
once.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from dialstack.state.diff import canonical
from dialstack.store.protocol import JSON, Receipt, ScratchpadEntry, StoreError
from dialstack.store.rows import SESSION_TURNS

class UnknownFrameError(StoreError):
    """No frame with that ``table_id`` (never saved, or removed with its turns)."""


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# -- scratchpad ---------------------------------------------------------------


def write_scratchpad(conn: sqlite3.Connection, session_id: str, key: str, text: str, source: str, now: float) -> ScratchpadEntry:
    entry_id = conn.execute(
        "INSERT INTO scratchpad(session_id, key, text, source, created_at) VALUES (?, ?, ?, ?, ?)",
        (session_id, key, text, source, now),
    ).lastrowid
    assert entry_id is not None
    return ScratchpadEntry(session_id, entry_id, key, text, source, now)


def scratchpad(conn: sqlite3.Connection, session_id: str, last: int | None) -> list[ScratchpadEntry]:
    sql = "SELECT entry_id, key, text, source, created_at FROM scratchpad WHERE session_id=? ORDER BY entry_id DESC"
    params: tuple[Any, ...] = (session_id,)
    if last is not None:
        sql, params = sql + " LIMIT ?", (session_id, max(last, 0))
    rows = conn.execute(sql, params).fetchall()
    return [ScratchpadEntry(session_id, *row) for row in reversed(rows)]


# -- preferences --------------------------------------------------------------


def preferences(conn: sqlite3.Connection, user_id: str) -> JSON:
    row = conn.execute("SELECT prefs FROM preferences WHERE user_id=?", (user_id,)).fetchone()
    return json.loads(row[0]) if row else {}


def set_preferences(conn: sqlite3.Connection, user_id: str, values: JSON) -> JSON:
    """Shallow merge; a key set to ``None`` is removed."""
    merged = preferences(conn, user_id)
    for key, value in values.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    conn.execute(
        "INSERT INTO preferences(user_id, prefs) VALUES (?, ?) "
        "ON CONFLICT(user_id) DO UPDATE SET prefs=excluded.prefs",
        (user_id, _compact(merged)),
    )
    return merged


# -- frames ---------------------------------------------------------------------


def frame_id(session_id: str, frame: JSON) -> str:
    body = {key: value for key, value in frame.items() if key != "table_id"}
    digest = hashlib.sha256(f"{session_id}\0{canonical(body)}".encode()).hexdigest()
    return f"tbl_{digest[:24]}"


def store_frame(conn: sqlite3.Connection, session_id: str, frame: JSON, now: float, *, pinned: bool = False) -> str:
    """Store ``frame`` once; its list ``data`` goes to ``frame_rows``. Returns the table_id."""
    table_id = frame_id(session_id, frame)
    data = frame.get("data")
    tabular = isinstance(data, list)
    attrs = {key: value for key, value in frame.items() if key != "table_id" and not (tabular and key == "data")}
    inserted = conn.execute(
        "INSERT OR IGNORE INTO frames(table_id, session_id, attrs, total, pinned, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, session_id, _compact(attrs), len(data) if tabular else -1, int(pinned), now),
    ).rowcount
    if inserted and tabular:
        conn.executemany(
            "INSERT INTO frame_rows(table_id, idx, row) VALUES (?, ?, ?)",
            ((table_id, index, _compact(row)) for index, row in enumerate(data)),  # type: ignore[arg-type]
        )
    elif pinned:
        conn.execute("UPDATE frames SET pinned=1 WHERE table_id=?", (table_id,))
    return table_id


def _frame_head(conn: sqlite3.Connection, table_id: str) -> tuple[JSON, int]:
    row = conn.execute("SELECT attrs, total FROM frames WHERE table_id=?", (table_id,)).fetchone()
    if row is None:
        raise UnknownFrameError(
            f"no frame with table_id {table_id!r}; it was never saved here or its turns were "
            f"discarded or pruned. Re-run the request that produced it."
        )
    return json.loads(row[0]), row[1]


def load_frame(conn: sqlite3.Connection, table_id: str) -> JSON:
    """The whole frame as it was saved, with its ``table_id``."""
    attrs, total = _frame_head(conn, table_id)
    if total >= 0:
        rows = conn.execute("SELECT row FROM frame_rows WHERE table_id=? ORDER BY idx", (table_id,))
        attrs["data"] = [json.loads(row) for (row,) in rows]
    attrs["table_id"] = table_id
    return attrs


def frame_page(conn: sqlite3.Connection, table_id: str, offset: int, limit: int) -> JSON:
    """``limit`` rows of the frame's ``data`` from ``offset``, with ``total`` and ``has_more``."""
    if offset < 0 or limit < 1:
        raise StoreError(f"frame_page needs offset >= 0 and limit >= 1 (got offset={offset}, limit={limit})")
    attrs, total = _frame_head(conn, table_id)
    if total >= 0:
        rows = conn.execute(
            "SELECT row FROM frame_rows WHERE table_id=? AND idx>=? ORDER BY idx LIMIT ?", (table_id, offset, limit)
        )
        attrs["data"] = [json.loads(row) for (row,) in rows]
    total = max(total, 0)
    page = {"table_id": table_id, "offset": offset, "limit": limit, "total": total}
    return {**attrs, **page, "has_more": offset + limit < total}


def drop_orphan_frames(conn: sqlite3.Connection, session_id: str) -> None:
    """Frames saved only with turns that are gone (never by ``save_frame``)."""
    conn.execute(
        "DELETE FROM frames WHERE session_id=? AND pinned=0 AND table_id NOT IN "
        f"(SELECT t.frame_id FROM {SESSION_TURNS} AND t.frame_id IS NOT NULL)",
        (session_id, session_id),
    )


# -- audit, receipts, context kinds ------------------------------------------------


def add_audit(conn: sqlite3.Connection, session_id: str, entry: JSON, now: float, *, turn_id: int | None = None) -> None:
    conn.execute(
        "INSERT INTO tool_audit(session_id, turn_id, entry, created_at) VALUES (?, ?, ?, ?)",
        (session_id, turn_id, _compact(entry), now),
    )


def add_audits(conn: sqlite3.Connection, rows: list[tuple[str, str]], now: float) -> None:
    """Several audit entries at once: ``rows`` are ``(session_id, entry as compact JSON)``."""
    conn.executemany(
        "INSERT INTO tool_audit(session_id, turn_id, entry, created_at) VALUES (?, NULL, ?, ?)",
        [(session_id, text, now) for session_id, text in rows],
    )


def audit_log(conn: sqlite3.Connection, session_id: str) -> list[JSON]:
    rows = conn.execute("SELECT entry FROM tool_audit WHERE session_id=? ORDER BY id", (session_id,))
    return [json.loads(entry) for (entry,) in rows]


def receipt(conn: sqlite3.Connection, key: str) -> Receipt | None:
    row = conn.execute("SELECT key, tool, result, is_error, created_at FROM receipts WHERE key=?", (key,)).fetchone()
    if row is None:
        return None
    return Receipt(key=row[0], tool=row[1], result=json.loads(row[2]), is_error=bool(row[3]), created_at=row[4])


def save_receipt(conn: sqlite3.Connection, item: Receipt) -> None:
    """The first receipt for a key wins: a replayed call must see the original result."""
    conn.execute(
        "INSERT OR IGNORE INTO receipts(key, tool, result, is_error, created_at) VALUES (?, ?, ?, ?, ?)",
        (item.key, item.tool, _compact(item.result), int(item.is_error), item.created_at),
    )


def context_kinds(conn: sqlite3.Connection, session_id: str) -> frozenset[str]:
    rows = conn.execute("SELECT kind FROM context_kinds WHERE session_id=?", (session_id,))
    return frozenset(kind for (kind,) in rows)


def add_context_kinds(conn: sqlite3.Connection, session_id: str, kinds: frozenset[str]) -> None:
    conn.executemany(
        "INSERT OR IGNORE INTO context_kinds(session_id, kind) VALUES (?, ?)", ((session_id, kind) for kind in kinds)
    )
