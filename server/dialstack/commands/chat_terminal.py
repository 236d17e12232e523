"""The terminal side of ``dialstack chat``: reading lines, colour, the spinner, approval questions.

Interactive input goes through prompt_toolkit (line editing, history kept in a file,
Ctrl-C clears the line, Ctrl-D ends); piped input is read plainly, one line a turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

PROMPT = "you> "


def supports_color(stream: TextIO) -> bool:
    """Colour only on a terminal that has it, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


@dataclass(frozen=True)
class Style:
    """ANSI colour for the chat's kinds of line, or plain text when ``color`` is off."""

    color: bool = False

    def _paint(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color and text else text

    def bot(self, text: str) -> str:
        return self._paint("1;36", "bot>") + " " + text

    def dim(self, text: str) -> str:
        return self._paint("2", text)

    def note(self, text: str) -> str:
        return self._paint("33", text)

    def error(self, text: str) -> str:
        return self._paint("31", text)


def terminal_width(default: int = 100) -> int:
    return shutil.get_terminal_size((default, 24)).columns


def plain_lines(stream: TextIO) -> Iterator[str]:
    """One user turn per non-blank line of a pipe or file."""
    for line in stream:
        if line.strip():
            yield line.rstrip("\n")


class LineEditor:
    """Interactive input with line editing and a history file; ``read()`` raises EOFError on Ctrl-D."""

    def __init__(self, history_file: Path | None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        history: Any = InMemoryHistory()
        if history_file is not None:
            with contextlib.suppress(OSError):
                history_file.parent.mkdir(parents=True, exist_ok=True)
                history_file.touch(exist_ok=True)
                history = FileHistory(str(history_file))
        self._session: Any = PromptSession(history=history)

    def read(self) -> str:
        """The next non-blank line; Ctrl-C at the prompt clears it and asks again (as shells do)."""
        while True:
            try:
                line = self._session.prompt(PROMPT)
            except KeyboardInterrupt:
                continue
            if line.strip():
                return line


# -- the spinner and approval questions (both write to stderr) ------------------------------

_QUIET = threading.Event()  # set while the terminal is asking the user something
_DRAWING = threading.Lock()


class TerminalApprover:
    """Asks the person at the terminal whether a tool may run (the Agent's ``approver``).

    The Agent awaits it on its own event loop thread. The question itself is put on the main
    thread's loop (``loop``, set by the chat for the turn in progress) with prompt_toolkit, so
    that Ctrl-C there cancels the turn cleanly and no stray reader is left on stdin.
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, tool: str, args: dict[str, Any], reason: str) -> bool:
        from ..tools.gate import shown_arguments, visible

        prompt = f"Allow {tool} to run with {shown_arguments(args)}? ({visible(reason)}) [y/N] "
        if self.loop is None:
            return False  # no turn is being watched from the terminal: refuse rather than read stdin behind its back
        with _DRAWING:  # the spinner must not draw over the question
            _QUIET.set()
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()
        try:
            answer = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(_ask(prompt), self.loop))
        finally:
            _QUIET.clear()
        return answer.strip().lower() in ("y", "yes")


async def _ask(prompt: str) -> str:
    from prompt_toolkit import PromptSession

    return str(await PromptSession().prompt_async(prompt))


@contextlib.contextmanager
def spinner(label: str) -> Iterator[None]:
    stop = threading.Event()
    blank = "\r" + " " * (len(label) + 2) + "\r"

    def spin() -> None:
        drawn = False
        for mark in itertools.cycle("|/-\\"):
            if stop.wait(0.1):
                break
            with _DRAWING:
                if _QUIET.is_set():
                    drawn = False  # the question cleared the line
                    continue
                sys.stderr.write(f"\r{mark} {label}")
                sys.stderr.flush()
                drawn = True
        with _DRAWING:
            if drawn and not _QUIET.is_set():
                sys.stderr.write(blank)

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=1)
