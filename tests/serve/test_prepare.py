"""A pack's ``prepare`` hook: declared in the manifest, validated, run once per data folder under a lock."""

from __future__ import annotations

import fcntl
import importlib
import io
import threading
import uuid
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from dialstack.domain.loader import inspect_domain, load_domain
from dialstack.tools import prepare as prepare_module
from dialstack.tools.prepare import LOCK_NAME, TEMPLATES_ENV, PrepareError, build_file, prepare_domain
from tests.domain.conftest import MANIFEST, write_pack

DAY = date(2026, 3, 2)

HOOKS = '''
import threading
from pathlib import Path

CALLS = []
RUNNING = []
GATE = threading.Event()
GATE.set()
PEAK = [0]
LOCK = threading.Lock()


def prepare(data_dir, today):
    with LOCK:
        RUNNING.append(1)
        PEAK[0] = max(PEAK[0], len(RUNNING))
    GATE.wait(10)
    CALLS.append((Path(data_dir), today))
    target = Path(data_dir) / "data.txt"
    if not target.exists():
        target.write_text(f"built for {today}")
    with LOCK:
        RUNNING.pop()


def broken(data_dir, today):
    raise OSError("disk full")


def one_argument(data_dir):
    pass
'''


@pytest.fixture(autouse=True)
def _no_suite_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEMPLATES_ENV, raising=False)  # these tests say where templates go, if anywhere


def _pack(root: Path, hook: str | None) -> tuple[Path, ModuleType | None]:
    """A minimal pack whose manifest names ``<fresh module>:<hook>``; returns it and the module."""
    module_name = f"prep_{uuid.uuid4().hex[:8]}"
    manifest = dict(MANIFEST)
    if hook is not None:
        manifest["prepare"] = f"{module_name}:{hook}"
    write_pack(root / "pack", manifest=manifest)
    (root / "pack" / f"{module_name}.py").write_text(HOOKS)
    load_domain("mini", root / "pack")  # puts the pack on sys.path
    return root / "pack", importlib.import_module(module_name) if hook is not None else None


def test_a_pack_without_a_prepare_hook_prepares_nothing(tmp_path: Path) -> None:
    pack, _ = _pack(tmp_path, None)
    assert prepare_domain(load_domain("mini", pack), tmp_path / "data", DAY) is False
    assert not (tmp_path / "data").exists()


def test_the_hook_gets_the_data_folder_and_the_day(tmp_path: Path) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    assert prepare_domain(load_domain("mini", pack), tmp_path / "data", DAY, templates=tmp_path / "none-here") is True
    assert hooks.CALLS[-1] == (tmp_path / "data", DAY)  # type: ignore[union-attr]
    assert (tmp_path / "data" / "data.txt").read_text() == f"built for {DAY}"


def test_with_templates_the_hook_builds_once_and_every_folder_gets_a_copy(tmp_path: Path) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    domain = load_domain("mini", pack)
    prepare_domain(domain, tmp_path / "a", DAY, templates=tmp_path / "templates")
    (template,) = (tmp_path / "templates").iterdir()
    (template / ".data-crashed.txt").write_text("half a build")  # hidden files are not data
    for name in ("b", "c"):
        prepare_domain(domain, tmp_path / name, DAY, templates=tmp_path / "templates")
    built = [folder for folder, _ in hooks.CALLS if folder.parent == tmp_path / "templates"]  # type: ignore[union-attr]
    assert len({*built}) == 1
    for name in ("a", "b", "c"):
        assert (tmp_path / name / "data.txt").read_text() == f"built for {DAY}"
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == [LOCK_NAME, "data.txt"]


def test_two_threads_preparing_one_folder_run_the_hook_one_at_a_time(tmp_path: Path) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    domain = load_domain("mini", pack)
    hooks.GATE.clear()  # type: ignore[union-attr]
    threads = [threading.Thread(target=prepare_domain, args=(domain, tmp_path / "data", DAY),
                                kwargs={"templates": None, "progress": io.StringIO()}) for _ in range(3)]
    for t in threads:
        t.start()
    hooks.GATE.set()  # type: ignore[union-attr]
    for t in threads:
        t.join(10)
    assert hooks.PEAK == [1]  # type: ignore[union-attr]
    assert len(hooks.CALLS) == 3  # type: ignore[union-attr]


def test_another_process_holding_the_lock_keeps_the_hook_waiting(tmp_path: Path) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    domain = load_domain("mini", pack)
    (tmp_path / "data").mkdir()
    with open(tmp_path / "data" / LOCK_NAME, "a+b") as held:  # a separate open file: as another process
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        worker = threading.Thread(target=prepare_domain, args=(domain, tmp_path / "data", DAY),
                                  kwargs={"progress": io.StringIO()})
        worker.start()
        worker.join(0.3)
        assert hooks.CALLS == []  # type: ignore[union-attr]
        fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    worker.join(10)
    assert len(hooks.CALLS) == 1  # type: ignore[union-attr]


def test_a_slow_prepare_says_what_it_is_doing_on_the_progress_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    monkeypatch.setattr(prepare_module, "PROGRESS_AFTER_S", 0.0)
    said = threading.Event()

    class Stream(io.StringIO):
        def write(self, text: str) -> int:
            said.set()
            return super().write(text)

    stream = Stream()
    hooks.GATE.clear()  # type: ignore[union-attr]
    worker = threading.Thread(target=prepare_domain, args=(load_domain("mini", pack), tmp_path / "data", DAY),
                              kwargs={"progress": stream})
    worker.start()
    assert said.wait(10)  # the line appears while the hook is still running
    hooks.GATE.set()  # type: ignore[union-attr]
    worker.join(10)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith(f"dialstack: preparing the mini data in {tmp_path / 'data'}")
    assert lines[1].startswith("dialstack: the mini data is ready (")


def test_a_quick_prepare_prints_nothing(tmp_path: Path) -> None:
    pack, _ = _pack(tmp_path, "prepare")
    stream = io.StringIO()
    prepare_domain(load_domain("mini", pack), tmp_path / "data", DAY, progress=stream)
    assert stream.getvalue() == ""


def test_a_failing_hook_names_the_pack_the_folder_and_the_reason(tmp_path: Path) -> None:
    pack, _ = _pack(tmp_path, "broken")
    with pytest.raises(PrepareError, match=rf"mini: preparing its data in {tmp_path / 'data'} failed: disk full"):
        prepare_domain(load_domain("mini", pack), tmp_path / "data", DAY)


@pytest.mark.parametrize(("hook", "problem"), [
    ("one_argument", "cannot be called as prepare(data_dir, today)"),
    ("missing", "has no 'missing'"),
])
def test_validate_reports_a_prepare_hook_that_cannot_be_called(tmp_path: Path, hook: str, problem: str) -> None:
    pack, hooks = _pack(tmp_path, "prepare")
    write_pack(pack, manifest=dict(MANIFEST, prepare=f"{hooks.__name__}:{hook}"))  # type: ignore[union-attr]
    _, problems = inspect_domain("mini", pack)
    assert any(p.path == "prepare" and problem in p.message for p in problems), [str(p) for p in problems]


def test_build_file_keeps_a_valid_file_and_renames_a_new_one_into_place(tmp_path: Path) -> None:
    target = tmp_path / "x.bin"
    assert build_file(target, lambda tmp: tmp.write_text("new"), lambda p: p.read_text() != "") is True
    assert target.read_text() == "new"
    assert build_file(target, lambda tmp: tmp.write_text("other"), lambda p: p.read_text() != "") is False
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["x.bin"]
