"""state_at(n) equals the full state committed at n, whatever the history did."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.store import InMemoryStore, TurnRecord
from dialstack.state.diff import apply_diff, canonical

scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, 1.0, "x", "", "a/b~c"])
edits = st.tuples(st.sampled_from(["push", "pop", "state", "slot", "archive", "forget", "flag"]), st.integers(0, 5), scalars)
steps = st.one_of(
    st.tuples(st.just("commit"), st.lists(edits, max_size=4), st.booleans()),
    st.tuples(st.just("rollback"), st.integers(0, 100), st.sampled_from(["branch", "discard"])),
    st.tuples(st.just("prune"), st.integers(1, 6), st.none()),
)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``True`` and ``1`` differ, unlike ``==``."""
    return canonical(a) == canonical(b)


def evolve(state: dict[str, Any], edit: tuple[str, int, Any]) -> None:
    kind, n, value = edit
    stack, archive = state["stack"], state["archive"]
    if kind == "push":
        stack.append({"name": f"flow{n}", "state": "active", "slots": {}})
    elif kind == "pop" and stack:
        stack.pop(n % len(stack))
    elif kind == "state" and stack:
        stack[n % len(stack)]["state"] = value
    elif kind == "slot" and stack:
        stack[-1]["slots"][f"s{n}"] = value
    elif kind == "archive" and stack:
        archive.append(stack.pop())
    elif kind == "forget" and archive:
        archive.pop(0)
    elif kind == "flag":
        state["flags"][f"f{n}"] = value


@given(st.lists(steps, min_size=1, max_size=25), st.integers(1, 6))
@settings(max_examples=200, deadline=None)
def test_state_at_matches_every_committed_state(history: list[Any], every: int) -> None:
    store = InMemoryStore(snapshot_every=every)
    store.ensure_session("s", "travel")
    live: list[dict[str, Any]] = []  # the model: states on the live line, turn = index + 1
    branches: list[list[dict[str, Any]]] = []
    state: dict[str, Any] = {"stack": [], "archive": [], "flags": {}}
    first_kept = 1
    for step in history:
        if step[0] == "commit":
            for edit in step[1]:
                evolve(state, edit)
            assert store.commit_turn("s", TurnRecord("u", "r", copy.deepcopy(state), snapshot=step[2])) == len(live) + 1
            live.append(copy.deepcopy(state))
        elif step[0] == "rollback" and live:
            to_turn = first_kept + step[1] % (len(live) - first_kept + 1)
            assert same(store.rollback("s", to_turn, mode=step[2]), live[to_turn - 1])
            if step[2] == "branch" and to_turn < len(live):
                branches.append(live[to_turn:])
            del live[to_turn:]
            state = copy.deepcopy(live[-1])
        elif step[0] == "prune" and live:
            store.prune("s", step[1])
            first_kept = max(first_kept, len(live) - step[1] + 1)
        for turn in range(first_kept, len(live) + 1):
            assert same(store.state_at("s", turn), live[turn - 1])
        rows = store.turns("s")
        assert [row.turn for row in rows] == list(range(first_kept, len(live) + 1))
        for row in rows[1:]:  # each row's diff turns the state before it into its own
            assert same(apply_diff(live[row.turn - 2], row.diff), live[row.turn - 1])
        assert same(store.load_state("s"), live[-1] if live else None)
    surviving = {b["branch"]: b for b in store.branches("s")}
    for number, info in surviving.items():
        states = branches[number - 1]
        assert info["last_turn"] - info["first_turn"] + 1 == len(states)
        assert [row.turn for row in store.turns("s", branch=number)] == list(range(info["first_turn"], info["last_turn"] + 1))
        for offset, expected in enumerate(states):
            assert same(store.state_at("s", info["first_turn"] + offset, branch=number), expected)
    store.close()
