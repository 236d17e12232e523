"""Several threads of one process share a store safely."""

from __future__ import annotations

import threading

from dialstack.store import SQLiteStore

from .conftest import record


def test_threads_committing_to_different_sessions_keep_every_turn(store: SQLiteStore) -> None:
    sessions = [f"t{n}" for n in range(4)]
    for session in sessions:
        store.ensure_session(session, "travel")
    errors: list[BaseException] = []
    start = threading.Barrier(len(sessions))

    def work(session: str) -> None:
        try:
            start.wait(timeout=30)
            for n in range(1, 31):
                store.commit_turn(session, record({"session": session, "n": n, "seen": list(range(n % 7))}))
                store.write_scratchpad(session, "k", str(n), "thread")
                assert store.load_state(session)["n"] == n  # type: ignore[index]
        except BaseException as exc:  # collected and re-raised by the test thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    for session in sessions:
        assert [row.turn for row in store.turns(session)] == list(range(1, 31))
        assert store.state_at(session, 17) == {"session": session, "n": 17, "seen": list(range(17 % 7))}
        assert len(store.scratchpad(session)) == 30


def test_a_second_store_on_the_same_file_sees_commits(store: SQLiteStore, db_path) -> None:  # type: ignore[no-untyped-def]
    store.commit_turn("s1", record({"x": 1}))
    with SQLiteStore(db_path) as other:
        other.commit_turn("s1", record({"x": 2}))
    assert store.commit_turn("s1", record({"x": 3})) == 3
    assert [store.state_at("s1", t) for t in (1, 2, 3)] == [{"x": 1}, {"x": 2}, {"x": 3}]
