"""Fast yes-checks for the simple JSON Schemas tools use, in front of ``jsonschema``.

``jsonschema`` is thorough and slow to import (~60 ms) and to run (~10-20 us for a small
object, ~3 ms to check a schema against the 2020-12 metaschema). Both checks here answer
only "certainly yes" or "not sure"; on "not sure" the caller runs ``jsonschema``, which
decides and names the errors. A "not sure" costs time, never correctness.

``schema_certainly_valid(schema)`` is True only for schemas that
``Draft202012Validator.check_schema`` accepts, written in the subset below.

``compile_check(schema)`` returns a function answering True only for instances that are
certainly valid under JSON Schema 2020-12 (as ``Draft202012Validator`` sees it: ``format``
is an annotation), or None when the schema uses a keyword outside the small subset below.
False means "not sure": the caller then runs the full validator.

Subset: ``type``, ``properties``, ``required``, ``additionalProperties``, ``items``,
``minItems``/``maxItems``, ``minLength``/``maxLength``, ``pattern``, ``minimum``/``maximum``,
``exclusiveMinimum``/``exclusiveMaximum``, ``enum``/``const`` of strings, booleans and
null, ``allOf``/``anyOf``/``oneOf`` (a ``oneOf`` is certain when the other branches' ``type``
rules the instance out), plus annotations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset({
    "title", "description", "default", "examples", "format", "$comment", "deprecated", "readOnly", "writeOnly",
})
_ANNOTATION_TYPES: dict[str, tuple[type, ...] | None] = {
    "title": (str,), "description": (str,), "$comment": (str,), "format": (str,), "examples": (list,),
    "deprecated": (bool,), "readOnly": (bool,), "writeOnly": (bool,), "default": None,
}
_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "minLength",
    "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const",
    "allOf", "anyOf", "oneOf",
}) | _ANNOTATIONS


class _Unsupported(Exception):
    pass


@functools.lru_cache(maxsize=512)
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled with the meaning JSON Schema gives it (ECMA-262), not Python's.

    ``$`` matches only at the very end (Python's also matches before a trailing newline)
    and ``\\d``, ``\\w``, ``\\b`` are ASCII (Python's match any Unicode digit or letter).
    """
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return re.compile("".join(out), re.ASCII)


def compile_check(schema: Any) -> Check | None:
    """A function that is True only for instances certainly valid under ``schema``; None if unsupported."""
    try:
        return _compile(schema)
    except _Unsupported:
        return None


def _is_number(value: Any) -> bool:
    return (type(value) is int or type(value) is float) and value == value  # bool is excluded; NaN is left to jsonschema


_TYPES: dict[str, Check] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,  # 1.0 is an integer to JSON Schema too, but is left to jsonschema
    "number": _is_number,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict) or not _KEYWORDS.issuperset(k for k in schema if not k.startswith("x-")):
        raise _Unsupported  # x-* keys (x-dialstack-role) are annotations: they constrain nothing
    checks: list[Check] = []

    kind = schema.get("type")
    if kind is not None:
        names = [kind] if isinstance(kind, str) else kind
        if not isinstance(names, list) or not names or any(n not in _TYPES for n in names):
            raise _Unsupported
        tests = [_TYPES[n] for n in names]
        checks.append(tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests)))

    if "enum" in schema:
        checks.append(_member_of(schema["enum"]))
    if "const" in schema:
        checks.append(_member_of([schema["const"]]))

    checks.extend(_combinator_checks(schema))
    checks.extend(_string_checks(schema))
    checks.extend(_number_checks(schema))
    checks.extend(_object_checks(schema))
    checks.extend(_array_checks(schema))

    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]

    def check(v: Any) -> bool:
        for test in checks:  # a loop, not all(genexpr): this runs on every tool call
            if not test(v):
                return False
        return True

    return check


def _json_types(value: Any) -> frozenset[str] | None:
    """Every JSON Schema type ``value`` could have, or None when unsure (floats, other classes)."""
    kind = type(value)
    if kind is int:
        return frozenset({"integer", "number"})
    return {str: frozenset({"string"}), dict: frozenset({"object"}), list: frozenset({"array"}),
            bool: frozenset({"boolean"}), type(None): frozenset({"null"})}.get(kind)


