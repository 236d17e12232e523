"""``dialstack history`` and ``dialstack rollback``, through the real argument parser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dialstack.cli import main
from dialstack.commands.history import stack_view
from dialstack.store import SQLiteStore

from .conftest import dialogue, flow, record


@pytest.fixture
def conversation(db_path: Path, store: SQLiteStore) -> Path:
    store.commit_turn("s1", record(dialogue(flow("book_flight", "active")), text="fly me to Paris"))
    store.commit_turn("s1", record(dialogue(flow("book_flight", "paused"), flow("check_booking", "active")), text="wait, is my hotel booked? " * 4))
    store.commit_turn("s1", record(dialogue(flow("book_flight", "active")), text="ok back to the flight"))
    return db_path


def test_history_lists_turns_with_the_stack_after_each(conversation: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "s1", "--db", str(conversation)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4
    assert "fly me to Paris" in out[1] and out[1].endswith("book_flight(active)")
    assert out[2].endswith("book_flight(paused) > check_booking(active)")
    assert "…" in out[2]  # long user text is clipped


def test_history_json_has_full_text_and_stack(conversation: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "s1", "--db", str(conversation), "--json", "--last", "2"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [e["turn"] for e in entries] == [2, 3]
    assert entries[0]["user_text"] == "wait, is my hotel booked? " * 4
    assert entries[0]["stack"] == [{"name": "book_flight", "state": "paused"}, {"name": "check_booking", "state": "active"}]


def test_history_without_a_session_lists_sessions(conversation: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", str(conversation)]) == 0
    assert "s1  travel  user=alice  turns=3" in capsys.readouterr().out


def test_rollback_keeps_later_turns_as_a_branch(conversation: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollback", "s1", "--to-turn", "1", "--db", str(conversation)]) == 0
    out = capsys.readouterr().out
    assert "back at turn 1: book_flight(active)" in out and "turns 2 to 3 are kept as branch 1" in out
    assert main(["history", "s1", "--db", str(conversation), "--branch", "1", "--json"]) == 0
    assert [e["turn"] for e in json.loads(capsys.readouterr().out)] == [2, 3]


def test_rollback_discard_deletes_later_turns(conversation: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollback", "s1", "--to-turn", "2", "--discard", "--db", str(conversation)]) == 0
    assert "turns 3 to 3 were deleted" in capsys.readouterr().out
    with SQLiteStore(conversation) as store:
        assert len(store.turns("s1")) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["history", "nobody"], "no session 'nobody'"),
        (["rollback", "s1", "--to-turn", "9"], "has no turn 9 on its live line (it has turns 1 to 3"),
    ],
)
def test_user_errors_are_one_line_and_exit_1(conversation: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main([*argv, "--db", str(conversation)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_database_is_reported_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.db"
    assert main(["history", "s1", "--db", str(missing)]) == 1
    assert "no database at" in capsys.readouterr().err and not missing.exists()


def test_a_bad_database_file_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("not sqlite\n" * 200)
    done = subprocess.run(
        [sys.executable, "-m", "dialstack.cli", "history", "s1", "--db", str(bad)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert "not a usable dialstack database" in done.stderr and "Traceback" not in done.stderr


def test_stack_view_tolerates_odd_states() -> None:
    assert stack_view({"stack": {"flows": [{"name": "a", "state": "active"}]}}) == "a(active)"
    assert stack_view({"stack": [{"name": "a"}, "junk", {}]}) == "a(?) > ?(?)"
    assert stack_view({}) == "" and stack_view(None) == ""
