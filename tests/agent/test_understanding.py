"""Answers to the agent's 'which one?' questions."""

from __future__ import annotations

import pytest

from dialstack.agent.understanding import choose
from dialstack.domain import load_domain
from dialstack.state.factory import FlowFactory

FACTORY = FlowFactory(load_domain("travel").ontology)
MODIFY, BOOK = (FACTORY.create(n, now=0) for n in ("modify_booking", "book_flight"))


@pytest.mark.parametrize(("answer", "chosen"), [
    ("changing my booking", "modify_booking"),
    ("the flight one", "book_flight"),
    ("the new flight", "book_flight"),
    ("the first one", "modify_booking"),
    ("the second", "book_flight"),
    ("the last one", "book_flight"),
    ("2", "book_flight"),
])
def test_an_answer_names_an_option_by_its_words_or_its_position(answer: str, chosen: str) -> None:
    picked = choose([MODIFY, BOOK], answer)
    assert picked is not None and picked.name == chosen


@pytest.mark.parametrize("answer", ["booking", "whatever", "the fifth one"])
def test_an_answer_that_fits_both_or_neither_chooses_nothing(answer: str) -> None:
    assert choose([MODIFY, BOOK], answer) is None
