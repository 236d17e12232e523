"""``dialstack chat``'s slash commands, notices and tables (piped input), and what Ctrl-C relies on."""

from __future__ import annotations

import asyncio
import importlib
import string
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.agent import Agent
from dialstack.cli import main
from dialstack.commands.chat_commands import is_command
from dialstack.commands.tables import render_table

from .conftest import RunCli


def test_help_lists_the_commands(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="/help\n")

    assert run.code == 0
    for command in ("/help", "/stack", "/more", "/rollback N", "/approve, /deny", "/quit"):
        assert f"  {command}" in run.out


def test_an_unknown_command_is_answered_as_such_and_not_sent_to_the_agent(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="/bookflight\n")

    assert run.out.strip() == "unknown command /bookflight (type /help for the commands)"
    assert "default" not in run_cli("history").out  # no turn was taken, so no session


def test_approve_and_deny_are_answers_for_the_agent_not_commands() -> None:
    assert not is_command("/approve") and not is_command(" /DENY ")
    assert is_command("/rollback 2") and is_command("/nonsense") and not is_command("book a flight")


def test_rollback_in_the_chat_returns_to_an_earlier_turn_and_keeps_the_later_ones(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="I want to book a flight\nActually, let me check my booking first\n/rollback 1\n/stack\n")

    lines = run.out.splitlines()
    assert "back at turn 1: book_flight(active); turn 2 is kept as a branch" in run.out
    assert lines[-1] == "book_flight(active)"
    assert run_cli("history", "default", "--branch", "1").code == 0


def test_rollback_without_a_turn_number_explains_its_usage(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="/rollback last\n/rollback 9\n")

    usage, refused = run.out.strip().splitlines()
    assert usage.startswith("usage: /rollback N")
    assert refused.startswith("cannot roll back:")


def test_continuing_a_session_is_noticed_on_stderr_and_a_new_one_is_not(run_cli: RunCli, workdir: Path) -> None:
    first = run_cli("chat", stdin="I want to book a flight\n")
    again = run_cli("chat", stdin="Boston\n")

    assert "continuing" not in first.err
    assert "(continuing session default: 1 turn(s) so far, book_flight(active)" in again.err
    assert again.out.startswith("bot> Where would you like to fly to?")


def test_quit_ends_the_chat_before_later_lines(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="/quit\nI want to book a flight\n")

    assert run.code == 0 and run.out == ""


def test_a_table_shows_every_column_when_piped(run_cli: RunCli, workdir: Path) -> None:
    run = run_cli("chat", stdin="Show me flights from Boston to Chicago on Dec 15\n")

    header = run.out.splitlines()[1]
    for column in ("flight_id", "origin_airport", "destination_airport", "arrival", "price", "seats_left"):
        assert column in header


# -- tables ---------------------------------------------------------------------------------

