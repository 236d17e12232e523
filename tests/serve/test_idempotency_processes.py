"""Two runtimes on one database file (as two server processes would be): one run per idempotency key."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import demo_handlers
from dialstack.store import SQLiteStore
from dialstack.tools.runtime import ToolRuntime

TRIALS = 50
runs: Counter[str] = Counter()
first_answer = threading.Event()  # set once either runtime has answered; the running handler waits for it


def booking(token: str, text: str = "") -> dict[str, Any]:
    """A side effect that stays running until the other runtime has answered (or 5 s have passed)."""
    runs[token] += 1
    first_answer.wait(5)
    return {"token": token, "runs": runs[token]}


def test_two_runtimes_on_one_database_run_each_keyed_call_once(demo, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(demo_handlers, "booking", booking, raising=False)
    tools = [t.model_copy(update={"handler": "demo_handlers:booking"}) if t.tool_id == "add_note" else t for t in demo.manifest.tools]
    pack = demo.model_copy(update={"manifest": demo.manifest.model_copy(update={"tools": tools})})
    stores = [SQLiteStore(tmp_path / "shared.db") for _ in range(2)]
    runtimes = [ToolRuntime(pack, s, background_audit=False) for s in stores]
    spec = runtimes[0].tools["add_note"]
    outcomes: list[list[Any]] = []
    try:
        for trial in range(TRIALS):
            first_answer.clear()
            start = threading.Barrier(2)
            answers: list[Any] = [None, None]

            def call(i: int) -> None:
                start.wait(5)
                answers[i] = asyncio.run(runtimes[i].run(
                    runtimes[i].tools["add_note"], {"token": f"t{trial}"}, session_id="s", idempotency_key=f"key-{trial}",
                ))
                first_answer.set()

            threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            outcomes.append(answers)
        again = asyncio.run(runtimes[1].run(spec, {"token": "t0"}, session_id="s", idempotency_key="key-0"))
    finally:
        for r in runtimes:
            r.close()
        for s in stores:
            s.close()
    assert [runs[f"t{i}"] for i in range(TRIALS)] == [1] * TRIALS
    for ran, other in (sorted(pair, key=lambda o: o.error or "") for pair in outcomes):
        assert ran.ok and not ran.replayed
        assert other.error == "still_running" or other.replayed
    assert again.ok and again.replayed and again.data == {"token": "t0", "runs": 1}
