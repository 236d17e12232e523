"""A vocabulary's items as slots read them: each item with its canonical ``value`` and ``synonyms``.

A pack declares a vocabulary (``vocabularies:`` in its flows file) as a read-only tool, the
dotted path of the list in its result, the field holding an item's value and the fields that
also name it. :func:`items` shapes one tool result into the list a ``SlotContext`` carries.
"""

from __future__ import annotations

from typing import Any

from ..domain.models import VocabularySpec


def items(result: Any, spec: VocabularySpec) -> list[dict[str, Any]]:
    """The items at ``spec.items`` in a tool result, each with ``value`` and ``synonyms``."""
    found = result
    for part in spec.items.split("."):
        found = found.get(part, []) if isinstance(found, dict) else []
    return [item_of(i, spec.value, spec.synonyms) for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def item_of(item: dict[str, Any], value: str, synonyms: list[str]) -> dict[str, Any]:
    names: list[str] = []
    for key in synonyms:
        raw = item.get(key)
        for entry in raw if isinstance(raw, list) else [raw]:
            if isinstance(entry, str):
                names.append(entry)
            elif isinstance(entry, dict):
                names.extend(v for v in entry.values() if isinstance(v, str))
    return {**item, "value": item.get(value), "synonyms": names}
