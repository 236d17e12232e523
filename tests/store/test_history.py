"""Turns, diffs, snapshots, rollback and pruning on SQLite."""

from __future__ import annotations

import pytest

from dialstack.store import SQLiteStore, StoreError, UnknownSessionError, UnknownTurnError

from .conftest import commit_states, dialogue, flow, record


def states(n: int) -> list[dict[str, object]]:
    return [dialogue(flow("book_flight", "active", step=i), archive=list(range(i))) for i in range(1, n + 1)]


def test_commit_turn_numbers_turns_from_one_and_moves_the_head(store: SQLiteStore) -> None:
    assert store.load_state("s1") is None
    assert store.commit_turn("s1", record({"x": 1})) == 1
    assert store.commit_turn("s1", record({"x": 2})) == 2
    assert store.load_state("s1") == {"x": 2}
    assert store.session_info("s1")["turns"] == 2  # type: ignore[index]


def test_turn_rows_carry_text_time_meta_frame_and_diff(store: SQLiteStore) -> None:
    store.commit_turn("s1", record({"x": 1}))
    store.commit_turn("s1", record({"x": 2}, text="two", meta={"intent": "x"}, frame={"data": [1, 2], "display_type": "list"}))
    row = store.turns("s1")[-1]
    assert (row.turn, row.user_text, row.reply, row.meta, row.branch) == (2, "two", "re: two", {"intent": "x"}, 0)
    assert row.diff == [{"op": "replace", "path": "/x", "value": 2}]
    assert row.frame is not None and row.frame["data"] == [1, 2]
    assert row.created_at < store.turns("s1", last=5)[-1].created_at + 1


def test_turns_last_returns_the_newest_oldest_first(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(6))
    assert [row.turn for row in store.turns("s1", last=3)] == [4, 5, 6]


def test_state_at_rebuilds_every_turn_across_snapshots(store: SQLiteStore) -> None:
    written = states(11)
    commit_states(store, "s1", written)
    for turn, state in enumerate(written, start=1):
        assert store.state_at("s1", turn) == state


def test_state_at_out_of_range_names_the_valid_turns(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(3))
    with pytest.raises(UnknownTurnError, match="turns 1 to 3"):
        store.state_at("s1", 4)


def test_unknown_session_is_a_clear_error(store: SQLiteStore) -> None:
    with pytest.raises(UnknownSessionError, match="nope"):
        store.commit_turn("nope", record({}))
    with pytest.raises(UnknownSessionError):
        store.turns("nope")
    assert store.load_state("nope") is None


def test_a_state_that_is_not_json_is_refused_and_nothing_is_written(store: SQLiteStore) -> None:
    with pytest.raises(StoreError, match="JSON"):
        store.commit_turn("s1", record({"when": object()}))
    assert store.turns("s1") == []


def test_rollback_branch_keeps_later_turns_inspectable(store: SQLiteStore) -> None:
    written = states(7)
    commit_states(store, "s1", written)
    assert store.rollback("s1", 3) == written[2]
    assert store.load_state("s1") == written[2]
    assert [row.turn for row in store.turns("s1")] == [1, 2, 3]
    assert store.branches("s1") == [{"branch": 1, "first_turn": 4, "last_turn": 7}]
    assert [row.turn for row in store.turns("s1", branch=1)] == [4, 5, 6, 7]
    assert store.state_at("s1", 6, branch=1) == written[5]


def test_next_commit_after_rollback_continues_from_the_rolled_back_turn(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(5))
    store.rollback("s1", 2)
    assert store.commit_turn("s1", record({"new": True})) == 3
    assert store.state_at("s1", 3) == {"new": True}
    assert store.state_at("s1", 2) == states(5)[1]


def test_rollback_discard_deletes_later_turns(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(6))
    store.rollback("s1", 4, mode="discard")
    assert [row.turn for row in store.turns("s1")] == [1, 2, 3, 4]
    assert store.branches("s1") == []
    with pytest.raises(UnknownTurnError):
        store.state_at("s1", 5)


def test_a_branch_survives_discarding_the_live_line_below_its_fork(store: SQLiteStore) -> None:
    written = states(9)
    commit_states(store, "s1", written)
    store.rollback("s1", 6)
    store.rollback("s1", 2, mode="discard")
    assert store.state_at("s1", 9, branch=1) == written[8]


def test_rollback_to_the_head_changes_nothing(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(3))
    store.rollback("s1", 3)
    assert store.branches("s1") == [] and len(store.turns("s1")) == 3


def test_rollback_refuses_a_bad_mode(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(3))
    with pytest.raises(StoreError, match="'branch' or 'discard'"):
        store.rollback("s1", 1, mode="erase")  # type: ignore[arg-type]


def test_prune_keeps_the_last_turns_and_their_states(store: SQLiteStore) -> None:
    written = states(10)
    commit_states(store, "s1", written)
    assert store.prune("s1", 3) == 7
    assert [row.turn for row in store.turns("s1")] == [8, 9, 10]
    for turn in (8, 9, 10):
        assert store.state_at("s1", turn) == written[turn - 1]
    with pytest.raises(UnknownTurnError, match="pruned"):
        store.state_at("s1", 7)
    assert store.commit_turn("s1", record({"after": 1})) == 11


def test_prune_under_the_limit_removes_nothing(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(3))
    assert store.prune("s1", 50) == 0


def test_prune_drops_branches_forked_before_the_kept_turns(store: SQLiteStore) -> None:
    commit_states(store, "s1", states(4))
    store.rollback("s1", 2)  # branch 1: turns 3-4, forked at 2
    commit_states(store, "s1", states(6))  # live: 3..8
    store.rollback("s1", 7)  # branch 2: turn 8, forked at 7
    assert store.prune("s1", 2) == 5 + 2  # live turns 1-5, branch 1
    assert [b["branch"] for b in store.branches("s1")] == [2]
    assert store.state_at("s1", 8, branch=2) is not None


def test_frames_of_discarded_turns_are_removed_but_saved_frames_stay(store: SQLiteStore) -> None:
    saved = store.save_frame("s1", {"data": [[1]], "display_type": "table"})
    store.commit_turn("s1", record({"x": 1}))
    store.commit_turn("s1", record({"x": 2}, frame={"data": [[2]], "display_type": "table"}))
    turn_frame = store.turns("s1")[-1].frame["table_id"]  # type: ignore[index]
    store.rollback("s1", 1, mode="discard")
    assert store.frame_page(saved, 0, 10)["data"] == [[1]]
    with pytest.raises(StoreError, match="table_id"):
        store.frame_page(turn_frame, 0, 10)
