"""A turn writes to the store only what it adds: context kinds the store does not hold yet, and the
digests of user text it has not recorded before."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from dialstack.agent import Agent, Clock
from dialstack.tools.provenance import text_digests

START = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)


def test_a_tainted_sessions_later_turns_commit_no_context_kinds_again_and_the_store_keeps_them(tmp_path: Path) -> None:
    with Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START)) as agent:
        agent.handle("t", "Check my inbox for booking emails")  # read_inbox: untrusted input
        assert agent.store.context_kinds("t") == frozenset({"private", "untrusted"})
        statements: list[str] = []
        agent.store._conn.set_trace_callback(statements.append)  # white-box: the store's one connection
        try:
            reply = agent.handle("t", "What can you do?").reply
        finally:
            agent.store._conn.set_trace_callback(None)
        assert "I can help you with" in reply
        assert any("INTO turns" in s for s in statements)  # the turn was committed
        assert not [s for s in statements if "context_kinds" in s and "INSERT" in s]
        assert agent.store.context_kinds("t") == frozenset({"private", "untrusted"})
        assert agent.inspect("t")["stack"] == []


def test_user_text_said_again_records_no_provenance_again(tmp_path: Path) -> None:
    with Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START)) as agent:
        agent.handle("u", "What can you do?")
        statements: list[str] = []
        agent.store._conn.set_trace_callback(statements.append)
        try:
            agent.handle("u", "What can you do?")
            agent.handle("u", "What cities do you fly to?")
        finally:
            agent.store._conn.set_trace_callback(None)
        written = [s.split("'")[3] for s in statements if "INTO provenance" in s]
        new = text_digests(["What cities do you fly to?"]) - text_digests(["What can you do?"])
        assert sorted(written) == sorted(new)  # the new question's own words only, each once
