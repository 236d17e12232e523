"""How states are stored: zstd frames, each turn's against its session's current *base*.

A **base** (``bases`` table) is one state's JSON, zstd-compressed on its own. A turn row
holds its full state compressed with the text of a base as zstd's dictionary (raw
content): the parts the state shares with the base (most of it: the archive, the stack)
cost a few bytes, so a turn row is about a JSON patch's size, yet reads on its own:
one row and its base, no replay. A commit encodes the state once and compresses it, no
diff; ``history`` computes the readable patches on read.

A writer starts a new base every ``snapshot_every`` turns, when a turn asks for one,
after a rollback, and when a turn compresses to more than half its base (the state has
drifted away from it). A writer the store let go (another process wrote the head, the
store was reopened, too many sessions) resumes the base of the head's row. Bases are never changed once written (their
ids are ``AUTOINCREMENT``: never reused), so readers cache their decompressors by id.

Snapshots of schema v3 (``snapshots`` table: zstd, zlib or plain JSON) are read too.
"""

from __future__ import annotations

import sqlite3
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from dialstack.state.diff import decode
from dialstack.store.protocol import StoreError
from dialstack.store.rows import SESSION_TURNS

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# zstd's level for turn rows: -1 (its fastest family) against 1 compresses a ~6 kB travel
# state in ~11 us instead of ~14 us (a commit ~0.89x put instead of ~0.96x), the rows ~20 %
# larger (the file 0.17x LangGraph's instead of 0.155x; benchmarks/vs_langgraph.py)
TURN_LEVEL = -1
_CACHED_READERS = 32
_codecs = threading.local()  # a zstd (de)compressor is reusable, ~3x faster so, but not shared across threads


def _zstd() -> tuple[Any, Any]:
    pair = getattr(_codecs, "pair", None)
    if pair is None:
        import zstandard

        pair = _codecs.pair = (zstandard.ZstdCompressor(level=1), zstandard.ZstdDecompressor())
    return pair


def pack_state(text: bytes) -> bytes:
    """A state as stored on its own (a base, a v3 snapshot): its JSON, zstd-compressed."""
    return _zstd()[0].compress(text)


def unpack_text(stored: bytes | str) -> bytes:
    """The JSON text of a state stored on its own: zstd, zlib (early v3 files) or plain JSON (v0-v2)."""
    if isinstance(stored, str):
        return stored.encode()
    if stored[:4] == _ZSTD_MAGIC:
        return _zstd()[1].decompress(stored)
    return zlib.decompress(stored)


def unpack_state(stored: bytes | str) -> Any:
    return decode(unpack_text(stored))


def _dictionary(text: bytes) -> Any:
    import zstandard

    return zstandard.ZstdCompressionDict(text, dict_type=zstandard.DICT_TYPE_RAWCONTENT)


@dataclass
class Writer:
    """A session's compressor against its current base, kept between commits."""

    base: int  # bases.id
    limit: int  # a turn compressed to more bytes than this has drifted from the base
    compressor: Any
    uses: int = 0
    drifted: bool = False

    def compress(self, text: bytes) -> bytes:
        blob: bytes = self.compressor.compress(text)
        self.uses += 1
        self.drifted = len(blob) > self.limit
        return blob


def add_base(conn: sqlite3.Connection, session_id: str, text: bytes) -> Writer:
    """Store ``text`` (a state's JSON) as a new base of the session; a writer against it."""
    packed = pack_state(text)
    base = conn.execute("INSERT INTO bases(session_id, state) VALUES (?, ?)", (session_id, packed)).lastrowid
    assert base is not None
    return _writer(base, packed, text)


def resume_base(conn: sqlite3.Connection, turn_id: int) -> Writer | None:
    """A writer against the base of the turn row ``turn_id`` (a session's head, written by
    another process or before this store's cache let it go); None for a v3 row or none."""
    row = conn.execute("SELECT b.id, b.state FROM turns t JOIN bases b ON b.id = t.base WHERE t.id=?", (turn_id,)).fetchone()
    return None if row is None else _writer(row[0], row[1], unpack_text(row[1]))


def _writer(base: int, packed: bytes, text: bytes) -> Writer:
    import zstandard

    dictionary = _dictionary(text)
    dictionary.precompute_compress(level=TURN_LEVEL)  # digested once per base, not again on every commit
    compressor = zstandard.ZstdCompressor(level=TURN_LEVEL, dict_data=dictionary, write_checksum=False)
    return Writer(base, max(256, len(packed) // 2), compressor)


def drop_unused_bases(conn: sqlite3.Connection, session_id: str) -> None:
    """Bases no turn row of the session compresses against any more (turns deleted)."""
    conn.execute(
        f"DELETE FROM bases WHERE session_id=? AND id NOT IN (SELECT t.base FROM {SESSION_TURNS} AND t.base IS NOT NULL)",
        (session_id, session_id),
    )


class Readers:
    """Decompressors by base id, the most recently used kept (a base never changes)."""

    def __init__(self) -> None:
        self._by_base: OrderedDict[int, Any] = OrderedDict()

    def state(self, conn: sqlite3.Connection, blob: bytes, base: int) -> Any:
        """The state a turn row stores (``blob`` compressed against base ``base``)."""
        return decode(self.text(conn, blob, base))

    def text(self, conn: sqlite3.Connection, blob: bytes, base: int) -> bytes:
        reader = self._by_base.get(base)
        if reader is None:
            reader = self._load(conn, base)
        else:
            self._by_base.move_to_end(base)
        out: bytes = reader.decompress(blob)
        return out

    def _load(self, conn: sqlite3.Connection, base: int) -> Any:
        import zstandard

        row = conn.execute("SELECT state FROM bases WHERE id=?", (base,)).fetchone()
        if row is None:
            raise StoreError(f"a turn is stored against base {base}, which is missing: the database is damaged")
        reader = zstandard.ZstdDecompressor(dict_data=_dictionary(unpack_text(row[0])))
        self._by_base[base] = reader
        while len(self._by_base) > _CACHED_READERS:
            self._by_base.popitem(last=False)
        return reader
