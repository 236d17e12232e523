"""Steering phrases of the lexicon: putting a task off, and a no that lets it go."""

from __future__ import annotations

import pytest

from dialstack.agent import lexicon as lx


@pytest.mark.parametrize("said", ["actually forget it, I'll call back later", "drop it, I'll sort it out later",
                                  "never mind, I'll book it myself", "forget it - we'll try another time"])
def test_a_stop_word_then_putting_it_off_is_a_plain_stop(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["forget it, I'll take the 5pm one", "never mind, book it for Friday"])
def test_a_stop_word_then_a_new_request_is_not_a_plain_stop(said: str) -> None:
    assert not lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["hmm no, leave it, never mind", "no, forget it", "no, don't bother"])
def test_a_no_that_lets_the_task_go_is_a_no_and_says_so(said: str) -> None:
    assert lx.DENY.match(said) and lx.LET_IT_BE.search(said)


@pytest.mark.parametrize("said", ["no", "no thanks", "no, not right now"])
def test_a_plain_no_lets_nothing_go(said: str) -> None:
    assert lx.DENY.match(said) and not lx.LET_IT_BE.search(said)


@pytest.mark.parametrize("said", ["scrap the transfer", "ditch the rental", "abandon the booking"])
def test_scrap_ditch_and_abandon_are_cancel_verbs_that_name_a_task(said: str) -> None:
    assert lx.CANCEL_VERB.search(said) and lx.ABANDON.match(said)


def test_a_request_opens_after_its_fillers() -> None:
    assert lx.opener("hmm, actually cancel it") == "cancel"
    assert lx.opener("well I'd like to book a table") == "book"
