"""Store fixtures: a SQLite file in tmp_path and a deterministic clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dialstack.store import SQLiteStore, TurnRecord


class TickingClock:
    """A ``Clock`` whose every reading is the next second: ordered, deterministic times."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.current = start

    def time(self) -> float:
        self.current += 1.0
        return self.current

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.time(), timezone.utc)


@pytest.fixture
def clock() -> TickingClock:
    return TickingClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "dialstack.db"


@pytest.fixture
def store(db_path: Path, clock: TickingClock) -> Iterator[SQLiteStore]:
    s = SQLiteStore(db_path, snapshot_every=4, clock=clock)
    s.ensure_session("s1", "travel", "alice")
    yield s
    s.close()


def flow(name: str, state: str, **slots: object) -> dict[str, object]:
    return {"flow_id": f"{name}-1", "name": name, "state": state, "slots": dict(slots)}


def dialogue(*flows: dict[str, object], archive: list[object] | None = None) -> dict[str, object]:
    return {"stack": list(flows), "archive": archive or [], "flags": {"keep_going": False}}


def record(state: dict[str, object], text: str = "hi", **kwargs: object) -> TurnRecord:
    return TurnRecord(user_text=text, reply=f"re: {text}", state=state, **kwargs)  # type: ignore[arg-type]


def commit_states(store: SQLiteStore, session: str, states: list[dict[str, object]]) -> None:
    for index, state in enumerate(states, start=1):
        store.commit_turn(session, record(state, text=f"turn {index}"))
