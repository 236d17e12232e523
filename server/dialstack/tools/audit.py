"""``AuditWriter``: audit entries written to the store in batches, off the call's path."""

from __future__ import annotations

import logging
import threading
from typing import Any

from ..store.protocol import Store

log = logging.getLogger("dialstack.tools")


class AuditWriter:
    """Writes audit entries to the store in batches from one background thread, off the call's path.

    :meth:`write` only appends to a list; the thread is woken by the first entry of a batch,
    lets ``delay`` seconds of entries gather, and writes them in one transaction (the
    store's ``audit_many`` when it has one). Entries are written in order. :meth:`flush`
    returns once every entry written before it is in the store; :meth:`close` flushes and
    stops, and entries written after it go straight to the store. A failed write is logged
    per entry, never dropped silently.
    """

    def __init__(self, store: Store, *, delay: float = 0.02) -> None:
        self.store = store
        self.delay = delay
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._cond = threading.Condition(threading.Lock())  # guards _pending and _closed
        self._order = threading.Lock()  # one batch in flight at a time, so entries stay in order
        self._hurry = threading.Event()  # cuts the gathering delay short (close)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="dialstack-audit", daemon=True)
        self._thread.start()

    def write(self, session_id: str, entry: dict[str, Any]) -> None:
        with self._cond:
            if not self._closed:
                self._pending.append((session_id, entry))
                if len(self._pending) == 1:
                    self._cond.notify()
                return
        self._store_batch([(session_id, entry)])

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if self._closed and not self._pending:
                    return
            self._hurry.wait(self.delay)
            self.flush()

    def flush(self) -> None:
        with self._order:
            with self._cond:
                batch, self._pending = self._pending, []
            if batch:
                self._store_batch(batch)

    def _store_batch(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        write_many = getattr(self.store, "audit_many", None)
        if write_many is not None and len(batch) > 1:
            try:
                write_many(batch)
                return
            except Exception:  # one bad entry must not cost the others: write them one by one
                log.warning("a batch of %d audit entries failed; writing them one by one", len(batch), exc_info=True)
        for item in batch:
            try:
                self.store.audit(*item)
            except Exception:  # a background writer: log and keep auditing
                log.exception("could not write an audit entry: %r", item)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._hurry.set()
        self._thread.join(timeout=10)
        self.flush()
