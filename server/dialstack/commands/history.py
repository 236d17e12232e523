"""``dialstack history [SESSION]`` and ``dialstack rollback SESSION --to-turn N``.

``history`` lists a session's turns (number, time, user text, reply, and the flow stack
after the turn, bottom first: ``book_flight(paused) > check_booking(active)``); without
a session it lists the sessions. ``rollback`` makes turn N the head again; the later turns
are kept as an abandoned branch unless ``--discard`` deletes them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from . import db_file

TEXT_WIDTH = 36


def register(subparsers: argparse._SubParsersAction) -> None:
    history = subparsers.add_parser(
        "history",
        help="list a session's turns with the flow stack after each (or list sessions)",
        description="List a session's turns: number, time, user text, reply, flow stack. Without SESSION, list sessions.",
    )
    history.add_argument("session", nargs="?", metavar="SESSION", help="the session id (omit to list sessions)")
    _db_argument(history)
    history.add_argument("--json", action="store_true", help="print JSON instead of a table")
    history.add_argument("--last", type=_positive, metavar="N", help="only the last N turns")
    history.add_argument("--branch", type=_positive, metavar="B", help="show abandoned branch B instead of the live turns")
    history.add_argument("--export-test", type=Path, metavar="FILE",
                         help="write the session as a conversation test file (run it with `dialstack test FILE`)")
    history.set_defaults(func=run_history)

    rollback = subparsers.add_parser(
        "rollback",
        help="make an earlier turn the session's current state again",
        description=(
            "Roll SESSION back to the state after turn N. The later turns are kept as an abandoned "
            "branch (see `dialstack history SESSION --branch B`) unless --discard deletes them."
        ),
    )
    rollback.add_argument("session", metavar="SESSION", help="the session id")
    rollback.add_argument("--to-turn", type=_positive, required=True, metavar="N", help="the turn to return to")
    rollback.add_argument("--discard", action="store_true", help="delete the later turns instead of keeping them as a branch")
    _db_argument(rollback)
    rollback.set_defaults(func=run_rollback)


def _db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=db_file, metavar="PATH", help="the database file (default: $DIALSTACK_DB or the user data dir)")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


# -- handlers -------------------------------------------------------------------------


def run_history(args: argparse.Namespace) -> int:
    from dialstack.store import StoreError, open_store

    try:
        with open_store(args.db, create=False) as store:
            if args.session is None:
                return _print_sessions(store.list_sessions(), args.json)
            if args.branch and args.branch not in {b["branch"] for b in store.branches(args.session)}:
                known = ", ".join(str(b["branch"]) for b in store.branches(args.session)) or "none"
                print(f"dialstack history: session {args.session} has no branch {args.branch} (branches: {known})",
                      file=sys.stderr)
                return 1
            rows = store.states(args.session, args.last, branch=args.branch or 0)
            info = store.session_info(args.session)
    except StoreError as exc:
        return _fail("history", exc)
    if args.export_test is not None:
        return _export_test(args, info, rows)
    entries = [_entry(row, state) for row, state in rows]
    if args.json:
        print(json.dumps(entries, indent=2, ensure_ascii=False))
    elif not entries:
        print(f"session {args.session} has no turns yet")
    else:
        print(_table(entries))
    return 0


def _export_test(args: argparse.Namespace, info: Mapping[str, Any] | None, rows: list[Any]) -> int:
    from dialstack.agent.conversation_export import dump_conversation, export_conversation

    turns = [(row.user_text, row.reply, row.created_at, [name for name, _ in stack_flows(state)]) for row, state in rows]
    try:
        data = export_conversation(args.session, (info or {}).get("domain"), turns)
    except ValueError as exc:
        return _fail("history", exc)
    if args.export_test.is_dir():
        return _fail("history", ValueError(f"--export-test {args.export_test} is a folder; name a .yaml file inside it"))
    from dialstack.domain import available_domains, bundled_root

    bundled = data.get("domain") in available_domains(bundled_root())
    args.export_test.write_text(dump_conversation(data, bundled=bundled), encoding="utf-8")
    print(f"wrote {len(turns)} turn(s) of session {args.session} to {args.export_test}; run it with: dialstack test {args.export_test}")
    return 0


def run_rollback(args: argparse.Namespace) -> int:
    from dialstack.store import StoreError, open_store

    mode = "discard" if args.discard else "branch"
    try:
        with open_store(args.db, create=False) as store:
            info = store.session_info(args.session)
            head = info["turns"] if info else 0
            state = store.rollback(args.session, args.to_turn, mode=mode)
            branches = store.branches(args.session)
    except StoreError as exc:
        return _fail("rollback", exc)
    print(f"session {args.session} is back at turn {args.to_turn}: {stack_view(state) or '(empty stack)'}")
    if head > args.to_turn and mode == "discard":
        print(f"turns {args.to_turn + 1} to {head} were deleted")
    elif head > args.to_turn:
        branch = branches[-1]["branch"]
        print(f"turns {args.to_turn + 1} to {head} are kept as branch {branch} "
              f"(dialstack history {args.session} --branch {branch})")
    return 0


def _fail(command: str, exc: Exception) -> int:
    print(f"dialstack {command}: {exc}", file=sys.stderr)
    return 1


# -- views ------------------------------------------------------------------------------


def stack_view(state: Any) -> str:
    """``book_flight(paused) > check_booking(active)``, bottom first; tolerant of odd shapes."""
    return " > ".join(f"{name}({status})" for name, status in stack_flows(state))


def stack_flows(state: Any) -> list[tuple[str, str]]:
    stack = state.get("stack") if isinstance(state, Mapping) else None
    if isinstance(stack, Mapping):  # FlowStack.serialize(): {"flows": [...], "archive": [...]}
        stack = stack.get("flows")
    if not isinstance(stack, Sequence) or isinstance(stack, str):
        return []
    return [
        (str(flow.get("name", "?")), str(flow.get("state", "?")))
        for flow in stack
        if isinstance(flow, Mapping)
    ]


def _entry(row: Any, state: Any) -> dict[str, Any]:
    return {
        "turn": row.turn,
        "branch": row.branch,
        "created_at": row.created_at,
        "user_text": row.user_text,
        "reply": row.reply,
        "stack": [{"name": name, "state": status} for name, status in stack_flows(state)],
    }


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M:%S")


def _clip(text: str, width: int = TEXT_WIDTH) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _table(entries: list[dict[str, Any]]) -> str:
    lines = [f"{'turn':>5}  {'time':<19}  {'user':<{TEXT_WIDTH}}  {'reply':<{TEXT_WIDTH}}  stack"]
    for e in entries:
        view = " > ".join(f"{f['name']}({f['state']})" for f in e["stack"]) or "-"
        lines.append(
            f"{e['turn']:>5}  {_when(e['created_at'])}  {_clip(e['user_text']):<{TEXT_WIDTH}}  "
            f"{_clip(e['reply']):<{TEXT_WIDTH}}  {view}"
        )
    return "\n".join(lines)


def _print_sessions(sessions: list[dict[str, Any]], as_json: bool) -> int:
    if as_json:
        print(json.dumps(sessions, indent=2, ensure_ascii=False))
    elif not sessions:
        print("no sessions yet")
    else:
        for s in sessions:
            print(f"{s['session_id']}  {s['domain']}  user={s['user_id']}  turns={s['turns']}  started {_when(s['created_at'])}")
    return 0
