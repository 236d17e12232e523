"""dialstack's store and turn against LangGraph's ``SqliteSaver``, side by side in one run.

    pip install -e ".[bench]"        # langgraph + langgraph-checkpoint-sqlite
    python benchmarks/vs_langgraph.py [--turns 10000] [--conversation 200] [--rounds 5] [--turn-rounds 11] [--store-only]

Both databases are SQLite files in WAL mode with ``synchronous=NORMAL`` (equal
durability: a commit survives a process crash, not necessarily a power loss).

The states are real: the scripted travel conversation of ``benchmarks/turns.py`` is run
through ``Agent.handle`` for ``--turns`` turns and every committed ``TurnRecord`` is
captured (dialogue state, user text, reply, meta, frame, audit). Then:

- **commit vs put**: each turn's state, user text and reply (the information both sides
  hold: the turn's frame, audit entries and meta, which LangGraph would not keep, are
  left out) are committed to a fresh ``SQLiteStore`` and, as a checkpoint whose channels
  hold the same, ``put`` into a fresh ``SqliteSaver``; the two alternate turn by turn
  (which goes first swapped every turn) so machine-load drift hits both alike. Done
  ``--rounds`` times on fresh files: each side's figure is the median of its per-round
  medians, the ratio the median of the per-round ratios, with their range.
- **state at a turn vs get_tuple**: ``store.state_at(s, n)`` against
  ``saver.get_tuple(config of checkpoint n)``, alternating, median of many; and the turn
  that compares worst among every third of the last 100 (a read costs more the further
  the turn is from the snapshot before it).
- **rollback**: ``store.rollback(s, n)`` on a fresh copy of the database each time,
  opened and warmed by a read and a write like a running agent's (median of a few);
  LangGraph's own time travel, a fork, is ``get_tuple`` at n plus a ``put`` of a new
  checkpoint whose parent is n.
- **database size**: both files (and WAL) after a checkpoint.
- **a turn**: ``Agent.handle`` (offline understanding, in-memory MCP, SQLite on disk)
  against ``invoke`` of a one-node LangGraph graph with a ``SqliteSaver`` on the same
  ``--conversation`` turns; the node only returns that turn's captured state and reply,
  so LangGraph's figure is its bookkeeping alone. Over ``--rounds`` rounds, each a fresh
  conversation and a fresh graph on the same turns, one side after the other (the order
  swapped every round; not turn by turn: the agent's threads, the in-process MCP server
  and the audit writer, would run during LangGraph's timing): medians as for commits,
  with the range of the per-round ratios, over ``--turn-rounds`` rounds (11: one round
  is a few seconds, and a loaded machine's speed drifts between rounds). The turns fall
  in two groups, those that call no tool and those that do (their handlers' own work,
  a booking written to the travel database, is most of their time); the median of all
  turns sits near the border between them, so it jumps with the mix: both groups are
  printed apart, each against LangGraph's figure for the same turns.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turns import CONFIRMATION, REFERENCE, script  # noqa: E402  (the scripted travel conversation)

INSTALL = 'pip install -e ".[bench]"   (or: pip install "langgraph>=1.0,<2" "langgraph-checkpoint-sqlite>=3.0,<4")'
SESSION = "bench"

try:
    from langgraph.checkpoint.base import create_checkpoint, empty_checkpoint
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.graph import END, START, StateGraph
except ImportError:  # the peer is a bench extra, never a runtime dependency
    print(f"benchmarks/vs_langgraph.py needs LangGraph and its SQLite checkpointer:\n    {INSTALL}", file=sys.stderr)
    raise SystemExit(2) from None

from dialstack.store import SQLiteStore, TurnRecord  # noqa: E402


# -- the conversation ---------------------------------------------------------------


@dataclass
class Capture:
    """Every ``TurnRecord`` the agent commits in one session, and the seconds its store
    spent per turn (``turn_context`` + ``commit_turn``)."""

    records: list[TurnRecord] = field(default_factory=list)
    store_seconds: list[float] = field(default_factory=list)

    def install(self) -> Callable[[], None]:
        commit, context = SQLiteStore.commit_turn, SQLiteStore.turn_context
        records, spent = self.records, self.store_seconds
        reading = [0.0]

        def capturing(store: SQLiteStore, session_id: str, record: TurnRecord, **kwargs: Any) -> int:
            start = time.perf_counter()
            try:
                return commit(store, session_id, record, **kwargs)
            finally:
                if session_id == SESSION:
                    records.append(record)
                    spent.append(reading[0] + time.perf_counter() - start)

        def timed_context(store: SQLiteStore, session_id: str, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return context(store, session_id, *args, **kwargs)
            finally:
                if session_id == SESSION:
                    reading[0] = time.perf_counter() - start

        SQLiteStore.commit_turn = capturing  # type: ignore[method-assign]
        SQLiteStore.turn_context = timed_context  # type: ignore[method-assign]

        def undo() -> None:
            SQLiteStore.commit_turn, SQLiteStore.turn_context = commit, context  # type: ignore[method-assign]

        return undo


def run_conversation(turns: int, folder: Path, each: Callable[[int, TurnRecord, float], None] | None = None) -> Capture:
    """Run ``turns`` scripted turns through ``Agent.handle``; ``each(i, record, seconds)`` after every turn."""
    from dialstack import Agent
    from dialstack.agent.agent import Clock

    capture = Capture()
    undo = capture.install()
    clock = Clock(datetime(2025, 11, 1, 9, 0, tzinfo=timezone.utc))
    ref = "BK-12345"
    try:
        with Agent("travel", db=folder / "agent.db", clock=clock) as agent:
            agent.handle("warm-up", "hello")  # connects the MCP client, lists tools, loads vocabularies
            steps = iter(script(2 * turns))
            confirming = False
            for i in range(turns):
                said = "yes" if confirming else next(steps)[0].replace("{ref}", ref)  # "yes": confirms what it asked
                start = time.perf_counter()
                result = agent.handle(SESSION, said)
                elapsed = time.perf_counter() - start
                confirming = CONFIRMATION in result.reply.lower() and not confirming
                found = REFERENCE.search(result.reply)
                if found:
                    ref = found.group(1)
                clock.advance(5)
                if each is not None:
                    each(i, capture.records[-1], elapsed)
                if turns >= 2000 and (i + 1) % 2000 == 0:
                    print(f"  ... {i + 1:,} turns captured", file=sys.stderr)
    finally:
        undo()
    return capture


# -- LangGraph -------------------------------------------------------------------------


def open_saver(path: Path) -> SqliteSaver:
    conn = sqlite3.connect(path, check_same_thread=False)
    saver = SqliteSaver(conn)
    saver.setup()  # sets WAL
    conn.execute("PRAGMA synchronous=NORMAL")
    return saver


def checkpoint_for(previous: Any, record: TurnRecord, step: int) -> Any:
    checkpoint = create_checkpoint(previous, None, step)
    checkpoint["channel_values"] = {"state": record.state, "user": record.user_text, "reply": record.reply}
    checkpoint["channel_versions"] = {"state": step, "user": step, "reply": step}
    return checkpoint


class GraphState(TypedDict, total=False):
    user: str
    reply: str
    state: dict[str, Any]


def one_node_graph(saver: SqliteSaver, answers: list[TurnRecord]) -> Any:
    """A graph whose single node answers with the next captured reply and state."""

    def respond(_state: GraphState) -> GraphState:
        if not answers:  # the warm-up call
            return {"reply": "", "state": {}}
        record = answers[-1]
        return {"reply": record.reply, "state": record.state}

    builder = StateGraph(GraphState)
    builder.add_node("respond", respond)
    builder.add_edge(START, "respond")
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=saver)


# -- measurements ------------------------------------------------------------------------


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def alternate(count: int, ours: Callable[[int], object], theirs: Callable[[int], object]) -> dict[str, float]:
    """Median microseconds of ``ours(i)`` and ``theirs(i)`` for i < count, the order swapped every round."""
    samples: tuple[list[float], list[float]] = ([], [])
    for i in range(count):
        for side in ((0, 1) if i % 2 else (1, 0)):
            action = ours if side == 0 else theirs
            start = time.perf_counter()
            action(i)
            samples[side].append(time.perf_counter() - start)
    return {"ours": median_us(samples[0]), "theirs": median_us(samples[1])}


def commit_vs_put(records: list[TurnRecord], folder: Path) -> tuple[SQLiteStore, SqliteSaver, list[dict[str, Any]], dict[str, float]]:
    folder.mkdir()
    store = SQLiteStore(folder / "dialstack.db")
    store.ensure_session(SESSION, "travel")
    saver = open_saver(folder / "langgraph.db")
    plain = [TurnRecord(r.user_text, r.reply, r.state, snapshot=r.snapshot) for r in records]
    checkpoints = []
    checkpoint = empty_checkpoint()
    for step, record in enumerate(plain):
        checkpoint = checkpoint_for(checkpoint, record, step)
        checkpoints.append(checkpoint)
    configs: list[dict[str, Any]] = [{"configurable": {"thread_id": SESSION, "checkpoint_ns": ""}}]

    metadata = [{"source": "loop", "step": step, "parents": {}} for step in range(len(plain))]

    def put(step: int) -> None:
        configs.append(saver.put(configs[-1], checkpoints[step], metadata[step], {"state": step}))

    figures = alternate(len(plain), lambda step: store.commit_turn(SESSION, plain[step]), put)
    return store, saver, configs[1:], figures


def wal_pages(records: list[TurnRecord], folder: Path) -> dict[str, float]:
    """WAL pages a commit and a ``put`` write, on average over the first 1,000 turns: fresh
    files, automatic checkpoints off so that the WAL only grows."""
    folder.mkdir()
    plain = [TurnRecord(r.user_text, r.reply, r.state, snapshot=r.snapshot) for r in records[:1000]]
    store = SQLiteStore(folder / "dialstack.db")
    store.ensure_session(SESSION, "travel")
    saver = open_saver(folder / "langgraph.db")
    for conn in (store._conn, saver.conn):  # white-box: the store's own connection
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    config: dict[str, Any] = {"configurable": {"thread_id": SESSION, "checkpoint_ns": ""}}
    checkpoint = empty_checkpoint()
    for step, record in enumerate(plain):
        store.commit_turn(SESSION, record)
        checkpoint = checkpoint_for(checkpoint, record, step)
        config = saver.put(config, checkpoint, {"source": "loop", "step": step, "parents": {}}, {"state": step})
    frames = {side: 24 + conn.execute("PRAGMA page_size").fetchone()[0] for side, conn in (("ours", store._conn), ("theirs", saver.conn))}
    pages = {side: (folder / f"{name}.db-wal").stat().st_size / frames[side] / len(plain)  # a WAL frame: a header and a page
             for side, name in (("ours", "dialstack"), ("theirs", "langgraph"))}
    store.close()
    saver.conn.close()
    return pages


def over_rounds(rounds: list[dict[str, float]], suffix: str = "") -> dict[str, float]:
    """Each side's median over rounds, the median per-round ratio and its range (``suffix``: which figures)."""
    ratios = [r["ours" + suffix] / r["theirs" + suffix] for r in rounds]
    return {
        "ours": statistics.median(r["ours" + suffix] for r in rounds),
        "theirs": statistics.median(r["theirs" + suffix] for r in rounds),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
    }


