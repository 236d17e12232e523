"""The Anthropic skill runner, driven through the real SDK against the local Messages API stub."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from anthropic import AsyncAnthropic

from dialstack.agent.llm.anthropic import AnthropicConfigError, AnthropicModel, AnthropicSkillRunner, anthropic_backend
from dialstack.agent.llm.skill_loop import LoopSettings
from dialstack.agent.outcomes import Failure, SkillInvocation, Success, ToolCallResult, ToolDescriptor, Uncertain
from dialstack.domain.models import FlowSpec, SkillSpec, SlotSpec

from .stub_messages_api import MessagesStub, api_error, finish, reply, text, tool_use

SKILL_BODY = "# Book a flight\nSearch flights, pick the cheapest within max_price, then book it.\n## Success criteria\nA booking reference."
COMPONENT_TOOLS = ("context_coordinator", "memory_manager", "flow_stack")


class FakeTools:
    """The invocation's ``call_tool``: canned results by tool name, every call logged."""

    def __init__(self, results: dict[str, ToolCallResult] | None = None) -> None:
        self.results = results or {}
        self.log: list[tuple[str, dict[str, Any]]] = []

    async def __call__(self, name: str, arguments: dict[str, Any]) -> ToolCallResult:
        self.log.append((name, arguments))
        return self.results.get(name) or ToolCallResult(name, arguments, ok=True, data={"ok": True}, text="ok")


def _descriptor(name: str) -> ToolDescriptor:
    schema = {"type": "object", "properties": {"query": {"type": "string"}}}
    return ToolDescriptor(name=name, description=f"The {name} tool.", input_schema=schema)


def make_invocation(tools: FakeTools | Any, *, reflection: bool = False, timeout_s: float = 30.0, **extra: Any) -> SkillInvocation:
    flow = FlowSpec(
        name="book_flight",
        intent="schedule",
        description="Book a flight",
        slots=[SlotSpec(name="origin", type="LocationSlot"), SlotSpec(name="destination", type="LocationSlot")],
        outputs=["booking_ref"],
        tools=["search_flights", "create_booking"],
        skill="book-flight",
        reflection=reflection,
    )
    skill = SkillSpec(name="book-flight", description="Book a flight", path=Path("SKILL.md"), body=SKILL_BODY, frontmatter={})
    return SkillInvocation(
        flow=flow,
        skill=skill,
        slots={"origin": "Lisbon", "destination": "Boston"},
        inputs={},
        context=extra.pop("context", {"recent_turns": [{"role": "user", "text": "book me a flight to Boston"}]}),
        tools=[_descriptor(n) for n in ("search_flights", "create_booking", *COMPONENT_TOOLS)],
        call_tool=tools,
        timeout_s=timeout_s,
        **extra,
    )


@pytest.fixture
async def runner(messages_stub: MessagesStub) -> AsyncIterator[AnthropicSkillRunner]:
    client = AsyncAnthropic(base_url=messages_stub.url, api_key="test", max_retries=0)
    yield AnthropicSkillRunner(AnthropicModel(client, "claude-test"), LoopSettings(max_tokens=1000, max_iterations=6))
    await client.close()


def _system_text(request: dict[str, Any]) -> str:
    system = request["system"]
    return system if isinstance(system, str) else "\n".join(block["text"] for block in system)


def _tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in request["messages"][-1]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


async def test_skill_calls_two_tools_then_returns_the_success_outcome(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(text("Searching."), tool_use("search_flights", {"query": "LIS-BOS"}, id="t1")),
        reply(tool_use("create_booking", {"query": "FL-1"}, id="t2")),
        finish(outcome="success", data={"booking_ref": "BK-12345"}, scratchpad_entries=["booked BK-12345"]),
    )
    tools = FakeTools({"search_flights": ToolCallResult("search_flights", {}, ok=True, data={"flights": [{"id": "FL-1"}]})})
    invocation = make_invocation(tools)

    outcome = await runner.run(invocation)

    assert outcome == Success(data={"booking_ref": "BK-12345"}, scratchpad_entries=["booked BK-12345"])
    assert [name for name, _ in tools.log] == ["search_flights", "create_booking"]
    assert [call.tool for call in invocation.calls] == ["search_flights", "create_booking"]
    first, second, _ = messages_stub.requests
    assert [t["name"] for t in first["tools"]] == ["search_flights", "create_booking", *COMPONENT_TOOLS, "finish"]
    system = _system_text(first)
    assert SKILL_BODY in system and '"origin": "Lisbon"' in system and '"destination": "Boston"' in system
    assert "book me a flight to Boston" in system
    assert _tool_results(second) == [{"type": "tool_result", "tool_use_id": "t1", "content": json.dumps({"flights": [{"id": "FL-1"}]})}]


