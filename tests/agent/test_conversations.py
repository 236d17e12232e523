"""Every conversation file under tests/conversations runs as a test, one per conversation."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent.conversation import Report, load_test_file, make_agent_factory, run_file

FOLDER = Path(__file__).resolve().parent.parent / "conversations"
CASES = [
    pytest.param(path, conv.name, id=f"{path.stem}::{conv.name}")
    for path in sorted(FOLDER.glob("*.yaml"))
    for conv in load_test_file(path).conversations
]


@pytest.mark.parametrize(("path", "name"), CASES)
def test_conversation_behaves_as_written(path: Path, name: str, tmp_path: Path) -> None:
    test_file = load_test_file(path)
    test_file.conversations = [c for c in test_file.conversations if c.name == name]
    report = Report()
    run_file(test_file, make_agent_factory(tmp_path, base=path.parent), report)
    assert not report.failures, "\n".join(str(f) for f in report.failures)
    assert report.passed == [name]
