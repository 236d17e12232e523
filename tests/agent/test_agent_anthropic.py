"""The orchestrator's Anthropic path end to end: ``Agent(llm="anthropic")`` against the local
Messages API stub, with the skill's tool calls going through the real in-memory MCP client to
the real travel handlers.

Per turn the agent may send, in this order: one ``contemplate`` request (only when System 1
is unsure), the skill loop's requests (only when a flow's skill runs), and one ``phrase``
request for the reply. The stub answers them from its script, in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack.agent import Agent
from dialstack.agent.agent import Clock
from dialstack.domain.models import COMPONENT_TOOLS

from .stub_messages_api import MessagesStub, finish, reply, text, tool_use

START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
BOOKING = {
    "booking_ref": "BK-12345",
    "booking_status": "confirmed",
    "departure_date": "2026-12-15",
    "origin": "New York",
    "destination": "Los Angeles",
}


@pytest.fixture
def agent(messages_stub: MessagesStub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Agent]:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)  # the key passed in is the one used
    monkeypatch.setenv("DIALSTACK_MODEL", "claude-stub-model")
    built = Agent(
        "travel",
        llm="anthropic",
        anthropic_base_url=messages_stub.url,
        api_key="test",
        db=tmp_path / "dialstack.db",
        clock=Clock(START),
    )
    yield built
    built.close()


def _system_text(request: dict[str, Any]) -> str:
    system = request["system"]
    return system if isinstance(system, str) else "\n".join(block["text"] for block in system)


def _tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    last = request["messages"][-1]
    return [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


def _result_text(block: dict[str, Any]) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(part.get("text", "") for part in content)


def test_claude_checks_a_booking_through_the_real_mcp_tool_and_the_reply_reports_it(
    agent: Agent, messages_stub: MessagesStub
) -> None:
    phrased = "Good news: booking BK-12345 from New York to Los Angeles is confirmed for Dec 15."
    messages_stub.push(
        # turn 1: System 1 starts check_booking and asks for the reference; only the reply is phrased
        reply(text("Of course! What's your booking reference?")),
        # turn 2: the skill loop (get_booking, then finish), then the phrasing of the reply
        reply(tool_use("get_booking", {"booking_ref": "BK-12345"}, id="toolu_get")),
        finish(outcome="success", data=BOOKING, scratchpad_entries=["BK-12345 is confirmed for Dec 15."]),
        reply(text(phrased)),
    )

    first = agent.handle("s1", "Let me check my booking")
    assert first.reply == "Of course! What's your booking reference?"
    assert [(f["name"], f["state"]) for f in first.stack] == [("check_booking", "active")]
    assert first.tool_calls == []
    phrase_request = messages_stub.requests[0]
    assert "Sure! What's your booking reference?" in json.dumps(phrase_request["messages"])  # the draft

    second = agent.handle("s1", "BK-12345")
    assert second.reply == phrased
    assert second.transitions.get("completed") == ["check_booking"]
    assert second.stack == []
    assert [(c["tool"], c["arguments"], c["ok"]) for c in second.tool_calls] == [
        ("get_booking", {"booking_ref": "BK-12345"}, True)
    ]

    skill_first, skill_second, phrase_second = messages_stub.requests[1:]
    assert skill_first["model"] == "claude-stub-model"
    skill = agent.domain.skills[agent.domain.flow("check_booking").skill]
    system = _system_text(skill_first)
    assert skill.body in system
    assert "BK-12345" in system  # the slot value
    sent_tools = sorted(t["name"] for t in skill_first["tools"])
    assert sent_tools == sorted(["get_booking", *COMPONENT_TOOLS, "finish"])
    [result] = _tool_results(skill_second)
    assert result["tool_use_id"] == "toolu_get" and not result.get("is_error")
    assert "BK-12345" in _result_text(result) and "confirmed" in _result_text(result)  # the real handler's answer
    draft = json.dumps(phrase_second["messages"])
    assert "BK-12345" in draft and "Dec 15" in draft


def test_a_phrasing_that_drops_a_fact_is_ignored_and_the_draft_reply_is_kept(
    agent: Agent, messages_stub: MessagesStub
) -> None:
    messages_stub.push(
        reply(tool_use("get_booking", {"booking_ref": "BK-12345"})),
        finish(outcome="success", data=BOOKING),
        reply(text("Your booking is all set!")),  # lost BK-12345 and Dec 15
    )

    result = agent.handle("s1", "Look up booking BK-12345")

    assert result.reply == "Your booking BK-12345 from New York to Los Angeles is confirmed for Dec 15."
    assert [c["tool"] for c in result.tool_calls] == ["get_booking"]


def test_when_system_1_is_unsure_contemplate_picks_the_flow_and_its_slots(
    agent: Agent, messages_stub: MessagesStub
) -> None:
    messages_stub.push(
        reply(tool_use("understanding", {
            "act": "start", "flow": "check_booking", "slots": {"booking_ref": "BK-12345"},
            "confidence": 0.9, "rationale": "asks about an existing booking",
        })),
        reply(tool_use("get_booking", {"booking_ref": "BK-12345"})),
        finish(outcome="success", data=BOOKING),
        reply(text("Yes: BK-12345 from New York to Los Angeles is confirmed for Dec 15.")),
    )

    result = agent.handle("s1", "BK-12345 please")  # a reference alone: three flows could take it

    contemplate = messages_stub.requests[0]
    assert contemplate["tool_choice"] == {"type": "tool", "name": "understanding"}
    assert "check_booking" in _system_text(contemplate)
    assert "BK-12345 please" in json.dumps(contemplate["messages"])
    assert result.understanding["act"] == "start" and result.understanding["flow"] == "check_booking"
    assert result.transitions.get("completed") == ["check_booking"]
    assert [(c["tool"], c["ok"]) for c in result.tool_calls] == [("get_booking", True)]
    assert result.reply == "Yes: BK-12345 from New York to Los Angeles is confirmed for Dec 15."


def test_a_skill_failure_from_claude_reaches_the_user_and_nothing_is_completed(
    agent: Agent, messages_stub: MessagesStub
) -> None:
    messages_stub.push(
        reply(tool_use("get_booking", {"booking_ref": "BK-99999"})),
        finish(outcome="failure", error_category="not_found", message="No booking BK-99999"),
        reply(text("I couldn't find a booking with reference BK-99999. Could you check the reference?")),
    )

    result = agent.handle("s1", "Look up booking BK-99999")

    [call] = result.tool_calls
    assert call["tool"] == "get_booking" and call["ok"] is False  # the real handler said not found
    assert "BK-99999" in result.reply
    assert "completed" not in result.transitions
    assert result.waiting_for_slot == "booking_ref"  # reask: not_found clears the reference and asks again
