"""System-2 understanding and RES phrasing with Claude, through the real SDK and the local stub."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from anthropic import AsyncAnthropic

from dialstack.agent.llm.anthropic import AnthropicModel, AnthropicPhraser, AnthropicReasoner
from dialstack.agent.llm.base import ContemplateRequest, FlowSummary, Phraser, Reasoner

from .stub_messages_api import MessagesStub, api_error, reply, text, tool_use

FLOWS = [
    FlowSummary("book_flight", "schedule", "Book a new flight", ["origin", "destination", "date"]),
    FlowSummary("check_booking", "read", "Look up an existing booking", ["booking_ref"]),
    FlowSummary("send_itinerary", "transform", "Email a booking's itinerary", ["booking_ref", "email"]),
]


def make_request(text: str = "actually, check BK-12345 first", **changes: object) -> ContemplateRequest:
    values: dict[str, object] = {
        "purpose": "predict",
        "text": text,
        "flows": FLOWS,
        "active_flow": "book_flight",
        "waiting_for_slot": "date",
        "paused_flows": ["send_itinerary"],
        "recent_turns": [{"role": "user", "text": "I want to fly to Boston"}, {"role": "agent", "text": "What date?"}],
    }
    values.update(changes)
    return ContemplateRequest(**values)  # type: ignore[arg-type]


@pytest.fixture
async def model(messages_stub: MessagesStub) -> AsyncIterator[AnthropicModel]:
    client = AsyncAnthropic(base_url=messages_stub.url, api_key="test", max_retries=0)
    yield AnthropicModel(client, "claude-test")
    await client.close()


def understanding(**answer: object) -> object:
    return reply(tool_use("understanding", answer))


def test_backends_satisfy_the_protocols(model: AnthropicModel) -> None:
    assert isinstance(AnthropicReasoner(model), Reasoner) and isinstance(AnthropicPhraser(model), Phraser)


async def test_contemplate_predicts_a_flow_and_its_slots(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(understanding(act="start", flow="check_booking", slots={"booking_ref": "BK-12345"}, confidence=0.9, rationale="new task"))

    result = await AnthropicReasoner(model).contemplate(make_request())

    assert (result.act, result.flow, result.slots, result.confidence) == ("start", "check_booking", {"booking_ref": "BK-12345"}, 0.9)
    [request] = messages_stub.requests
    assert request["tool_choice"] == {"type": "tool", "name": "understanding"}
    assert "- check_booking (read): Look up an existing booking" in request["system"]
    prompt = request["messages"][0]["content"]
    for expected in ("Paused flows that can be resumed: send_itinerary", "Current flow: book_flight", "Waiting for slot: date", "agent: What date?", "check BK-12345 first"):
        assert expected in prompt


async def test_contemplate_turns_a_flow_the_domain_lacks_into_unknown(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(understanding(act="start", flow="book_hotel", slots={}, confidence=0.8))
    result = await AnthropicReasoner(model).contemplate(make_request("book me a hotel"))
    assert result.act == "unknown" and result.flow is None and "book_hotel" in result.rationale


async def test_contemplate_plan_keeps_known_sub_flows_in_order(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(
        understanding(
            act="plan", flow=None, slots={}, confidence=0.7,
            sub_flows=[{"flow": "book_flight", "slots": {"destination": "Boston"}}, {"flow": "rent_car"}, {"flow": "send_itinerary"}],
        )
    )
    result = await AnthropicReasoner(model).contemplate(make_request("book Boston and email me", purpose="plan"))
    assert result.act == "plan"
    assert result.sub_flows == [{"flow": "book_flight", "slots": {"destination": "Boston"}}, {"flow": "send_itinerary", "slots": {}}]
    assert "rent_car" in result.rationale
    assert "plan:" in messages_stub.requests[0]["messages"][0]["content"]


async def test_contemplate_fallback_names_the_failed_flow_in_the_prompt(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(understanding(act="fallback", flow="check_booking", slots={"booking_ref": "BK-1"}, confidence=0.6))
    request = make_request("where is my booking", purpose="fallback", failed_flow="send_itinerary", reason="no email on file")
    result = await AnthropicReasoner(model).contemplate(request)
    assert (result.act, result.flow) == ("fallback", "check_booking")
    assert "send_itinerary failed because no email on file" in messages_stub.requests[0]["messages"][0]["content"]


async def test_contemplate_with_an_invalid_answer_is_unknown(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(understanding(act="start", flow="book_flight", slots={}, confidence=3))
    result = await AnthropicReasoner(model).contemplate(make_request())
    assert result.act == "unknown" and result.confidence == 0.0


async def test_contemplate_when_the_api_is_overloaded_is_unknown_with_the_reason(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(api_error(529, "overloaded_error", "Overloaded"))
    result = await AnthropicReasoner(model).contemplate(make_request())
    assert result.act == "unknown" and "HTTP 529" in result.rationale


async def test_phraser_returns_the_rewording_when_it_keeps_every_fact(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(text("All set! Your booking BK-12345 to Boston on 2026-05-01 is confirmed.")))
    draft = "Booking BK-12345 confirmed: Boston, 2026-05-01."
    phrased = await AnthropicPhraser(model).phrase(draft, {"flow": "book_flight"})
    assert phrased.startswith("All set!")
    assert draft in messages_stub.requests[0]["messages"][0]["content"]
    assert json.dumps({"flow": "book_flight"}) in messages_stub.requests[0]["messages"][0]["content"]


async def test_phraser_keeps_the_draft_when_the_rewording_loses_a_fact(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(reply(text("All set! Your Boston booking is confirmed.")))
    draft = "Booking BK-12345 confirmed: Boston, 2026-05-01."
    assert await AnthropicPhraser(model).phrase(draft, {}) == draft


async def test_phraser_keeps_the_draft_when_the_api_fails(model: AnthropicModel, messages_stub: MessagesStub) -> None:
    messages_stub.push(api_error(500, "api_error", "boom"))
    assert await AnthropicPhraser(model).phrase("Done.", {}) == "Done."