def read_vs_get_tuple(store: SQLiteStore, saver: SqliteSaver, configs: list[dict[str, Any]], turn: int, repeat: int) -> dict[str, float]:
    return alternate(repeat, lambda _: store.state_at(SESSION, turn), lambda _: saver.get_tuple(configs[turn - 1]))


def worst_read(store: SQLiteStore, saver: SqliteSaver, configs: list[dict[str, Any]], turns: range) -> tuple[int, dict[str, float]]:
    """The turn of ``turns`` whose read compares worst with ``get_tuple``, and its figures."""
    figures = {turn: read_vs_get_tuple(store, saver, configs, turn, 21) for turn in turns}
    turn = max(figures, key=lambda t: figures[t]["ours"] / figures[t]["theirs"])
    return turn, figures[turn]


def rollback_vs_fork(folder: Path, saver: SqliteSaver, configs: list[dict[str, Any]], turn: int, repeat: int) -> dict[str, float]:
    ours: list[float] = []
    theirs: list[float] = []
    source = folder / "dialstack.db"
    for i in range(repeat):
        copy = folder / f"rollback-{i}.db"
        shutil.copyfile(source, copy)
        with SQLiteStore(copy) as store:
            store.state_at(SESSION, 1)  # opened and warm, like a running agent: it has read and
            store.set_preferences("someone", {"seat": "aisle"})  # written (the first write creates the WAL file)
            start = time.perf_counter()
            store.rollback(SESSION, turn)
            ours.append(time.perf_counter() - start)
        copy.unlink()
        start = time.perf_counter()
        found = saver.get_tuple(configs[turn - 1])
        fork = create_checkpoint(found.checkpoint, None, 100_000 + i)
        saver.put(configs[turn - 1], fork, {"source": "fork", "step": turn, "parents": {}}, {})
        theirs.append(time.perf_counter() - start)
    return {"ours": median_us(ours), "theirs": median_us(theirs)}


