"""``dialstack init DIR --domain NAME``: a new pack that validates and whose own tests pass."""

from __future__ import annotations

from pathlib import Path

from .conftest import RunCli

# Each test uses its own domain name: a pack's handler module (<domain>_handlers) is imported once per process.


def test_init_writes_a_pack_that_validates_and_whose_conversation_tests_pass(run_cli: RunCli, tmp_path: Path) -> None:
    pack = tmp_path / "clinic"

    created = run_cli("init", str(pack), "--domain", "clinic")
    validated = run_cli("validate", "--pack", str(pack))
    tested = run_cli("test", str(pack / "tests"))

    assert created.code == 0, created.err
    assert "created the clinic pack" in created.out and f"dialstack chat --pack {pack} --domain clinic" in created.out
    assert validated.code == 0 and "clinic: ok (2 flows, 2 tools, 2 skills)" in validated.out, validated.out
    assert tested.code == 0 and tested.last_line == "4 passed, 0 failed", tested.out


def test_the_new_pack_has_one_skill_per_flow_and_handlers_next_to_flows(run_cli: RunCli, tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path / "p"), "--domain", "dentist").code == 0

    files = sorted(p.relative_to(tmp_path / "p").as_posix() for p in (tmp_path / "p").rglob("*") if p.is_file())
    assert files == [
        "README.md", "dentist_handlers.py", "flows/dentist.yaml", "manifests/dentist.yaml",
        "skills/dentist/book-appointment/SKILL.md", "skills/dentist/list-appointments/SKILL.md", "tests/dentist.yaml",
    ]
    assert "{{domain}}" not in "".join((tmp_path / "p" / f).read_text() for f in files)


def test_init_refuses_a_folder_that_is_not_empty_and_overwrites_nothing(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")

    run = run_cli("init", str(tmp_path), "--domain", "vet")

    assert run.code == 1 and "is not empty" in run.err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_init_refuses_a_domain_name_that_cannot_name_a_python_module(run_cli: RunCli, tmp_path: Path) -> None:
    run = run_cli("init", str(tmp_path / "x"), "--domain", "my-clinic")

    assert run.code == 2 and "'my-clinic' is not a usable domain name" in run.err
    assert not (tmp_path / "x").exists()
