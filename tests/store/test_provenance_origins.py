"""The store keeps every provenance origin the tools write, and refuses one it does not know."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.store import SQLiteStore
from dialstack.store.guard import ORIGINS, Guard
from dialstack.store.protocol import StoreError
from dialstack.tools import provenance


def test_every_origin_the_tools_write_is_a_store_origin() -> None:
    written = {provenance.UNTRUSTED, provenance.INSIDE, provenance.USER, provenance.NAMED, provenance.PRIVATE}
    assert written == ORIGINS


def test_each_origin_round_trips_through_a_reopened_store(db_path: Path) -> None:
    with SQLiteStore(db_path) as store:
        store.ensure_session("s1", "travel")
        guard = Guard(store)
        for origin in sorted(ORIGINS):
            guard.record_values("s1", origin, [provenance.digest(f"a value seen as {origin}"), provenance.digest("shared")])  # type: ignore[arg-type]
    with SQLiteStore(db_path) as store:
        found = Guard(store).origins("s1", [provenance.digest(f"a value seen as {o}") for o in ORIGINS] + [provenance.digest("shared")])
    assert {d: set(o) for d, o in found.items()} == {
        **{provenance.digest(f"a value seen as {o}"): {o} for o in ORIGINS},
        provenance.digest("shared"): set(ORIGINS),
    }


def test_an_unknown_origin_is_refused_and_nothing_is_recorded(store: SQLiteStore) -> None:
    store.ensure_session("s1", "travel")
    guard = Guard(store)
    with pytest.raises(StoreError, match="unknown provenance origin 'typed'; expected one of"):
        guard.record_values("s1", "typed", [provenance.digest("x")])  # type: ignore[arg-type]
    assert guard.origins("s1", [provenance.digest("x")]) == {}
