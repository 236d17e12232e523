"""``dialstack test``: progress lines, JUnit XML, 'no tests found', and chats exported as tests."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

from dialstack.agent.conversation import load_test_file

from .conftest import RunCli

SEEDS = Path(__file__).resolve().parents[1] / "conversations" / "seeds.yaml"


def _failing_copy(tmp_path: Path) -> Path:
    data = yaml.safe_load(SEEDS.read_text())
    data["conversations"] = data["conversations"][:2]
    data["conversations"][1]["turns"][0]["expect"] = {"stack": ["check_booking"]}
    path = tmp_path / "mixed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_each_conversation_gets_a_pass_or_fail_line_before_the_totals(run_cli: RunCli, tmp_path: Path) -> None:
    run = run_cli("test", str(_failing_copy(tmp_path)))

    lines = run.out.splitlines()
    assert run.code == 1
    assert lines[0].startswith("PASS mixed.yaml::interruption and resume") and lines[0].endswith("s)")
    assert lines[1].startswith("FAIL mixed.yaml::")
    assert lines[2] == "  turn 1 ('I want to book a flight'): expected stack: ['check_booking']"
    assert lines[3].startswith("    got: ['book_flight'")
    assert run.last_line == "1 passed, 1 failed"


def test_junit_xml_has_a_testcase_per_conversation_and_the_failure_text(run_cli: RunCli, tmp_path: Path) -> None:
    report = tmp_path / "reports" / "junit.xml"

    run_cli("test", str(_failing_copy(tmp_path)), "--junit-xml", str(report))

    root = ET.parse(report).getroot()
    [suite] = root.findall("testsuite")
    assert (root.get("tests"), root.get("failures")) == ("2", "1")
    assert suite.get("name") == "mixed.yaml"
    passed, failed = suite.findall("testcase")
    assert passed.find("failure") is None and float(passed.get("time", "x")) >= 0
    failure = failed.find("failure")
    assert failure is not None and failure.get("message") == "turn 1: expected stack"
    assert "expected stack: ['check_booking']" in (failure.text or "")


def test_an_unreadable_test_file_is_an_error_in_the_junit_report(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("conversations: [{name: x, turns: []}]\n")

    run = run_cli("test", str(tmp_path), "--junit-xml", str(tmp_path / "j.xml"))

    assert run.code == 1 and run.out.startswith("ERROR ")
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("errors") == "1" and root.find("testsuite/testcase/error") is not None


def test_a_folder_without_test_files_is_no_tests_found_and_fails(run_cli: RunCli, tmp_path: Path) -> None:
    run = run_cli("test", str(tmp_path))

    assert run.code == 1
    assert "no tests found" in run.err and run.out == ""


def test_a_keyword_matching_no_conversation_is_no_tests_found(run_cli: RunCli) -> None:
    run = run_cli("test", str(SEEDS), "-k", "no conversation is called this")

    assert run.code == 1 and "no tests found (no conversation matches -k" in run.err


def test_a_chat_exported_as_a_test_replays_and_passes(run_cli: RunCli, workdir: Path) -> None:
    chat = run_cli("chat", stdin="I want to book a flight\nWhat cities do you support?\nBoston\nyes\n")
    assert chat.code == 0, chat.err
    exported = workdir / "replay.yaml"

    run = run_cli("history", "default", "--export-test", str(exported))

    assert run.code == 0, run.err
    assert f"dialstack test {exported}" in run.out
    test_file = load_test_file(exported)
    turns = test_file.conversations[0].turns
    assert [t.user for t in turns] == ["I want to book a flight", "What cities do you support?", "Boston", "yes"]
    assert turns[0].expect.stack == ["book_flight"] and turns[0].expect.reply_contains == ["Where would you like to fly from?"]
    assert test_file.domain == "travel" and test_file.clock is not None
    replayed = run_cli("test", str(exported))
    assert replayed.code == 0, replayed.out
    assert replayed.last_line == "1 passed, 0 failed"


def test_exporting_an_unknown_session_says_so_and_writes_nothing(run_cli: RunCli, workdir: Path) -> None:
    run_cli("chat", "--session", "other", stdin="hello\n")

    run = run_cli("history", "nobody", "--export-test", str(workdir / "x.yaml"))

    assert run.code == 1 and "no session 'nobody'" in run.err
    assert not (workdir / "x.yaml").exists()


def test_a_folder_named_like_a_test_file_is_not_read_as_one(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "odd.yaml").mkdir()

    run = run_cli("test", str(tmp_path))

    assert run.code == 1 and "no tests found" in run.err and "Traceback" not in run.err


def test_a_misspelt_key_in_a_test_file_gets_a_suggestion(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("domain: travel\nconversations:\n  - name: x\n    turns:\n      - user: hi\n        expct: {}\n")

    run = run_cli("test", str(tmp_path / "t.yaml"))

    assert run.code == 1 and "unknown key 'expct'; did you mean 'expect'?" in run.out


def test_an_exported_chat_of_a_pack_folder_says_where_to_name_the_pack(run_cli: RunCli, tmp_path: Path) -> None:
    pack, db = tmp_path / "pack", tmp_path / "d.db"
    run_cli("init", str(pack), "--domain", "exported")
    run_cli("chat", "--pack", str(pack), "--domain", "exported", "--db", str(db), stdin="Show my appointments\n")

    run = run_cli("history", "default", "--db", str(db), "--export-test", str(tmp_path / "t.yaml"))

    assert run.code == 0, run.err
    assert "The 'exported' domain is not bundled: add `pack:" in (tmp_path / "t.yaml").read_text()
