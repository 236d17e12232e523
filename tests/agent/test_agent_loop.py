"""Where a turn runs: a sync call on an in-process server runs the agent's loop in the calling
thread; ``ahandle`` (or a call from inside a running loop) gives the loop a thread of its own,
which later calls use; a background summary a sync turn started finishes by ``close``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dialstack.agent import Agent, Clock
from dialstack.agent.llm.offline import OfflineSkillRunner
from dialstack.agent.outcomes import Failure, SkillInvocation, Success, Uncertain
from dialstack.store import open_store

START = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)


class WhereRun:
    """The offline runner, noting the thread each skill ran in."""

    def __init__(self) -> None:
        self.offline = OfflineSkillRunner()
        self.threads: list[int] = []

    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain:
        self.threads.append(threading.get_ident())
        return await self.offline.run(invocation)


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[Agent]:
    made = Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START), skill_runner=WhereRun())
    yield made
    made.close()


def _loop_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == "dialstack-agent"]


def test_a_sync_turn_on_an_in_process_server_runs_in_the_calling_thread(agent: Agent) -> None:
    reply = agent.handle("s", "Check booking BK-12345").reply
    assert "BK-12345" in reply
    assert agent.skill_runner.threads and set(agent.skill_runner.threads) == {threading.get_ident()}
    assert _loop_threads() == []


def test_ahandle_gives_the_loop_its_own_thread_and_sync_turns_then_use_it(agent: Agent) -> None:
    agent.handle("s", "hello")
    first = asyncio.run(agent.ahandle("s", "Check booking BK-12345"))
    then = agent.handle("s", "What can you do?")
    assert first.committed and then.committed and then.turn == first.turn + 1
    assert _loop_threads() == ["dialstack-agent"]
    assert threading.get_ident() not in agent.skill_runner.threads[1:]


def test_a_sync_call_from_inside_a_running_loop_is_handed_to_the_loop_thread(agent: Agent) -> None:
    async def inside() -> str:
        return agent.handle("s", "Check booking BK-12345").reply

    assert "BK-12345" in asyncio.run(inside())
    assert _loop_threads() == ["dialstack-agent"]


def test_sync_turns_of_two_threads_both_commit(agent: Agent) -> None:
    agent.handle("warm", "hello")
    results: dict[str, object] = {}

    def talk(session: str) -> None:
        results[session] = [agent.handle(session, text).committed for text in ("Check booking BK-12345", "What can you do?")]

    threads = [threading.Thread(target=talk, args=(s,)) for s in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)  # on purpose: a deadlock fails the test instead of hanging the suite
    assert results == {"a": [True, True], "b": [True, True]}


def test_a_background_summary_a_sync_turn_started_is_written_by_close(tmp_path: Path) -> None:
    agent = Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START))
    for _ in range(10):  # every tenth turn starts a summary in the background
        agent.handle("b", "What can you do?")
    agent.close()
    store = open_store(tmp_path / "d.db")
    try:
        assert [e.key for e in store.scratchpad("b")].count("summarize_session") == 1
    finally:
        store.close()
