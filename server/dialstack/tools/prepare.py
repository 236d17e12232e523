"""A pack's ``prepare`` hook: build its data before the first turn, outside any tool timeout.

A manifest may declare ``prepare: module:function``; the function is called as
``prepare(data_dir, today)`` by ``Agent`` (in-process server), ``dialstack serve`` and the
conversation-test runner before anything else runs. Calls for one data folder are
serialized by a file lock, across threads and processes, so a hook never runs twice at
once; it must keep what is already there (:func:`build_file` does the usual case: build a
file into a temporary name, rename it into place, never replace a valid one).

Test suites set ``DIALSTACK_DATA_TEMPLATES`` (or pass ``templates``): the hook then runs
once per pack and day in that folder, and each data folder gets a copy of what it built.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import TextIO

from ..domain.loader import resolve
from ..domain.models import DomainPack

TEMPLATES_ENV = "DIALSTACK_DATA_TEMPLATES"
LOCK_NAME = ".dialstack-prepare.lock"
PROGRESS_AFTER_S = 1.0

PrepareHook = Callable[[Path, date], None]


class PrepareError(RuntimeError):
    """A pack's data could not be prepared; the message names the pack, the folder and why."""


def prepare_domain(
    domain: DomainPack, data_dir: Path, today: date, *, templates: Path | None = None, progress: TextIO | None = None
) -> bool:
    """Run ``domain``'s prepare hook for ``data_dir`` (if it declares one); True if it has one.

    ``templates`` (default ``$DIALSTACK_DATA_TEMPLATES``): prepare once there and copy.
    A progress line goes to ``progress`` (default stderr) when this takes over a second.
    """
    target = domain.manifest.prepare
    if target is None:
        return False
    hook = _load(domain, target)
    folder = templates if templates is not None else template_folder()
    with _progress(domain.name, data_dir, progress):
        if folder is not None:
            template = folder / _template_key(domain, target, today)
            _run(domain, hook, template, today)
            _make_folder(domain, data_dir)
            with _locked(data_dir):
                _copy_missing(template, data_dir)
        _run(domain, hook, data_dir, today)
    return True


def build_file(target: Path, build: Callable[[Path], None], is_valid: Callable[[Path], bool]) -> bool:
    """Build ``target`` unless it is valid already; True if it was built.

    ``build(tmp)`` writes a temporary file in the same folder, which is then renamed over
    ``target`` in one step, so a reader never sees half a file. A file holding data is never
    replaced: ``is_valid`` returns True for a usable one, raises (saying how to fix it) for
    one it cannot use, and returns False only for one that holds nothing (an empty file).
    """
    if target.exists() and is_valid(target):
        return False
    fd, name = tempfile.mkstemp(prefix=f".{target.stem}-", suffix=target.suffix or ".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        build(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return True


def template_folder(default: Path | None = None) -> Path | None:
    """Where prepared data is built once and copied from: ``$DIALSTACK_DATA_TEMPLATES``, else ``default``."""
    value = os.environ.get(TEMPLATES_ENV)
    return Path(value).expanduser() if value else default


def _load(domain: DomainPack, target: str) -> PrepareHook:
    try:
        hook = resolve(target)
    except (ImportError, AttributeError) as exc:
        raise PrepareError(f"{domain.name}: prepare hook {target!r} cannot be imported: {exc} "
                           "(run 'dialstack validate')") from exc
    if not callable(hook):
        raise PrepareError(f"{domain.name}: prepare hook {target!r} is not a function")
    return hook  # type: ignore[no-any-return]


def _make_folder(domain: DomainPack, data_dir: Path) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PrepareError(f"{domain.name}: cannot create the data folder {data_dir}: {exc.strerror or exc}") from exc


def _run(domain: DomainPack, hook: PrepareHook, data_dir: Path, today: date) -> None:
    _make_folder(domain, data_dir)
    with _locked(data_dir):
        try:
            hook(data_dir, today)
        except PrepareError:
            raise
        except Exception as exc:  # the pack's code: say whose it is and where it wrote
            raise PrepareError(f"{domain.name}: preparing its data in {data_dir} failed: {exc}") from exc


def _template_key(domain: DomainPack, target: str, today: date) -> str:
    digest = hashlib.sha1(f"{domain.root}|{target}".encode()).hexdigest()[:10]
    return f"{domain.name}-{digest}-{today.isoformat()}"


def _copy_missing(template: Path, data_dir: Path) -> None:
    """Copy every file the template holds and ``data_dir`` lacks (each renamed into place).

    Hidden files (the lock, a crashed build's temporary file) are not data and stay behind.
    """
    for source in sorted(template.iterdir()):
        target = data_dir / source.name
        if source.name.startswith(".") or not source.is_file() or target.exists():
            continue
        tmp = data_dir / f".{source.name}.copy"
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)


_thread_locks: dict[Path, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


@contextlib.contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    """Exclusive for ``data_dir``: a thread lock within this process, a file lock across processes."""
    key = data_dir.resolve()
    with _thread_locks_guard:
        local = _thread_locks.setdefault(key, threading.Lock())
    with local, open(key / LOCK_NAME, "a+b") as handle:
        _lock_file(handle.fileno())
        yield  # closing the file releases the lock


def _lock_file(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)


@contextlib.contextmanager
def _progress(name: str, data_dir: Path, stream: TextIO | None) -> Iterator[None]:
    """Say on ``stream`` what is happening once it has taken over a second, and when it is done."""
    started = time.monotonic()
    state = {"said": False, "done": False}
    guard = threading.Lock()

    def say() -> None:
        with guard:
            if not state["done"]:
                state["said"] = True
                print(f"dialstack: preparing the {name} data in {data_dir} (first run; this takes a few seconds)...",
                      file=stream or sys.stderr, flush=True)

    timer = threading.Timer(PROGRESS_AFTER_S, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with guard:
            state["done"] = True
            if state["said"]:
                print(f"dialstack: the {name} data is ready ({time.monotonic() - started:.1f} s)",
                      file=stream or sys.stderr, flush=True)
