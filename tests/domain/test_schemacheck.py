"""The fast schema checks never say yes where jsonschema says no."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from dialstack.domain import load_domain
from dialstack.domain.schemacheck import compile_check, schema_certainly_valid

NAMES = st.sampled_from(["a", "b", "text", "amount"])
TYPES = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null", "date"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(-5, 5), st.sampled_from([1.0, float("nan"), float("inf")]),
    st.sampled_from(["", "a", "ab", "abc", "2025-01-01", "x1"]),
)
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(NAMES, inner, max_size=3)), max_leaves=8
)
BOUNDS = st.one_of(st.integers(-1, 4), st.floats(-1, 4), st.booleans(), st.just("3"))


def keyword(schemas: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[str, Any]]:
    return st.one_of(
        st.tuples(st.just("type"), st.one_of(TYPES, st.lists(TYPES, max_size=3))),
        st.tuples(st.just("properties"), st.dictionaries(NAMES, schemas, max_size=3)),
        st.tuples(st.just("required"), st.lists(NAMES, max_size=3)),
        st.tuples(st.just("additionalProperties"), schemas),
        st.tuples(st.just("items"), schemas),
        st.tuples(st.sampled_from(["minItems", "maxItems", "minLength", "maxLength"]), BOUNDS),
        st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]), BOUNDS),
        st.tuples(st.just("pattern"), st.sampled_from(["^a", "b$", r"^\d{4}-\d{2}-\d{2}$", "[", 3])),
        st.tuples(st.just("enum"), st.one_of(st.lists(SCALARS, max_size=3), SCALARS)),
        st.tuples(st.just("const"), SCALARS),
        st.tuples(st.sampled_from(["allOf", "anyOf", "oneOf"]), st.lists(schemas, max_size=3)),
        st.tuples(st.sampled_from(["title", "description", "format", "$comment"]), st.one_of(st.text(max_size=3), st.integers())),
        st.tuples(st.sampled_from(["default", "examples", "deprecated", "$ref", "uniqueItems"]), SCALARS),
    )


SCHEMAS = st.recursive(
    st.one_of(st.booleans(), st.just({})),
    lambda inner: st.lists(keyword(inner), max_size=4).map(dict),
    max_leaves=10,
)


def schema_is_valid(schema: Any) -> bool:
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return False
    return True


@settings(max_examples=600, deadline=None)
@given(SCHEMAS)
def test_a_schema_called_certainly_valid_passes_the_metaschema(schema: Any) -> None:
    if schema_certainly_valid(schema):
        assert schema_is_valid(schema)


@settings(max_examples=600, deadline=None)
@given(SCHEMAS, st.lists(JSON_VALUES, min_size=1, max_size=6))
def test_the_fast_check_accepts_only_what_jsonschema_accepts(schema: Any, instances: list[Any]) -> None:
    check = compile_check(schema)
    if check is None or not schema_is_valid(schema):
        return
    validator = Draft202012Validator(schema)
    for instance in instances:
        if check(instance):
            assert validator.is_valid(instance), (schema, instance)


def test_the_fast_check_is_sure_of_ordinary_valid_arguments() -> None:
    schema = {
        "type": "object", "additionalProperties": False, "required": ["origin"],
        "properties": {
            "origin": {"type": "string", "minLength": 2},
            "passengers": {"type": ["integer", "null"], "minimum": 1},
            "max_price": {"oneOf": [{"type": "number"}, {"type": "object", "properties": {"amount": {"type": "number"}}}, {"type": "null"}]},
        },
    }
    check = compile_check(schema)
    assert check is not None
    assert check({"origin": "Boston", "passengers": 2, "max_price": {"amount": 300}})
    assert not check({"origin": "Boston", "extra": 1})
    assert not check({"passengers": 2})


def test_bundled_tool_schemas_need_no_jsonschema_at_load() -> None:
    for tool in load_domain("travel").manifest.tools:
        for schema in (tool.input_schema, tool.output_schema):
            assert schema_certainly_valid(schema), tool.tool_id
            assert compile_check(schema) is not None, tool.tool_id


def test_unsupported_keywords_are_left_to_jsonschema() -> None:
    assert compile_check({"$ref": "#/$defs/x"}) is None
    assert compile_check({"type": "object", "patternProperties": {"^a": {}}}) is None
    assert not schema_certainly_valid({"$schema": "https://json-schema.org/draft/2020-12/schema"})
