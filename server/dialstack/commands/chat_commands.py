"""The slash commands of ``dialstack chat`` (/help, /stack, /more, /rollback N, /quit).

``/approve`` and ``/deny`` are not commands here: they are the user's answer to a pending
approval and go to the agent like any other message. Any other ``/word`` is answered as an
unknown command instead of being sent to the agent as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .tables import render_table

PAGE = 8  # table rows shown at once; /more shows the next ones
INDENT = "     "
HELP: tuple[tuple[str, str], ...] = (
    ("/help", "list these commands"),
    ("/stack", "show the flow stack, bottom first"),
    ("/more", "show the next rows of the last table"),
    ("/rollback N", "go back to the state after turn N (later turns are kept as a branch)"),
    ("/approve, /deny", "answer a pending approval (also yes / no)"),
    ("/quit", "leave (also /exit or Ctrl-D); Ctrl-C cancels a turn in progress"),
)
TO_AGENT = frozenset({"/approve", "/deny"})
LEAVE = frozenset({"/quit", "/exit"})


def is_command(line: str) -> bool:
    """True for a line the chat handles itself rather than sending to the agent."""
    words = line.strip().split()
    return bool(words) and words[0].startswith("/") and words[0].lower() not in TO_AGENT


@dataclass
class Answer:
    text: str
    leave: bool = False


def stack_line(stack: list[dict[str, Any]]) -> str:
    return " > ".join(f"{f['name']}({f['state']})" for f in stack)


def table_lines(frame: dict[str, Any], width: int, limit: int = PAGE) -> list[str]:
    """Every column of the frame's first ``limit`` rows, wrapped to ``width``, and what is left."""
    rows = (frame.get("data") or [])[:limit]
    lines = render_table(rows, width, INDENT)
    left = frame.get("row_count", len(frame.get("data") or [])) - len(rows)
    if left > 0:
        lines.append(f"{INDENT}... {left} more row(s) (/more shows them)")
    return lines


@dataclass
class ChatCommands:
    """Runs one slash command against an agent's session; keeps the last table for /more."""

    agent: Any
    session: str
    width: Callable[[], int] = field(default=lambda: 100)
    _frame: dict[str, Any] | None = None
    _offset: int = 0

    def saw(self, frame: dict[str, Any] | None) -> None:
        """Note the frame a turn displayed, so that /more continues it."""
        if frame and frame.get("display_type") == "table":
            self._frame, self._offset = frame, PAGE

    def run(self, line: str) -> Answer:
        name, *args = line.strip().split()
        command = name.lower()
        if command in LEAVE:
            return Answer("", leave=True)
        if command == "/help":
            width = max(len(c) for c, _ in HELP)
            return Answer("\n".join(f"  {c.ljust(width)}  {what}" for c, what in HELP))
        if command == "/stack":
            return Answer(stack_line(self.agent.inspect(self.session)["stack"]) or "(empty stack)")
        if command == "/more":
            return Answer(self._more())
        if command == "/rollback":
            return Answer(self._rollback(args))
        return Answer(f"unknown command {name} (type /help for the commands)")

    def _more(self) -> str:
        if not self._frame:
            return "(no table to page through)"
        total = self._frame.get("row_count", 0)
        if self._offset >= total:
            return "(no more rows)"
        table_id = self._frame.get("table_id")
        if table_id:
            rows = self.agent.store.frame_page(table_id, self._offset, PAGE).get("data", [])
        else:
            rows = self._frame["data"][self._offset : self._offset + PAGE]
        self._offset += len(rows) or PAGE
        lines = render_table(rows, self.width(), INDENT)
        if self._offset < total:
            lines.append(f"{INDENT}... {total - self._offset} more row(s) (/more shows them)")
        return "\n".join(lines)

    def _rollback(self, args: list[str]) -> str:
        from ..store.protocol import StoreError
        from .history import stack_view

        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            return "usage: /rollback N, where N is the number of the turn to go back to (see `dialstack history`)"
        turn = int(args[0])
        info = self.agent.store.session_info(self.session) or {}
        try:
            state = self.agent.store.rollback(self.session, turn, mode="branch")
        except StoreError as exc:
            return f"cannot roll back: {exc}"
        self._frame = None
        head = int(info.get("turns") or 0)
        later = f"turn {head} is" if head == turn + 1 else f"turns {turn + 1} to {head} are"
        kept = f"; {later} kept as a branch (dialstack history {self.session} --branch N shows it)" if head > turn else ""
        return f"back at turn {turn}: {stack_view(state) or '(empty stack)'}{kept}"