_words = st.text(alphabet=string.ascii_letters + string.digits + "-", min_size=1, max_size=30)
_rows = st.lists(st.dictionaries(st.sampled_from(["id", "name", "notes", "city", "when", "price"]),
                                 st.lists(_words, min_size=1, max_size=6).map(" ".join), min_size=1), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(rows=_rows, width=st.integers(min_value=20, max_value=160))
def test_a_table_fits_the_width_and_loses_no_character(rows: list[dict[str, str]], width: int) -> None:
    lines = render_table(rows, width, indent="  ")

    assert all(len(line) <= width for line in lines)
    shown = Counter("".join(lines).replace(" ", ""))
    columns = {key for row in rows for key in row}
    given_text = Counter(("".join(columns) + "".join(v for row in rows for v in row.values())).replace(" ", ""))
    assert not given_text - shown  # long words are split over lines, never cut


def test_a_table_too_wide_for_columns_is_shown_row_by_row() -> None:
    row = {f"column_{i}": f"value {i}" for i in range(12)}

    lines = render_table([row], 40)

    assert lines[0] == "-- row 1 --" and "column_11: value 11" in lines


# -- Ctrl-C: a cancelled turn saves nothing and the session goes on ------------------------------

WAITING_HANDLER = '''
import threading
STARTED = threading.Event()
RELEASE = threading.Event()


def list_appointments(*, ctx):
    STARTED.set()
    RELEASE.wait(60)
    return {"appointments": [], "count": 0}
'''


async def test_a_turn_cancelled_in_progress_is_not_saved_and_the_session_continues(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    assert main(["init", str(pack), "--domain", "waiting"]) == 0
    source = (pack / "waiting_handlers.py").read_text()
    (pack / "waiting_handlers.py").write_text(source.split("def list_appointments")[0] + WAITING_HANDLER)
    handlers = importlib.reload(importlib.import_module("waiting_handlers"))  # `init` imported the original
    agent = Agent("waiting", pack=pack, db=tmp_path / "d.db", data_dir=tmp_path)
    try:
        await agent.ahandle("s", "I want to book an appointment")
        turn = asyncio.ensure_future(agent.ahandle("s", "Show my appointments"))
        assert await asyncio.to_thread(handlers.STARTED.wait, 60)

        turn.cancel()  # what Ctrl-C does to the turn in progress
        with pytest.raises(asyncio.CancelledError):
            await turn
        handlers.RELEASE.set()

        assert agent.store.session_info("s")["turns"] == 1
        following = await agent.ahandle("s", "tomorrow at 3pm")
        assert "consultation or a follow-up" in following.reply
        assert agent.store.session_info("s")["turns"] == 2
    finally:
        handlers.RELEASE.set()
        agent.close()


# -- colour ---------------------------------------------------------------------------------


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_colour_is_used_on_a_terminal_unless_no_color_or_a_dumb_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from dialstack.commands.chat_terminal import Style, supports_color

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert supports_color(_Terminal())  # type: ignore[arg-type]
    assert Style(color=True).bot("hi") == "\033[1;36mbot>\033[0m hi"
    monkeypatch.setenv("NO_COLOR", "1")
    assert not supports_color(_Terminal())  # type: ignore[arg-type]
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not supports_color(_Terminal())  # type: ignore[arg-type]
    assert Style(color=False).bot("hi") == "bot> hi" and Style(color=False).dim("x") == "x"


def test_more_pages_through_the_last_table_then_says_there_is_no_more() -> None:
    from dialstack.commands.chat_commands import PAGE, ChatCommands, table_lines

    rows = [{"ref": f"BK-{i:05d}", "city": "Paris"} for i in range(PAGE + 3)]
    frame = {"display_type": "table", "data": rows, "row_count": len(rows)}
    commands = ChatCommands(agent=None, session="s", width=lambda: 80)

    first = table_lines(frame, 80)
    commands.saw(frame)
    second = commands.run("/more").text

    assert "BK-00007" in "\n".join(first) and "BK-00008" not in "\n".join(first)
    assert first[-1].strip() == "... 3 more row(s) (/more shows them)"
    assert [line.split()[0] for line in second.splitlines()[1:]] == ["BK-00008", "BK-00009", "BK-00010"]
    assert commands.run("/more").text == "(no more rows)"


# -- the approval question ----------------------------------------------------------------


@pytest.mark.parametrize(("typed", "allowed"), [("y\n", True), ("yes\n", True), ("\n", False), ("no\n", False)])
async def test_the_approval_question_is_asked_on_the_chats_loop_and_only_yes_allows(typed: str, allowed: bool) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from dialstack.commands.chat_terminal import TerminalApprover

    approver = TerminalApprover()
    approver.loop = asyncio.get_running_loop()  # what the chat sets for the turn in progress
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        keys.send_text(typed)
        # the Agent awaits its approver on its own loop, in another thread
        answer = await asyncio.to_thread(asyncio.run, approver("send_message", {"to": "bob"}, "external"))

    assert answer is allowed


async def test_without_a_turn_in_progress_the_approver_refuses_without_reading_stdin() -> None:
    from dialstack.commands.chat_terminal import TerminalApprover

    assert await TerminalApprover()("send_message", {"to": "bob"}, "external") is False
