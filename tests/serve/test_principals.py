"""Sessions belong to a principal: the stdio/in-process user or the HTTP token's; session ids match whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from dialstack.serve.principal import TokenFileError, read_tokens
from dialstack.serve.server import build_server
from dialstack.tools.wire import is_session_id

from .conftest import DEMO_PACK  # noqa: F401  (puts demo_handlers on sys.path)


def text(result) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def call(server, tool: str, args: dict, session: str | None):  # type: ignore[no-untyped-def]
    meta = {"dialstack/session": session} if session is not None else None
    async with Client(server) as client:
        return await client.call_tool(tool, args, meta=meta)


@pytest.fixture
def alice_and_bob(demo, store):  # type: ignore[no-untyped-def]
    alice = build_server(demo, store, principal="alice")
    bob = build_server(demo, store, principal="bob")
    yield alice, bob
    alice.dialstack.runtime.close()
    bob.dialstack.runtime.close()


async def test_a_session_is_readable_only_by_the_principal_that_created_it(alice_and_bob, store) -> None:  # type: ignore[no-untyped-def]
    alice, bob = alice_and_bob
    wrote = await call(alice, "memory_manager", {"action": "write_scratchpad", "key": "k", "text": "alice's secret"}, "shared")
    assert not wrote.is_error
    for tool, args in [("memory_manager", {"action": "read_scratchpad"}), ("context_coordinator", {}), ("flow_stack", {})]:
        refused = await call(bob, tool, args, "shared")
        assert refused.is_error and "belongs to another user" in text(refused)
        assert "alice's secret" not in text(refused) and "alice" not in text(refused)
    again = await call(alice, "memory_manager", {"action": "read_scratchpad"}, "shared")
    assert [e["text"] for e in again.structured_content["entries"]] == ["alice's secret"]
    assert store.session_info("shared")["user_id"] == "alice"


async def test_preferences_are_read_for_the_calling_principal(alice_and_bob, store) -> None:  # type: ignore[no-untyped-def]
    alice, bob = alice_and_bob
    store.set_preferences("alice", {"seat": "aisle"})
    store.set_preferences("bob", {"seat": "window"})
    a = await call(alice, "memory_manager", {"action": "read_preferences"}, "a1")
    b = await call(bob, "memory_manager", {"action": "read_preferences"}, "b1")
    assert a.structured_content["preferences"] == {"seat": "aisle"}
    assert b.structured_content["preferences"] == {"seat": "window"}


async def test_a_handler_context_carries_the_principal_as_user_id(demo, store) -> None:  # type: ignore[no-untyped-def]
    import demo_handlers

    seen: list[str] = []
    original = demo_handlers.echo

    def spy(text: str, *, ctx):  # type: ignore[no-untyped-def]
        seen.append(ctx.user_id)
        return original(text, ctx=ctx)

    demo_handlers.echo = spy
    server = build_server(demo, store, principal="carol")
    try:
        result = await call(server, "echo", {"text": "hi"}, "c1")
    finally:
        demo_handlers.echo = original
        server.dialstack.runtime.close()
    assert not result.is_error and seen == ["carol"]


@pytest.mark.parametrize("session", ["T\n", "T\r\n", " T", "T ", "", "-T", "T/..", "Ｔ", "x" * 129])
async def test_session_ids_are_matched_whole(server, session: str) -> None:  # type: ignore[no-untyped-def]
    result = await call(server, "echo", {"text": "hi"}, session)
    assert result.is_error and "dialstack/session" in text(result)
    assert not is_session_id(session)


def test_a_token_file_maps_tokens_to_principals(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text("# team\nalice tok-alice-0123456789abcdef\n\ntok-mine-0123456789abcdef  # the server's user\n")
    assert read_tokens(path, "srv") == {"tok-alice-0123456789abcdef": "alice", "tok-mine-0123456789abcdef": "srv"}


@pytest.mark.parametrize("content, complaint", [
    ("alice short", "at least 16"),
    ("al ice tok-0123456789abcdef", "expected TOKEN or PRINCIPAL TOKEN"),
    ("a/b tok-0123456789abcdef", "principal 'a/b' is not valid"),
    ("a tok-0123456789abcdef\nb tok-0123456789abcdef", "already listed for 'a'"),
    ("# nothing\n", "holds no token"),
])
def test_a_bad_token_file_is_refused_naming_the_line(tmp_path: Path, content: str, complaint: str) -> None:
    path = tmp_path / "tokens"
    path.write_text(content)
    with pytest.raises(TokenFileError, match=complaint):
        read_tokens(path, "srv")


async def test_chat_and_serve_on_one_database_share_a_session_only_as_the_same_user(tmp_path: Path) -> None:
    from datetime import date

    from dialstack.agent import Agent
    from dialstack.domain import load_domain
    from dialstack.store import SQLiteStore
    from dialstack.tools.prepare import prepare_domain
    from dialstack.tools.sessions import SessionRefused

    travel = load_domain("travel")
    prepare_domain(travel, tmp_path, date.today())
    db = tmp_path / "d.db"
    with Agent(travel, db=db, data_dir=tmp_path, user_id="alice") as alice:
        alice.handle("trip", "hello")
    with Agent(travel, db=db, data_dir=tmp_path, user_id="bob") as bob, pytest.raises(SessionRefused, match="belongs to user 'alice'"):
        bob.handle("trip", "hello")
    with SQLiteStore(db) as store:
        as_bob = build_server(travel, store, principal="bob", data_dir=tmp_path)
        as_alice = build_server(travel, store, principal="alice", data_dir=tmp_path)
        try:
            refused = await call(as_bob, "context_coordinator", {}, "trip")
            served = await call(as_alice, "context_coordinator", {}, "trip")
        finally:
            as_bob.dialstack.runtime.close()
            as_alice.dialstack.runtime.close()
    assert refused.is_error and "belongs to another user" in text(refused)
    assert not served.is_error and served.structured_content["turns"][0]["user"] == "hello"
