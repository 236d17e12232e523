"""One ``Clock`` protocol: the store writes the time of the clock it is given, not wall time."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from dialstack import Agent
from dialstack.agent.result import Clock
from dialstack.clock import AdjustableClock, Clock as ClockProtocol, SystemClock
from dialstack.store import InMemoryStore, SQLiteStore, TurnRecord

START = datetime(2020, 2, 3, 4, 5, tzinfo=timezone.utc)


def test_every_clock_the_project_ships_satisfies_the_one_protocol() -> None:
    assert isinstance(SystemClock(), ClockProtocol)
    assert isinstance(AdjustableClock(START), ClockProtocol)
    assert Clock is AdjustableClock  # the agent's public ``Clock(start)`` is that same clock


def test_a_store_writes_the_time_of_the_clock_it_is_given() -> None:
    clock = AdjustableClock(START)
    with InMemoryStore(clock=clock) as store:
        store.ensure_session("s1", "travel")
        clock.advance(60)
        store.commit_turn("s1", TurnRecord(user_text="hi", reply="hello", state={"turn": 1}))
        assert store.session_info("s1")["created_at"] == START.timestamp()  # type: ignore[index]
        assert [row.created_at for row in store.turns("s1")] == [START.timestamp() + 60]


def test_an_agent_that_opens_its_own_store_stamps_it_with_the_agents_clock(tmp_path: Path) -> None:
    with Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START)) as agent:
        agent.clock.advance(30)
        agent.handle("s1", "hello")
    with SQLiteStore(tmp_path / "d.db") as store:
        assert store.session_info("s1")["created_at"] == START.timestamp() + 30  # type: ignore[index]
        assert [row.created_at for row in store.turns("s1")] == [START.timestamp() + 30]
