"""Everyday readings fixed in the eleventh session: questions texted ('wat time do u open on saturday')."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dialstack.agent import Agent
from dialstack.agent import lexicon as lx

from .nlu_support import talking

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"


def stack_of(agent: Agent) -> list[tuple[str, str]]:
    return [(f.name, f.state.value) for f in agent.load("s").stack.flows]


def tools_of(result: object) -> list[str]:
    return [c["tool"] for c in result.tool_calls]  # type: ignore[attr-defined]


# -- questions texted ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wat time do u open on saturday", "wen do u close", "hw much is it",
                                  "r u open on sundays", "can u tell me the price", "wot time is my appt"])
def test_a_question_texted_without_a_question_mark_is_a_question(text: str) -> None:
    assert lx.is_question(text)


@pytest.mark.parametrize("text", ["u there", "wait for me", "what i meant was friday", "yes thats right"])
def test_a_texted_statement_is_no_question(text: str) -> None:
    assert not lx.is_question(text)


def test_a_texted_question_about_opening_hours_is_answered_and_starts_no_task() -> None:
    with talking("quitline", PACKS / "quitline") as agent:
        result = agent.handle("s", "wat time do u open on saturday")
        assert tools_of(result) == ["answer_question"] and stack_of(agent) == []
        assert "Saturday" in result.reply


# -- examples that only agree, and a count said to a name's question -----------------------------------
SHOW_FLOWS = {
    "domain": "showtix",
    "intents": {"Plan": {}, "Converse": {}, "Internal": {}, "Lookup": {"role": "read"}, "Buy": {"role": "transform"}},
    "flows": [
        {"name": "find_events", "intent": "Lookup", "label": "find events",
         "description": "Find concerts and games happening in a city.",
         # (data gathered from real talk holds turns like 'that is good' among a flow's examples)
         "examples": ["that is good", "What events are on?", "Find me things to do", "Any baseball games in NYC?"],
         "slots": [{"name": "city", "type": "FreeTextSlot", "priority": "optional", "description": "City of the event",
                    "prompt": "In which city?"}],
         "tools": ["event_search"], "skill": "find-events",
         "steps": [{"call": "event_search", "args": {"city": "$slots.city"}, "map_outputs": {"found": "ok"}}]},
        {"name": "buy_tickets", "intent": "Buy", "label": "buy tickets",
         "description": "Buy tickets for an event.",
         "examples": ["I want to buy tickets", "get me two tickets for the game"],
         "slots": [{"name": "event_name", "type": "FreeTextSlot", "description": "Name of the event",
                    "prompt": "Which event?"},
                   {"name": "number_of_tickets", "type": "LevelSlot", "description": "Number of tickets to buy",
                    "params": {"min": 1, "max": 9, "integer": True}, "prompt": "How many tickets?"}],
         "tools": ["ticket_buy"], "skill": "buy-tickets",
         "steps": [{"call": "ticket_buy", "args": {"event_name": "$slots.event_name"}, "map_outputs": {"bought": "ok"}}]},
    ],
}


def _show_tool(tool_id: str, changes: bool) -> dict[str, object]:
    return {"tool_id": tool_id, "name": tool_id, "description": f"The {tool_id.replace('_', ' ')} tool.",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}, "event_name": {"type": "string"}}},
            "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
            "idempotent": not changes, "timeout_ms": 1000, "capabilities": {"changes_state": changes},
            "handler": "showtix_handlers:ok"}


@pytest.fixture(scope="module")
def show_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("showtix")
    (root / "flows").mkdir()
    (root / "manifests").mkdir()
    (root / "flows" / "showtix.yaml").write_text(yaml.safe_dump(SHOW_FLOWS, sort_keys=False))
    (root / "manifests" / "showtix.yaml").write_text(yaml.safe_dump(
        {"domain": "showtix", "tools": [_show_tool("event_search", False), _show_tool("ticket_buy", True)]},
        sort_keys=False))
    (root / "showtix_handlers.py").write_text("def ok(**_):\n    return {'ok': True}\n")
    for skill, tool in (("find-events", "event_search"), ("buy-tickets", "ticket_buy")):
        (root / "skills" / "showtix" / skill).mkdir(parents=True)
        (root / "skills" / "showtix" / skill / "SKILL.md").write_text(
            f"---\nname: {skill}\ndescription: The {skill.replace('-', ' ')} task. Use when asked.\n---\n"
            f"1. Call `{tool}`.\n")
    return root


@pytest.mark.parametrize("text", ["that is good", "Okay, thank you", "sounds great", "Yes, good.", "Perfect, thanks!"])
def test_a_sentence_that_only_agrees_or_thanks_agrees_only(text: str) -> None:
    assert lx.agrees_only(text)


@pytest.mark.parametrize("text", ["book it", "that is good, book it", "is that good?", "Find me things to do", ""])
def test_a_sentence_that_asks_or_names_a_task_does_more_than_agree(text: str) -> None:
    assert not lx.agrees_only(text)


def test_a_yes_mid_purchase_starts_no_search_an_example_of_which_only_agrees(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        agent.handle("s", "Falcons vs Buccaneers")
        result = agent.handle("s", "Yes, good.")
        assert stack_of(agent) == [("buy_tickets", "active")] and result.understanding["flow"] != "find_events"


@pytest.mark.parametrize("said", ["2 please.", "just one", "Three, thanks"])
def test_a_count_said_to_the_question_of_a_name_fills_the_count_and_asks_the_name_again(show_pack: Path, said: str) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        result = agent.handle("s", said)
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value is None and slots["number_of_tickets"].value in (1, 2, 3)
        assert "Which event?" in result.reply


def test_a_name_that_holds_a_number_is_the_name(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy tickets")
        agent.handle("s", "The 1975")
        slots = agent.load("s").stack.flows[-1].slots
        assert slots["event_name"].value == "The 1975" and slots["number_of_tickets"].value is None


def test_a_number_alone_is_the_name_when_the_count_is_given_already(show_pack: Path) -> None:
    with talking("showtix", show_pack) as agent:
        agent.handle("s", "I want to buy 2 tickets")
        agent.handle("s", "1917")
        slots = agent.load("s").stack.flows[-1].slots if agent.load("s").stack.flows else None
        assert slots is None or slots["number_of_tickets"].value == 2


@pytest.mark.parametrize("text", ["can you send me the itinerary", "can u send me the itinerary"])
def test_asking_to_send_a_thing_asks_the_task_that_sends_it(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == [("send_itinerary", "active")]


@pytest.mark.parametrize("text", ["That should work.", "Nice.", "Yes, that will do just fine.", "okay very good"])
def test_agreeing_with_nothing_asked_starts_no_task(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == [] and result.understanding["flow"] is None
