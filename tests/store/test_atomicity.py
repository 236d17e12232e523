"""A process killed with SIGKILL mid-turn leaves only whole turns behind."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dialstack.store import SQLiteStore, TurnRecord

CHILD = textwrap.dedent(
    """
    import sys
    from dialstack.store import SQLiteStore, TurnRecord
    sys.path.insert(0, {tests!r})
    from atomic_states import state_for

    store = SQLiteStore({db!r}, snapshot_every=7)
    store.ensure_session("s", "travel")
    turn = 0
    while True:
        turn = store.commit_turn("s", TurnRecord(
            user_text=f"u{{turn}}", reply="r" * 2000, state=state_for(turn + 1),
            frame={{"data": [[turn, i, "cell" * 8] for i in range(300)], "display_type": "table"}},
            audit=[{{"tool": "search", "turn": turn + 1}}, {{"tool": "book", "turn": turn + 1}}],
        ))
        print(turn, flush=True)
    """
)

STATES = textwrap.dedent(
    """
    def state_for(turn):
        return {
            "stack": [{"name": "book_flight", "state": "paused"}, {"name": "check", "state": "active", "n": turn}],
            "archive": [{"name": f"done{i}", "state": "completed"} for i in range(turn % 25)],
            "flags": {"keep_going": turn % 3 == 0},
        }
    """
)


def _read_until(proc: subprocess.Popen[str], target: int, timeout: float) -> int:
    """Read the child's committed-turn lines until ``target``; returns the last one read."""
    assert proc.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    last = 0
    while last < target:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not selector.select(remaining):
            raise AssertionError(f"the child committed only {last} turns before the timeout")
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the child exited early: {proc.stderr.read() if proc.stderr else ''}")
        last = int(line)
    return last


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_sigkill_mid_turn_leaves_only_whole_turns(tmp_path: Path) -> None:
    (tmp_path / "atomic_states.py").write_text(STATES)
    db = tmp_path / "killed.db"
    code = CHILD.format(tests=str(tmp_path), db=str(db))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        reported = _read_until(proc, 40, timeout=120)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    sys.path.insert(0, str(tmp_path))
    try:
        from atomic_states import state_for  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    with SQLiteStore(db, snapshot_every=7) as store:
        rows = store.turns("s")
        last = rows[-1].turn
        assert last >= reported  # nothing committed was lost
        assert [row.turn for row in rows] == list(range(1, last + 1))  # no gap, no partial turn
        assert all(row.diff and row.frame and len(row.frame["data"]) == 300 for row in rows)
        assert store.load_state("s") == store.state_at("s", last) == state_for(last)
        assert store.state_at("s", reported) == state_for(reported)
        assert len(store.audit_log("s")) == 2 * last
        assert store.commit_turn("s", TurnRecord("after", "restart", state_for(last + 1))) == last + 1
