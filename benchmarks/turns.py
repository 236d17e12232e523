"""What one orchestrator turn costs beyond its tool calls: a 1,000-turn scripted conversation.

Replays a realistic offline conversation on the bundled travel domain through
``Agent.handle`` (offline understanding and skills, in-memory MCP, SQLite on disk, one
session) and times every turn. Each ``ToolClient.call`` is timed as well, so a turn's
*overhead* is its wall time minus the MCP calls it made (those are the cost of the tools
themselves, what a bare MCP client would pay). Target: median overhead <= 5 ms per turn.

    python benchmarks/turns.py [--turns 1000] [--profile out.prof]

The script is a cycle of short episodes (bookings with digressions, interruptions and
resumes, checks, modifications, cancels, corrections, preferences, help and chitchat,
an approval); ``{ref}`` stands for the reference of the latest booking made. Every reply
is checked: an error or a "didn't understand" reply fails the run, so the numbers are of
a conversation that works. Where the agent asks to confirm an irreversible action ("shall I
go ahead?") instead of giving the expected answer, the user says "yes" in one more (timed)
turn and that reply is checked.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

# (user text, substrings the reply must contain, case-insensitive)
Step = tuple[str, tuple[str, ...]]
# Order matters: 'I want to book a flight' right after a booking ended asks that same task
# again with its values carried over (nlu._refines), so a fresh booking, which is to ask
# "fly from" as in the seeds' interruption scenario, never directly follows a booking episode.
# A confirmed action's reply is what is expected ("is set"), never its confirmation question.
EPISODES: list[list[Step]] = [
    [  # a booking with a digression and re-prompt
        ("I want to book a flight", ("fly from",)),
        ("What cities do you support?", ("New York", "fly from")),
        ("New York", ("fly to",)),
        ("Los Angeles", ("date",)),
        ("Dec 15", ("booked", "Reference")),
    ],
    [  # the new booking: check it, remind, modify, cancel it
        ("Check booking {ref}", ("{ref}", "confirmed")),
        ("Remind me to check in for {ref}", ("remind you",)),
        ("Change my booking {ref} to Dec 22", ("Dec 22",)),
        ("I want to cancel booking {ref}", ("Are you sure",)),
        ("yes", ("cancelled",)),
    ],
    [  # interruption and resume
        ("I want to book a flight", ("fly from",)),
        ("Actually, let me check my booking first", ("booking reference",)),
        ("BK-12345", ("confirmed", "continue booking")),
        ("Yes", ("Great!", "fly from")),
        ("Boston", ("fly to",)),
        ("Chicago", ("date",)),
        ("Dec 20", ("booked", "Reference")),
    ],
    [  # one-shot requests
        ("Show me flights from Boston to Chicago next Friday", ("flights from Boston to Chicago",)),
        ("Book me a flight from Boston to Chicago on Dec 20", ("booked", "Reference")),
        ("I prefer window seats and vegetarian meals", ("Saved",)),
        ("thanks!", ("Happy to help",)),
    ],
    [  # a correction, a status question, then a cancel mid-flow
        ("I want to book a flight", ("fly from",)),
        ("Miami", ("fly to",)),
        ("what do you have so far?", ("So far I have", "fly to")),
        ("Seattle", ("date",)),
        ("actually make it Denver", ("date",)),
        ("cancel", ("cancelled",)),
    ],
    [  # a price alert, help, a digression inside a nested flow
        ("Alert me when flights from New York to Paris drop below $400", ("Price alert", "is set")),
        ("What can you do?", ("I can help you with",)),
        ("Book a flight to LA", ("fly from",)),
        ("Wait, let me check my current booking first", ("booking reference",)),
        ("What cities do you fly to?", ("Los Angeles", "booking reference")),
        ("BK-12345", ("continue booking",)),
        ("No", ("cancelled",)),
    ],
    [  # untrusted input, then an approval before sending private data out
        ("Check my inbox for booking emails", ("booking emails",)),
        ("Email my itinerary for BK-12345 to ana@example.com", ("Allow send_itinerary",)),
        ("/approve", ("queued the itinerary",)),
        ("Show my bookings", ("bookings",)),
    ],
]
CONFIRMATION = "shall i go ahead"  # the agent asks before an irreversible tool call
BAD_REPLIES = ("didn't understand", "something went wrong", "couldn't finish", "couldn't read", "not run")
REFERENCE = re.compile(r"Reference (BK-\d+)")


def script(turns: int) -> list[Step]:
    steps: list[Step] = []
    while len(steps) < turns:
        for episode in EPISODES:
            steps.extend(episode)
    return steps[:turns]


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


def time_tool_calls(toolclient_cls: Any, spent: list[float], counts: list[int]) -> Callable[[], None]:
    """Wrap ``ToolClient.call`` to add each call's wall time to ``spent[0]``; returns the undo."""
    original = toolclient_cls.call

    async def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original(self, *args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start
            counts[0] += 1

    toolclient_cls.call = timed
    return lambda: setattr(toolclient_cls, "call", original)


async def _in_loop(fn: Callable[[], Any]) -> None:
    fn()


def run(turns: int, db: Path, profile: str | None) -> dict[str, Any]:
    from dialstack import Agent
    from dialstack.agent.agent import Clock
    from dialstack.agent.toolclient import ToolClient

    spent, counts = [0.0], [0]
    undo = time_tool_calls(ToolClient, spent, counts)
    clock = Clock(datetime(2025, 11, 1, 9, 0, tzinfo=timezone.utc))
    totals: list[float] = []
    tools: list[float] = []
    calls: list[int] = []
    ref = "BK-12345"
    profiler = None
    try:
        with Agent("travel", db=db, clock=clock) as agent:
            agent.handle("warm-up", "hello")  # connects the MCP client, lists tools, loads vocabularies
            if profile:  # the turn runs on the agent's event-loop thread: profile that thread
                import cProfile

                profiler = cProfile.Profile()
                agent._run(_in_loop(profiler.enable))
            def timed(said: str) -> str:
                spent[0], counts[0] = 0.0, 0
                start = time.perf_counter()
                result = agent.handle("bench", said)
                totals.append(time.perf_counter() - start)
                tools.append(spent[0])
                calls.append(counts[0])
                return result.reply

            for i, (text, expected) in enumerate(script(turns)):
                said = text.replace("{ref}", ref)
                reply = timed(said)
                missing = [e for e in expected if e.replace("{ref}", ref).lower() not in reply.lower()]
                if missing and CONFIRMATION in reply.lower():
                    clock.advance(5)
                    said, reply = "yes", timed("yes")
                    missing = [e for e in expected if e.replace("{ref}", ref).lower() not in reply.lower()]
                lowered = reply.lower()
                if missing or any(bad in lowered for bad in BAD_REPLIES):
                    raise SystemExit(f"turn {i + 1} {said!r}: unexpected reply {reply!r} (expected {missing or 'no error'})")
                found = REFERENCE.search(reply)
                if found:
                    ref = found.group(1)
                clock.advance(5)
            if profiler:
                agent._run(_in_loop(profiler.disable))
    finally:
        undo()
    if profiler:
        profiler.dump_stats(profile)
    return {"totals": totals, "tools": tools, "calls": calls}


def report(results: dict[str, Any]) -> str:
    totals, tools, calls = results["totals"], results["tools"], results["calls"]
    overhead = [t - c for t, c in zip(totals, tools)]
    with_calls = [c for c, n in zip(tools, calls) if n]
    per_call = sum(tools) / max(1, sum(calls))
    tenth = max(1, len(overhead) // 10)

    def row(name: str, values: list[float]) -> str:
        ordered = sorted(values)
        return f"| {name} | {statistics.median(ordered) * 1000:.2f} | {percentile(ordered, 0.99) * 1000:.2f} | {statistics.mean(ordered) * 1000:.2f} |"

    lines = [
        f"{len(totals)} turns, {sum(calls)} MCP tool calls ({sum(1 for n in calls if n)} turns with calls), "
        f"{per_call * 1000:.3f} ms per call on average",
        "",
        "| per turn | median ms | p99 ms | mean ms |",
        "|---|---|---|---|",
        row("whole turn (Agent.handle)", totals),
        row("overhead (turn minus its MCP calls)", overhead),
        row("MCP calls, turns that made any", with_calls),
        "",
        f"overhead median, first {tenth} turns: {statistics.median(overhead[:tenth]) * 1000:.2f} ms; "
        f"last {tenth}: {statistics.median(overhead[-tenth:]) * 1000:.2f} ms",
        f"target: overhead median <= 5 ms: {'ok' if statistics.median(overhead) <= 0.005 else 'over'}",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the timed turns to FILE")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = run(options.turns, Path(tmp) / "turns.db", options.profile)
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
