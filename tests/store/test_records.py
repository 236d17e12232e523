"""Scratchpad, preferences, frames, audit, receipts and gate kinds, per session."""

from __future__ import annotations

import pytest

from dialstack.store import InMemoryStore, Receipt, SQLiteStore, Store, StoreError, UnknownFrameError


def test_both_stores_satisfy_the_protocol(store: SQLiteStore) -> None:
    assert isinstance(store, Store) and isinstance(InMemoryStore(), Store)


def test_scratchpad_keeps_order_and_last(store: SQLiteStore) -> None:
    for n in range(4):
        store.write_scratchpad("s1", f"k{n}", f"note {n}", "search_flights")
    assert [e.key for e in store.scratchpad("s1")] == ["k0", "k1", "k2", "k3"]
    assert [e.text for e in store.scratchpad("s1", last=2)] == ["note 2", "note 3"]


def test_one_sessions_records_are_invisible_to_another(store: SQLiteStore) -> None:
    store.ensure_session("s2", "travel", "bob")
    store.write_scratchpad("s1", "k", "secret", "flow")
    store.audit("s1", {"tool": "book", "decision": "allow"})
    store.add_context_kinds("s1", frozenset({"private"}))
    store.set_preferences("alice", {"seat": "aisle"})
    assert store.scratchpad("s2") == []
    assert store.audit_log("s2") == []
    assert store.context_kinds("s2") == frozenset()
    assert store.preferences("bob") == {}
    assert store.audit_log("s1") == [{"tool": "book", "decision": "allow"}]


def test_preferences_merge_and_none_removes(store: SQLiteStore) -> None:
    store.set_preferences("alice", {"seat": "aisle", "meal": "veg"})
    assert store.set_preferences("alice", {"seat": "window", "meal": None}) == {"seat": "window"}
    assert store.preferences("alice") == {"seat": "window"}


def test_context_kinds_accumulate(store: SQLiteStore) -> None:
    store.add_context_kinds("s1", frozenset({"private"}))
    store.add_context_kinds("s1", frozenset({"untrusted", "private"}))
    assert store.context_kinds("s1") == frozenset({"private", "untrusted"})


def test_the_first_receipt_for_a_key_wins(store: SQLiteStore) -> None:
    store.save_receipt(Receipt("k1", "book", {"id": 1}, False, 5.0))
    store.save_receipt(Receipt("k1", "book", {"id": 2}, False, 6.0))
    assert store.receipt("k1") == Receipt("k1", "book", {"id": 1}, False, 5.0)
    assert store.receipt("missing") is None


def test_a_frame_is_paged_and_stored_once(store: SQLiteStore) -> None:
    frame = {"data": [{"i": i} for i in range(10)], "display_type": "table", "source": "search"}
    table_id = store.save_frame("s1", frame)
    assert store.save_frame("s1", {**frame, "table_id": table_id}) == table_id
    page = store.frame_page(table_id, 8, 5)
    assert page["data"] == [{"i": 8}, {"i": 9}]
    assert (page["total"], page["has_more"], page["display_type"]) == (10, False, "table")
    assert store.frame_page(table_id, 0, 3)["has_more"] is True
    rows = store._conn.execute("SELECT COUNT(*) FROM frame_rows").fetchone()[0]
    assert rows == 10


def test_a_frame_without_list_data_round_trips(store: SQLiteStore) -> None:
    table_id = store.save_frame("s1", {"data": {"text": "hello"}, "display_type": "card"})
    assert store.frame_page(table_id, 0, 10)["data"] == {"text": "hello"}


def test_unknown_frames_and_bad_pages_are_clear_errors(store: SQLiteStore) -> None:
    with pytest.raises(UnknownFrameError, match="tbl_nope"):
        store.frame_page("tbl_nope", 0, 10)
    table_id = store.save_frame("s1", {"data": [1]})
    with pytest.raises(StoreError, match="limit >= 1"):
        store.frame_page(table_id, 0, 0)


def test_a_session_keeps_its_domain(store: SQLiteStore) -> None:
    store.ensure_session("s1", "travel")
    with pytest.raises(StoreError, match="belongs to domain 'travel'"):
        store.ensure_session("s1", "banking")
    assert [s["session_id"] for s in store.list_sessions()] == ["s1"]