def _excluded_by_type(schema: Any) -> Check:
    """True only if ``schema``'s ``type`` certainly rejects the instance."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind is None:
        return lambda v: False
    names = frozenset([kind] if isinstance(kind, str) else kind)

    def excluded(v: Any) -> bool:
        types = _json_types(v)
        return types is not None and not (types & names)

    return excluded


def _combinator_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    for key in ("allOf", "anyOf", "oneOf"):
        if key not in schema:
            continue
        branches = schema[key]
        if not isinstance(branches, list) or not branches:
            raise _Unsupported
        tests = [_compile(b) for b in branches]
        if key == "allOf":
            out.append(_all(tests))
        elif key == "anyOf":
            out.append(lambda v, tests=tests: any(t(v) for t in tests))
        else:  # exactly one: one branch certainly matches, and every other one is ruled out by its type
            excluded = [_excluded_by_type(b) for b in branches]

            def one_of(v: Any, tests: list[Check] = tests, excluded: list[Check] = excluded) -> bool:
                matched = [i for i, t in enumerate(tests) if t(v)]
                return len(matched) == 1 and all(excluded[j](v) for j in range(len(tests)) if j != matched[0])

            out.append(one_of)
    return out


def _member_of(values: Any) -> Check:
    """Exact matches only (JSON equality also makes 1 == 1.0 and keeps True != 1: left to jsonschema)."""
    if not isinstance(values, list):
        raise _Unsupported
    strings = frozenset(v for v in values if type(v) is str)
    others = [v for v in values if v is None or type(v) is bool]
    return lambda v: (type(v) is str and v in strings) or any(v is o for o in others)


def _string_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    low, high, pattern = schema.get("minLength"), schema.get("maxLength"), schema.get("pattern")
    for bound in (low, high):
        if bound is not None and type(bound) is not int:
            raise _Unsupported
    if low is not None:
        out.append(lambda v: type(v) is not str or len(v) >= low)
    if high is not None:
        out.append(lambda v: type(v) is not str or len(v) <= high)
    if pattern is not None:
        if not isinstance(pattern, str):
            raise _Unsupported
        try:
            search = ecma_pattern(pattern).search
        except re.error as exc:
            raise _Unsupported from exc
        out.append(lambda v: type(v) is not str or search(v) is not None)
    return out


def _number_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    ops: dict[str, Callable[[Any, Any], bool]] = {
        "minimum": lambda v, b: v >= b, "maximum": lambda v, b: v <= b,
        "exclusiveMinimum": lambda v, b: v > b, "exclusiveMaximum": lambda v, b: v < b,
    }
    for key, op in ops.items():
        if key not in schema:
            continue
        bound = schema[key]
        if not _is_number(bound):
            raise _Unsupported
        out.append(lambda v, op=op, bound=bound: not _is_number(v) or op(v, bound))
    return out


def _object_checks(schema: dict[str, Any]) -> list[Check]:
    props = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(props, dict) or not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise _Unsupported
    if not props and not required and extra is True:
        return []
    prop_checks = {name: _compile(sub) for name, sub in props.items()}
    extra_check = _compile(extra)
    needed = tuple(required)

    def check(v: Any) -> bool:
        if type(v) is not dict:
            return True
        for name in needed:
            if name not in v:
                return False
        for name, value in v.items():
            test = prop_checks.get(name, extra_check)
            if not test(value):
                return False
        return True

    return [check]


def _array_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    low, high = schema.get("minItems"), schema.get("maxItems")
    for bound in (low, high):
        if bound is not None and type(bound) is not int:
            raise _Unsupported
    if low is not None:
        out.append(lambda v: type(v) is not list or len(v) >= low)
    if high is not None:
        out.append(lambda v: type(v) is not list or len(v) <= high)
    if "items" in schema:
        item = _compile(schema["items"])
        out.append(lambda v: type(v) is not list or all(item(x) for x in v))
    return out


def schema_certainly_valid(schema: Any) -> bool:
    """True only if ``schema`` is a valid JSON Schema 2020-12 (False means: ask ``check_schema``)."""
    if type(schema) is bool:
        return True
    if type(schema) is not dict:
        return False
    for key, value in schema.items():
        if not _keyword_certainly_valid(key, value):
            return False
    return True


def _keyword_certainly_valid(key: str, value: Any) -> bool:
    if key.startswith("x-"):  # an extension annotation (x-dialstack-role): any JSON value is valid
        return True
    if key in _ANNOTATION_TYPES:
        allowed = _ANNOTATION_TYPES[key]
        return allowed is None or type(value) in allowed
    if key == "type":
        names = [value] if type(value) is str else value
        return type(names) is list and bool(names) and len(set(map(str, names))) == len(names) and all(
            type(n) is str and n in _TYPES for n in names
        )
    if key == "properties":
        return type(value) is dict and all(type(k) is str and schema_certainly_valid(v) for k, v in value.items())
    if key == "required":
        return type(value) is list and all(type(v) is str for v in value) and len(set(value)) == len(value)
    if key in ("additionalProperties", "items"):
        return schema_certainly_valid(value)
    if key in ("minItems", "maxItems", "minLength", "maxLength"):
        return type(value) is int and value >= 0
    if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return _is_number(value) and value not in (float("inf"), float("-inf"))
    if key == "pattern":
        if type(value) is not str:
            return False
        try:
            re.compile(value)
        except re.error:
            return False
        return True
    if key == "enum":
        return type(value) is list
    if key in ("allOf", "anyOf", "oneOf"):
        return type(value) is list and bool(value) and all(schema_certainly_valid(v) for v in value)
    return key == "const"
