"""Argument validation helpers: strict JSON Schemas, one-line error texts, a size bound."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

DEFAULT_MAX_INPUT_BYTES = 64 * 1024


def strict_schema(schema: Any) -> Any:
    """A copy of ``schema`` where object schemas with ``properties`` forbid unknown ones.

    Left alone: nodes that already say ``additionalProperties`` /
    ``unevaluatedProperties`` / ``patternProperties``, nodes combining subschemas
    (``allOf``/``anyOf``/``oneOf``/``if``-``then``-``else``), where a local
    ``additionalProperties: false`` would reject properties declared in a sibling branch,
    and conditions (``if``, ``not``), which must match as written.
    """
    if isinstance(schema, list):
        return [strict_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    # ``if``/``not`` are conditions, not constraints: tightening them would change when they match.
    kept = {"const", "enum", "default", "if", "not", "examples"}
    out = {k: (v if k in kept else strict_schema(v)) for k, v in schema.items()}
    if isinstance(schema.get("properties"), dict):
        open_keys = {"additionalProperties", "unevaluatedProperties", "patternProperties", "allOf", "anyOf", "oneOf",
                     "if", "then", "else", "dependentSchemas"}
        if not open_keys & schema.keys():
            out["additionalProperties"] = False
    return out


def _expected(error: ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties":
        allowed = sorted((schema.get("properties") or {}).keys())
        return f"only {', '.join(allowed)}" if allowed else "no properties"
    if error.validator == "required":
        return "this argument to be present"
    parts = []
    if "enum" in schema:
        parts.append("one of " + ", ".join(json.dumps(v) for v in schema["enum"]))
    if "const" in schema:
        parts.append(f"exactly {json.dumps(schema['const'])}")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        parts.append(" or ".join(f"a{'n' if t[0] in 'aeiou' else ''} {t}" for t in types))
    if "format" in schema:
        parts.append(f"in {schema['format']} format")
    if "pattern" in schema:
        parts.append(f"matching {schema['pattern']}")
    for key, word in (("minimum", ">="), ("maximum", "<="), ("minLength", "length >="), ("maxLength", "length <="), ("maxItems", "items <=")):
        if key in schema:
            parts.append(f"{word} {schema[key]}")
    if schema.get("description"):
        parts.append(f"({schema['description']})")
    return " ".join(parts) or f"a value satisfying {error.validator}"


def describe_error(error: ValidationError) -> str:
    """One line naming the bad field, what was wrong and the expected form."""
    path = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = set((error.schema.get("properties") or {}) if isinstance(error.schema, dict) else ())
        extra = sorted(set(error.instance) - allowed) if isinstance(error.instance, dict) else []
        where = f" in {path!r}" if path else ""
        names = ", ".join(repr(e) for e in extra)
        return f"unknown argument {names}{where} (expected {_expected(error)})"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        field = f"{path}.{missing}" if path else missing
        return f"missing argument {field!r} (expected {_expected(error)})"
    shown = json.dumps(error.instance, default=str)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return f"argument {path or '(root)'!r} is {shown} (expected {_expected(error)})"


def size_bound(args: dict[str, Any]) -> float:
    """An upper bound of the compact JSON size of a flat ``args`` in bytes, or inf if unsure.

    A character takes at most 6 bytes in JSON (``\\u001f``); short numbers, booleans and
    null at most 24.
    """
    total = 2
    for key, value in args.items():
        if type(key) is not str:
            return math.inf
        kind = type(value)
        if kind is str:
            total += 6 * (len(key) + len(value)) + 6
        elif value is None or kind is bool or (kind is int and -10**18 < value < 10**18) or kind is float:
            total += 6 * len(key) + 28
        else:
            return math.inf
    return total
