"""The ``dialstack`` sub-commands (one module each, see :mod:`dialstack.cli`) and the argument types they share."""

from __future__ import annotations

import argparse
from pathlib import Path


def db_file(text: str) -> Path:
    """``--db PATH``: a database file whose folder exists (the file itself is created when missing)."""
    path = Path(text).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; name the database file inside it, e.g. {path / 'dialstack.db'}")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"the folder {path.parent} does not exist; create it first (mkdir -p {path.parent}) or choose another path")
    return path


def db_file_or_memory(text: str) -> str:
    """``--db`` of ``serve``: a database file as :func:`db_file`, or ``:memory:`` (keeps nothing)."""
    return text if text == ":memory:" else str(db_file(text))
