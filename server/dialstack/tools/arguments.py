"""JSON Schema as a handler needs it: ECMA-262 patterns, and integral numbers handed over as ``int``.

- :func:`validator` is Draft 2020-12 with ``pattern`` matched the way JSON Schema means it
  (:func:`dialstack.domain.schemacheck.ecma_pattern`): ``"2025-01-01\\n"`` does not match
  ``^\\d{4}-\\d{2}-\\d{2}$`` and ``"٢٠٢٥-..."`` (Arabic-Indic digits) does not either.
- :func:`integral` turns ``2.0`` into ``2`` wherever the schema says ``integer`` (JSON
  Schema counts ``2.0`` as an integer; a handler doing ``range(n)`` or slicing must get one).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..domain.schemacheck import ecma_pattern

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def validator(schema: Any) -> Draft202012Validator:
    """A Draft 2020-12 validator whose ``pattern`` has ECMA-262 semantics."""
    from jsonschema import Draft202012Validator, validators

    cls = validators.extend(Draft202012Validator, {"pattern": _pattern})
    return cls(schema)  # type: ignore[no-any-return]


def _says_integer(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return "integer" in kinds and "number" not in kinds


def integral(schema: Any, value: Any) -> Any:
    """``value`` with every integral float the schema types as ``integer`` made an ``int`` (same value otherwise)."""
    if not isinstance(schema, dict):
        return value
    if type(value) is float and value.is_integer() and _says_integer(schema):
        return int(value)
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key) or ():
            value = integral(branch, value)
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        return {k: integral(props.get(k, extra), v) for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [integral(schema["items"], v) for v in value]
    return value


def has_integer(schema: Any) -> bool:
    """Whether any part of ``schema`` says ``integer`` (else :func:`integral` has nothing to do)."""
    if isinstance(schema, dict):
        return _says_integer(schema) or any(has_integer(v) for v in schema.values())
    if isinstance(schema, list):
        return any(has_integer(v) for v in schema)
    return False
