"""Approval in all three paths, the session trifecta, audit, and session isolation."""

from __future__ import annotations

import asyncio
from typing import Any

import demo_handlers
import pytest
from mcp import Client

from dialstack.agent.toolclient import ToolClient

from .conftest import audit_log
from dialstack.store import TurnRecord


@pytest.fixture(params=["auto", "legacy"])
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def recording(answer: bool, seen: list[tuple[str, dict[str, Any], str]]):  # type: ignore[no-untyped-def]
    async def decide(tool: str, args: dict[str, Any], reason: str) -> bool:
        seen.append((tool, args, reason))
        return answer

    return decide


async def test_approved_trifecta_tool_runs_after_the_prompt_shows_tool_and_full_arguments(server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    seen: list = []
    token = f"approved-{mode}"
    async with ToolClient(server, mode=mode, approver=recording(True, seen)) as tools:
        result = await tools.call("exfiltrate", {"token": token}, session="s1")
    assert result.ok and result.approval == "approved"
    assert seen == [("exfiltrate", {"token": token}, seen[0][2])] and "approval is always required" in seen[0][2]
    gates = [e for e in audit_log(server, store, "s1") if "decision" in e and e.get("approval") != "requested"]
    assert gates[-1]["decision"] == "needs_approval" and gates[-1]["approval"] == "approved" and gates[-1]["ok"]
    assert gates[-1]["approved_by"].startswith("user via") and gates[-1]["args_digest"].startswith("sha256:")


async def test_declined_approval_runs_nothing(server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    token = f"declined-{mode}"
    async with ToolClient(server, mode=mode, approver=recording(False, [])) as tools:
        result = await tools.call("exfiltrate", {"token": token}, session="s1")
    assert not result.ok and result.approval == "declined"
    assert "declined" in result.text
    assert demo_handlers.RUNS[token] == 0
    assert audit_log(server, store, "s1")[-1]["approval"] == "declined"


async def test_client_without_elicitation_gets_an_error_saying_what_would_have_run(server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    token = f"unsupported-{mode}"
    async with ToolClient(server, mode=mode) as tools:  # no approver: no elicitation capability
        result = await tools.call("untagged", {"token": token}, session="s1")
    assert not result.ok and result.approval == "unsupported"
    assert "approval is required" in result.text and f'untagged({{"token": "{token}"}})' in result.text
    assert demo_handlers.RUNS[token] == 0
    assert audit_log(server, store, "s1")[-1]["approval"] == "unsupported"


async def test_untrusted_output_in_a_private_session_makes_an_external_call_need_approval(demo, server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    from dialstack.serve.server import build_server

    seen: list = []
    async with ToolClient(server, mode=mode, approver=recording(False, seen)) as tools:
        before = await tools.call("send_message", {"to": "bob", "body": "hi"}, session="t1")
        page = await tools.call("fetch_page", {"url": "https://example.com"}, session="t1")
        after = await tools.call("send_message", {"to": "bob", "body": page.data["content"]}, session="t1")
        elsewhere = await tools.call("send_message", {"to": "bob", "body": "hi"}, session="t2")
    other = build_server(demo, store, principal="default")  # another stdio process on the same database
    async with ToolClient(other, mode=mode, approver=recording(False, [])) as fresh:
        other_connection = await fresh.call("send_message", {"to": "bob", "body": "hi"}, session="t3")
    other.dialstack.runtime.close()
    assert before.ok and before.approval is None
    assert not after.ok and after.approval == "declined"
    assert seen[0][0] == "send_message" and "untrusted" in seen[0][2]
    # the connection holds the untrusted page: naming a fresh session sheds nothing
    assert not elsewhere.ok and elsewhere.approval == "declined"
    assert other_connection.ok  # another connection never saw untrusted input
    assert store.context_kinds("t1") >= {"untrusted"}
    decisions = [e["decision"] for e in audit_log(server, store, "t1") if "decision" in e and e.get("approval") != "requested"]
    assert decisions == ["allow", "allow", "needs_approval"]


async def test_modern_client_receives_an_input_required_result_first(server) -> None:  # type: ignore[no-untyped-def]
    async def never(context, params):  # type: ignore[no-untyped-def]
        raise AssertionError("the first round must not elicit")

    async with Client(server, elicitation_callback=never) as client:
        first = await client.session.call_tool("exfiltrate", {"token": "raw"}, allow_input_required=True)
    assert first.result_type == "input_required"
    request = first.input_requests["dialstack/approval"]
    assert request.params.requested_schema["required"] == ["approve"]
    assert '"token": "raw"' in request.params.message
    assert demo_handlers.RUNS["raw"] == 0


async def test_denied_tool_is_refused_and_audited(demo, store) -> None:  # type: ignore[no-untyped-def]
    from dialstack.serve.server import build_server

    server = build_server(demo, store, denied=frozenset({"echo"}))
    async with ToolClient(server) as tools:
        result = await tools.call("echo", {"text": "x"}, session="s1")
    assert not result.ok and "disabled" in result.text
    assert audit_log(server, store, "s1")[-1]["decision"] == "deny"


def commit(store, session: str, n: int) -> None:  # type: ignore[no-untyped-def]
    store.ensure_session(session, "demo")
    for i in range(n):
        state = {"stack": [{"flow_id": f"f{i}", "name": "echo_text", "intent": "Lookup", "state": "active",
                            "slots": {"text": {"value": f"{session}-slot-{i}"}}}], "archive": []}
        store.commit_turn(session, TurnRecord(user_text=f"{session} says {i}", reply=f"reply {i}", state=state))


async def test_context_coordinator_reads_three_turns_by_default_and_more_on_request(server, store) -> None:  # type: ignore[no-untyped-def]
    commit(store, "h1", 5)
    async with ToolClient(server) as tools:
        default = await tools.call("context_coordinator", {}, session="h1")
        more = await tools.call("context_coordinator", {"turns": 5}, session="h1")
    assert [t["user"] for t in default.data["turns"]] == ["h1 says 2", "h1 says 3", "h1 says 4"]
    assert len(more.data["turns"]) == 5


async def test_memory_manager_writes_and_reads_the_scratchpad_and_reads_preferences(server, store) -> None:  # type: ignore[no-untyped-def]
    store.ensure_session("m1", "demo")
    store.set_preferences("default", {"seat": "aisle"})
    async with ToolClient(server) as tools:
        wrote = await tools.call("memory_manager", {"action": "write_scratchpad", "key": "k", "text": "note"}, session="m1")
        read = await tools.call("memory_manager", {"action": "read_scratchpad"}, session="m1")
        prefs = await tools.call("memory_manager", {"action": "read_preferences"}, session="m1")
        missing = await tools.call("memory_manager", {"action": "write_scratchpad"}, session="m1")
    assert wrote.ok and read.data["entries"][0]["text"] == "note"
    assert prefs.data["preferences"] == {"seat": "aisle"}
    assert not missing.ok and "missing argument" in missing.text


async def test_flow_stack_reads_slots_of_the_current_flow(server, store) -> None:  # type: ignore[no-untyped-def]
    commit(store, "f1", 1)
    async with ToolClient(server) as tools:
        result = await tools.call("flow_stack", {}, session="f1")
    assert result.data["current"]["name"] == "echo_text"
    assert result.data["current"]["slots"] == {"text": "f1-slot-0"}


async def test_many_concurrent_sessions_never_see_each_others_canaries(server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    sessions = [f"iso-{mode}-{i}" for i in range(20)]
    for s in sessions:
        commit(store, s, 2)

    async def one(tools: ToolClient, s: str) -> None:
        wrote = await tools.call("memory_manager", {"action": "write_scratchpad", "key": "canary", "text": f"canary-{s}"}, session=s)
        assert wrote.ok
        pad = await tools.call("memory_manager", {"action": "read_scratchpad"}, session=s)
        history = await tools.call("context_coordinator", {"turns": 10}, session=s)
        stack = await tools.call("flow_stack", {}, session=s)
        assert [e["text"] for e in pad.data["entries"]] == [f"canary-{s}"]
        assert all(t["user"].startswith(f"{s} says") for t in history.data["turns"])
        assert stack.data["current"]["slots"]["text"].startswith(f"{s}-slot")

    async with ToolClient(server, mode=mode) as tools:
        await asyncio.gather(*(one(tools, s) for s in sessions))