async def test_bad_json_reply_gets_one_correction_and_the_corrected_outcome_wins(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(text('```json\n{"outcome": "success", "data": {"booking_ref": \n```')),
        finish(outcome="success", data={"booking_ref": "BK-00001"}),
    )
    outcome = await runner.run(make_invocation(FakeTools()))

    assert outcome == Success(data={"booking_ref": "BK-00001"})
    correction = messages_stub.requests[1]["messages"][-1]
    assert correction["role"] == "user" and "not valid JSON" in json.dumps(correction["content"])


async def test_outcome_given_as_json_text_is_accepted(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(text('Done: {"outcome": "uncertain", "reason": "two flights match", "context": {}}')))
    assert await runner.run(make_invocation(FakeTools())) == Uncertain(reason="two flights match")


async def test_schema_violating_outcome_twice_fails_as_invalid_output(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(tool_use("finish", {"outcome": "failure", "message": "no seats"}, id="f1")),
        reply(tool_use("finish", {"outcome": "success", "data": {}, "reason": "mixed shapes"}, id="f2")),
    )
    outcome = await runner.run(make_invocation(FakeTools()))

    assert isinstance(outcome, Failure) and outcome.error_category == "invalid_output"
    [corrective] = _tool_results(messages_stub.requests[1])
    assert corrective["tool_use_id"] == "f1" and corrective["is_error"] is True
    assert "error_category" in corrective["content"]


async def test_truncated_reply_is_retried_once_with_doubled_max_tokens(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(text('{"outcome": "succ'), stop_reason="max_tokens"),
        finish(outcome="success", data={"booking_ref": "BK-22222"}),
    )
    outcome = await runner.run(make_invocation(FakeTools()))

    assert outcome == Success(data={"booking_ref": "BK-22222"})
    assert [r["max_tokens"] for r in messages_stub.requests] == [1000, 2000]
    assert messages_stub.requests[0]["messages"] == messages_stub.requests[1]["messages"]


async def test_reply_truncated_again_after_doubling_fails_as_truncated(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(text("..."), stop_reason="max_tokens"), reply(text("..."), stop_reason="max_tokens"))
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "truncated" and "2000" in outcome.message


async def test_refusal_ends_the_run_with_a_refused_failure(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(stop_reason="refusal"))
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "refused" and "declined" in outcome.message


@pytest.mark.parametrize(
    ("status", "kind"), [(529, "overloaded_error"), (500, "api_error"), (401, "authentication_error")]
)
async def test_api_error_is_an_llm_unavailable_failure(runner: AnthropicSkillRunner, messages_stub: MessagesStub, status: int, kind: str) -> None:
    messages_stub.push(api_error(status, kind, "try later"))
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "llm_unavailable"
    assert f"HTTP {status}" in outcome.message and kind in outcome.message


