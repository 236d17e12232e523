"""Dates and times in sentences: dialstack's DateTimeSlot against dateparser, on our own corpus.

Runs every case of ``tests/fixtures/dates/everyday.yaml`` (everyday phrases inside sentences,
resolved against a fixed "now") through

- ``dialstack``: ``DateTimeSlot.extract`` (the first candidate found);
- ``dateparser``: ``dateparser.search.search_dates`` with English only, future preferred and
  ``RELATIVE_BASE`` = now (its first hit; a time is kept when dateparser reads one);
- ``dialstack + dateparser fallback``: ours, then dateparser only when ours finds nothing,

and prints, side by side: right value, right value with the right span (the found words lie
inside the phrase that names the moment), false positives (something found where the sentence
names no date or time) and the median microseconds per sentence. Per-kind figures and every
miss follow with ``--misses``.

    python benchmarks/dates.py [--rounds 5] [--misses]

dateparser is a benchmark peer (``pip install -e ".[bench]"``), not a runtime dependency.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from dialstack.state.slot_datetime import DateTimeSlot
from dialstack.state.slots import SlotContext

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "dates"
CORPUS = FIXTURES / "everyday.yaml"
HELD_OUT = FIXTURES / "heldout.yaml"  # written after the parser was tuned on CORPUS


@dataclass(frozen=True)
class Case:
    kind: str
    text: str
    phrase: str | None
    value: str | None
    known_day: str | None


Found = tuple[str, int, int] | None  # (ISO value, start, end) of the first moment found
Reader = Callable[[Case], Found]


def load(path: Path = CORPUS) -> tuple[datetime, list[Case]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = [Case(kind, row[0], row[1], row[2], row[3] if len(row) > 3 else None)
             for kind, rows in data["cases"].items() for row in rows]
    return datetime.fromisoformat(data["now"]), cases


def dialstack_reader(now: datetime) -> Reader:
    ctx = SlotContext(now=now)

    def read(case: Case) -> Found:
        slot = DateTimeSlot("when")
        slot.value = case.known_day
        found = slot.extract(case.text, ctx)
        return (str(found[0].value), found[0].start, found[0].end) if found else None
    return read


def dateparser_reader(now: datetime) -> Reader:
    from dateparser.date import DateDataParser
    from dateparser.search import search_dates

    base = now.replace(tzinfo=None)
    settings: dict[str, Any] = {"PREFER_DATES_FROM": "future", "RELATIVE_BASE": base}
    periods = DateDataParser(languages=["en"], settings={**settings, "RETURN_TIME_AS_PERIOD": True})

    def read(case: Case) -> Found:
        hits = search_dates(case.text, languages=["en"], settings=settings)
        if not hits:
            return None
        words, moment = hits[0]
        start = case.text.find(words)
        timed = periods.get_date_data(words).period == "time"
        day = date.fromisoformat(case.known_day) if case.known_day and timed else moment.date()
        value = f"{day.isoformat()}T{moment:%H:%M}" if timed else day.isoformat()
        return value, start, start + len(words)
    return read


def with_fallback(first: Reader, second: Reader) -> Reader:
    def read(case: Case) -> Found:
        return first(case) or second(case)
    return read


@dataclass
class Score:
    cases: int = 0
    right: int = 0
    right_span: int = 0
    empty_cases: int = 0
    false_positives: int = 0

    def add(self, case: Case, found: Found) -> bool:
        if case.value is None:
            self.empty_cases += 1
            self.false_positives += found is not None
            return found is None
        self.cases += 1
        if found is None or found[0] != case.value:
            return False
        self.right += 1
        assert case.phrase is not None
        lo = case.text.find(case.phrase)
        inside = lo <= found[1] < found[2] <= lo + len(case.phrase)
        self.right_span += inside
        return inside


def run(name: str, read: Reader, cases: list[Case], rounds: int) -> tuple[Score, dict[str, Score], float, list[str]]:
    total, by_kind, misses, times = Score(), {}, [], []
    for case in cases:
        read(case)  # warm caches and lazy loading, as in a live session
        found = read(case)
        ok = total.add(case, found)
        by_kind.setdefault(case.kind, Score()).add(case, found)
        if not ok:
            misses.append(f"  {name:<12} {case.kind:<14} {case.text!r}: expected {case.value} got {found}")
        for _ in range(rounds):
            start = time.perf_counter()
            read(case)
            times.append((time.perf_counter() - start) * 1e6)
    return total, by_kind, statistics.median(times), misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="per-kind figures and every miss")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"a corpus file (default everyday.yaml; also {HELD_OUT.name})")
    args = parser.parse_args(argv)
    now, cases = load(args.corpus)
    readers: dict[str, Reader] = {"dialstack": dialstack_reader(now)}
    try:
        peer = dateparser_reader(now)
    except ImportError:
        print('dateparser is not installed: pip install -e ".[bench]" (measuring dialstack alone)', file=sys.stderr)
    else:
        readers["dateparser"] = peer
        readers["ours+dp"] = with_fallback(readers["dialstack"], peer)
    results = {name: run(name, read, cases, args.rounds) for name, read in readers.items()}
    with_value = sum(c.value is not None for c in cases)
    print(f"{args.corpus.name}: dates and times in {len(cases)} sentences ({with_value} name a moment, {len(cases) - with_value} name none), "
          f"now = {now.isoformat()}")
    print(f"  {'':<12} {'right value':>12} {'right span':>12} {'false pos.':>11} {'median µs':>10}")
    for name, (score, _, median, _) in results.items():
        print(f"  {name:<12} {score.right:>5}/{score.cases:<6} {score.right_span:>5}/{score.cases:<6} "
              f"{score.false_positives:>4}/{score.empty_cases:<6} {median:>10.0f}")
    if args.misses:
        kinds = list(dict.fromkeys(c.kind for c in cases))
        for kind in dict.fromkeys(c.kind for c in cases):
            scores = [results[name][1][kind] for name in results]
            print(f"  {kind:<16} " + "   ".join(
                f"{name} {s.right_span}/{s.cases}" if s.cases else f"{name} {s.empty_cases - s.false_positives}/{s.empty_cases} quiet"
                for name, s in zip(results, scores)))
        for name, (_, _, _, misses) in results.items():
            print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
