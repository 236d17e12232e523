"""``InMemoryStore``: the same store, held in memory, for tests of other packages.

It is ``SQLiteStore`` on a private ``":memory:"`` database, so its behaviour (diffs,
snapshots, rollback, pruning, frames, errors) is the SQLite one by construction, not a
second implementation that could drift. Nothing touches the disk; each instance is
empty and independent.
"""

from __future__ import annotations

import time

from dialstack.store.sqlite import Clock, SQLiteStore


class InMemoryStore(SQLiteStore):
    def __init__(self, *, snapshot_every: int = 50, clock: Clock = time.time) -> None:
        super().__init__(":memory:", snapshot_every=snapshot_every, clock=clock)
