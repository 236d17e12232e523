"""Text tables for the terminal that show every column, wrapping cells to fit the width.

Pure: rows in, lines out. A table whose columns fit is one line per row; otherwise the
widest columns are narrowed and their cells wrapped over several lines; when even the
narrowest columns do not fit, each row is shown as ``column: value`` lines instead.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

GAP = "  "
MIN_WIDTH = 8  # a narrowed column keeps at least this many characters (or its header's, if shorter)


def columns_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every column of the rows, in first-seen order; nested values (lists, objects) included."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(key, None)
    return list(seen)


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(cell(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={cell(v)}" for k, v in value.items())
    return " ".join(str(value).split())


def render_table(rows: Sequence[Mapping[str, Any]], width: int, indent: str = "") -> list[str]:
    """Lines showing every column of ``rows`` within ``width`` characters (``indent`` included)."""
    if not rows:
        return []
    columns = columns_of(rows)
    cells = [[cell(row.get(c)) for c in columns] for row in rows]
    room = max(width - len(indent), MIN_WIDTH)
    widths = _fit([max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)], room)
    if widths is None:
        return _records(columns, cells, room, indent)
    headers = [c if len(c) <= w else c.replace("_", "_ ") for c, w in zip(columns, widths)]  # wrap at underscores
    lines = _row_lines(headers, widths, indent)
    for row in cells:
        lines += _row_lines(row, widths, indent)
    return lines


def _fit(natural: list[int], room: int) -> list[int] | None:
    """Column widths within ``room``: natural when they fit, else the widest narrowed; None if impossible."""
    floor = [min(n, MIN_WIDTH) for n in natural]
    gaps = len(GAP) * (len(natural) - 1)
    if sum(floor) + gaps > room:
        return None
    widths = list(natural)
    while sum(widths) + gaps > room:
        widest = max((i for i in range(len(widths)) if widths[i] > floor[i]), key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def _row_lines(values: Sequence[str], widths: Sequence[int], indent: str) -> list[str]:
    wrapped = [_wrap(v, w) for v, w in zip(values, widths)]
    height = max(len(w) for w in wrapped)
    return [
        (indent + GAP.join((w[i] if i < len(w) else "").ljust(n) for w, n in zip(wrapped, widths))).rstrip()
        for i in range(height)
    ]


def _records(columns: list[str], cells: list[list[str]], room: int, indent: str) -> list[str]:
    """Each row as ``column: value`` lines; values go under their column when names leave no room."""
    label = max(len(c) for c in columns)
    beside = room - label - 2 >= MIN_WIDTH
    lines: list[str] = []
    for number, row in enumerate(cells, start=1):
        lines.append(f"{indent}-- row {number} --")
        for column, value in zip(columns, row):
            if beside:
                text = _wrap(value, room - label - 2)
                lines.append(f"{indent}{column.rjust(label)}: {text[0]}".rstrip())
                lines += [f"{indent}{' ' * (label + 2)}{more}" for more in text[1:]]
            else:
                lines += [f"{indent}{part}" for part in _wrap(column + ":", room)]
                lines += [f"{indent}  {more}" for more in _wrap(value, room - 2)]
    return lines


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, max(width, 1), break_long_words=True, break_on_hyphens=False) or [""]
