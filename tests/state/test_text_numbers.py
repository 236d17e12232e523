"""Numbers in free text: ordinals, repetition words, digits inside codes."""

from __future__ import annotations

import pytest

from dialstack.state.text import find_numbers, parse_number, people_listed


@pytest.mark.parametrize(("text", "value"), [("on the 31st", 31), ("the 2nd", 2), ("by the 23rd", 23), ("12th", 12)])
def test_an_ordinal_day_is_read_as_its_number(text: str, value: int) -> None:
    assert [f.value for f in find_numbers(text)] == [value]


def test_parse_number_accepts_an_ordinal() -> None:
    assert parse_number("28th") == 28


@pytest.mark.parametrize(("text", "value"), [("once a day", 1), ("twice a day", 2), ("thrice weekly", 3)])
def test_once_and_twice_are_numbers(text: str, value: int) -> None:
    assert [f.value for f in find_numbers(text)] == [value]


@pytest.mark.parametrize("text", ["RNT-123", "INC-42", "A4 paper", "5pm"])
def test_digits_inside_a_code_or_a_word_are_not_numbers(text: str) -> None:
    assert find_numbers(text) == []


def test_a_plain_amount_and_a_negative_number_are_still_numbers() -> None:
    assert [f.value for f in find_numbers("$250 or -3")] == [250, -3]


@pytest.mark.parametrize(("said", "count"), [("for me, my wife and our two kids", 4), ("me and my husband", 2),
                                            ("my wife, my son and me", 3), ("me plus 2 friends", 3),
                                            ("me, my brother, and his 3 friends", 5), ("myself and three colleagues", 4),
                                            ("2 adults and 3 children", 5), ("my wife and I", 2),
                                            ("me n my wife", 2), ("my son an me", 2),
                                            ("2 adults, my son and my daughter", 4)])
def test_people_named_one_by_one_are_counted(said: str, count: int) -> None:
    assert [f.value for f in people_listed(said)] == [count]


@pytest.mark.parametrize("said", ["for me and my kids", "book it for my wife", "just me", "Tom and me",
                                  "booking for my daughter, I need a window seat"])
def test_a_list_of_people_that_cannot_be_counted_gives_no_count(said: str) -> None:
    assert people_listed(said) == []
