"""Read YAML keeping the line of every key, so problems can point at ``file:line``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

Loc = tuple[str | int, ...]
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML was built with it


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a pack: where, what, and the form that was expected."""

    file: str
    path: str
    message: str
    expected: str = ""
    line: int | None = None
    severity: str = "error"  # error | warning

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        key = f" {self.path}:" if self.path else ""
        tail = f" (expected {self.expected})" if self.expected else ""
        label = "" if self.severity == "error" else f"{self.severity}: "
        return f"{where}:{key} {label}{self.message}{tail}"


class YamlDocument:
    """A parsed YAML file plus a map from key path to line number (1-based)."""

    def __init__(self, path: Path, data: Any, lines: dict[Loc, int]) -> None:
        self.path = path
        self.data = data
        self._lines = lines

    def line(self, loc: Loc) -> int | None:
        """The line of ``loc`` or of its nearest ancestor that has one."""
        while True:
            if loc in self._lines:
                return self._lines[loc]
            if not loc:
                return None
            loc = loc[:-1]


class YamlError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def format_loc(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load_yaml(path: Path, display: str | None = None) -> YamlDocument:
    """Parse ``path``; a syntax error becomes a :class:`YamlError` naming the line."""
    shown = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise YamlError(Problem(shown, "", "file not found", "an existing YAML file")) from exc
    except UnicodeDecodeError as exc:
        raise YamlError(Problem(shown, "", f"not UTF-8 text ({exc.reason})", "a UTF-8 YAML file")) from exc
    try:
        lines, data = _parse(text, _FAST_LOADER)
    except yaml.YAMLError:  # libyaml words some errors differently: report the pure-Python parser's error
        try:
            lines, data = _parse(text, yaml.SafeLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            line = mark.line + 1 if mark else None
            raise YamlError(Problem(shown, "", f"invalid YAML: {exc.problem}", "valid YAML", line)) from exc
        except yaml.YAMLError as exc:
            raise YamlError(Problem(shown, "", f"invalid YAML: {exc}", "valid YAML")) from exc
    return YamlDocument(path, data, lines)


def _parse(text: str, loader_class: Any) -> tuple[dict[Loc, int], Any]:
    """The line of every key and the data of one document, from a single parse.

    The same as ``yaml.compose`` plus ``yaml.safe_load`` of ``text`` at under half the
    cost: the nodes are indexed before the data is built from them (building merges
    ``<<`` keys into the nodes).
    """
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        lines: dict[Loc, int] = {}
        if node is None:
            return lines, None
        _index(node, (), lines)
        return lines, loader.construct_document(node)
    finally:
        loader.dispose()


def _index(node: yaml.Node, loc: Loc, lines: dict[Loc, int]) -> None:
    lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = loc + (key_node.value,)
            lines[key] = key_node.start_mark.line + 1
            _index(value_node, key, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index(item, loc + (i,), lines)