async def test_declined_approval_is_reported_to_the_model_as_a_declined_call(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    declined = ToolCallResult("create_booking", {}, ok=False, text="user said no", approval="declined")
    messages_stub.push(
        reply(tool_use("create_booking", {"query": "FL-1"}, id="c1")),
        finish(outcome="failure", error_category="approval_declined", message="Booking not made."),
    )
    invocation = make_invocation(FakeTools({"create_booking": declined}))
    outcome = await runner.run(invocation)

    assert outcome == Failure(error_category="approval_declined", message="Booking not made.")
    [result] = _tool_results(messages_stub.requests[1])
    assert result["is_error"] is True and "declined to approve" in result["content"]
    assert invocation.calls == [declined]


async def test_failed_tool_call_is_fed_back_as_an_error_result(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    failed = ToolCallResult("search_flights", {}, ok=False, text="search_flights timed out after 2000 ms")
    messages_stub.push(
        reply(tool_use("search_flights", {}, id="s1")),
        finish(outcome="failure", error_category="tool_error", message="Search is down."),
    )
    await runner.run(make_invocation(FakeTools({"search_flights": failed})))
    [result] = _tool_results(messages_stub.requests[1])
    assert result == {"type": "tool_result", "tool_use_id": "s1", "content": "search_flights timed out after 2000 ms", "is_error": True}


async def test_unknown_tool_is_reported_to_the_model_without_being_called(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(tool_use("delete_everything", {}, id="x1")), finish(outcome="uncertain", reason="no tool"))
    tools = FakeTools()
    await runner.run(make_invocation(tools))
    assert tools.log == []
    [result] = _tool_results(messages_stub.requests[1])
    assert result["is_error"] is True and "no tool 'delete_everything'" in result["content"]


async def test_an_outcome_is_returned_only_once(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(tool_use("finish", {"outcome": "success", "data": {"n": 1}}), tool_use("finish", {"outcome": "success", "data": {"n": 2}}))
    )
    assert await runner.run(make_invocation(FakeTools())) == Success(data={"n": 1})


async def test_finish_alongside_tool_calls_waits_until_the_results_are_read(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        reply(tool_use("create_booking", {}, id="b1"), tool_use("finish", {"outcome": "success", "data": {}}, id="f1")),
        finish(outcome="success", data={"booking_ref": "BK-33333"}),
    )
    tools = FakeTools()
    outcome = await runner.run(make_invocation(tools))

    assert outcome == Success(data={"booking_ref": "BK-33333"})
    assert [name for name, _ in tools.log] == ["create_booking"]
    results = _tool_results(messages_stub.requests[1])
    assert [r["tool_use_id"] for r in results] == ["b1", "f1"] and results[1]["is_error"] is True


async def test_reflection_flow_runs_generate_evaluate_and_one_revision(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        finish(outcome="success", data={"summary": "draft"}),
        reply(tool_use("evaluate", {"verdict": "revise", "issues": ["mention the booking reference"]})),
        finish(outcome="success", data={"summary": "final, BK-44444"}),
    )
    outcome = await runner.run(make_invocation(FakeTools(), reflection=True))

    assert outcome == Success(data={"summary": "final, BK-44444"})
    generate, evaluate, revise = messages_stub.requests
    assert "tool_choice" not in generate
    assert evaluate["tool_choice"] == {"type": "tool", "name": "evaluate"}
    assert "success criteria" in json.dumps(evaluate["messages"][-1]["content"])
    assert revise["tool_choice"] == {"type": "tool", "name": "finish"}
    assert "mention the booking reference" in json.dumps(revise["messages"][-1]["content"])


async def test_reflection_that_passes_keeps_the_candidate_without_revising(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        finish(outcome="success", data={"summary": "good"}),
        reply(tool_use("evaluate", {"verdict": "pass", "issues": []})),
    )
    assert await runner.run(make_invocation(FakeTools(), reflection=True)) == Success(data={"summary": "good"})
    assert len(messages_stub.requests) == 2


async def test_reflection_is_skipped_for_flows_without_the_flag(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(finish(outcome="success", data={"summary": "good"}))
    assert await runner.run(make_invocation(FakeTools())) == Success(data={"summary": "good"})


async def test_skill_that_outlives_its_timeout_fails_with_timeout(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    never = asyncio.Event()

    async def hanging_tool(name: str, arguments: dict[str, Any]) -> ToolCallResult:
        await never.wait()
        raise AssertionError("unreachable")

    messages_stub.push(reply(tool_use("search_flights", {})))
    outcome = await runner.run(make_invocation(hanging_tool, timeout_s=0.2))
    assert isinstance(outcome, Failure) and outcome.error_category == "timeout" and "0.2s" in outcome.message


async def test_loop_gives_up_after_the_maximum_number_of_model_turns(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(*[reply(tool_use("flow_stack", {})) for _ in range(6)])
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "max_iterations"
    assert outcome.partial_data == {"tool_calls": [{"tool": "flow_stack", "ok": True, "approval": None}] * 6}


async def test_generated_sql_is_cleaned_by_the_guardrails(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(finish(outcome="success", data={"sql": "```sql\nselect fare from flights -- cheapest\n```"}))
    invocation = make_invocation(FakeTools(), context={"valid_entities": {"flights": ["fare"]}})
    assert await runner.run(invocation) == Success(data={"sql": "SELECT fare FROM flights"})


async def test_guardrail_rejection_is_a_guardrail_failure(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(finish(outcome="success", data={"sql": "DELETE FROM flights"}))
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "guardrail"
    assert "read-only" in outcome.message and outcome.partial_data == {"sql": "DELETE FROM flights"}


async def test_hints_from_a_previous_attempt_reach_the_system_prompt(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(finish(outcome="success"))
    await runner.run(make_invocation(FakeTools(), hints=["the date must be in the future"]))
    assert "the date must be in the future" in _system_text(messages_stub.requests[0])


def test_missing_api_key_names_the_variable_and_the_offline_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(AnthropicConfigError, match="ANTHROPIC_API_KEY.*--llm offline"):
        anthropic_backend()


def test_model_name_comes_from_dialstack_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALSTACK_MODEL", "claude-custom")
    backend = anthropic_backend(api_key="test", base_url="http://127.0.0.1:9")
    assert backend.runner.model.name == "claude-custom"


def test_importing_the_backend_does_not_import_the_sdk() -> None:
    code = "import sys, dialstack.agent.llm.anthropic, dialstack.agent.llm; print('anthropic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"


async def test_exhausted_context_window_ends_the_run_without_retrying(runner: AnthropicSkillRunner, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(text("..."), stop_reason="model_context_window_exceeded"))
    outcome = await runner.run(make_invocation(FakeTools()))
    assert isinstance(outcome, Failure) and outcome.error_category == "context_exhausted"
