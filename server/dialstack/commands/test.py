"""``dialstack test PATH ...``: run conversation test files; a line per conversation, then 'N passed, M failed'."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test",
        help="run conversation test files (YAML) against a domain",
        description="Run conversation tests: a PASS or FAIL line per conversation as it runs, each failure with its "
        "turn, expectation and outcome, then the totals. Exit 1 on any failure or when no test is found.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="test files or folders of *.yaml")
    parser.add_argument("-k", dest="keyword", help="only conversations whose name contains this text")
    parser.add_argument("--junit-xml", type=Path, metavar="FILE", help="also write the results as JUnit XML (for CI)")
    parser.set_defaults(func=run)


def _test_files(paths: list[Path]) -> list[Path] | str:
    """The test files named by ``paths`` (folders give their *.yaml / *.yml), or why there are none."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(p for p in sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml")) if p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            return f"{path}: no such file or folder"
    if not files:
        return f"no tests found: no *.yaml or *.yml file in {', '.join(map(str, paths))}"
    return files


def run(args: argparse.Namespace) -> int:
    from ..agent.conversation import ConversationFileError, Outcome, Report, load_test_file, make_agent_factory, run_file
    from ..domain import PackError
    from ..store.protocol import StoreError
    from .junit import write_junit

    files = _test_files(args.paths)
    if isinstance(files, str):
        print(f"dialstack test: {files}", file=sys.stderr)
        return 2 if "no such file" in files else 1

    def progress(outcome: Outcome) -> None:
        print(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.name} ({outcome.seconds:.2f}s)", flush=True)
        for failure in outcome.failures:
            print(f"  turn {failure.turn} ({failure.user!r}): expected {failure.expectation}: {failure.expected!r}\n"
                  f"    got: {failure.actual!r}", flush=True)

    report = Report()
    selected = 0
    with tempfile.TemporaryDirectory(prefix="dialstack-test-") as scratch:
        for path in files:
            try:
                test_file = load_test_file(path)
            except ConversationFileError as exc:
                report.errors.append(str(exc))
                print(f"ERROR {exc}", flush=True)
                continue
            if args.keyword:
                test_file.conversations = [c for c in test_file.conversations if args.keyword in c.name]
            selected += len(test_file.conversations)
            try:
                run_file(test_file, make_agent_factory(Path(scratch), base=path.parent), report, label=path.name, on_outcome=progress)
            except (PackError, StoreError, ValueError, OSError) as exc:
                message = f"ERROR {path.name}: " + (f"the domain pack has errors:\n{exc}" if isinstance(exc, PackError) else str(exc))
                report.errors.append(message)
                print(message, flush=True)
    if args.junit_xml is not None:
        write_junit(report, args.junit_xml)
    if not selected and not report.errors:
        why = f"no conversation matches -k {args.keyword!r}" if args.keyword else "the files hold no conversations"
        print(f"dialstack test: no tests found ({why})", file=sys.stderr)
        return 1
    print(report.summary())
    return 1 if report.failed else 0
