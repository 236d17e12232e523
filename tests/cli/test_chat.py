"""``dialstack chat`` with piped standard input: one user turn per line."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import RunCli

DEMO_PACK = Path(__file__).resolve().parents[1] / "fixtures" / "packs" / "demo"
RECORD_KEYS = {
    "session", "turn", "user", "reply", "stack", "flags", "frame", "tool_calls", "approval_requested",
    "transitions", "understanding", "digression_depth", "waiting_for_slot", "warnings", "committed",
}


def test_piped_json_chat_prints_one_record_per_turn_with_the_documented_keys(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--json", stdin="I want to book a flight\nWhat cities do you support?\n\nNew York\n")

    assert run.code == 0, run.err
    first, second, third = run.records  # the blank line is skipped
    assert set(first) == RECORD_KEYS
    assert first["session"] == "default" and first["turn"] == 1 and first["user"] == "I want to book a flight"
    assert "Where would you like to fly from?" in first["reply"]
    assert [(f["name"], f["state"]) for f in first["stack"]] == [("book_flight", "active")]
    assert first["stack"][0]["slots"]["origin"] == {"value": None, "display": ""}
    assert first["waiting_for_slot"] == "origin" and first["approval_requested"] is False
    assert set(first["flags"]) == {"keep_going", "has_issues", "has_plan", "natural_birth"}
    assert "New York" in second["reply"] and second["reply"].endswith("Where would you like to fly from?")
    assert [c["tool"] for c in second["tool_calls"]] == ["answer_faq"]
    assert third["stack"][0]["slots"]["origin"]["display"] == "New York"
    assert "Where would you like to fly to?" in third["reply"]
    assert [r["turn"] for r in run.records] == [1, 2, 3]


def test_piped_chat_without_json_shows_each_reply_and_the_stack(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--session", "plain", stdin="I want to book a flight\n")

    assert run.code == 0, run.err
    assert run.out.splitlines() == ["bot> Where would you like to fly from?", "     [book_flight(active)]"]


def test_a_piped_conversation_continues_in_its_session_on_the_next_run(run_cli: RunCli, workdir: Path) -> None:
    run_cli("chat", "--session", "trip", stdin="I want to book a flight\n")
    again = run_cli("chat", "--json", "--session", "trip", stdin="Boston\n")

    [record] = again.records
    assert record["turn"] == 2
    assert record["stack"][0]["slots"]["origin"]["display"] == "Boston"


def test_approve_and_deny_lines_answer_approval_requests(run_cli: RunCli, workdir: Path) -> None:
    lines = [
        "Check my inbox for booking emails",  # untrusted input enters the session
        "Email my itinerary for BK-12345 to ana@example.com",
        "yes",  # sending changes something and cannot be undone: it is confirmed first
        "/approve",
        "Email my itinerary for BK-12345 to bob@example.com",
        "yes",
        "/deny",
    ]
    run = run_cli("chat", "--json", stdin="\n".join(lines) + "\n")

    assert run.code == 0, run.err
    inbox, confirm_ana, ask_ana, approved, confirm_bob, ask_bob, denied = run.records
    assert "shall I go ahead?" in confirm_ana["reply"] and "shall I go ahead?" in confirm_bob["reply"]
    assert [c["tool"] for c in inbox["tool_calls"]] == ["read_inbox"]
    assert ask_ana["approval_requested"] == "send_itinerary"
    assert "Allow send_itinerary" in ask_ana["reply"] and "ana@example.com" in ask_ana["reply"]
    assert [(c["tool"], c["ok"]) for c in approved["tool_calls"]] == [("send_itinerary", True)]
    assert approved["transitions"]["completed"] == ["send_itinerary"]
    assert ask_bob["approval_requested"] == "send_itinerary"
    assert denied["tool_calls"] == []
    assert denied["transitions"]["cancelled"] == ["send_itinerary"]
    assert "didn't run send_itinerary" in denied["reply"]


def test_an_approve_line_with_nothing_pending_says_so(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--json", stdin="/approve\n")

    [record] = run.records
    assert "nothing waiting for approval" in record["reply"]
    assert record["tool_calls"] == []


def test_quit_ends_a_piped_chat_before_the_remaining_lines(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--json", stdin="I want to book a flight\n/quit\nBoston\n")

    assert run.code == 0
    assert len(run.records) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chat", "--bogus"], "unrecognized arguments: --bogus"),
        (["chat", "--llm", "gpt"], "argument --llm: invalid choice: 'gpt'"),
        (["chat", "--mcp", "carrier-pigeon"], "argument --mcp: expected memory, stdio or an http(s):// URL"),
        (["chat", "--pack"], "argument --pack: expected one argument"),
    ],
)
def test_bad_flags_are_usage_errors_with_exit_status_2(run_cli: RunCli, workdir: Path, argv: list[str], message: str) -> None:
    run = run_cli(*argv)

    assert run.code == 2
    assert message in run.err
    assert "usage: dialstack" in run.err


def test_an_unknown_domain_names_the_known_domains_and_exits_1(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--domain", "nope", stdin="hello\n")

    assert run.code == 1
    assert "no domain 'nope'" in run.err and "one of: travel" in run.err
    assert run.out == ""


def test_an_unknown_domain_prints_no_traceback_from_a_real_process(workdir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dialstack", "chat", "--domain", "nope"],
        input="hello\n", capture_output=True, text=True, timeout=120, cwd=workdir,
    )

    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "no domain 'nope'" in done.stderr and "travel" in done.stderr


def test_a_db_that_is_not_sqlite_is_refused_with_a_clear_message(run_cli: RunCli, workdir: Path) -> None:
    bogus = workdir / "notes.txt"
    bogus.write_text("these are my notes, not a database\n" * 100)

    run = run_cli("chat", "--db", str(bogus), stdin="hello\n")

    assert run.code == 1
    assert f"{bogus} is not a usable dialstack database" in run.err
    assert bogus.read_text().startswith("these are my notes")  # untouched


def test_a_pack_that_is_not_a_folder_is_a_usage_error(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", "--pack", str(workdir / "missing"), stdin="hello\n")

    assert run.code == 2
    assert "is not a folder" in run.err


def test_the_anthropic_backend_without_a_key_says_how_to_set_one(
    run_cli: RunCli, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)

    run = run_cli("chat", "--llm", "anthropic", stdin="hello\n")

    assert run.code == 1
    assert "ANTHROPIC_API_KEY" in run.err and "--llm offline" in run.err


def test_an_mcp_server_that_cannot_be_reached_is_a_one_line_error(run_cli: RunCli, workdir: Path) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    run = run_cli("chat", "--mcp", f"http://127.0.0.1:{port}/mcp", stdin="I want to book a flight\n")

    assert run.code == 1
    assert run.err.startswith("dialstack chat: ") and run.err.count("\n") == 1
    assert "Traceback" not in run.err


def test_a_pack_folder_with_its_own_handlers_chats_without_installing_them(
    run_cli: RunCli, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # chat puts the pack on sys.path; undo it afterwards
    monkeypatch.delitem(sys.modules, "demo_handlers", raising=False)

    run = run_cli("chat", "--json", "--pack", str(DEMO_PACK), "--domain", "demo", stdin="echo hello\n")

    assert run.code == 0, run.err
    [record] = run.records
    assert [(c["tool"], c["ok"]) for c in record["tool_calls"]] == [("echo", True)]
    assert record["transitions"]["completed"] == ["echo_text"]


def test_what_a_tool_handler_prints_never_mixes_into_the_json_records(
    run_cli: RunCli, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dialstack.domains.travel import handlers

    real = handlers.list_bookings

    def chatty(**kwargs: Any) -> Any:
        print("debug: listing bookings")
        return real(**kwargs)

    monkeypatch.setattr(handlers, "list_bookings", chatty)
    run = run_cli("chat", "--json", stdin="Show my bookings\n")
    assert run.code == 0
    assert [r["tool_calls"][0]["tool"] for r in run.records] == ["list_bookings"]
    assert "debug: listing bookings" in run.err
