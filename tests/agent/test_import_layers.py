"""The agent package is layered: its modules import one another without a cycle.

Every import counts, wherever it is written: at the top, inside ``if TYPE_CHECKING:``, or
inside a function (a deferred import still ties the two modules together). The domains'
policy modules are read with the package, since they subclass its policies.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

import dialstack

ROOT = Path(dialstack.__file__).parent
AGENT = ROOT / "agent"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, package: str) -> Iterator[str]:
    """Every module a module of ``package`` names in an import, at any depth of its syntax tree."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = ".".join(p for p in (base if node.level else "", node.module or "") if p)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # `from . import res` names a module


def import_graph(paths: list[Path]) -> dict[str, set[str]]:
    modules = {module_name(p): p for p in paths}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        # A module's own packages are imported before it anyway: an import of one is no edge.
        graph[name] = {m for m in imported(path.read_text(), package)
                       if m in modules and not (name + ".").startswith(m + ".")}
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (a path that ends where it starts), or None when it is layered."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(reversed(error.args[1]))  # graphlib lists it against the arrows
    return None


def agent_modules() -> list[Path]:
    policies = sorted((ROOT / "domains").glob("*/policies/*.py"))
    return sorted(AGENT.rglob("*.py")) + policies


def test_the_agent_package_imports_without_a_cycle_even_for_annotations() -> None:
    cycle = cycle_in(import_graph(agent_modules()))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_imports_for_annotations_and_inside_functions_count() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import res\n"
        "if TYPE_CHECKING:\n    from .turn import Turn\n"
        "def later() -> None:\n    from ..state import flows\n"
    )
    found = set(imported(source, "dialstack.agent"))
    assert {"dialstack.agent.res", "dialstack.agent.turn", "dialstack.state.flows"} <= found


def test_the_cycle_finder_reports_a_cycle_and_accepts_layers() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
