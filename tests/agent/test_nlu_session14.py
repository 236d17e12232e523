"""Everyday readings fixed in the fourteenth session: something added to a thing held changes it; a statement
that gives the task in progress a value answers it."""

from __future__ import annotations

import pytest

from .nlu_support import stack_names as stack_of, talking, tools_of


def slots_of(agent, flow: str) -> dict[str, object]:
    found = next(f for f in agent.load("s").stack.flows if f.name == flow)
    return {k: s.value for k, s in found.slots.items() if s.value is not None}


# -- adding someone to a booking held is a change to it ---------------------------------------------------
@pytest.mark.parametrize("text", [
    "My grandson would like to come along, so I should like to add him to my existing reservation, if possible.",
    "can you add my wife to booking BK-20481",
    "I want to add a passenger to my reservation",
    "could you take my son off booking BK-20481 please, he can't come",
])
def test_adding_someone_to_a_booking_held_starts_a_change_of_it(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["modify_booking"] and tools_of(result) in ([], ["get_booking"])


def test_the_number_added_is_not_taken_for_the_new_total() -> None:
    with talking("travel") as agent:
        agent.handle("s", "add 2 passengers to BK-20481")
        assert stack_of(agent) == ["modify_booking"]
        assert "passengers" not in slots_of(agent, "modify_booking")


def test_a_new_booking_for_two_passengers_still_counts_them() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me a flight for 2 passengers")
        assert slots_of(agent, "book_flight")["passengers"] == 2


# -- a statement giving the task in progress a value answers it ---------------------------------------------
def test_a_statement_of_how_many_travel_answers_the_change_in_progress() -> None:
    with talking("travel") as agent:
        agent.handle("s", "can you add my wife to booking BK-20481")
        result = agent.handle("s", "There will be two of us travelling now, myself and my wife.")
        assert stack_of(agent) == ["modify_booking"]
        assert slots_of(agent, "modify_booking")["passengers"] == 2 and "go ahead" in result.reply
