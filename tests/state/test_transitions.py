"""Flow states change only through the transition table (``BaseFlow.move_to``)."""

from __future__ import annotations

import ast
from pathlib import Path

from itertools import product

import pytest

import dialstack
from dialstack.state import FlowFactory, FlowState, StackError
from dialstack.state.flows import can_transition

SOURCE = Path(dialstack.__file__).parent
RESTORE = ("state/factory.py", "restore")  # rebuilding a stored flow sets its state; that is not a change


@pytest.mark.parametrize(("source", "target"), list(product(FlowState, FlowState)))
def test_a_flow_moves_only_where_the_table_allows_and_is_unchanged_otherwise(
    factory: FlowFactory, source: FlowState, target: FlowState
) -> None:
    flow = factory.create("book_flight", now=0.0)
    flow.state = source  # arranging the precondition, as restore does
    if can_transition(source, target):
        flow.move_to(target, "test")
        assert flow.state is target
    else:
        with pytest.raises(StackError) as raised:
            flow.move_to(target, "test")
        assert flow.state is source
        assert raised.value.op == "test" and raised.value.flow_name == "book_flight" and raised.value.state is source
        assert f"cannot become {target.value}" in str(raised.value)


def test_an_ended_flow_cannot_be_brought_back(factory: FlowFactory) -> None:
    flow = factory.create("book_flight", now=0.0)
    flow.move_to(FlowState.ACTIVE, "push")
    flow.move_to(FlowState.COMPLETED, "complete")
    with pytest.raises(StackError, match="nothing \\(it has ended\\)"):
        flow.move_to(FlowState.ACTIVE, "resume")


def _direct_state_assignments() -> list[str]:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        rel = path.relative_to(SOURCE).as_posix()
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or (rel, func.name) == RESTORE:
                continue
            for node in ast.walk(func):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
                flat = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
                for target in flat:
                    if isinstance(target, ast.Attribute) and target.attr == "state" and not (
                        isinstance(target.value, ast.Name) and target.value.id == "self"
                    ):
                        found.append(f"{rel}:{node.lineno} ({func.name})")
    return found


def test_no_module_assigns_a_flow_state_outside_the_transition_function() -> None:
    assert _direct_state_assignments() == []