def file_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def made_calls(record: TurnRecord) -> bool:
    """Whether the turn called a tool (its audit holds a tool call)."""
    return any(entry.get("kind") == "tool_call" for entry in record.audit)


def split_medians(records: list[TurnRecord], seconds: list[float]) -> dict[str, float]:
    """Median microseconds of all turns, of the turns that called no tool and of those that did."""
    quiet = [t for r, t in zip(records, seconds) if not made_calls(r)]
    calling = [t for r, t in zip(records, seconds) if made_calls(r)]
    return {"all": median_us(seconds), "quiet": median_us(quiet) if quiet else 0.0, "calling": median_us(calling) if calling else 0.0,
            "quiet_turns": len(quiet)}


def our_turns(turns: int, folder: Path) -> tuple[list[TurnRecord], dict[str, float]]:
    """The conversation through ``Agent.handle``: its records, the median turns and store share."""
    folder.mkdir()
    seconds: list[float] = []
    capture = run_conversation(turns, folder, lambda _i, _record, elapsed: seconds.append(elapsed))
    return capture.records, {**split_medians(capture.records, seconds), "store": median_us(capture.store_seconds)}


def their_turns(records: list[TurnRecord], folder: Path) -> dict[str, float]:
    """The median ``invoke`` of the one-node graph answering with ``records``, one by one (split as ours)."""
    folder.mkdir()
    saver = open_saver(folder / "graph.db")
    answers: list[TurnRecord] = []
    graph = one_node_graph(saver, answers)
    graph.invoke({"user": "hello"}, config={"configurable": {"thread_id": "warm-up"}})
    config = {"configurable": {"thread_id": SESSION}}
    seconds: list[float] = []
    for record in records:
        answers.append(record)
        start = time.perf_counter()
        graph.invoke({"user": record.user_text}, config=config)
        seconds.append(time.perf_counter() - start)
    saver.conn.close()
    return split_medians(records, seconds)


