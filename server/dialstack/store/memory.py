"""``InMemoryStore``: the same store, held in memory, for tests of other packages.

It is ``SQLiteStore`` on a private ``":memory:"`` database, so its behaviour (diffs,
snapshots, rollback, pruning, frames, errors) is the SQLite one by construction, not a
second implementation that could drift. Nothing touches the disk; each instance is
empty and independent.
"""

from __future__ import annotations

from dialstack.clock import SYSTEM_CLOCK, Clock
from dialstack.store.sqlite import SQLiteStore


class InMemoryStore(SQLiteStore):
    def __init__(self, *, snapshot_every: int = 50, clock: Clock = SYSTEM_CLOCK) -> None:
        super().__init__(":memory:", snapshot_every=snapshot_every, clock=clock)
