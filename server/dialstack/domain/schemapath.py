"""Does a dotted path (``flights.0.flight_id``) lead somewhere in a tool's output schema?

A step's ``map_outputs`` reads values out of a tool's result by such paths: a number
indexes a list, a word names a property. The walk stops quietly where the schema says too
little to tell (no ``properties``, combinators like ``anyOf``).
"""

from __future__ import annotations

from typing import Any

from .suggest import did_you_mean

_COMBINATORS = ("allOf", "anyOf", "oneOf", "$ref", "if")


def output_path_problem(schema: Any, path: str) -> tuple[str, bool] | None:
    """``(what is wrong, certain)`` for a path the schema rules out or does not declare; None if it may exist.

    ``certain`` is True when the schema forbids the path (``additionalProperties: false``, a
    list index into a non-list); False when the path is merely undeclared.
    """
    current = schema
    walked: list[str] = []
    for segment in path.split("."):
        if not isinstance(current, dict) or any(k in current for k in _COMBINATORS):
            return None
        types = current.get("type")
        types = {types} if isinstance(types, str) else set(types or [])
        where = ".".join(walked) or "the result"
        if segment.isdigit():
            if "array" in types or "items" in current:
                current = current.get("items")
            elif types:
                return f"path {path!r}: {where} is {'/'.join(sorted(types))}, not a list", True
            else:
                return None
        else:
            properties = current.get("properties")
            if isinstance(properties, dict) and segment in properties:
                current = properties[segment]
            elif types and "object" not in types:
                return f"path {path!r}: {where} is {'/'.join(sorted(types))}, which has no {segment!r}", True
            elif isinstance(properties, dict):
                closed = current.get("additionalProperties") is False
                message = f"path {path!r}: {where} has no property {segment!r}" + did_you_mean(segment, properties)
                return (message, True) if closed else (message + " (the schema does not declare it)", False)
            else:
                return None
        walked.append(segment)
    return None
