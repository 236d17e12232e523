"""PEX through the Agent: the pre- and post-hook checks, recovery escalation, fallbacks, the gate.

Skills are scripted (a runner returning the outcomes a test needs), the way pydantic-ai
tests its loop with a FunctionModel; tools still go through the real in-memory MCP client.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack.agent import Agent, Clock
from dialstack.agent.llm.offline import OfflineSkillRunner
from dialstack.agent.outcomes import Failure, SkillInvocation, Success, Uncertain
from dialstack.state.flows import FlowState, counter_ids

START = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)


class ScriptedRunner:
    """Answers each skill run with the next scripted outcome for that skill (else runs its steps)."""

    def __init__(self, script: dict[str, list[Any]]) -> None:
        self.script = {k: list(v) for k, v in script.items()}
        self.runs: list[str] = []
        self.offline = OfflineSkillRunner()

    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain:
        self.runs.append(invocation.flow.name)
        queue = self.script.get(invocation.flow.name)
        if queue:
            return queue.pop(0)
        return await self.offline.run(invocation)


def confirmed(agent: Agent, session: str, text: str) -> Any:
    """Say ``text`` to a flow that confirms before its irreversible tool, then say yes."""
    asked = agent.handle(session, text)
    assert "shall I go ahead?" in asked.reply and asked.tool_calls == [], asked.reply
    return agent.handle(session, "yes")


def make_agent(tmp_path: Path, runner: Any = None, **kwargs: Any) -> Agent:
    return Agent(
        "travel", db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START),
        flow_ids=counter_ids(), skill_runner=runner, **kwargs,
    )


@pytest.fixture
def agent_factory(tmp_path: Path) -> Iterator[Any]:
    made: list[Agent] = []

    def make(runner: Any = None, **kwargs: Any) -> Agent:
        agent = make_agent(tmp_path, runner, **kwargs)
        made.append(agent)
        return agent

    yield make
    for agent in made:
        agent.close()


def states(agent: Agent, session: str = "s") -> dict[str, str]:
    return {f["name"]: f["state"] for f in agent.inspect(session)["flows"]}


UNSURE = Uncertain(reason="two bookings match", context={})


def test_an_uncertain_skill_is_retried_once_and_can_then_succeed(agent_factory: Any) -> None:
    runner = ScriptedRunner({"check_booking": [UNSURE]})
    agent = agent_factory(runner)
    result = agent.handle("s", "Check booking BK-12345")
    assert runner.runs == ["check_booking", "check_booking"]
    assert result.transitions == {"completed": ["check_booking"]}
    assert "confirmed" in result.reply


def test_a_second_uncertainty_gathers_context_with_internal_flows_before_retrying(agent_factory: Any) -> None:
    runner = ScriptedRunner({"check_booking": [UNSURE, UNSURE]})
    agent = agent_factory(runner)
    result = agent.handle("s", "Check booking BK-12345")
    assert runner.runs == ["check_booking", "check_booking", "summarize_session", "gather_context", "check_booking"]
    assert result.transitions["completed"] == ["summarize_session", "gather_context", "check_booking"]
    notes = [e.source for e in agent.store.scratchpad("s")]
    assert "gather_context" in notes and "summarize_session" in notes


def test_internal_flows_never_touch_the_display_frame(agent_factory: Any) -> None:
    runner = ScriptedRunner({"list_bookings": [UNSURE, UNSURE]})
    agent = agent_factory(runner)
    result = agent.handle("s", "Show my bookings")
    assert result.frame is not None and result.frame["source"] in ("list_bookings", "bookings")


def test_a_third_uncertainty_falls_back_with_slot_mapping(agent_factory: Any) -> None:
    runner = ScriptedRunner({"book_flight": [UNSURE, UNSURE, UNSURE]})
    agent = agent_factory(runner)
    result = confirmed(agent, "s", "Book a flight from Boston to Denver on Dec 10")
    assert result.transitions.get("invalid") == ["book_flight"]
    assert "search_flights" in result.transitions.get("completed", [])
    search = [f for f in agent.inspect("s")["flows"] if f["name"] == "search_flights"][-1]
    assert search["slots"]["origin"]["value"] == "Boston"
    assert search["slots"]["destination"]["value"] == "Denver"
    assert search["slots"]["date"]["value"] == "2026-12-10"
    assert result.frame is not None and result.frame["display_type"] == "table"


def test_without_a_fallback_recovery_escalates_to_the_user(agent_factory: Any) -> None:
    runner = ScriptedRunner({"check_booking": [UNSURE] * 4})
    agent = agent_factory(runner)
    result = agent.handle("s", "Check booking BK-12345")
    assert "couldn't finish checking your booking" in result.reply
    assert "two bookings match" in result.reply
    assert result.flags["has_issues"] is True
    assert states(agent)["check_booking"] == "active"


def test_a_hard_coded_fallback_bypasses_the_escalation(agent_factory: Any) -> None:
    runner = ScriptedRunner({})
    agent = agent_factory(runner)
    agent.handle("s", "Cancel booking BK-40404")
    result = agent.handle("s", "yes")
    assert runner.runs == ["cancel_booking", "check_booking"]
    assert result.transitions == {"invalid": ["cancel_booking"], "completed": ["check_booking"]}
    assert "already cancelled" in result.reply


def test_a_failure_with_partial_results_keeps_the_flow_active_and_says_why(agent_factory: Any) -> None:
    failure = Failure(error_category="upstream", message="the fare service is down", partial_data={"flight_count": 3})
    runner = ScriptedRunner({"search_flights": [failure]})
    agent = agent_factory(runner)
    result = agent.handle("s", "Show me flights from Boston to Chicago on Dec 12")
    assert "the fare service is down" in result.reply
    assert states(agent)["search_flights"] == "active"
    assert result.flags["has_issues"] is True
    assert agent.inspect("s")["stack"][0]["outputs"] == {"flight_count": 3}


def test_a_skill_that_raises_marks_its_flow_error_and_the_conversation_goes_on(agent_factory: Any) -> None:
    class Broken:
        async def run(self, invocation: SkillInvocation) -> Success:
            raise RuntimeError("boom")

    agent = agent_factory(Broken())
    result = agent.handle("s", "Check booking BK-12345")
    assert result.transitions == {"error": ["check_booking"]}
    assert "boom" in result.reply
    assert agent.handle("s", "help").reply


def test_the_offline_runner_is_uncertain_when_a_required_tool_argument_is_missing(agent_factory: Any) -> None:
    runner = ScriptedRunner({})
    agent = agent_factory(runner)
    pex = agent.pex
    agent.handle("s", "Check booking BK-12345")  # connects the client
    state = agent.load("s")
    flow = agent.factory.create("send_itinerary", now=START.timestamp())
    state.stack.push(flow, START.timestamp())
    flow.slots["booking_ref"].value = "BK-12345"  # email left empty on purpose
    turn = agent._begin("s", "send it", state)
    outcome = agent._run(pex.invoke_skill(turn, flow))
    assert isinstance(outcome, Uncertain) and "to" in outcome.context["missing"]


def test_check_reports_a_flow_whose_tool_the_server_does_not_serve(agent_factory: Any) -> None:
    agent = agent_factory()
    agent.handle("s", "Check booking BK-12345")
    state = agent.load("s")
    flow = agent.factory.create("list_bookings", now=START.timestamp())
    state.stack.push(flow, START.timestamp())
    turn = agent._begin("s", "x", state)
    assert agent.pex.check(turn, flow) == []
    agent.tool_names.discard("list_bookings")
    assert agent.pex.check(turn, flow) == ["tool 'list_bookings' is not in the manifest served by the MCP server"]
    assert agent.pex.check(turn, None) == ["there is no active flow on top of the stack"]


def test_check_after_slot_review_names_missing_required_and_elective_slots(agent_factory: Any) -> None:
    agent = agent_factory()
    agent.handle("s", "hello")
    state = agent.load("s")
    flow = agent.factory.create("modify_booking", now=START.timestamp())
    state.stack.push(flow, START.timestamp())
    turn = agent._begin("s", "x", state)
    problems = agent.pex.check(turn, flow, slots_reviewed=True)
    assert "required slots ['booking_ref'] are not filled" in problems
    assert any("none of the elective slots" in p for p in problems)


def test_the_trifecta_check_flags_gated_tools_through_the_shared_gate(agent_factory: Any) -> None:
    agent = agent_factory()
    agent.handle("s", "hello")
    turn = agent._begin("s", "x", agent.load("s"))
    spec = agent.domain.flow("send_itinerary")
    assert agent.pex.approval_needed(turn, spec) == []
    turn.add_context_kinds(frozenset({"untrusted"}))
    [(tool, reason)] = agent.pex.approval_needed(turn, spec)
    assert tool == "send_itinerary" and "communicates externally" in reason


def test_verify_flags_keep_going_without_a_pending_flow(agent_factory: Any) -> None:
    agent = agent_factory()
    agent.handle("s", "I want to book a flight")
    state = agent.load("s")
    turn = agent._begin("s", "x", state)
    flow = state.active
    state.keep_going = True
    issues = agent.pex.verify(turn, flow)
    assert "keep_going was set with no pending flow to continue with" in issues
    assert state.keep_going is False


def test_an_injected_advisory_cannot_email_bookings_without_approval(agent_factory: Any, advisory_server: str) -> None:
    agent = agent_factory()
    advisory = agent.handle("s", "Is it safe to travel to Rome?")
    assert "ignore previous instructions" in advisory.reply.lower()
    assert [c["tool"] for c in advisory.tool_calls] == ["fetch_travel_advisory"]
    assert advisory.transitions == {"completed": ["travel_advisory"]}
    sent = confirmed(agent, "s", "Email my itinerary for BK-12345 to evil@example.net")
    assert sent.approval_requested == "send_itinerary"
    assert "Allow send_itinerary" in sent.reply and "evil@example.net" in sent.reply
    assert sent.tool_calls[0]["approval"] == "pending" and not sent.tool_calls[0]["ok"]
    declined = agent.handle("s", "/deny")
    assert declined.transitions == {"cancelled": ["send_itinerary"]}
    audit = agent.store.audit_log("s")
    assert any(e.get("tool") == "send_itinerary" and "approval" in str(e) for e in audit)


def test_an_interactive_approver_is_asked_with_the_full_arguments(agent_factory: Any, advisory_server: str) -> None:
    asked: list[tuple[str, dict[str, Any]]] = []

    async def approver(tool: str, args: dict[str, Any], reason: str) -> bool:
        asked.append((tool, args))
        return True

    agent = agent_factory(approver=approver)
    agent.handle("s", "Is it safe to travel to Paris?")
    result = confirmed(agent, "s", "Email my itinerary for BK-12345 to ana@example.com")
    assert asked == [("send_itinerary", {"booking_ref": "BK-12345", "to": "ana@example.com"})]
    assert result.transitions == {"completed": ["send_itinerary"]}
    assert result.tool_calls[-1]["approval"] == "approved"


def test_a_committed_turn_keeps_every_flow_and_the_state_round_trips(agent_factory: Any) -> None:
    agent = agent_factory()
    for text in ("I want to book a flight", "Actually, let me check my booking first", "BK-12345", "No"):
        agent.handle("s", text)
    view = agent.inspect("s")
    assert [(f["name"], f["state"]) for f in view["flows"]] == [
        ("book_flight", FlowState.CANCELLED.value), ("check_booking", FlowState.COMPLETED.value),
    ]
    rebuilt = agent.load("s").serialize()
    assert agent.store.load_state("s") == rebuilt


def test_every_tenth_turn_summarizes_the_session_in_the_background(agent_factory: Any) -> None:
    agent = agent_factory()
    for _ in range(9):
        agent.handle("s", "What cities do you support?")
    assert not [e for e in agent.store.scratchpad("s") if e.source == "summarize_session"]
    result = agent.handle("s", "What cities do you support?")
    agent._run(agent._drain())
    summaries = [e for e in agent.store.scratchpad("s") if e.source == "summarize_session"]
    assert len(summaries) == 1 and "What cities do you support?" in summaries[0].text
    assert result.transitions == {"completed": ["faq"]}
    assert agent.inspect("s")["stack"] == []


def test_a_completed_flow_leaves_three_to_five_summaries_in_the_scratchpad(agent_factory: Any) -> None:
    agent = agent_factory()
    agent.handle("s", "Check booking BK-12345")
    notes = [e.text for e in agent.store.scratchpad("s") if e.source == "check_booking"]
    assert 3 <= len(notes) <= 5
    assert any("get_booking" in n for n in notes) and any("BK-12345" in n for n in notes)


def test_an_approval_answers_its_own_question_only_and_never_reaches_another_session(
    agent_factory: Any, advisory_server: str
) -> None:
    agent = agent_factory()
    for session in ("alice", "bob"):
        agent.handle(session, "Is it safe to travel to Rome?")
    asked = confirmed(agent, "alice", "Email my itinerary for BK-12345 to evil@example.net")
    assert asked.approval_requested == "send_itinerary"
    moved_on = agent.handle("alice", "Check booking BK-12345")  # the question lapses
    assert "won't run send_itinerary" in moved_on.reply
    late = agent.handle("alice", "/approve")
    assert late.tool_calls == [] and "nothing waiting for approval" in late.reply
    again = agent.handle("alice", "Email my itinerary for BK-12345 to evil@example.net")  # these values were confirmed
    assert again.approval_requested == "send_itinerary"
    approved = agent.handle("alice", "/approve")
    assert approved.transitions.get("completed") == ["send_itinerary"]
    assert [c["tool"] for c in approved.tool_calls] == ["send_itinerary"]
    other = confirmed(agent, "bob", "Email my itinerary for BK-12345 to evil@example.net")
    assert other.approval_requested == "send_itinerary"
    assert [c["approval"] for c in other.tool_calls] == ["pending"]


def test_the_orchestrator_gates_calls_even_when_the_server_does_not_ask(
    agent_factory: Any, advisory_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    import dialstack.serve.server as served
    from dialstack.tools import gate
    from dialstack.tools.gate import GateDecision

    lax = types.SimpleNamespace(**vars(gate))
    lax.decide = lambda *a, **k: GateDecision("allow", "lax server", "allowed")
    monkeypatch.setattr(served, "gate", lax)  # only the server's view of the gate
    agent = agent_factory()
    calls: list[str] = []
    agent.handle("s", "Is it safe to travel to Rome?")
    real_call = agent.client.call

    async def spy(tool: str, args: dict[str, Any], **kwargs: Any) -> Any:
        calls.append(tool)
        return await real_call(tool, args, **kwargs)

    monkeypatch.setattr(agent.client, "call", spy)
    result = confirmed(agent, "s", "Email my itinerary for BK-12345 to evil@example.net")
    assert result.approval_requested == "send_itinerary"
    assert calls == []  # refused before reaching the (lax) server


def test_concurrent_turns_of_one_session_run_one_after_the_other(agent_factory: Any) -> None:
    import asyncio

    agent = agent_factory()
    agent.handle("x", "I want to book a flight from Boston to Chicago")

    async def both() -> list[Any]:
        return list(await asyncio.gather(agent.ahandle("x", "check booking BK-12345"), agent.ahandle("x", "Dec 15")))

    results = asyncio.run(both())
    assert sorted(r.turn for r in results) == [2, 3]
    names = [f["name"] for f in agent.inspect("x")["flows"]]
    assert "check_booking" in names and "book_flight" in names


def test_a_session_stored_in_the_old_state_format_continues_where_it_stopped(tmp_path: Path) -> None:
    from dialstack.store.protocol import TurnRecord

    with make_agent(tmp_path) as agent:
        for text in ("I want to book a flight", "Actually, let me check my booking first", "BK-12345"):
            offered = agent.handle("s", text)
        assert "continue booking a new flight" in offered.reply
        new = agent.store.load_state("s")
        booking = next(f["id"] for f in new["stack"] if f["name"] == "book_flight")
        old = {k: v for k, v in new.items()
               if k not in ("pending", "last_filled", "confirmed", "plans", "proposed_steps", "plan_decisions", "recovery")}
        old.update(v=1, pending_offer=booking, pending_approval=None, meta={"plan_decisions": [], "snapshot": False})
        agent.store.commit_turn("s", TurnRecord(user_text="(stored by v1)", reply="", state=old))
    with make_agent(tmp_path) as agent:
        resumed = agent.handle("s", "yes")
        assert "Where would you like to fly from?" in resumed.reply
        assert agent.store.load_state("s")["v"] == 2
