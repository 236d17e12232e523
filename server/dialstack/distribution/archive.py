"""Deterministic zip writing shared by the skill zips and the MCP Bundle.

What never goes into an archive: Python caches and editor litter (skipped quietly), and
other archives (refused: a nested archive cannot be read by the host that unpacks ours).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

CACHE_PARTS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".git", ".DS_Store"})
CACHE_SUFFIXES = (".pyc", ".pyo")
ARCHIVE_SUFFIXES = (".zip", ".mcpb", ".tar", ".tar.gz", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".whl", ".jar")
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same inputs give byte-identical archives


class ArchiveError(Exception):
    """A file that must not be packed; the message names it and says what to do."""


def is_cache(path: Path) -> bool:
    return bool(CACHE_PARTS & set(path.parts)) or path.name.endswith(CACHE_SUFFIXES)


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def packable_files(folder: Path) -> Iterator[Path]:
    """Every file under ``folder`` worth packing, sorted; caches skipped, archives refused."""
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if is_cache(relative) or not path.is_file():
            continue
        if is_archive(path):
            raise ArchiveError(f"{path}: an archive inside a packed folder (hosts do not unpack nested archives); "
                               "unpack it into the folder or remove it")
        yield path


def write_zip(target: Path, entries: Iterable[tuple[str, Path | bytes]]) -> Path:
    """Write ``(name in archive, source file or bytes)`` entries to ``target`` atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, source in entries:
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = source if isinstance(source, bytes) else source.read_bytes()
            archive.writestr(info, data)
    partial.replace(target)
    return target
