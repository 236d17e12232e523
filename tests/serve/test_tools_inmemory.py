"""The server through the real MCP client, in memory, in both protocol eras."""

from __future__ import annotations

import asyncio
from typing import Any

import demo_handlers
import pytest
from mcp import Client

from dialstack.agent.toolclient import ToolClient

from .conftest import audit_log
from dialstack.serve.server import build_server

ERAS = ["auto", "legacy"]  # auto negotiates 2026-07-28 in memory; legacy is the 2025-11-25 handshake


@pytest.fixture(params=ERAS)
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def approver(answer: bool, seen: list[tuple[str, dict[str, Any], str]]):  # type: ignore[no-untyped-def]
    async def decide(tool: str, args: dict[str, Any], reason: str) -> bool:
        seen.append((tool, args, reason))
        return answer

    return decide


async def test_each_era_negotiates_its_protocol_version(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server, mode=mode) as tools:
        assert tools.protocol_version == ("2026-07-28" if mode == "auto" else "2025-11-25")


async def test_listing_carries_annotations_and_dialstack_meta(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with Client(server, mode=mode) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert {"context_coordinator", "memory_manager", "flow_stack", "echo", "send_message"} <= set(listed)
    send = listed["send_message"]
    assert send.annotations.title == "Send message"
    assert send.annotations.open_world_hint is True
    assert send.annotations.read_only_hint is False
    assert send.annotations.destructive_hint is True
    assert send.annotations.idempotent_hint is False
    assert send.meta["dialstack/capabilities"] == ["changes_state", "communicates_externally"]
    assert send.meta["dialstack/timeout_ms"] == 2000
    assert listed["echo"].annotations.read_only_hint is True
    assert listed["exfiltrate"].meta["dialstack/requires_approval"] is True  # forced by the trifecta
    assert listed["untagged"].meta["dialstack/capabilities"] == sorted(
        ["accesses_private_data", "receives_untrusted_input", "communicates_externally", "changes_state"]
    )
    assert listed["flow_stack"].meta["dialstack/capabilities"] == ["accesses_private_data"]


async def test_good_call_returns_structured_content_and_text(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with Client(server, mode=mode) as client:
        result = await client.call_tool("echo", {"text": "hello"}, meta={"dialstack/session": "s1"})
    assert not result.is_error
    assert result.structured_content == {"text": "hello", "session": "s1"}
    assert '"hello"' in result.content[0].text


async def test_call_without_session_uses_the_default_session(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with Client(server, mode=mode) as client:
        result = await client.call_tool("echo", {"text": "x"})
    assert result.structured_content["session"] == "default"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"text": 42}, "argument 'text' is 42 (expected a string"),
        ({"text": "a", "colour": "red"}, "unknown argument 'colour' (expected only text)"),
        ({}, "missing argument 'text'"),
    ],
)
async def test_schema_violating_arguments_are_rejected_naming_the_field(server, mode: str, args, expected) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server, mode=mode) as tools:
        result = await tools.call("echo", args, session="s1")
    assert not result.ok
    assert expected in result.text
    assert "Nothing was run" in result.text


async def test_unknown_properties_are_rejected_even_without_additional_properties_false(server, store) -> None:  # type: ignore[no-untyped-def]
    demo_handlers.RUNS.clear()
    async with ToolClient(server) as tools:
        result = await tools.call("flaky_read", {"token": "t", "extra": 1}, session="s1")
    assert not result.ok and "unknown argument 'extra'" in result.text
    assert demo_handlers.RUNS["t"] == 0


async def test_oversized_arguments_are_refused_before_validation(demo, store) -> None:  # type: ignore[no-untyped-def]
    server = build_server(demo, store, max_input_bytes=1000)
    async with ToolClient(server) as tools:
        result = await tools.call("echo", {"text": "x" * 5000}, session="s1")
    assert not result.ok
    assert "the limit is 1000 bytes" in result.text


async def test_output_violating_its_schema_is_an_error(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server, mode=mode) as tools:
        result = await tools.call("bad_output", {}, session="s1")
    assert not result.ok and "does not match its output_schema" in result.text and "'count'" in result.text


