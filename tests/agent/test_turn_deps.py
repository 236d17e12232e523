"""A turn gets its dependencies as one frozen value and holds its own approvals; turns lock per session."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

import dialstack.agent
from dialstack.agent import Agent, Clock
from dialstack.agent.llm.offline import OfflineSkillRunner
from dialstack.agent.outcomes import Failure, SkillInvocation, Success, Uncertain
from dialstack.state.flows import counter_ids

START = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
PACKAGE = Path(dialstack.agent.__file__).parent


class Rendezvous:
    """The first check_booking run waits (up to 30 s, on purpose) until a second one starts."""

    def __init__(self) -> None:
        self.offline = OfflineSkillRunner()
        self.started = 0
        self.other_started: asyncio.Event | None = None
        self.met = False

    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain:
        if invocation.flow.name == "check_booking":
            if self.other_started is None:
                self.other_started = asyncio.Event()
            self.started += 1
            if self.started == 2:
                self.other_started.set()
            elif self.started == 1:
                try:
                    await asyncio.wait_for(self.other_started.wait(), timeout=30)
                    self.met = True
                except TimeoutError:
                    pass
        return await self.offline.run(invocation)


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[Agent]:
    made = Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START), flow_ids=counter_ids(),
                 skill_runner=Rendezvous())
    yield made
    made.close()


def test_turns_of_different_sessions_run_side_by_side(agent: Agent) -> None:
    async def both() -> list[Any]:
        return list(await asyncio.gather(agent.ahandle("a", "Check booking BK-12345"),
                                         agent.ahandle("b", "Check booking BK-12345")))

    first, second = asyncio.run(both())
    assert agent.skill_runner.met  # the second session's turn ran while the first one's was waiting
    assert first.committed and second.committed
    assert first.transitions.get("completed") == ["check_booking"] == second.transitions.get("completed")


def test_a_turn_carries_its_dependencies_as_one_frozen_value(agent: Agent) -> None:
    agent.handle("a", "hello")  # connects the tools
    turn = agent._begin("a", "x", agent.load("a"))
    assert turn.deps.domain is agent.domain and turn.deps.factory is agent.factory
    assert turn.grants == set() and turn.deferred_approval is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.deps.reasoner = object()  # type: ignore[misc]


def test_no_step_reaches_back_through_the_agent() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        assert not re.search(r"\b(turn|self)\.agent\b", path.read_text()), path.name
