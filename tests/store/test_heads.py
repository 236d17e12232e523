"""Rollback by pointer, the expected-head check and the one-read turn context."""

from __future__ import annotations

import pytest

from dialstack.store import HeadMovedError, SQLiteStore, TurnRecord
from dialstack.store.rows import SESSION_TURNS

from .conftest import commit_states, record


def numbered(n: int) -> list[dict[str, object]]:
    return [{"n": i, "items": list(range(i % 7))} for i in range(1, n + 1)]


def test_rollback_writes_a_fork_and_moves_no_turn_rows(store: SQLiteStore) -> None:
    commit_states(store, "s1", numbered(30))
    ids = store._conn.execute("SELECT id FROM turns ORDER BY id").fetchall()  # white-box: rows stay put
    store.rollback("s1", 10)
    assert store._conn.execute("SELECT id FROM turns ORDER BY id").fetchall() == ids
    assert store.branches("s1") == [{"branch": 1, "first_turn": 11, "last_turn": 30}]
    assert store.state_at("s1", 25, branch=1) == numbered(30)[24]


def test_a_rollback_inside_an_earlier_rollbacks_line_reads_through_both_forks(store: SQLiteStore) -> None:
    first = numbered(12)
    commit_states(store, "s1", first)
    store.rollback("s1", 8)
    second = [{"second": i} for i in range(9, 15)]
    for state in second:
        store.commit_turn("s1", record(state))
    store.rollback("s1", 5)  # below the first fork: the live line goes back to line 0's turns
    assert store.load_state("s1") == first[4]
    assert store.state_at("s1", 3) == first[2]
    assert store.branches("s1") == [{"branch": 1, "first_turn": 9, "last_turn": 12}, {"branch": 2, "first_turn": 6, "last_turn": 14}]
    assert [store.state_at("s1", t, branch=2) for t in (6, 8, 9, 14)] == [first[5], first[7], second[0], second[5]]
    assert store.commit_turn("s1", record({"third": 6})) == 6
    assert store.state_at("s1", 6) == {"third": 6}
    assert store.state_at("s1", 12, branch=1) == first[11]


def test_a_commit_from_a_stale_head_is_refused_and_writes_nothing(store: SQLiteStore) -> None:
    store.commit_turn("s1", record({"x": 1}))
    started_from = store.head_version("s1")
    store.commit_turn("s1", record({"x": 2}))  # another writer
    with pytest.raises(HeadMovedError, match=r"moved on while this turn ran .*nothing was saved"):
        store.commit_turn("s1", record({"x": 3}), expected_version=started_from)
    assert store.load_state("s1") == {"x": 2} and len(store.turns("s1")) == 2
    assert store.commit_turn("s1", record({"x": 3}), expected_version=store.head_version("s1")) == 3


def test_a_rollback_moves_the_head_version(store: SQLiteStore) -> None:
    commit_states(store, "s1", numbered(3))
    version = store.head_version("s1")
    store.rollback("s1", 2)
    with pytest.raises(HeadMovedError):
        store.commit_turn("s1", record({"late": True}), expected_version=version)


