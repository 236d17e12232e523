"""``-v`` works before or after the sub-command and shows dialstack's debug lines only, not the SDK's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dialstack.cli import build_parser


@pytest.mark.parametrize("argv", [["-v", "validate"], ["validate", "-v"], ["pack", "skills", "-v"], ["validate"]])
def test_verbose_is_accepted_before_and_after_the_sub_command(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert args.verbose is ("-v" in argv)


def test_verbose_chat_shows_dialstacks_debug_details_without_the_sdks(tmp_path: Path) -> None:
    unreachable = "http://127.0.0.1:9/mcp"  # the discard port: nothing listens there

    run = subprocess.run([sys.executable, "-m", "dialstack", "chat", "-v", "--db", str(tmp_path / "d.db"), "--mcp", unreachable],
                         input="hello\n", capture_output=True, text=True, timeout=120, cwd=tmp_path)

    debug = [line for line in run.stderr.splitlines() if line.startswith("DEBUG ")]
    assert run.returncode == 1
    assert "DEBUG dialstack.chat: chat stopped" in debug and "Traceback" in run.stderr
    assert all(line.startswith("DEBUG dialstack") for line in debug), debug
