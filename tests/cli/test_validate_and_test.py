"""``dialstack validate`` on the bundled packs and ``dialstack test`` on conversation files."""

from __future__ import annotations

import textwrap
from pathlib import Path

from .conftest import RunCli

PASSING = """\
domain: travel
conversations:
  - name: book a flight asks where from
    turns:
      - user: I want to book a flight
        expect:
          stack: [book_flight]
          reply_contains: ["Where would you like to fly from?"]
      - user: What cities do you support?
        expect:
          digression_depth: 1
          tool_calls: [answer_faq]
          slots: {book_flight: {origin: null}}
"""

FAILING = """\
domain: travel
conversations:
  - name: expects the wrong flow
    turns:
      - user: I want to book a flight
        expect:
          stack: [book_flight]
      - user: What cities do you support?
        expect:
          stack: [check_booking]
  - name: greets back
    turns:
      - user: I want to book a flight
        expect:
          reply_contains: ["fly from"]
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_validate_finds_the_bundled_packs_clean(run_cli: RunCli) -> None:
    run = run_cli("validate")

    assert run.code == 0, run.out + run.err
    assert run.last_line.startswith("travel: ok (")


def test_validate_on_an_unknown_domain_names_the_known_ones_and_exits_1(run_cli: RunCli) -> None:
    run = run_cli("validate", "nope")

    assert run.code == 1
    assert "no domain 'nope'" in run.out and "travel" in run.out


def test_a_passing_conversation_file_ends_with_the_summary_and_exits_0(run_cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.yaml", PASSING)

    run = run_cli("test", str(path))

    assert run.code == 0, run.out + run.err
    assert run.last_line == "1 passed, 0 failed"
    assert "FAIL" not in run.out


def test_a_failing_conversation_shows_the_turn_the_expectation_and_what_happened(run_cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.yaml", FAILING)

    run = run_cli("test", str(path))

    assert run.code == 1
    assert run.last_line == "1 passed, 1 failed"
    assert "FAIL bad.yaml::expects the wrong flow (" in run.out
    assert "  turn 2 ('What cities do you support?'): expected stack: ['check_booking']\n    got: ['book_flight']" in run.out


def test_a_folder_runs_every_yaml_file_in_it(run_cli: RunCli, tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", PASSING)
    _write(tmp_path, "b.yaml", FAILING)

    run = run_cli("test", str(tmp_path))

    assert run.code == 1
    assert run.last_line == "2 passed, 1 failed"


def test_only_conversations_matching_k_run(run_cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.yaml", FAILING)

    run = run_cli("test", str(path), "-k", "greets")

    assert run.code == 0
    assert run.last_line == "1 passed, 0 failed"


def test_an_unknown_expectation_key_is_reported_with_its_path(run_cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path, "typo.yaml", """\
        domain: travel
        conversations:
          - name: typo
            turns:
              - user: hi
                expect: {stak: [book_flight]}
        """)

    run = run_cli("test", str(path))

    assert run.code == 1
    assert "conversations.0.turns.0.expect.stak" in run.out
    assert run.last_line == "0 passed, 1 failed"


def test_a_conversation_file_naming_an_unknown_domain_fails_without_a_traceback(run_cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path, "nope.yaml", """\
        domain: nope
        conversations:
          - name: anything
            turns:
              - user: hi
        """)

    run = run_cli("test", str(path))

    assert run.code == 1
    assert "no domain 'nope'" in run.out and "travel" in run.out
    assert run.last_line == "0 passed, 1 failed"


def test_a_missing_path_is_a_usage_error(run_cli: RunCli, tmp_path: Path) -> None:
    run = run_cli("test", str(tmp_path / "missing.yaml"))

    assert run.code == 2
    assert "no such file or folder" in run.err
