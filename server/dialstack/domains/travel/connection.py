"""The travel database as the handlers use it: one connection per file and tool runtime.

Opening the file for every tool call cost more than the call's own SQL (a connection, its
schema read and, in rollback-journal mode, several fsyncs per one-row write), so a
runtime keeps one :class:`TravelDatabase` per file in its ``ctx.resources``, closed when
the runtime closes (``ServedDomain.close``, ``Agent.close``). A handler called without
a runtime's resources (a test, a script) opens the file for that call only.

Durability, as the store's: WAL with ``synchronous=NORMAL``. A finished call's writes
survive a crash of the process; a power loss may undo the last ones, never corrupt the
file. Other processes on the same data folder (a second ``dialstack serve``) see every
committed booking at their next call: each call is its own transaction, and none stays
open between calls.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .db import resolve_db_path
from .errors import DataNotPrepared
from .places import PlacesConnection

BUSY_TIMEOUT_S = 5.0


class TravelDatabase:
    """One connection to one travel database file, taken in turns by a runtime's handlers.

    Handlers run in the runtime's worker threads. They share one connection under a lock
    rather than one connection per thread: a call holds it for a few milliseconds of SQL
    (no handler waits on the network inside :meth:`transaction`), SQLite lets one writer
    at a time in anyway, and one connection can be closed from whichever thread closes the
    runtime, which per-thread connections (owned by pool threads) could not be.

    Before each call the file's identity (device, inode) is checked: a database rebuilt
    (deleted, then prepared again) is reopened, never read through the old file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None
        self._closed = False

    @property
    def is_open(self) -> bool:
        """Whether a connection to the file is open (False after :meth:`close`)."""
        return self._conn is not None

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """The connection inside one transaction, committed on success and rolled back on error.

        ``write``: take the write lock at the start (``BEGIN IMMEDIATE``), so a call that reads
        then writes waits for another process's writer instead of failing half-way.
        """
        self._lock.acquire()
        try:
            if self._closed:
                raise RuntimeError("the travel database was closed with its tool runtime")
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
                conn.commit()
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
        finally:
            self._lock.release()
            if self._closed:  # closed while this call held it: close now that it is free
                self._close_if_free()

    def close(self) -> None:
        """Close the connection; a call still running keeps it until it finishes, then closes it."""
        self._closed = True
        self._close_if_free()

    def _close_if_free(self) -> None:
        if self._lock.acquire(blocking=False):
            try:
                self._disconnect()
            finally:
                self._lock.release()

    def _connection(self) -> sqlite3.Connection:
        """The open connection, (re)opened when the file is new; the caller holds the lock."""
        try:
            stat = os.stat(self.path)  # before connecting: a file swapped in after this is caught next call
        except FileNotFoundError:
            stat = None
        if stat is None or stat.st_size == 0:
            self._disconnect()
            raise DataNotPrepared(  # the file's name only: no local paths leave the server
                f"The travel database ({self.path.name} in the data folder) has not been set up yet. dialstack chat, "
                "serve, test and Agent build it when they start; a server built in Python needs "
                "tools.prepare.prepare_domain() first.")
        identity = (stat.st_dev, stat.st_ino)
        if self._conn is None or identity != self._file:
            self._disconnect()
            self._conn, self._file = _connect(self.path), identity
        return self._conn

    def _disconnect(self) -> None:
        if self._conn is not None:
            conn, self._conn, self._file = self._conn, None, None
            conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: transactions are the explicit BEGIN / COMMIT of TravelDatabase.transaction.
    # check_same_thread=False: worker threads take turns under TravelDatabase's lock.
    # factory: the connection keeps its database's cities once read (places.PlacesConnection)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, factory=PlacesConnection)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")  # kept in the file: every later connection uses it too
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def database(ctx: Any, *, write: bool = False) -> Iterator[sqlite3.Connection]:
    """The call's travel database in one transaction: the runtime's shared connection, else one for this call."""
    path = resolve_db_path(ctx)
    resources = getattr(ctx, "resources", None)
    if resources is not None:
        shared = resources.get(f"travel-db:{path}", lambda: TravelDatabase(path))
        with shared.transaction(write=write) as conn:
            yield conn
        return
    own = TravelDatabase(path)
    try:
        with own.transaction(write=write) as conn:
            yield conn
    finally:
        own.close()
