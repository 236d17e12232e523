"""'there', 'that day': a place or a day the talk already named, carried into a new task.

'I need a hotel there' after a flight to London, 'find me a car to get there', 'add it to my
calendar that day' after a dinner booked for the 8th: the new task's slot of the same kind (a
place, a day, a time of day) takes the value the most recent task held in that kind, whatever
the two packs call their slots (``destination_city`` -> ``location``, ``date`` -> ``event_date``).
Only an explicit reference carries anything; 'are there any buses?' refers to nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..domain.models import SlotSpec
from ..state.slots import BaseSlot, FreeTextSlot
from .freetext import roles_of

# 'there', 'near there', 'that city'; not the 'there' of 'is there', 'are there any', 'there is'
_PLACE = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )\bthere\b(?!\s+(?:is|are|was|were|'s|will|be|any)\b)(?!')"
    r"|\b(?:that|the same) (?:city|place|area|town|location|neighbou?rhood)\b",
    re.IGNORECASE,
)
_FROM_THERE = re.compile(r"\b(?:from|leaving|departing|out of) there\b", re.IGNORECASE)
_DAY = re.compile(r"\b(?:that|the same|same) (?:day|date)\b|\bthat (?:night|evening|morning|afternoon)\b",
                  re.IGNORECASE)
_TIME = re.compile(r"\b(?:that|the same|same) time\b", re.IGNORECASE)

# 'and a flight back on the 14th', 'the return trip', 'the way home': the trip before, reversed
_RETURN = re.compile(r"\b(?:back|return(?:ing)?|the way home|home again)\b", re.IGNORECASE)

# which kinds of a task's values a reference to a place takes, best first: where the task goes
_PLACE_SOURCES = ("destination", "place", "origin")


def kind_of(spec: SlotSpec, slot: BaseSlot) -> str | None:
    """What a slot holds, as far as a reference can tell: a destination, a place, an origin, a
    day or a time of day (None: anything else)."""
    words = f"{spec.type} {spec.name}".lower().replace("_", " ")
    if "date" in words or re.search(r"\bday\b", words):
        return "day"  # 'pickup_date' is a day, though 'pickup' names a place's role
    if re.search(r"time\b", words):
        return "time"
    if not isinstance(slot, FreeTextSlot) and slot.criteria in ("numeric", "range", "multiple", "dictionary"):
        return None  # a count, an amount, a list: never a place
    roles = roles_of(spec).roles
    return next((r for r in roles if r in _PLACE_SOURCES), None)  # (the first: a pick-up city is an origin, said 'in')


_ISO_MOMENT = re.compile(r"^(?P<day>\d{4}-\d{2}-\d{2})(?:[T ](?P<time>\d{2}:\d{2}))?")


def returned_moments(outputs: Mapping[str, Any]) -> dict[str, Any]:
    """The day and the time of day a task returned ('when': '2026-12-08T09:30' after a check of an
    appointment), by kind, for 'that same day at 10:30' said next."""
    named = [(n, v) for n, v in outputs.items() if re.search(r"date|day|when|time", n)]
    # (then a moment under another name: 'showing': '2026-12-11T19:30'; not when a record was made)
    others = [(n, v) for n, v in outputs.items() if not re.search(r"date|day|when|time|created|updated|made|_at$", n)]
    for name, value in [*named, *others]:
        m = _ISO_MOMENT.match(value) if isinstance(value, str) else None
        if m is not None and (m["time"] or (name, value) in named):
            return {"day": m["day"], **({"time": m["time"]} if m["time"] else {})}
    return {}


def referred(text: str) -> set[str]:
    """The kinds of value ``text`` refers back to ('there' -> place, 'that day' -> day)."""
    kinds = set()
    if _PLACE.search(text):
        kinds.add("origin" if _FROM_THERE.search(text) else "place")
    if _DAY.search(text):
        kinds.add("day")
    if _TIME.search(text):
        kinds.add("time")
    return kinds


def referred_values(
    text: str,
    slots: Mapping[str, tuple[SlotSpec, BaseSlot]],
    recent: Iterable[Mapping[str, tuple[SlotSpec, BaseSlot]]],
    taken: set[str],
    returned: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Values for the open ``slots`` (name -> (spec, slot)) of a task that ``text`` refers back
    to, from the ``recent`` tasks' slots (newest first); then from what they ``returned`` (a day
    or a time only: 'that same day' after a check of an appointment)."""
    kinds = referred(text)
    out = _values_of_kinds(kinds, slots, recent, taken) if kinds else {}
    left = {n: kind_of(spec, slot) for n, (spec, slot) in slots.items()
            if n not in taken and n not in out and not (slot.filled and slot.source != "default")}
    for moments in map(returned_moments, returned) if kinds & {"day", "time"} else ():
        for kind in ("day", "time"):
            target = next((n for n, k in left.items() if k == kind), None) if kind in kinds else None
            if target is not None and kind in moments:
                out[target] = moments[kind]
                del left[target]
        if moments:
            break
    return out


