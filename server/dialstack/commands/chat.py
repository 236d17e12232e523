"""``dialstack chat``: talk to an agent in the terminal (or pipe a conversation in)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from . import db_file

log = logging.getLogger("dialstack.chat")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "chat",
        help="chat with the agent of a domain (offline by default)",
        description=(
            "An interactive chat. Shows the flow stack after each turn. When standard input is not a "
            "terminal, reads one user turn per line; answer approval requests with /approve or /deny."
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

    if args.pack is not None:
        if not args.pack.is_dir():
            print(f"dialstack chat: --pack {args.pack} is not a folder (expected a folder with flows/, manifests/, skills/)", file=sys.stderr)
            return 2
    interactive = sys.stdin.isatty()
    lines = _lines(sys.stdin, interactive)
    try:
        from ..serve.principal import os_user

        agent = Agent(args.domain, pack=args.pack, db=args.db, llm=args.llm, mcp=args.mcp, approver=_ask if interactive else None,
                      user_id=args.user or os_user())
    except PackError as exc:
        print(f"dialstack chat: the domain pack has errors:\n{exc}", file=sys.stderr)
        return 1
    except (StoreError, AnthropicConfigError, PrepareError, ValueError, OSError) as exc:
        print(f"dialstack chat: {exc}", file=sys.stderr)
        return 1
    if interactive and not args.json:
        agent.set_spinner(_spinner)
        print(agent.templates.get("greeting", "Hi!"))
        print("(type /quit to leave, /stack to show the stack, /more for the next rows of a table)")
    pager = _Pager()
    records = sys.stdout
    if args.json:  # stdout carries the records only: anything a tool handler prints goes to stderr
        sys.stdout = sys.stderr
    try:
        for text in lines:
            if text.strip() in ("/quit", "/exit"):
                break
            if text.strip() == "/stack":
                print(_stack_line(agent.inspect(args.session)["stack"]) or "(empty stack)")
                continue
            if text.strip() == "/more":
                print(pager.next_page(agent.store))
                continue
            result = agent.handle(args.session, text)
            pager.show(result.frame)
            _show(result, args.json, records)
    except KeyboardInterrupt:
        print()
    except Exception as exc:  # e.g. the MCP server cannot be reached: one line, not a traceback
        log.debug("chat stopped", exc_info=True)
        where = ""
        if args.mcp.startswith(("http://", "https://")):
            where = f" (MCP server {args.mcp}: is `dialstack serve --transport http` running there?)"
        elif args.mcp == "stdio":
            where = " (the `dialstack serve` subprocess)"
        print(f"dialstack chat: {_describe(exc)}{where}; run with -v for details", file=sys.stderr)
        return 1
    finally:
        sys.stdout = records
        agent.close()
    return 0


class _Pager:
    """Pages through the last table with the store's ``frame_page`` (its ``table_id``)."""

    def __init__(self) -> None:
        self.frame: dict[str, Any] | None = None
        self.offset = 0

    def show(self, frame: dict[str, Any] | None) -> None:
        if frame and frame.get("display_type") == "table":
            self.frame, self.offset = frame, PAGE

    def next_page(self, store: Any) -> str:
        if not self.frame:
            return "(no table to page through)"
        if self.offset >= self.frame.get("row_count", 0):
            return "(no more rows)"
        table_id = self.frame.get("table_id")
        if table_id:
            page = store.frame_page(table_id, self.offset, PAGE)
            rows = page.get("data", [])
        else:
            rows = self.frame["data"][self.offset : self.offset + PAGE]
        self.offset += PAGE
        return _table({**self.frame, "data": rows, "row_count": len(rows)}, limit=PAGE)


def _describe(exc: BaseException) -> str:
    """The innermost cause of ``exc`` (unwrapping task-group exception groups), as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _lines(stream: TextIO, interactive: bool) -> Iterator[str]:
    while True:
        if interactive:
            try:
                line = input("you> ")
            except EOFError:
                return
        else:
            line = stream.readline()
            if not line:
                return
        if line.strip():
            yield line.rstrip("\n")


async def _ask(tool: str, args: dict[str, Any], reason: str) -> bool:
    """Ask the person at the terminal. (Piped input answers on the next line: /approve or /deny.)"""
    from ..tools.gate import shown_arguments, visible

    prompt = f"Allow {tool} to run with {shown_arguments(args)}? ({visible(reason)}) [y/N] "
    with _DRAWING:  # the spinner must not draw over the question
        _QUIET.set()
        sys.stderr.write("\r" + " " * 60 + "\r")
        sys.stderr.flush()
    try:
        answer = await asyncio.get_running_loop().run_in_executor(None, lambda: input(prompt))
    finally:
        _QUIET.clear()
    return answer.strip().lower() in ("y", "yes")


def _show(result: Any, as_json: bool, records: TextIO) -> None:
    if as_json:
        records.write(json.dumps(result.to_dict(), ensure_ascii=False, default=str) + "\n")
        records.flush()
        return
    print(f"bot> {result.reply}")
    if result.frame and result.frame.get("display_type") == "table":
        print(_table(result.frame))
    line = _stack_line(result.stack)
    if line:
        print(f"     [{line}]")


def _stack_line(stack: list[dict[str, Any]]) -> str:
    return " > ".join(f"{f['name']}({f['state']})" for f in stack)


PAGE = 8


def _table(frame: dict[str, Any], limit: int = PAGE) -> str:
    rows = frame.get("data") or []
    if not rows:
        return ""
    columns = [c for c in rows[0] if not isinstance(rows[0][c], (dict, list))][:7]
    cells = [[str(r.get(c, "")) for c in columns] for r in rows[:limit]]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    out = ["  ".join(c.ljust(w) for c, w in zip(columns, widths))]
    out += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in cells]
    if frame.get("row_count", 0) > limit:
        out.append(f"... {frame['row_count'] - limit} more row(s)" + (f" (table {frame['table_id']})" if frame.get("table_id") else ""))
    return "\n".join("     " + line for line in out)


_QUIET = threading.Event()  # set while the terminal is asking the user something
_DRAWING = threading.Lock()


@contextlib.contextmanager
def _spinner(label: str) -> Iterator[None]:
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
