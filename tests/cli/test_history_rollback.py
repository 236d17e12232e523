"""``dialstack history`` and ``dialstack rollback`` on a conversation piped through ``dialstack chat``."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import RunCli

CONVERSATION = "I want to book a flight\nBoston\nChicago\n"


def _chat(run_cli: RunCli, db: Path, text: str = CONVERSATION, session: str = "trip") -> None:
    run = run_cli("chat", "--db", str(db), "--session", session, stdin=text)
    assert run.code == 0, run.err


def test_history_lists_each_turn_with_its_stack(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    table = run_cli("history", "trip", "--db", str(db))
    as_json = run_cli("history", "trip", "--db", str(db), "--json")

    assert table.code == 0
    rows = table.out.splitlines()
    assert rows[0].split() == ["turn", "time", "user", "reply", "stack"]
    assert len(rows) == 4
    assert "I want to book a flight" in rows[1] and rows[1].endswith("book_flight(active)")
    entries = json.loads(as_json.out)
    assert [e["turn"] for e in entries] == [1, 2, 3]
    assert [e["user_text"] for e in entries] == ["I want to book a flight", "Boston", "Chicago"]
    assert entries[2]["stack"] == [{"name": "book_flight", "state": "active"}]


def test_history_without_a_session_lists_the_sessions(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    run = run_cli("history", "--db", str(db))

    assert run.code == 0
    [trip] = [line for line in run.out.splitlines() if line.startswith("trip ")]
    from dialstack.serve.principal import os_user

    assert trip.startswith(f"trip  travel  user={os_user()}  turns=3  started ")  # chat runs as the OS user


def test_rollback_keeps_the_later_turns_as_a_branch_and_the_chat_continues_from_there(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    back = run_cli("rollback", "trip", "--to-turn", "1", "--db", str(db))

    assert back.code == 0
    assert back.out.splitlines() == [
        "session trip is back at turn 1: book_flight(active)",
        "turns 2 to 3 are kept as branch 1 (dialstack history trip --branch 1)",
    ]
    live = json.loads(run_cli("history", "trip", "--db", str(db), "--json").out)
    branch = json.loads(run_cli("history", "trip", "--db", str(db), "--json", "--branch", "1").out)
    assert [e["turn"] for e in live] == [1]
    assert [(e["turn"], e["user_text"]) for e in branch] == [(2, "Boston"), (3, "Chicago")]

    after = run_cli("chat", "--db", str(db), "--session", "trip", "--json", stdin="Denver\n")
    [record] = after.records
    assert record["turn"] == 2
    slots = record["stack"][0]["slots"]
    assert slots["origin"]["display"] == "Denver" and slots["destination"]["value"] is None


def test_rollback_with_discard_deletes_the_later_turns(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    back = run_cli("rollback", "trip", "--to-turn", "2", "--discard", "--db", str(db))

    assert back.code == 0
    assert back.out.splitlines()[1] == "turns 3 to 3 were deleted"
    live = json.loads(run_cli("history", "trip", "--db", str(db), "--json").out)
    assert [e["turn"] for e in live] == [1, 2]
    no_branch = run_cli("history", "trip", "--db", str(db), "--branch", "1")
    assert no_branch.code == 1 and "has no branch 1" in no_branch.err  # discarded: no branch kept


def test_rollback_to_a_turn_the_session_does_not_have_is_refused(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    run = run_cli("rollback", "trip", "--to-turn", "9", "--db", str(db))

    assert run.code == 1
    assert "has no turn 9" in run.err and "1 to 3" in run.err


def test_history_of_an_unknown_session_points_at_the_session_list(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    run = run_cli("history", "elsewhere", "--db", str(db))

    assert run.code == 1
    assert "no session 'elsewhere'" in run.err and "dialstack history" in run.err


def test_history_of_a_branch_the_session_does_not_have_is_refused(run_cli: RunCli, workdir: Path) -> None:
    db = workdir / "chat.db"
    _chat(run_cli, db)

    run = run_cli("history", "trip", "--branch", "7", "--db", str(db))

    assert run.code == 1
    assert "has no branch 7" in run.err and "branches: none" in run.err
