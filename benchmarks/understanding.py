"""What System-1 understanding costs per turn (goal: median <= 3 ms).

Times ``Understander.understand`` alone (the rules, the flow ranking with its sentence
embedding, the value readers), on everyday sentences for the bundled travel pack, in four
situations: nothing in progress, a slot being asked, a resume offer waiting, and a finished
look-up in focus, with the vocabularies a live agent loads. Each sentence is understood once
untimed (warm caches, as in a live session, where the same Understander serves every turn), then ``--rounds`` times timed.

    python benchmarks/understanding.py [--rounds 50] [--no-embeddings]

``--no-embeddings`` measures the lexical signals alone (as without the wordllama package).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone

SENTENCES = [
    "Hi, could you help me book a flight to Denver?",
    "can u pull up my reservaton BK-12345",
    "what flies from Boston to Paris on December 3?",
    "do you fly to Honolulu?",
    "I'd like to double-check an existing reservation",
    "Book a flight from Boston to Denver on Dec 10, we're a group of 15",
    "I need to fly Boston to Denver on Dec 10, then Denver to Seattle on Dec 14",
    "from Boston",
    "I meant Rome, not Paris",
    "leaving from Chicago - no wait, from Boston",
    "ugh, forget about it",
    "yes, go ahead",
    "no thanks, that's all I needed",
    "to Miami please",
    "great, book that one",
    "lovely weather today, isn't it",
    "what's the status of BK-20481?",
    "Show my bookings",
    "alert me when flights from Boston to London drop below $400",
    "I'll take the window seat",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50, help="timed repetitions of each sentence and situation")
    parser.add_argument("--no-embeddings", action="store_true", help="the lexical signals alone")
    args = parser.parse_args(argv)
    if args.no_embeddings:
        os.environ["DIALSTACK_NO_EMBEDDINGS"] = "1"

    from dialstack import Agent
    from dialstack.agent.nlu import ActiveView, NLUView, Understander
    from dialstack.state.slots import SlotContext
    from dialstack.store.memory import InMemoryStore

    with tempfile.TemporaryDirectory() as data:
        # a live agent loads the pack's vocabularies (the travel cities) once, through its tools
        agent = Agent("travel", store=InMemoryStore(), data_dir=data)
        agent.handle("warm-up", "hello")
        vocabularies = dict(agent.vocabularies)
        domain, factory = agent.domain, agent.factory
        agent.close()
    started = time.perf_counter()
    nlu = Understander(domain, factory.slots.make)
    load_ms = (time.perf_counter() - started) * 1000
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc), vocabularies=vocabularies)
    booking = factory.create("book_flight", now=0)
    booking.fill_slots_by_label({"destination": "Paris"}, ctx)
    situations = {
        "idle": NLUView(None, None, paused=[]),
        "asking origin": NLUView(ActiveView("book_flight", booking.spec, booking.slots, "destination"), "origin",
                                 paused=[]),
        "resume offer": NLUView(None, None, paused=[(booking.flow_id, "book_flight")], pending_offer=True,
                                offered=ActiveView("book_flight", booking.spec, booking.slots, flow_id=booking.flow_id)),
        "after a search": NLUView(None, None, paused=[], recent="search_flights"),
    }
    times: list[float] = []
    by_situation: dict[str, list[float]] = {}
    for text in SENTENCES:  # warm: the first use of the pack's words fills the caches, as in a live agent
        nlu.understand(text, situations["idle"], ctx)
    for _ in range(args.rounds):  # every turn a different sentence or situation than the one before
        for name, view in situations.items():
            for text in SENTENCES:
                t0 = time.perf_counter()
                nlu.understand(text, view, ctx)
                elapsed = (time.perf_counter() - t0) * 1000
                times.append(elapsed)
                by_situation.setdefault(name, []).append(elapsed)
    times.sort()
    signals = "lexical only" if nlu.scorer.embedder is None else "lexical + WordLlama"
    print(f"understanding, travel pack, {signals}: {len(times)} turns "
          f"({len(SENTENCES)} sentences x {len(situations)} situations x {args.rounds})")
    print(f"  median {statistics.median(times):.3f} ms   p95 {times[int(len(times) * 0.95)]:.3f} ms   "
          f"max {times[-1]:.3f} ms   (goal: median <= 3 ms)")
    for name, values in by_situation.items():
        print(f"  {name:<16} median {statistics.median(values):.3f} ms")
    print(f"  building the Understander (pack text, embeddings of the flows): {load_ms:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
