"""'Did you mean …?' for pack problems: the closest known name to a misspelt one.

Also answers which keys a model accepts at a location of a YAML document, so an unknown
key can be compared with the keys that are allowed right there.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

CUTOFF = 0.6


def close_match(name: object, known: Iterable[str]) -> str | None:
    """The known name closest to ``name`` (case-insensitive), or None when none is close."""
    if not isinstance(name, str) or not name:
        return None
    options = {k.lower(): k for k in known if k != name}
    found = difflib.get_close_matches(name.lower(), list(options), n=1, cutoff=CUTOFF)
    return options[found[0]] if found else None


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` or ``""``: to append to a message about ``name``."""
    match = close_match(name, known)
    return f"; did you mean {match!r}?" if match else ""


def model_at(model: type[BaseModel], loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The model that validates the mapping at ``loc`` inside a document of ``model`` (None if not a model)."""
    current: Any = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return None
            current = field.annotation
        elif get_origin(current) in (list, tuple, dict):
            args = get_args(current)
            current = args[-1] if args else Any
        else:
            return None
    current = _unwrap(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrap(annotation: Any) -> Any:
    """``X | None`` -> ``X``."""
    if get_origin(annotation) in (Union, types.UnionType):
        non_none = [a for a in get_args(annotation) if a is not type(None)]
        if len(non_none) == 1:
            return non_none[0]
    return annotation