def test_two_stores_on_one_file_see_each_others_commits(store: SQLiteStore, db_path) -> None:  # type: ignore[no-untyped-def]
    other = SQLiteStore(db_path)
    try:
        store.commit_turn("s1", record({"a": 1}))
        other.commit_turn("s1", record({"a": 1, "b": 2}))
        assert store.commit_turn("s1", record({"a": 1, "b": 2, "c": 3})) == 3
        assert [store.state_at("s1", t) for t in (1, 2, 3)] == [{"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}]
    finally:
        other.close()


def test_turn_context_reads_the_head_preferences_recent_turns_and_kinds_at_once(store: SQLiteStore) -> None:
    store.set_preferences("alice", {"seat": "window"})
    store.commit_turn("s1", TurnRecord("one", "r1", {"x": 1}, context_kinds=frozenset({"untrusted"})))
    store.commit_turn("s1", record({"x": 2}, text="two"))
    context = store.turn_context("s1", "alice", recent=1)
    assert (context.domain, context.turn, context.state, context.preferences) == ("travel", 2, {"x": 2}, {"seat": "window"})
    assert context.recent == [("two", "re: two")] and context.context_kinds == frozenset({"untrusted"})
    assert store.turn_context("s1", "alice", known_version=context.version).state is None
    assert store.turn_context("nobody", "alice").domain is None


def base_turns(store: SQLiteStore, session: str) -> list[int]:
    """The turn that started each base of ``session`` (white-box: base placement)."""
    rows = store._conn.execute(
        "SELECT MIN(t.id & 4294967295) FROM bases b JOIN turns t ON t.base = b.id WHERE b.session_id=? GROUP BY b.id ORDER BY b.id",
        (session,),
    ).fetchall()
    return [turn for (turn,) in rows]


def test_bases_follow_the_cadence_and_the_flag(store: SQLiteStore) -> None:
    commit_states(store, "s1", numbered(5))  # snapshot_every=4: a base at turn 1, the next at turn 5
    store.commit_turn("s1", record({"x": 6}, snapshot=True))
    assert base_turns(store, "s1") == [1, 5, 6]


def test_a_state_that_drifted_from_its_base_starts_a_new_one(store: SQLiteStore) -> None:
    import random

    noise = random.Random(7)
    words = [{"w": "".join(noise.choice("abcdefghij") for _ in range(3000))} for _ in range(3)]
    commit_states(store, "s1", [words[0], words[0] | {"x": 1}, words[1], words[1] | {"x": 2}, words[2]])
    assert base_turns(store, "s1") == [1, 4]  # turn 3 shares nothing with base 1: the next turn starts one
    assert [store.state_at("s1", t) for t in (3, 4, 5)] == [words[1], words[1] | {"x": 2}, words[2]]


def test_every_turn_reads_on_its_own_after_the_history_before_it_is_pruned(store: SQLiteStore) -> None:
    commit_states(store, "s1", numbered(10))  # bases start at turns 1, 5, 9 (snapshot_every=4)
    store.rollback("s1", 6)  # turns 7-10 become branch 1
    commit_states(store, "s1", [{"again": i} for i in range(3)])
    store.prune("s1", 2)  # drops live turns 1-7 and branch 1 (forked before the first kept turn)
    assert [row.turn for row in store.turns("s1")] == [8, 9] and store.state_at("s1", 9) == {"again": 2}
    used = {base for (base,) in store._conn.execute(f"SELECT t.base FROM {SESSION_TURNS}", ("s1",))}
    kept = {base for (base,) in store._conn.execute("SELECT id FROM bases WHERE session_id='s1'")}
    assert used == kept  # no base is left that no turn needs, none is missing


def test_two_writers_taking_turns_resume_the_heads_base_instead_of_starting_one_each(store: SQLiteStore, db_path) -> None:  # type: ignore[no-untyped-def]
    states = numbered(6)
    with SQLiteStore(db_path, snapshot_every=4) as other:  # another process on the same file
        for index, state in enumerate(states):
            (other if index % 2 else store).commit_turn("s1", record(state))
        assert [other.state_at("s1", turn) for turn in range(1, 7)] == states
    assert base_turns(store, "s1") == [1]


def test_a_commit_after_another_process_rolled_back_continues_from_the_rollback(store: SQLiteStore, db_path) -> None:  # type: ignore[no-untyped-def]
    states = numbered(5)
    commit_states(store, "s1", states)  # this store remembers its head: turn 5
    with SQLiteStore(db_path, snapshot_every=4) as other:
        other.rollback("s1", 3)
    assert store.commit_turn("s1", record({"after": "rollback"})) == 4
    assert [store.state_at("s1", t) for t in (3, 4)] == [states[2], {"after": "rollback"}]
    assert store.branches("s1") == [{"branch": 1, "first_turn": 4, "last_turn": 5}]


def test_a_commit_expecting_a_head_another_process_moved_on_is_refused(store: SQLiteStore, db_path) -> None:  # type: ignore[no-untyped-def]
    commit_states(store, "s1", numbered(2))
    started_from = store.head_version("s1")
    with SQLiteStore(db_path, snapshot_every=4) as other:
        other.commit_turn("s1", record({"other": 3}))
    with pytest.raises(HeadMovedError):
        store.commit_turn("s1", record({"mine": 3}), expected_version=started_from)
    assert store.state_at("s1", 3) == {"other": 3} and store.commit_turn("s1", record({"mine": 4})) == 4
