"""Inputs a handler can rely on: schema-valid arguments never crash it; integers are ints; patterns mean what JSON Schema says."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialstack.domain import load_domain
from dialstack.store import InMemoryStore
from dialstack.tools.prepare import prepare_domain
from dialstack.tools.runtime import CallOutcome, ToolRuntime

TRAVEL = load_domain("travel")
JSON_LEAF = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)


def from_schema(schema: Any) -> st.SearchStrategy[Any]:
    """Values valid under the JSON Schema subset manifests use (hypothesis-jsonschema 0.23 does not run
    on this Hypothesis: it calls ``many.more()``, which Hypothesis removed). Integers come as ints and as
    integral floats, both valid JSON Schema integers."""
    if schema is True or not isinstance(schema, dict):
        return JSON_LEAF
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema({**{k: v for k, v in schema.items() if k != key}, **branch}) for branch in schema[key]])
    kinds = schema.get("type", ["null", "boolean", "integer", "number", "string"])
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return st.one_of([_typed(kind, schema) for kind in kinds])


def _typed(kind: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if kind == "object":
        props = schema.get("properties") or {}
        required = [k for k in schema.get("required", []) if k in props]
        optional = [k for k in props if k not in required]
        return st.fixed_dictionaries({k: from_schema(props[k]) for k in required},
                                     optional={k: from_schema(props[k]) for k in optional})
    if kind == "array":
        return st.lists(from_schema(schema.get("items", True)), min_size=schema.get("minItems", 0),
                        max_size=schema.get("maxItems", 5))
    if kind == "string":
        from dialstack.domain.schemacheck import ecma_pattern

        low, high = schema.get("minLength", 0), schema.get("maxLength", 60)
        base = st.from_regex(ecma_pattern(schema["pattern"])) if "pattern" in schema else st.text(min_size=low, max_size=high)
        return base.filter(lambda v: low <= len(v) <= high)
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        if kind == "integer":
            low = None if low is None else int(low) + ("exclusiveMinimum" in schema)
            high = None if high is None else int(high) - ("exclusiveMaximum" in schema)
            ints = st.integers(low, high)
            return ints | ints.map(float)
        return st.floats(low, high, allow_nan=False, allow_infinity=False, exclude_min="exclusiveMinimum" in schema,
                         exclude_max="exclusiveMaximum" in schema)
    return st.booleans() if kind == "boolean" else st.none()


TOOLS = sorted({*TRAVEL.tools, "context_coordinator", "memory_manager", "flow_stack"})


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolRuntime]:
    data = tmp_path_factory.mktemp("travel-data")
    prepare_domain(TRAVEL, data, date.today())
    mp = pytest.MonkeyPatch()
    mp.setenv("DIALSTACK_TRAVEL_DB", str(data / "travel.db"))
    mp.setenv("DIALSTACK_INBOX", str(data / "inbox.mbox"))
    store = InMemoryStore()
    rt = ToolRuntime(TRAVEL, store, data_dir=data, background_audit=False)
    yield rt
    rt.close()
    store.close()
    mp.undo()


def call(runtime: ToolRuntime, tool: str, args: dict[str, Any]) -> CallOutcome:
    spec = runtime.tools[tool]
    rejected = runtime.check_arguments(spec, args)
    if rejected is not None:
        return rejected
    return asyncio.run(runtime.run(spec, args, session_id="fuzz"))


def crashed(tool: str, outcome: CallOutcome) -> bool:
    """A handler bug: an exception that is not a ToolInputError (the runtime says '<tool> failed: <Type>: ...')."""
    return outcome.error == "handler_error" and outcome.message.startswith(f"{tool} failed: ")


@pytest.mark.parametrize("tool", TOOLS)
def test_schema_valid_arguments_never_crash_a_handler(runtime: ToolRuntime, tool: str) -> None:
    schema = runtime.tools[tool].input_schema

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
    @given(args=from_schema(schema))
    def no_crash(args: dict[str, Any]) -> None:
        outcome = call(runtime, tool, dict(args))
        assert not crashed(tool, outcome), (args, outcome.message)
        assert outcome.error != "invalid_output", (args, outcome.message)

    no_crash()


@pytest.mark.parametrize("tool, args", [
    ("flow_stack", {"previous": 2.0}),
    ("context_coordinator", {"turns": 3.0}),
    ("read_inbox", {"limit": 2.0}),
    ("search_flights", {"origin": "Boston", "destination": "Chicago", "date": "2099-01-01", "passengers": 2.0}),
])
def test_an_integral_float_reaches_the_handler_as_an_int(runtime: ToolRuntime, tool: str, args: dict[str, Any]) -> None:
    outcome = call(runtime, tool, args)
    assert not crashed(tool, outcome), outcome.message
    assert all(type(v) is int for v in args.values() if isinstance(v, (int, float)))


@pytest.mark.parametrize("value", ["2099-01-01\n", "٢٠٩٩-٠١-٠١", "2099-01-01\r\n"])
def test_patterns_have_json_schema_semantics(runtime: ToolRuntime, value: str) -> None:
    outcome = call(runtime, "search_flights", {"origin": "Boston", "destination": "Chicago", "date": value})
    assert outcome.error == "invalid_arguments" and "date" in outcome.message


@pytest.mark.parametrize("budget", [1e308, {"amount": 1e308, "currency": "EUR"}])
def test_a_budget_too_large_to_compute_with_is_refused(runtime: ToolRuntime, budget: Any) -> None:
    outcome = call(runtime, "search_flights", {"origin": "Boston", "destination": "Chicago", "date": "2099-01-01",
                                               "max_price": budget})
    assert outcome.error == "invalid_arguments" and "max_price" in outcome.message


def test_read_inbox_names_the_mailbox_without_its_path(runtime: ToolRuntime) -> None:
    outcome = call(runtime, "read_inbox", {})
    assert outcome.ok and outcome.data is not None
    assert outcome.data["mailbox"] == "inbox.mbox" and "/" not in str(outcome.data)


@given(st.text(max_size=20))
def test_ecma_patterns_never_match_a_trailing_newline(text: str) -> None:
    from dialstack.domain.schemacheck import ecma_pattern

    assert not ecma_pattern(r"^\d*$").search(text + "\n")
