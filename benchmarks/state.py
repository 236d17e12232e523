"""State and store benchmark: run by hand, prints a table.

    python benchmarks/state.py [--turns 10000] [--domain travel]

Figures: flow-stack operations per second; serialize + deserialize of a 5-deep stack;
per-turn commit latency (median, p99) on SQLite on disk, driving a real ``DialogueState``
through a conversation (flows pushed, digressions, completions, an archive that grows
to the memory manager's cap); rollback to turn N-1 of an N-turn session; the mean bytes a
turn row stores (its state compressed against its base) as a fraction of the full state's
JSON. Targets: commit median <= 1 ms, rollback <= 5 ms to any turn (a fork record: the
same cost whatever follows the turn), a stored turn <= 10 % of the state.
``benchmarks/vs_langgraph.py`` measures the store against LangGraph's SqliteSaver on real
agent states.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dialstack.domain.loader import inspect_domain
from dialstack.domain.models import Ontology
from dialstack.state import DialogueState, FlowFactory, FlowStack, SlotTypeError, counter_ids
from dialstack.store import SQLiteStore, TurnRecord
from dialstack.store.rows import LAST_TURN, SESSION_TURNS

ARCHIVE_CAP = 20  # the memory manager keeps the most recent completed flows
FLOWS = ["search_flights", "book_flight", "check_booking", "list_bookings", "faq", "travel_advisory"]


def load_ontology(domain: str) -> Ontology:
    """The domain's ontology with a depth limit of 6; slot types built from their base
    when the domain's Python slot classes cannot be imported (the figures don't depend on them)."""
    pack, _problems = inspect_domain(domain, None)
    if pack is None:
        raise SystemExit(f"cannot load domain {domain!r}; run `dialstack validate {domain}`")
    ontology = pack.ontology
    try:
        FlowFactory(ontology)
    except SlotTypeError:
        plain = {name: spec.model_copy(update={"python": None}) for name, spec in ontology.slot_types.items()}
        ontology = ontology.model_copy(update={"slot_types": plain})
    management = ontology.settings.flow_management.model_copy(update={"max_stack_depth": 6})
    settings = ontology.settings.model_copy(update={"flow_management": management})
    return ontology.model_copy(update={"settings": settings})


def stack_ops_per_second(factory: FlowFactory, settings: Any, rounds: int = 3000) -> float:
    flows = [(factory.create("search_flights", now=0.0), factory.create("check_booking", now=0.0)) for _ in range(rounds)]
    stack = FlowStack(settings)
    ops = 0
    start = time.perf_counter()
    for a, b in flows:
        stack.push(a, now=1.0)
        stack.push(b, now=2.0)
        stack.resume(a.flow_id, now=3.0)
        stack.complete(now=4.0)
        stack.pop_completed(now=5.0)
        stack.resume(b.flow_id, now=6.0)
        stack.cancel(now=7.0)
        ops += 7
        if len(stack.archive) > ARCHIVE_CAP:
            del stack.archive[:-ARCHIVE_CAP]
    return ops / (time.perf_counter() - start)


def five_deep(factory: FlowFactory, settings: Any) -> DialogueState:
    state = DialogueState.new(settings)
    for name in FLOWS[:5]:
        state.stack.push(factory.create(name, now=1.0), now=2.0)
    return state


def roundtrip_ms(state: DialogueState, factory: FlowFactory, repeat: int = 2000) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        DialogueState.from_dict(state.serialize(), factory)
    return (time.perf_counter() - start) / repeat * 1000


def conversation_turn(state: DialogueState, factory: FlowFactory, turn: int) -> bool:
    """Advance ``state`` by one realistic turn; True when RES popped more than one flow."""
    state.turn = turn
    phase = turn % 8
    now = float(turn)
    if phase == 0:
        state.stack.push(factory.create(FLOWS[(turn // 8) % 4], now=now), now=now)
    elif phase == 2:  # a digression
        state.stack.push(factory.create("faq", now=now), now=now)
    elif phase == 3:
        state.stack.complete(now=now, outputs={"answer": f"answer {turn}"})
    elif phase == 5:  # another flow on top, then both finish in one turn
        state.stack.push(factory.create("travel_advisory", now=now), now=now)
    elif phase == 7 and len(state.stack) > 1:  # keep_going: the flow below finishes too
        below = state.stack.flows[-2]
        state.stack.complete(now=now, outputs={"advisory": "none", "turn": turn})
        state.stack.resume(below.flow_id, now=now)
        state.stack.complete(now=now, outputs={"result": f"r{turn}", "items": [turn, turn + 1]})
    active = state.active
    if active is not None:
        active.record_turn(str(turn))
    state.set_confidence([(FLOWS[turn % 6], 0.7), (FLOWS[(turn + 1) % 6], 0.2), ("faq", 0.1)])
    state.intent = "read" if phase % 2 else "prepare"
    state.waiting_for_slot = None if phase in (3, 7) else "destination"
    popped = state.stack.pop_completed(now=now)
    del state.stack.archive[:-ARCHIVE_CAP]
    top = state.stack.top
    if state.active is None and top is not None:  # "shall we continue booking?" - yes
        state.stack.resume(top.flow_id, now=now)
    return len(popped) > 1


def commit_figures(factory: FlowFactory, settings: Any, turns: int, folder: Path) -> dict[str, float]:
    store = SQLiteStore(folder / "bench.db")
    store.ensure_session("bench", "travel")
    state = DialogueState.new(settings)
    latencies: list[float] = []
    ratios: list[float] = []
    for turn in range(1, turns + 1):
        snapshot = conversation_turn(state, factory, turn)
        data = state.serialize()
        record = TurnRecord(user_text=f"user says {turn}", reply=f"reply {turn}", state=data, snapshot=snapshot,
                            meta={"intent": state.intent})
        start = time.perf_counter()
        store.commit_turn("bench", record)
        latencies.append(time.perf_counter() - start)
        if turn > 1:
            ratios.append(_stored_size(store, turn) / len(json.dumps(data, separators=(",", ":"))))
    latencies.sort()
    figures = {
        "commit median ms": statistics.median(latencies) * 1000,
        "commit p99 ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "mean stored / state": statistics.fmean(ratios),
        "state size bytes": float(len(json.dumps(state.serialize(), separators=(",", ":")))),
    }
    figures["state_at(N-1) ms"] = statistics.median(_time_ms(lambda: store.state_at("bench", turns - 1)) for _ in range(21))
    store.close()
    late: list[float] = []
    early: list[float] = []
    for i in range(5):  # each on a fresh copy of the file, opened and warm like a running agent's: medians
        copy = folder / f"rollback-{i}.db"
        shutil.copyfile(folder / "bench.db", copy)
        with SQLiteStore(copy) as fresh:
            fresh.state_at("bench", 1)
            fresh.set_preferences("someone", {"seat": "aisle"})  # the first write creates the WAL file
            late.append(_time_ms(lambda: fresh.rollback("bench", turns - 1)))
            early.append(_time_ms(lambda: fresh.rollback("bench", 10)))
        copy.unlink()
    figures["rollback to N-1 ms"] = statistics.median(late)
    figures["rollback to 10 ms"] = statistics.median(early)
    return figures


def _stored_size(store: SQLiteStore, turn: int) -> int:
    row = store._conn.execute(  # benchmark-only peek at the stored row: the state compressed against its base
        f"SELECT length(t.state) FROM {SESSION_TURNS} AND l.line=0 AND t.id & {LAST_TURN} = ?",
        ("bench", turn),
    ).fetchone()
    return int(row[0])


def _time_ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--domain", default="travel")
    args = parser.parse_args()
    ontology = load_ontology(args.domain)
    factory = FlowFactory(ontology, ids=counter_ids())
    settings = ontology.settings
    rows: list[tuple[str, str, str]] = [
        ("stack ops / s", f"{stack_ops_per_second(factory, settings):,.0f}", ""),
        ("serialize+from_dict, 5-deep (ms)", f"{roundtrip_ms(five_deep(factory, settings), factory):.3f}", ""),
    ]
    with tempfile.TemporaryDirectory() as folder:
        figures = commit_figures(factory, settings, args.turns, Path(folder))
    rows += [
        ("commit median (ms)", f"{figures['commit median ms']:.3f}", "<= 1"),
        ("commit p99 (ms)", f"{figures['commit p99 ms']:.3f}", ""),
        (f"rollback to turn {args.turns - 1:,} (ms)", f"{figures['rollback to N-1 ms']:.2f}", "<= 5"),
        ("then rollback to turn 10 (ms)", f"{figures['rollback to 10 ms']:.2f}", "<= 5"),
        (f"state_at turn {args.turns - 1:,} (ms)", f"{figures['state_at(N-1) ms']:.2f}", ""),
        ("mean stored turn / full state", f"{figures['mean stored / state']:.1%}", "<= 10%"),
        ("full state at the end (bytes)", f"{figures['state size bytes']:,.0f}", ""),
    ]
    width = max(len(name) for name, _, _ in rows)
    print(f"{'figure':<{width}}  {'measured':>12}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>12}  {target}")


if __name__ == "__main__":
    main()
