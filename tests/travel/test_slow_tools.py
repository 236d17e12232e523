"""A travel tool that outlives its timeout: a plain reply for the user, its late result kept or dropped quietly."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack import Agent
from dialstack.agent import agent as agent_module
from dialstack.agent.result import Clock
from dialstack.domains.travel import handlers
from dialstack.store import open_store
from dialstack.tools.runtime import ToolRuntime

START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def release(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """get_booking hangs until the event is set; it gets 50 ms (set on purpose), every other tool 10 s."""
    event = threading.Event()
    real = handlers.get_booking

    def hanging(*args: Any, **kwargs: Any) -> dict[str, Any]:
        event.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(handlers, "get_booking", hanging)
    monkeypatch.setattr(ToolRuntime, "timeout_s", lambda self, spec: 0.05 if spec.tool_id == "get_booking" else 10.0)
    yield event
    event.set()


def _agent(tmp_path: Path) -> Agent:
    return Agent("travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START))


def test_a_timed_out_lookup_is_explained_plainly_and_its_late_result_is_audited_at_close(
    tmp_path: Path, release: threading.Event, caplog: pytest.LogCaptureFixture
) -> None:
    agent = _agent(tmp_path)
    reply = agent.handle("s", "Look up booking BK-20481").reply
    assert reply.startswith("I couldn't finish checking your booking: it took too long to answer. It may still finish")
    for internal in ("worker thread", "timeout of", "idempotency", "get_booking", " ms"):
        assert internal not in reply
    closing = threading.Thread(target=agent.close)
    closing.start()  # close waits for the running call...
    release.set()  # ...which now finishes and is recorded before the store closes
    closing.join(30)
    assert not closing.is_alive()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    with open_store(tmp_path / "d.db", create=False) as store:
        late = [e for e in store.audit_log("s") if e.get("kind") == "late_result"]
    assert [(e["tool"], e["ok"]) for e in late] == [("get_booking", True)]


def test_a_call_still_running_after_the_grace_is_dropped_with_one_line_and_no_traceback(
    tmp_path: Path, release: threading.Event, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(agent_module, "LATE_RESULT_GRACE_S", 0.0)
    agent = _agent(tmp_path)
    agent.handle("s", "Look up booking BK-20481")
    runtime = agent._served.runtime
    agent.close()  # does not wait: the store is closed while get_booking still runs
    release.set()
    assert runtime.wait_abandoned(timeout=30)
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert problems == []
    assert any("finished after shutdown; its late result is not recorded" in r.getMessage() for r in caplog.records)
