"""Two writers on one session: the Agent commits only onto the head its turn started from."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack import Agent
from dialstack.agent.agent import Clock
from dialstack.store import SQLiteStore


def clock() -> Clock:
    return Clock(datetime(2025, 11, 1, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def agents(tmp_path: Path) -> Iterator[tuple[Agent, Agent, Path]]:
    db = tmp_path / "shared.db"
    first, second = Agent("travel", db=db, clock=clock()), Agent("travel", db=db, clock=clock())
    try:
        yield first, second, db
    finally:
        first.close()
        second.close()


class Interloper:
    """A phraser that lets the other agent take a turn in the same session just before this
    agent's turn commits (``times`` times): a deterministic race."""

    def __init__(self, other: Agent, session: str, texts: list[str]) -> None:
        self.other, self.session, self.texts = other, session, list(texts)

    async def phrase(self, reply: str, context: dict[str, Any]) -> str:
        if self.texts:
            self.other.handle(self.session, self.texts.pop(0))  # runs on the other agent's own loop
        return reply


def turn_numbers_in_states(db: Path, session: str) -> list[tuple[int, int]]:
    with SQLiteStore(db) as store:
        return [(row.turn, state["turn"]) for row, state in store.states(session)]


def test_an_agent_sees_a_turn_another_agent_committed_in_between(agents: tuple[Agent, Agent, Path]) -> None:
    first, second, db = agents
    first.handle("s", "I want to book a flight")
    second.handle("s", "Boston")  # fills the origin the first agent asked for
    result = first.handle("s", "Denver")
    assert result.turn == 3
    with SQLiteStore(db) as store:
        slots = store.load_state("s")["stack"][-1]["slots"]
    assert slots["origin"]["value"] == "Boston" and slots["destination"]["value"] == "Denver"
    assert turn_numbers_in_states(db, "s") == [(1, 1), (2, 2), (3, 3)]


def test_a_turn_overtaken_before_its_commit_is_computed_again_from_the_new_head(agents: tuple[Agent, Agent, Path]) -> None:
    first, second, db = agents
    first.handle("s", "I want to book a flight")
    first.phraser = Interloper(second, "s", ["Boston"])
    result = first.handle("s", "Denver")
    assert result.committed and result.turn == 3
    with SQLiteStore(db) as store:
        assert [row.user_text for row in store.turns("s")] == ["I want to book a flight", "Boston", "Denver"]
        slots = store.load_state("s")["stack"][-1]["slots"]
    assert slots["origin"]["value"] == "Boston" and slots["destination"]["value"] == "Denver"
    assert turn_numbers_in_states(db, "s") == [(1, 1), (2, 2), (3, 3)]


def test_a_turn_overtaken_twice_is_refused_and_saves_nothing(agents: tuple[Agent, Agent, Path]) -> None:
    first, second, db = agents
    first.handle("s", "I want to book a flight")
    first.phraser = Interloper(second, "s", ["Boston", "Denver"])
    result = first.handle("s", "Chicago")
    assert not result.committed
    assert "changed from somewhere else" in result.reply and "send your message again" in result.reply
    with SQLiteStore(db) as store:
        assert [row.user_text for row in store.turns("s")] == ["I want to book a flight", "Boston", "Denver"]
    assert turn_numbers_in_states(db, "s") == [(1, 1), (2, 2), (3, 3)]


WRITER = textwrap.dedent(
    """
    import json, sys
    from datetime import datetime, timezone
    from dialstack import Agent
    from dialstack.agent.agent import Clock

    name, db, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    texts = ["hello", "what can you do?", "thanks!", "What cities do you support?"]
    with Agent("travel", db=db, clock=Clock(datetime(2025, 11, 1, 9, 0, tzinfo=timezone.utc))) as agent:
        print("ready", flush=True)
        sys.stdin.readline()  # both start their turns together
        for i in range(count):
            result = agent.handle("shared", f"{texts[i % len(texts)]} ({name} {i})")
            print(json.dumps({"text": result.user, "turn": result.turn, "committed": result.committed}), flush=True)
    """
)


def test_two_processes_on_one_session_lose_and_duplicate_no_turn(tmp_path: Path) -> None:
    db, count = tmp_path / "shared.db", 25
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, name, str(db), str(count)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
        for name in ("A", "B")
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        results += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    committed = sorted(r["text"] for r in results if r["committed"])
    with SQLiteStore(db) as store:
        rows = store.turns("shared")
    assert sorted(row.user_text for row in rows) == committed  # none lost, none twice
    assert [row.turn for row in rows] == list(range(1, len(rows) + 1))
    assert all(number == state_turn for number, state_turn in turn_numbers_in_states(db, "shared"))  # none from a stale head
    assert len(committed) >= count  # refusals are rare: a turn is refused only when overtaken twice