async def test_hung_handler_times_out_while_other_sessions_keep_being_served(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server, mode=mode) as tools:
        hung = asyncio.create_task(tools.call("hang", {}, session="stuck"))
        others = await asyncio.gather(*(tools.call("echo", {"text": f"t{i}"}, session=f"s{i}") for i in range(10)))
        assert all(r.ok for r in others)
        assert not hung.done() or hung.result().ok is False  # the echo calls did not wait for it
        result = await hung
    assert not result.ok and "did not finish within its timeout of 300 ms" in result.text


async def test_async_handler_past_its_timeout_is_cancelled(server) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server) as tools:
        result = await tools.call("slow_async", {}, session="s1")
    assert not result.ok and "was cancelled" in result.text


async def test_idempotent_tool_is_retried_once_on_a_transient_error(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    token = f"flaky-read-{mode}"
    async with ToolClient(server, mode=mode) as tools:
        result = await tools.call("flaky_read", {"token": token}, session="s1")
    assert result.ok and result.data == {"token": token, "runs": 2}


async def test_non_idempotent_tool_is_never_retried(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    token = f"flaky-write-{mode}"
    async with ToolClient(server, mode=mode) as tools:
        result = await tools.call("flaky_write", {"token": token}, session="s1")
    assert not result.ok and "not retried" in result.text
    assert demo_handlers.RUNS[token] == 1


async def test_repeated_idempotency_key_returns_the_recorded_result_without_running(server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    token = f"note-{mode}"
    async with Client(server, mode=mode) as client:
        meta = {"dialstack/session": "s1", "dialstack/idempotency_key": "k-1"}
        first = await client.call_tool("add_note", {"token": token}, meta=meta)
        second = await client.call_tool("add_note", {"token": token}, meta=meta)
    assert first.structured_content == second.structured_content == {"token": token, "runs": 1}
    assert second.meta["dialstack/replayed"] is True
    assert demo_handlers.RUNS[token] == 1
    calls = [e for e in audit_log(server, store, "s1") if e["kind"] == "tool_call"]
    assert [e["replayed"] for e in calls] == [False, True]


async def test_idempotency_key_reused_with_other_arguments_is_refused(server) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server) as tools:
        await tools.call("add_note", {"token": "a"}, session="s1", idempotency_key="k")
        result = await tools.call("add_note", {"token": "b"}, session="s1", idempotency_key="k")
    assert not result.ok and "already used for a different call" in result.text


async def test_same_idempotency_key_in_another_session_runs_separately(server) -> None:  # type: ignore[no-untyped-def]
    demo_handlers.RUNS["iso"] = 0
    async with ToolClient(server) as tools:
        await tools.call("add_note", {"token": "iso"}, session="s1", idempotency_key="k")
        await tools.call("add_note", {"token": "iso"}, session="s2", idempotency_key="k")
    assert demo_handlers.RUNS["iso"] == 2


async def test_unknown_tool_is_a_protocol_error(server) -> None:  # type: ignore[no-untyped-def]
    async with ToolClient(server) as tools:
        result = await tools.call("nope", {}, session="s1")
    assert not result.ok and "unknown tool 'nope'" in result.text


async def test_skills_are_served_as_resources_and_prompts(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with Client(server, mode=mode) as client:
        uris = [str(r.uri) for r in (await client.list_resources()).resources]
        assert "skill://demo/echo/SKILL.md" in uris
        text = (await client.read_resource("skill://demo/echo/SKILL.md")).contents[0].text
        assert text.startswith("---\nname: echo")
        prompt = await client.get_prompt("relay")
    assert "fetch_page" in prompt.messages[0].content.text


def test_strict_schemas_leave_if_then_conditions_working() -> None:
    from jsonschema import Draft202012Validator

    from dialstack.tools.components import MEMORY_MANAGER
    from dialstack.tools.runtime import strict_schema

    validator = Draft202012Validator(strict_schema(MEMORY_MANAGER.input_schema))
    missing_key = {"action": "write_scratchpad", "text": "canary"}
    assert any("'key' is a required property" in e.message for e in validator.iter_errors(missing_key))
    assert not list(validator.iter_errors({"action": "write_scratchpad", "key": "k", "text": "t"}))
    assert list(validator.iter_errors({"action": "read_scratchpad", "surprise": 1}))
