"""Slots: typed values a flow needs, with validation (``check``) and System-1 ``extract``.

This module is the public face of the slot types (defined in ``slot_base``, ``slot_choice``,
``slot_values`` and ``slot_datetime``) and holds the :class:`SlotRegistry`: the 13 universal types plus a
domain's own, resolved from ``python: module:Class`` or built from ``base`` + ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..domain.imports import resolve
from ..domain.models import Ontology, SlotSpec, SlotTypeSpec
from .slot_base import BaseSlot, Candidate, Check, SlotContext
from .slot_choice import (
    CategorySlot,
    ChecklistSlot,
    GroupSlot,
    RemovalSlot,
    SourceSlot,
    TargetSlot,
    match_option,
    option_table,
)
from .slot_datetime import DateTimeSlot
from .slot_values import DictionarySlot, ExactSlot, FreeTextSlot, LevelSlot, RangeSlot

UNIVERSAL_SLOTS: dict[str, type[BaseSlot]] = {
    cls.type_name: cls
    for cls in (BaseSlot, GroupSlot, SourceSlot, TargetSlot, RemovalSlot, FreeTextSlot, LevelSlot,
                RangeSlot, ExactSlot, DictionarySlot, CategorySlot, ChecklistSlot, DateTimeSlot)
}


class SlotTypeError(LookupError):
    """A slot type that is unknown or cannot be built; the message says which and how to fix it."""


class SlotRegistry:
    """Slot classes by type name, with each type's default parameters."""

    def __init__(self, ontology: Ontology | None = None) -> None:
        self.ontology = ontology
        self._classes: dict[str, type[BaseSlot]] = dict(UNIVERSAL_SLOTS)
        self._params: dict[str, dict[str, Any]] = {}

    @classmethod
    def for_domain(cls, ontology: Ontology) -> SlotRegistry:
        """The universal types plus the ontology's ``slot_types``."""
        registry = cls(ontology)
        for name, spec in ontology.slot_types.items():
            registry.register(name, registry._build_type(name, spec), spec.params)
        return registry

    @property
    def names(self) -> list[str]:
        return list(self._classes)

    def register(self, name: str, slot_class: type[BaseSlot], params: Mapping[str, Any] | None = None) -> None:
        """Add a slot type; ``params`` are its defaults (a flow's slot params override them)."""
        if not (isinstance(slot_class, type) and issubclass(slot_class, BaseSlot)):
            raise SlotTypeError(f"slot type {name!r}: {slot_class!r} is not a BaseSlot subclass")
        if slot_class.type_name != name:
            # Serialized slots name their type; keep that name equal to the registered one.
            slot_class = type(name, (slot_class,), {"type_name": name, "__module__": slot_class.__module__})
        self._classes[name] = slot_class
        self._params[name] = dict(params or {})

    def get(self, name: str) -> type[BaseSlot]:
        try:
            return self._classes[name]
        except KeyError:
            raise SlotTypeError(
                f"unknown slot type {name!r}; known types: {', '.join(self._classes)}. "
                "Declare it under slot_types in the flows file."
            ) from None

    def make(self, spec: SlotSpec) -> BaseSlot:
        """A fresh, unfilled slot for a flow (call ``set_default()`` to apply its default)."""
        slot_class = self.get(spec.type)
        params = {**self._params.get(spec.type, {}), **spec.params}
        return slot_class(spec.name, params, priority=spec.priority, prompt=spec.prompt, default=spec.default)

    def restore(self, data: Mapping[str, Any]) -> BaseSlot:
        """Rebuild a slot from ``BaseSlot.to_dict()``."""
        return self.get(str(data["type"])).from_dict(data)

    def _build_type(self, name: str, spec: SlotTypeSpec) -> type[BaseSlot]:
        if spec.python:
            try:
                found = resolve(spec.python)
            except (ImportError, AttributeError, ValueError) as exc:
                raise SlotTypeError(
                    f"slot type {name!r}: cannot import python {spec.python!r} ({exc}); "
                    "expected 'module:Class' naming a BaseSlot subclass"
                ) from exc
            if not (isinstance(found, type) and issubclass(found, BaseSlot)):
                raise SlotTypeError(f"slot type {name!r}: {spec.python!r} is not a BaseSlot subclass")
            return found
        base = self.get(spec.base)
        return type(name, (base,), {"type_name": name, "__module__": __name__, "__doc__": spec.description})


__all__ = [
    "UNIVERSAL_SLOTS",
    "BaseSlot",
    "Candidate",
    "CategorySlot",
    "Check",
    "ChecklistSlot",
    "DateTimeSlot",
    "DictionarySlot",
    "ExactSlot",
    "FreeTextSlot",
    "GroupSlot",
    "LevelSlot",
    "RangeSlot",
    "RemovalSlot",
    "SlotContext",
    "SlotRegistry",
    "SlotTypeError",
    "SourceSlot",
    "TargetSlot",
    "match_option",
    "option_table",
]
