"""What a new user waits for before the first answer, now that pack data is prepared at start.

    python benchmarks/first_run.py [--runs 3]

Prints the median of ``--runs`` runs of:

- prepare, cold: the travel pack's ``prepare`` hook on an empty data folder (builds travel.db);
- prepare, warm: the same call when the database is there (what every later start pays);
- prepare from a template: a copy of a prepared folder (what each conversation test pays);
- first list_cities: the first tool call on a prepared database, through the in-process server;
- cold chat: ``dialstack chat`` with a new home folder answering two lines, process start to exit.

The first-run problem this measures against: building travel.db used to happen inside the
first ``list_cities`` call, whose timeout is 3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAT_INPUT = "I want to book a flight\nWhat cities do you support?\n"


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _first_list_cities(data_dir: Path) -> float:
    import asyncio

    from dialstack.agent.toolclient import ToolClient
    from dialstack.domain import load_domain
    from dialstack.serve.server import build_server
    from dialstack.store import InMemoryStore

    async def call() -> float:
        with InMemoryStore() as store:
            server = build_server(load_domain("travel"), store, data_dir=data_dir)
            async with ToolClient(server) as tools:
                started = time.perf_counter()
                result = await tools.call("list_cities", {}, session="bench")
                elapsed = time.perf_counter() - started
            server.dialstack.runtime.close()
        assert result.ok, result.text
        return elapsed

    return asyncio.run(call())


def _cold_chat(home: Path) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIALSTACK_") and k != "XDG_DATA_HOME"}
    env["HOME"] = str(home)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dialstack", "chat"], input=CHAT_INPUT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    elapsed = time.perf_counter() - started
    assert done.returncode == 0 and "We fly to" in done.stdout, done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr, done.stderr
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from dialstack.domain import load_domain
    from dialstack.tools.prepare import prepare_domain

    domain = load_domain("travel")
    today = date.today()
    figures: dict[str, list[float]] = {k: [] for k in (
        "prepare, cold", "prepare, warm", "prepare from a template", "first list_cities", "cold chat (2 turns)")}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch)
            quiet = open(os.devnull, "w")  # noqa: SIM115 - closed below
            try:
                figures["prepare, cold"].append(_timed(lambda: prepare_domain(domain, root / "a", today, progress=quiet)))
                figures["prepare, warm"].append(_timed(lambda: prepare_domain(domain, root / "a", today, progress=quiet)))
                prepare_domain(domain, root / "t0", today, templates=root / "templates", progress=quiet)
                figures["prepare from a template"].append(_timed(
                    lambda: prepare_domain(domain, root / "t1", today, templates=root / "templates", progress=quiet)))
            finally:
                quiet.close()
            figures["first list_cities"].append(_first_list_cities(root / "a"))
            (root / "home").mkdir()
            figures["cold chat (2 turns)"].append(_cold_chat(root / "home"))
    print(f"first run, median of {args.runs} (travel pack, {today})")
    for name, values in figures.items():
        median = statistics.median(values)
        shown = f"{median * 1000:.1f} ms" if median < 1 else f"{median:.2f} s"
        print(f"  {name:<26} {shown}")


if __name__ == "__main__":
    main()
