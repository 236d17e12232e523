"""The built wheel carries the bundled domain packs, and an install from it works outside the repo."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUNDLED = ("flows", "manifests", "skills")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    builders = pytest.importorskip("hatchling.builders.wheel", reason="the build backend (hatchling) is in the test extra")
    out = tmp_path_factory.mktemp("wheel")
    [built] = builders.WheelBuilder(str(REPO)).build(directory=str(out), versions=["standard"])
    return Path(built)


def _repo_files(folder: str) -> set[str]:
    return {
        p.relative_to(REPO).as_posix()
        for p in (REPO / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc")
    }


def test_the_wheel_holds_every_bundled_flow_manifest_and_skill_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())

    for folder in BUNDLED:
        expected = {f"dialstack/_bundled/{name}" for name in _repo_files(folder)}
        assert expected, f"no files under {folder}/"
        assert expected <= names, sorted(expected - names)
    assert "dialstack/domains/travel/handlers.py" in names
    assert not [n for n in names if n.startswith("tests/") or n.endswith(".pyc")]


def test_the_wheel_declares_the_dialstack_console_script(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        [entry_points] = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = archive.read(entry_points).decode()

    assert "dialstack = dialstack.cli:main" in text


def test_the_unpacked_wheel_validates_and_chats_from_outside_the_repo(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "DIALSTACK_DB": str(elsewhere / "dialstack.db")}

    def dialstack(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dialstack", *args], input=stdin, capture_output=True,
                              text=True, cwd=elsewhere, env=env, timeout=180)

    where = subprocess.run([sys.executable, "-c", "import dialstack.domain as d; print(d.bundled_root())"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60)
    assert Path(where.stdout.strip()) == site / "dialstack" / "_bundled", where.stderr
    validated = dialstack("validate")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "travel: ok (" in validated.stdout
    chatted = dialstack("chat", stdin="I want to book a flight\n")
    assert chatted.returncode == 0, chatted.stderr
    assert chatted.stdout.startswith("bot> Where would you like to fly from?")


def test_the_unpacked_wheel_creates_a_new_pack_that_validates(wheel: Path, tmp_path: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "dialstack/templates/init/flows/{{domain}}.yaml" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "DIALSTACK_DB": str(tmp_path / "dialstack.db")}

    def dialstack(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dialstack", *args], capture_output=True, text=True,
                              cwd=tmp_path, env=env, timeout=180)

    created = dialstack("init", "mypack", "--domain", "shop")
    assert created.returncode == 0, created.stderr
    validated = dialstack("validate", "--pack", "mypack")
    assert validated.returncode == 0 and "shop: ok (" in validated.stdout, validated.stdout + validated.stderr
