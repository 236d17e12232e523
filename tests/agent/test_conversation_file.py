"""Conversation test files: how turns are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent.conversation import ConversationFileError, load_test_file


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return path


def test_bare_yes_no_and_numbers_are_read_as_what_the_user_typed(tmp_path: Path) -> None:
    path = write(tmp_path, "domain: travel\nconversations:\n  - name: c\n    turns:\n"
                 "      - user: yes\n      - user: no\n      - user: 3\n      - approve: true\n")
    turns = load_test_file(path).conversations[0].turns
    assert [t.user for t in turns[:3]] == ["yes", "no", "3"]
    assert turns[3].approve is True


def test_a_turn_with_two_actions_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = write(tmp_path, "domain: travel\nconversations:\n  - name: c\n    turns:\n"
                 "      - {user: hi, approve: true}\n")
    with pytest.raises(ConversationFileError, match="exactly one of user, advance_clock, approve"):
        load_test_file(path)


def test_an_unknown_expectation_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "domain: travel\nconversations:\n  - name: c\n    turns:\n"
                 "      - user: hi\n        expect: {stak: []}\n")
    with pytest.raises(ConversationFileError, match="stak"):
        load_test_file(path)
