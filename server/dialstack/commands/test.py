"""``dialstack test PATH ...``: run conversation test files; ends with 'N passed, M failed'."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test",
        help="run conversation test files (YAML) against a domain",
        description="Run conversation tests; print each failure with its turn, expectation and outcome.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="test files or folders of *.yaml")
    parser.add_argument("-k", dest="keyword", help="only conversations whose name contains this text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..agent.conversation import Report, ConversationFileError, load_test_file, make_agent_factory, run_file
    from ..domain import PackError
    from ..store.protocol import StoreError

    files: list[Path] = []
    for path in args.paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml")))
        elif path.is_file():
            files.append(path)
        else:
            print(f"dialstack test: {path}: no such file or folder", file=sys.stderr)
            return 2
    report = Report()
    with tempfile.TemporaryDirectory(prefix="dialstack-test-") as scratch:
        for path in files:
            try:
                test_file = load_test_file(path)
            except ConversationFileError as exc:
                report.errors.append(str(exc))
                print(exc)
                continue
            if args.keyword:
                test_file.conversations = [c for c in test_file.conversations if args.keyword in c.name]
            before = len(report.failures)
            try:
                run_file(test_file, make_agent_factory(Path(scratch), base=path.parent), report, label=path.name)
            except (PackError, StoreError, ValueError, OSError) as exc:
                message = f"ERROR {path.name}: " + (f"the domain pack has errors:\n{exc}" if isinstance(exc, PackError) else str(exc))
                report.errors.append(message)
                print(message)
            for failure in report.failures[before:]:
                print(failure)
    print(report.summary())
    return 1 if report.failed else 0