def _values_of_kinds(
    kinds: set[str],
    slots: Mapping[str, tuple[SlotSpec, BaseSlot]],
    recent: Iterable[Mapping[str, tuple[SlotSpec, BaseSlot]]],
    taken: set[str],
) -> dict[str, Any]:
    """For each kind of value (a place, an origin, a day, a time), the open slot of ``slots`` that
    takes it, filled from the newest of the ``recent`` tasks that held one."""
    open_slots = {n: kind_of(spec, slot) for n, (spec, slot) in slots.items()
                  if n not in taken and not (slot.filled and slot.source != "default")}
    wanted: dict[str, str] = {}  # kind of value -> the slot that takes it
    for kind in kinds:
        if kind in ("place", "origin"):
            order = ("origin",) if kind == "origin" else ("place", "destination", "origin")
            target = next((n for k in order for n, sk in open_slots.items() if sk == k), None)
            if target is not None:
                wanted["place"] = target
        else:
            target = next((n for n, sk in open_slots.items() if sk == kind), None)
            if target is not None:
                wanted[kind] = target
    out: dict[str, Any] = {}
    for held in recent:
        found: dict[str, Any] = {}
        for spec, slot in held.values():
            if not slot.filled or slot.source == "default":
                continue
            kind = kind_of(spec, slot)
            if kind in _PLACE_SOURCES:
                rank = _PLACE_SOURCES.index(kind)
                if "place" not in found or rank < found["place"][0]:
                    found["place"] = (rank, slot.value)
            elif kind is not None and kind not in found:
                found[kind] = (0, slot.value)
        for kind, target in list(wanted.items()):
            if kind in found:
                out[target] = found[kind][1]
                del wanted[kind]
        if not wanted:
            break
    return out


def implied_place(
    slots: Mapping[str, tuple[SlotSpec, BaseSlot]],
    recent: Iterable[Mapping[str, tuple[SlotSpec, BaseSlot]]],
    taken: set[str],
) -> dict[str, Any]:
    """'Can you show me attractions?' after a trip to LA was arranged: a new task that needs one
    place and was told none takes the place the talk is about (where the last task went). Only
    when the task has exactly one place to fill and it is required: a look-up shows where it
    looked, and a change is confirmed before it is made, so the user sees the place and can
    change it."""
    places = [n for n, (spec, slot) in slots.items() if kind_of(spec, slot) in _PLACE_SOURCES]
    if len(places) != 1 or places[0] in taken:
        return {}
    spec, slot = slots[places[0]]
    if spec.priority != "required" or slot.filled:
        return {}
    return _values_of_kinds({"place"}, {places[0]: (spec, slot)}, recent, taken)


def reversed_trip(
    text: str,
    slots: Mapping[str, tuple[SlotSpec, BaseSlot]],
    recent: Iterable[Mapping[str, tuple[SlotSpec, BaseSlot]]],
    said: set[str],
) -> dict[str, Any]:
    """'and a flight back on the 14th' after Boston to Denver: the new task goes from where the
    last trip went to where it came from (an end the user names stays as said)."""
    if not _RETURN.search(text):
        return {}
    ends = {kind_of(spec, slot): n for n, (spec, slot) in slots.items()}
    origin, destination = ends.get("origin"), ends.get("destination")
    if origin is None or destination is None or {origin, destination} <= said:
        return {}
    for held in recent:
        kinds = {kind_of(spec, slot): slot for spec, slot in held.values() if slot.filled and slot.source != "default"}
        if "origin" in kinds and "destination" in kinds:
            out = {}
            if origin not in said:
                out[origin] = kinds["destination"].value
            if destination not in said:
                out[destination] = kinds["origin"].value
            return out
    return {}
