"""What a new user meets first: a fresh home folder, a busy machine, a pipe, a mistyped path."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from dialstack.cli import main
from dialstack.tools.prepare import TEMPLATES_ENV
from dialstack.tools.runtime import ToolRuntime

from .conftest import RunCli


@pytest.fixture
def new_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder dialstack has never seen: no database, no travel data, no prepared copy to take."""
    for name in ("DIALSTACK_DB", "DIALSTACK_TRAVEL_DB", TEMPLATES_ENV, "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_a_first_chat_on_a_busy_machine_answers_right_without_warnings(
    run_cli: RunCli, new_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A loaded machine: every tool gets one second, less than building the travel data takes there.
    monkeypatch.setattr(ToolRuntime, "timeout_s", lambda self, spec: 1.0)
    run = run_cli("chat", stdin="I want to book a flight\nWhat cities do you support?\n")
    assert run.code == 0, run.err
    first, second = [line for line in run.out.splitlines() if line.startswith("bot> ")]
    assert first == "bot> Where would you like to fly from?"
    assert "We fly to 62 cities" in second and "New York" in second
    assert "WARNING" not in run.err and "Traceback" not in run.err and "timeout" not in run.out
    assert (new_home / ".local" / "share" / "dialstack" / "travel.db").is_file()


def test_chat_with_a_database_in_a_missing_folder_is_refused_and_makes_no_folder(
    run_cli: RunCli, tmp_path: Path
) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.db"
    run = run_cli("chat", "--db", str(missing), stdin="hello\n")
    assert run.code == 2
    assert f"argument --db: the folder {missing.parent} does not exist" in run.err
    assert not (tmp_path / "no").exists()


def test_history_json_into_a_closed_pipe_ends_quietly(
    run_cli: RunCli, workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = workdir / "chat.db"
    assert run_cli("chat", "--db", str(db), "--session", "trip", stdin="I want to book a flight\n").code == 0

    class ClosedPipe(io.StringIO):  # `dialstack history --json | head -1` after head has exited
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["history", "trip", "--db", str(db), "--json"]) == 141
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [["history"], ["rollback", "s", "--to-turn", "1"], ["serve"]])
def test_every_db_option_refuses_a_missing_folder(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "x.db"
    with pytest.raises(SystemExit) as exited:
        main([*command, "--db", str(missing)])
    assert exited.value.code == 2
    assert f"argument --db: the folder {missing.parent} does not exist" in capsys.readouterr().err
    assert not missing.parent.exists()
