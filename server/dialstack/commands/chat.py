"""``dialstack chat``: talk to an agent in the terminal (or pipe a conversation in).

Interactive: line editing and history (prompt_toolkit), /help and the other slash commands
(:mod:`.chat_commands`), Ctrl-C cancels the turn in progress and keeps the session, Ctrl-D
leaves. Piped: one user turn per line, nothing else read or drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from .chat_terminal import Style, TerminalApprover

from . import db_file

log = logging.getLogger("dialstack.chat")
PIPED_WIDTH = 400  # output to a file or pipe: tables on one line per row, wrapped only when very wide


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "chat",
        help="chat with the agent of a domain (offline by default)",
        description=(
            "An interactive chat with line editing and history; shows the flow stack after each turn; /help lists "
            "the commands. When standard input is not a terminal, reads one user turn per line; answer approval "
            "requests with /approve or /deny."
        ),
    )
    parser.add_argument("--domain", help="bundled domain or one in --pack (default: travel)")
    parser.add_argument("--pack", type=Path, help="a pack folder holding flows/, manifests/ and skills/")
    parser.add_argument("--session", default="default", help="dialogue session id (default: default)")
    parser.add_argument("--user", help="who you are: sessions, preferences and bookings are per user (default: the OS user)")
    parser.add_argument("--db", type=db_file, help="SQLite database (default: the user data directory)")
    parser.add_argument("--llm", choices=["offline", "anthropic"], default="offline", help="backend (default: offline)")
    parser.add_argument("--mcp", default="memory", type=_mcp_target, help="memory (default), stdio, or an http(s):// URL of `dialstack serve`")
    parser.add_argument("--json", action="store_true", help="print one JSON record per turn")
    parser.set_defaults(func=run)


def _mcp_target(text: str) -> str:
    if text in ("memory", "stdio") or text.startswith(("http://", "https://")):
        return text
    raise argparse.ArgumentTypeError(f"expected memory, stdio or an http(s):// URL, got {text!r}")


def run(args: argparse.Namespace) -> int:
    from ..agent import Agent
    from ..agent.llm.anthropic import AnthropicConfigError
    from ..domain import PackError
    from ..store.protocol import StoreError
    from ..tools.prepare import PrepareError
    from .chat_terminal import Style, TerminalApprover, spinner, supports_color

    if args.pack is not None:
        if not args.pack.is_dir():
            print(f"dialstack chat: --pack {args.pack} is not a folder (expected a folder with flows/, manifests/, skills/)", file=sys.stderr)
            return 2
    interactive = sys.stdin.isatty()
    try:
        from ..serve.principal import os_user

        approver = TerminalApprover() if interactive else None
        agent = Agent(args.domain, pack=args.pack, db=args.db, llm=args.llm, mcp=args.mcp,
                      approver=approver, user_id=args.user or os_user())
    except PackError as exc:
        print(f"dialstack chat: the domain pack has errors:\n{exc}", file=sys.stderr)
        return 1
    except (StoreError, AnthropicConfigError, PrepareError, ValueError, OSError) as exc:
        print(f"dialstack chat: {exc}", file=sys.stderr)
        return 1
    style = Style(color=interactive and not args.json and supports_color(sys.stdout))
    _continuing_notice(agent, args.session, style)
    if interactive and not args.json:
        agent.set_spinner(spinner)
        print(agent.templates.get("greeting", "Hi!"))
        print(style.dim("(/help lists the commands; Ctrl-D or /quit leaves)"))
    records = sys.stdout
    if args.json:  # stdout carries the records only: anything a tool handler prints goes to stderr
        sys.stdout = sys.stderr
    try:
        if approver is not None:
            _interactive(agent, args, style, records, approver)
        else:
            _piped(agent, args, records)
    except KeyboardInterrupt:
        print()
    except Exception as exc:  # e.g. the MCP server cannot be reached: one line, not a traceback
        log.debug("chat stopped", exc_info=True)
        where = ""
        if args.mcp.startswith(("http://", "https://")):
            where = f" (MCP server {args.mcp}: is `dialstack serve --transport http` running there?)"
        elif args.mcp == "stdio":
            where = " (the `dialstack serve` subprocess)"
        print(style.error(f"dialstack chat: {_describe(exc)}{where}; run with -v for details"), file=sys.stderr)
        return 1
    finally:
        sys.stdout = records
        agent.close()
    return 0


def _continuing_notice(agent: Any, session: str, style: Style) -> None:
    """Say so on stderr when the session already has turns (stdout stays the conversation)."""
    from .chat_commands import stack_line

    info = agent.store.session_info(session)
    turns = int((info or {}).get("turns") or 0)
    if turns:
        stack = stack_line(agent.inspect(session)["stack"]) or "empty stack"
        print(style.note(f"(continuing session {session}: {turns} turn(s) so far, {stack}; "
                         "--session NAME starts another)"), file=sys.stderr)


def _piped(agent: Any, args: argparse.Namespace, records: TextIO) -> None:
    from .chat_terminal import Style, plain_lines, terminal_width

    width = terminal_width if records.isatty() else (lambda: PIPED_WIDTH)
    _converse(agent, args, plain_lines(sys.stdin), lambda text: agent.handle(args.session, text), Style(), width, records)


def _interactive(agent: Any, args: argparse.Namespace, style: Style, records: TextIO, approver: TerminalApprover) -> None:
    from .chat_terminal import LineEditor, terminal_width

    editor = LineEditor(Path(agent.data_dir) / "chat_history" if agent.data_dir else None)

    def lines() -> Iterator[str]:
        while True:
            try:
                yield editor.read()
            except EOFError:  # Ctrl-D
                print(style.dim("bye"))
                return

    async def turn(text: str) -> Any:
        approver.loop = asyncio.get_running_loop()  # approval questions are asked here, on the main thread
        try:
            return await agent.ahandle(args.session, text)
        finally:
            approver.loop = None

    def take_turn(text: str) -> Any:
        try:
            return asyncio.run(turn(text))
        except KeyboardInterrupt:  # Ctrl-C during a turn: the turn is cancelled before it commits
            print(style.note("(cancelled: that turn was not saved; the conversation is where it was before it)"))
            return None

    _converse(agent, args, lines(), take_turn, style, terminal_width, records)


def _converse(agent: Any, args: argparse.Namespace, lines: Iterable[str], take_turn: Callable[[str], Any],
              style: Style, width: Callable[[], int], records: TextIO) -> None:
    """Slash commands answered here; every other line is a turn (None: it was cancelled)."""
    from .chat_commands import ChatCommands, is_command

    commands = ChatCommands(agent, args.session, width)
    for text in lines:
        if is_command(text):
            answer = commands.run(text)
            if answer.leave:
                return
            print(answer.text)
            continue
        result = take_turn(text)
        if result is not None:
            commands.saw(result.frame)
            _show(result, args.json, records, style, width())


def _describe(exc: BaseException) -> str:
    """The innermost cause of ``exc`` (unwrapping task-group exception groups), as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _show(result: Any, as_json: bool, records: TextIO, style: Style, width: int) -> None:
    from .chat_commands import stack_line, table_lines

    if as_json:
        records.write(json.dumps(result.to_dict(), ensure_ascii=False, default=str) + "\n")
        records.flush()
        return
    print(style.bot(result.reply))
    if result.frame and result.frame.get("display_type") == "table":
        print("\n".join(table_lines(result.frame, width)))
    line = stack_line(result.stack)
    if line:
        print(style.dim(f"     [{line}]"))