def handle_vs_invoke(turns: int, folder: Path, rounds: int) -> list[dict[str, float]]:
    """Per round: a fresh conversation through ``Agent.handle`` and a fresh graph answering the
    same turns, one side after the other (which goes first swapped every round), so that
    neither side's background threads run while the other is timed."""
    results: list[dict[str, float]] = []
    records: list[TurnRecord] = []
    for round_ in range(rounds):
        if round_ % 2 == 0 or not records:
            records, ours = our_turns(turns, folder / f"ours-{round_}")
            theirs = their_turns(records, folder / f"theirs-{round_}")
        else:
            theirs = their_turns(records, folder / f"theirs-{round_}")
            records, ours = our_turns(turns, folder / f"ours-{round_}")
        results.append({
            "ours": ours["all"], "theirs": theirs["all"], "store": ours["store"],
            "ours_quiet": ours["quiet"], "theirs_quiet": theirs["quiet"],
            "ours_calling": ours["calling"], "theirs_calling": theirs["calling"], "quiet_turns": ours["quiet_turns"],
        })
    return results


# -- the table -----------------------------------------------------------------------------


def turn_figures(options: argparse.Namespace, folder: Path, add: Callable[..., None], rows: list[tuple[str, ...]]) -> None:
    """The rows of ``Agent.handle`` against a one-node ``invoke`` (``handle_vs_invoke``)."""
    print(f"running {options.turn_rounds} x {options.conversation} turns through Agent.handle and a one-node LangGraph invoke ...", file=sys.stderr)
    turns = handle_vs_invoke(options.conversation, folder, options.turn_rounds)
    add(f"Agent.handle vs one-node invoke ({options.turn_rounds} rounds)", over_rounds(turns), "<= 1.0x", unit="ms")
    quiet = round(statistics.median(t["quiet_turns"] for t in turns))
    add(f"  the {quiet} of {options.conversation} turns that call no tool", over_rounds(turns, "_quiet"), "", unit="ms")
    add(f"  the {options.conversation - quiet} turns that call tools", over_rounds(turns, "_calling"), "", unit="ms")
    store_share = statistics.median(t["store"] / t["ours"] for t in turns)
    rows.append(("  of it, our store (turn_context + commit)", f"{statistics.median(t['store'] for t in turns) / 1000:,.2f} ms",
                 "", f"{store_share:.0%} of a turn", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000, help="turns of captured history for the store figures")
    parser.add_argument("--conversation", type=int, default=200, help="turns of the Agent.handle vs invoke figure")
    parser.add_argument("--repeat", type=int, default=300, help="reads per figure")
    parser.add_argument("--rounds", type=int, default=5, help="fresh repetitions of the commit figure")
    parser.add_argument("--turn-rounds", type=int, default=11,
                        help="fresh repetitions of the turn figure (a round is seconds long: load drifts between rounds)")
    parser.add_argument("--store-only", action="store_true", help="the store figures only, not Agent.handle vs invoke")
    options = parser.parse_args()
    if options.turns < 20:
        parser.error("--turns must be at least 20")
    if options.rounds < 1 or options.turn_rounds < 1:
        parser.error("--rounds and --turn-rounds must be at least 1")
    rows: list[tuple[str, ...]] = []

    def add(name: str, figures: dict[str, float], goal: str, unit: str = "us") -> None:
        ratio = figures.get("ratio", figures["ours"] / figures["theirs"])
        spread = f" ({figures['low']:.2f}-{figures['high']:.2f})" if "low" in figures else ""
        scale = 1000.0 if unit == "ms" else 1.0
        rows.append((name, f"{figures['ours'] / scale:,.1f} {unit}", f"{figures['theirs'] / scale:,.1f} {unit}", f"{ratio:.2f}x{spread}", goal))

    n = options.turns
    late, early = n - 1, 10
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"capturing {n:,} turns of the scripted travel conversation through Agent.handle ...", file=sys.stderr)
        (folder / "capture").mkdir()
        records = run_conversation(n, folder / "capture").records
        commits = []
        for round_ in range(options.rounds):
            if round_:  # the last round's files serve the read, rollback and size figures
                store.close()
                saver.conn.close()
                shutil.rmtree(folder / f"round-{round_ - 1}")
            store, saver, configs, figures = commit_vs_put(records, folder / f"round-{round_}")
            commits.append(figures)
        folder = folder / f"round-{options.rounds - 1}"
        add(f"commit one turn vs put ({options.rounds} rounds)", over_rounds(commits), "<= 1.0x")
        pages = wal_pages(records, folder.parent / "wal")
        rows.append(("  WAL pages per commit / put", f"{pages['ours']:.2f}", f"{pages['theirs']:.2f}", f"{pages['ours'] / pages['theirs']:.2f}x", ""))
        add(f"state at turn {late:,} vs get_tuple", read_vs_get_tuple(store, saver, configs, late, options.repeat), "<= 2x")
        add(f"state at turn {early} vs get_tuple", read_vs_get_tuple(store, saver, configs, early, options.repeat), "<= 2x")
        span = range(max(1, n - 99), n + 1, 3)
        turn, figures = worst_read(store, saver, configs, span)
        add(f"worst of turns {span.start:,}-{n:,} (turn {turn:,})", figures, "<= 2x")
        store.close()
        for turn in (late, early):
            add(f"roll back to turn {turn:,} vs a fork", rollback_vs_fork(folder, saver, configs, turn, 5), "<= 5 ms", unit="ms")
        saver.conn.close()
        ours_size, theirs_size = file_size(folder / "dialstack.db"), file_size(folder / "langgraph.db")
        rows.append(("database size", f"{ours_size / 1e6:,.2f} MB", f"{theirs_size / 1e6:,.2f} MB", f"{ours_size / theirs_size:.2f}x", "<= 0.2x"))
        del records, configs, store, saver  # 10,000 captured states would make every garbage collection of the turns slow
        gc.collect()
        if not options.store_only:
            turn_figures(options, Path(tmp), add, rows)
    header = ("figure", "dialstack", "LangGraph", "ratio (range)", "goal")
    widths = [max(len(row[i]) for row in [*rows, header]) for i in range(5)]
    print(f"{n:,} turns of real travel dialogue state; both SQLite WAL, synchronous=NORMAL; medians")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
