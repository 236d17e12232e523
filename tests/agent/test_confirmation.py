"""Confirmation before irreversible actions: when it is asked, what it says, what a yes or a no does."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack.agent import Agent, Clock
from dialstack.agent import confirmation
from dialstack.domain import load_domain
from dialstack.domain.models import DomainPack
from dialstack.state.flows import counter_ids
from dialstack.state.pending import ChangeChoice, Confirmation
from dialstack.state.slots import SlotContext

START = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
BOOK = "Book a flight from Boston to Paris on Dec 12 for 2 people"


@pytest.fixture(scope="module")
def travel() -> DomainPack:
    return load_domain("travel")


def with_flow(pack: DomainPack, name: str, **changes: Any) -> DomainPack:
    """The pack with one flow's fields changed (``confirm``, ``responses``)."""
    flows = [f.model_copy(update=changes) if f.name == name else f for f in pack.ontology.flows]
    return pack.model_copy(update={"ontology": pack.ontology.model_copy(update={"flows": flows})})


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Any]:
    made: list[Agent] = []

    def agent(domain: str | DomainPack = "travel") -> Agent:
        made.append(Agent(domain, db=tmp_path / "d.db", data_dir=tmp_path, clock=Clock(START), flow_ids=counter_ids()))
        return made[-1]

    yield agent
    for a in made:
        a.close()


def test_auto_asks_only_for_flows_whose_tool_changes_state_and_is_not_idempotent(travel: DomainPack) -> None:
    tools = travel.tools
    assert confirmation.needed(travel.flow("book_flight"), tools)  # create_booking
    assert confirmation.needed(travel.flow("send_itinerary"), tools)
    assert not confirmation.needed(travel.flow("search_flights"), tools)  # reads only
    assert not confirmation.needed(travel.flow("save_traveller"), tools)  # changes state, but idempotent


def test_a_flow_with_its_own_yes_no_slot_is_never_asked_twice(travel: DomainPack) -> None:
    cancel = travel.flow("cancel_booking")
    assert confirmation.irreversible(cancel, travel.tools)
    assert not confirmation.needed(cancel, travel.tools)
    assert not confirmation.needed(cancel.model_copy(update={"confirm": "always"}), travel.tools)


def test_confirm_in_the_pack_overrides_what_the_manifest_implies(travel: DomainPack) -> None:
    assert not confirmation.needed(travel.flow("book_flight").model_copy(update={"confirm": "never"}), travel.tools)
    assert confirmation.needed(travel.flow("search_flights").model_copy(update={"confirm": "always"}), travel.tools)


def test_a_pack_value_other_than_auto_always_never_is_refused(travel: DomainPack) -> None:
    from pydantic import ValidationError

    data = travel.flow("book_flight").model_dump()
    with pytest.raises(ValidationError, match="confirm"):
        type(travel.flow("book_flight")).model_validate({**data, "confirm": "sometimes"})


def test_nothing_runs_before_the_yes_and_the_question_waits_in_the_stored_state(make: Any) -> None:
    agent = make()
    asked = agent.handle("s", BOOK)
    assert asked.tool_calls == [] and asked.reply.endswith("shall I go ahead?")
    assert "from Boston to Paris on December 12 for 2 passengers" in asked.reply
    pending = agent.load("s").pending
    assert isinstance(pending, Confirmation) and pending.flow_id == asked.stack[0]["flow_id"]
    agent.close()
    booked = make().handle("s", "yes")  # a new agent on the same database reads the question back
    assert [c["tool"] for c in booked.tool_calls] == ["search_flights", "create_booking"]
    assert booked.transitions == {"completed": ["book_flight"]}


def test_a_no_asks_what_to_change_and_naming_a_value_asks_for_it_again(make: Any) -> None:
    agent = make()
    agent.handle("s", BOOK)
    no = agent.handle("s", "no")
    assert "What would you like to change: origin, destination, date or passengers?" in no.reply
    assert isinstance(agent.load("s").pending, ChangeChoice)
    which = agent.handle("s", "the number of passengers")
    assert which.reply == "How many passengers?" and which.tool_calls == []
    again = agent.handle("s", "3")
    assert "3 passengers" in again.reply and again.reply.endswith("shall I go ahead?") and again.tool_calls == []


def test_a_no_with_a_value_changes_it_and_asks_again_without_running(make: Any) -> None:
    agent = make()
    agent.handle("s", BOOK)
    changed = agent.handle("s", "no, make it the 13th")
    assert changed.tool_calls == [] and "December 13" in changed.reply and "shall I go ahead?" in changed.reply
    booked = agent.handle("s", "yes")
    assert booked.transitions == {"completed": ["book_flight"]} and "Dec 13" in booked.reply


