"""context_coordinator reads the last turns' texts and numbers them as the store's history does,
after a rollback and a prune too."""

from __future__ import annotations

from dialstack.agent.toolclient import ToolClient
from dialstack.store import TurnRecord


def _say(store, session: str, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    for word in words:
        store.commit_turn(session, TurnRecord(user_text=word, reply=f"re: {word}", state={"said": word}))


async def test_context_coordinator_numbers_turns_as_the_history_does_after_a_rollback_and_a_prune(server, store) -> None:  # type: ignore[no-untyped-def]
    store.ensure_session("c1", "demo")
    _say(store, "c1", [f"first {i}" for i in range(8)])
    store.rollback("c1", 5)
    _say(store, "c1", [f"second {i}" for i in range(4)])
    store.prune("c1", 6)
    expected = {last: [{"turn": r.turn, "user": r.user_text, "agent": r.reply} for r in store.turns("c1", last=last)]
                for last in (1, 3, 6, 20)}
    async with ToolClient(server) as tools:
        read = {last: (await tools.call("context_coordinator", {"turns": last}, session="c1")).data["turns"] for last in expected}
    assert read == expected
    assert [t["turn"] for t in read[20]] == [4, 5, 6, 7, 8, 9]
    assert read[3][0]["user"] == "second 1"


async def test_context_coordinator_of_a_session_without_turns_is_empty(server, store) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server) as tools:
        result = await tools.call("context_coordinator", {}, session="c2")
    assert result.ok and result.data == {"turns": []}
