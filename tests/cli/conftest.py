"""Run ``dialstack`` in-process (``dialstack.cli.main``) with piped stdin and captured output."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from dialstack.cli import main
from dialstack.domain import load_domain
from dialstack.tools.prepare import prepare_domain


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def records(self) -> list[dict[str, Any]]:
        """The ``chat --json`` records, one per line."""
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    @property
    def last_line(self) -> str:
        lines = [line for line in self.out.splitlines() if line.strip()]
        return lines[-1] if lines else ""


RunCli = Callable[..., Run]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the chat database and a fresh travel database next to it.

    The travel database is a copy of the one the suite prepares once (see tests/conftest.py);
    ``DIALSTACK_DB`` points here too, so nothing reaches the user's data folder.
    """
    prepare_domain(load_domain("travel"), tmp_path, date.today())
    monkeypatch.setenv("DIALSTACK_DB", str(tmp_path / "dialstack.db"))
    return tmp_path


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> RunCli:
    """``run_cli("chat", "--json", stdin="line\\n")``: the exit status and what was printed."""

    def run(*argv: str, stdin: str = "") -> Run:
        capsys.readouterr()
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))  # not a terminal: chat reads lines
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse errors and --help
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
