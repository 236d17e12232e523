"""Slot basics: the context a slot may consult, candidates, checks and :class:`BaseSlot`.

A slot is filled only when its value passes ``check``; a rejected value leaves the slot as
it was and the returned :class:`Check` carries a reason that can be shown to the user.
Slots never do I/O: the clock, vocabularies and preferences arrive in a :class:`SlotContext`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from .text import humanize, join_options

@dataclass(frozen=True)
class SlotContext:
    """What a slot may consult: injected, never fetched by the slot itself.

    ``vocabularies`` maps a vocabulary name to its items; an item is a mapping with a
    canonical ``value`` and optional ``synonyms`` (other names for it).
    """

    now: datetime
    vocabularies: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    preferences: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Candidate:
    """A value System 1 found in free text."""

    value: Any
    display: str
    start: int
    end: int
    score: float


@dataclass(frozen=True)
class Check:
    """The result of validating a raw value: ``ok`` with the normalized value, or a reason."""

    ok: bool
    value: Any = None
    display: str = ""
    reason: str = ""

    @classmethod
    def accept(cls, value: Any, display: str | None = None) -> Check:
        return cls(True, value, str(value) if display is None else display)

    @classmethod
    def reject(cls, reason: str) -> Check:
        return cls(False, reason=reason)


def copy_json(value: Any) -> Any:
    """A copy of a JSON-like value that shares no list or dict with the original.

    Serialized states are diffed against later ones, so they must never alias live state.
    """
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [copy_json(v) for v in value]
    return value


def show(raw: Any) -> str:
    """Quote a raw value inside a user-facing reason."""
    return f"'{raw}'" if isinstance(raw, str) else repr(raw)


class BaseSlot:
    """A single JSON scalar value (string, number or boolean)."""

    type_name: ClassVar[str] = "BaseSlot"
    criteria: ClassVar[str] = "single"

    def __init__(
        self,
        name: str,
        params: Mapping[str, Any] | None = None,
        *,
        priority: str = "required",
        prompt: str = "",
        default: Any = None,
    ) -> None:
        self.name = name
        self.params: dict[str, Any] = dict(params or {})
        self.priority = priority
        self.prompt = prompt
        self.default = default
        self.value: Any = None
        self.display: str = ""
        self.source: str = ""  # where the value came from: label, input, reasoner, default, fallback

    # -- state ----------------------------------------------------------------
    @property
    def filled(self) -> bool:
        return self.value is not None

    @property
    def label(self) -> str:
        """How to name this slot to a user ('booking reference')."""
        return str(self.params.get("label") or humanize(self.name))

    def fill(self, raw: Any, ctx: SlotContext, *, source: str = "label") -> Check:
        """Validate ``raw``; set the slot only when it passes. The slot is unchanged otherwise."""
        result = self.check(raw, ctx)
        if result.ok:
            self.value, self.display, self.source = result.value, result.display, source
        return result

    def set_default(self) -> None:
        """Apply the declared default (trusted: it comes from the ontology, not the user)."""
        if self.default is not None and self.value is None:
            self.value, self.display, self.source = self.default, self.format(self.default), "default"

    def clear(self) -> None:
        self.value, self.display, self.source = None, "", ""

    def ask_again(self, keep_day: bool = False) -> bool:
        """Empty the slot so that it is asked for again; True when a part of the old value is kept
        for the answer (a day-and-time's day, see ``DateTimeSlot``). A bare value keeps nothing."""
        self.clear()
        return False

    def format(self, value: Any) -> str:
        """The display form of a (normalized) value."""
        if isinstance(value, list):
            return join_options([self.format(v) for v in value], limit=10, conj="and")
        return str(value)

    # -- behaviour subclasses override -----------------------------------------
    def check(self, raw: Any, ctx: SlotContext) -> Check:
        if raw is None or isinstance(raw, (list, tuple, dict)):
            return Check.reject(f"I need a single value for the {self.label}.")
        if isinstance(raw, str):
            raw = raw.strip()
            if not raw:
                return Check.reject(f"The {self.label} can't be empty.")
        elif not isinstance(raw, (int, float, bool)) or (isinstance(raw, float) and not math.isfinite(raw)):
            return Check.reject(f"{show(raw)} isn't a usable {self.label}.")
        return Check.accept(raw, self.format(raw))

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        """Candidate values found in ``text``, best first. A bare value slot finds nothing."""
        return []

    # -- persistence ------------------------------------------------------------
    def dump_value(self) -> dict[str, Any] | None:
        """The per-instance state, compact: None when empty, else the value plus the display
        and source only when they are not the obvious ones (keeps per-turn diffs to one op)."""
        if self.value is None and not self.display:
            return None
        data: dict[str, Any] = {"value": copy_json(self.value)}
        if self.display != self.format(self.value):
            data["display"] = self.display
        if self.source != "label":
            data["source"] = self.source
        return data

    def load_value(self, data: Mapping[str, Any] | None) -> None:
        if data is None:
            self.clear()
            return
        self.value = copy_json(data.get("value"))
        self.display = data.get("display", self.format(self.value))
        self.source = data.get("source", "label")

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this slot with ``SlotRegistry.restore``."""
        data: dict[str, Any] = {"type": self.type_name, "name": self.name, "priority": self.priority}
        if self.params:
            data["params"] = copy_json(self.params)
        if self.prompt:
            data["prompt"] = self.prompt
        if self.default is not None:
            data["default"] = copy_json(self.default)
        data.update(value=copy_json(self.value), display=self.display, source=self.source)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BaseSlot:
        slot = cls(
            data["name"], data.get("params"), priority=data.get("priority", "required"),
            prompt=data.get("prompt", ""), default=data.get("default"),
        )
        slot.value = copy_json(data.get("value"))
        slot.display, slot.source = data.get("display", ""), data.get("source", "")
        return slot

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, value={self.value!r})"
