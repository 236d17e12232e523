"""Every conversation file under tests/conversations runs as a test, one per conversation."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.agent.conversation import Report, load_test_file, make_agent_factory, run_file

FOLDER = Path(__file__).resolve().parent.parent / "conversations"
# each file read once per test process (a file holds up to forty conversations, each a test of its own)
FILES = {path: load_test_file(path) for path in sorted(FOLDER.glob("*.yaml"))}
CASES = [
    pytest.param(path, conv.name, id=f"{path.stem}::{conv.name}")
    for path, test_file in FILES.items()
    for conv in test_file.conversations
]


@pytest.mark.parametrize(("path", "name"), CASES)
def test_conversation_behaves_as_written(path: Path, name: str, tmp_path: Path) -> None:
    whole = FILES[path]
    test_file = whole.model_copy(update={"conversations": [c.model_copy(deep=True) for c in whole.conversations
                                                           if c.name == name]})
    report = Report()
    run_file(test_file, make_agent_factory(tmp_path, base=path.parent), report)
    assert not report.failures, "\n".join(str(f) for f in report.failures)
    assert report.passed == [name]