def test_a_value_changed_after_the_yes_is_confirmed_again(make: Any) -> None:
    agent = make()
    agent.handle("s", BOOK)
    state = agent.load("s")
    flow = state.active
    assert flow is not None
    confirmation.remember(state, flow)
    before = confirmation.digest(flow)
    flow.slots["passengers"].fill(4, SlotContext(now=START))
    assert confirmation.digest(flow) != before and state.confirmed[flow.flow_id] == before


def test_never_in_the_pack_runs_at_once(make: Any, travel: DomainPack) -> None:
    booked = make(with_flow(travel, "book_flight", confirm="never")).handle("s", BOOK)
    assert booked.transitions == {"completed": ["book_flight"]}


def test_a_flows_own_confirm_line_is_said_with_its_values(make: Any, travel: DomainPack) -> None:
    responses = {**travel.flow("book_flight").responses, "confirm": "Book {passengers} from {origin} to {destination}, {date}"}
    asked = make(with_flow(travel, "book_flight", responses=responses)).handle("s", BOOK)
    assert asked.reply == "Book 2 passengers from Boston to Paris, December 12 — shall I go ahead?"


@pytest.mark.parametrize(("said", "slot"), [
    ("the date", "date"), ("no, the destination", "destination"), ("number of passengers", "passengers"),
    ("from", "origin"), ("hmm", None),
])
def test_the_value_to_change_is_found_by_its_name_or_its_cue_word(make: Any, said: str, slot: str | None) -> None:
    agent = make()
    agent.handle("s", BOOK)
    flow = agent.load("s").active
    found = confirmation.named_slot(flow, said.removeprefix("no, "))
    assert (found.name if found else None) == slot


@pytest.mark.parametrize(("said", "edit"), [
    ("change the destination", True), ("the date", True), ("actually, a different date", True),
    ("change my booking BK-20481", False), ("what's the weather in Paris", False),
])
def test_only_a_text_that_names_a_value_and_nothing_else_asks_to_change_it(make: Any, said: str, edit: bool) -> None:
    agent = make()
    agent.handle("s", BOOK)
    flow = agent.load("s").active
    assert confirmation.asks_to_change(flow, said) is edit


def test_asking_to_change_a_value_at_the_question_asks_for_it_and_then_confirms_again(make: Any) -> None:
    agent = make()
    agent.handle("s", BOOK)
    asked = agent.handle("s", "change the destination")
    assert asked.reply == "Where would you like to fly to?" and asked.tool_calls == []
    again = agent.handle("s", "Rome")
    assert "to Rome" in again.reply and again.reply.endswith("shall I go ahead?") and again.tool_calls == []


def test_what_was_said_yes_to_is_kept_only_for_flows_still_open(make: Any) -> None:
    agent = make()
    for city, day in (("Paris", 12), ("Rome", 13), ("Tokyo", 14)):
        agent.handle("s", f"book a flight from Boston to {city} on Dec {day}")
        booked = agent.handle("s", "yes")
        assert booked.transitions == {"completed": ["book_flight"]}
    assert len(agent.load("s").confirmed) == 1  # the latest yes; the finished bookings' are gone


@pytest.mark.parametrize("said", ["no, never mind", "hmm no, leave it, never mind", "never mind", "no, forget it",
                                  "no, that's all, thanks"])
def test_a_no_that_lets_it_go_drops_the_task_and_runs_nothing(make: Any, said: str) -> None:
    agent = make()
    agent.handle("s", BOOK)
    dropped = agent.handle("s", said)
    assert dropped.tool_calls == [] and dropped.stack == []
    assert dropped.transitions.get("cancelled") == ["book_flight"]
    assert agent.load("s").pending is None


def test_a_message_not_understood_keeps_the_question_and_asks_it_again(make: Any) -> None:
    agent = make()
    agent.handle("s", BOOK)
    puzzled = agent.handle("s", "blorp fizzle")
    assert puzzled.tool_calls == [] and puzzled.reply.endswith("shall I go ahead?")
    assert isinstance(agent.load("s").pending, Confirmation)
    booked = agent.handle("s", "yes")
    assert booked.transitions == {"completed": ["book_flight"]}


@pytest.mark.parametrize(("said", "yes_first"), [
    ("Yes, that is correct. Does the restaurant have live music?", True),
    ("Yeah, that sounds right - what's the number for the hotel?", True),
    ("Yes, good.", True),
    ("ok, what's the price?", False),
    ("yes but change it to friday", False),
    ("Yes... actually no", False), ("Yeah. Wait, is that this Thursday?", False),
    ("Right, how much does it cost?", False), ("Yes - hold on, can I change the doctor?", False),
    ("Yes, that's correct. Actually cancel it", False),
])
def test_a_clear_yes_in_the_first_clause_answers_the_read_back(said: str, yes_first: bool) -> None:
    assert confirmation.says_yes_first(said) is yes_first
