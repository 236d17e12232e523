"""``DateTimeSlot``: a universal date, or date and time, for any pack.

Reads what people write ("Dec 15", "next Friday", "tomorrow at 3pm", "2026-12-15 09:30"),
relative to ``ctx.now`` (never a clock of its own). The value is ISO: ``YYYY-MM-DD``, or
``YYYY-MM-DDTHH:MM`` when a time is given. Params:

- ``time``: ``optional`` (default), ``required`` or ``none`` (a day only; a time said with
  it is ignored). With ``required``, a day said alone is kept and the slot asks "What time
  on <day>?" (it is not filled until the time comes); a time said alone completes it, and a
  new day for a slot that had a time keeps that time ("make it Friday");
- ``past``: false (default) refuses a moment before now; true accepts it (a birth date). A past slot that is no
  birth date asks when something happened: a bare weekday is the last one, 'since yesterday' and '2 hours ago' are days.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any

from .dates import REPAIR, find_dates, spoken
from .times import find_times
from .slot_base import BaseSlot, Candidate, Check, SlotContext

TIME_MODES = ("optional", "required", "none")

def _clock(moment: time) -> str:
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


class DateTimeSlot(BaseSlot):
    """A day, or a day and a time of day; ISO ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``."""

    type_name = "DateTimeSlot"
    criteria = "single"
    kept_day: str | None = None  # the day of a moment asked for again, for a time said alone
    kept_time: str | None = None  # the time of day of a moment asked for again, for 'same time' said with a new day

    @property
    def time_mode(self) -> str:
        mode = str(self.params.get("time", "optional"))
        return mode if mode in TIME_MODES else "optional"

    @property
    def of_an_event(self) -> bool:
        """Whether the slot asks when something happened (``past``, and not a birth date): 'it started on sunday'
        is the Sunday gone by, 'since yesterday' a day."""
        said = f"{self.name} {self.params.get('label', '')}".lower()
        return bool(self.params.get("past")) and not re.search(r"birth|dob|born", said)

    @property
    def filled(self) -> bool:
        return self.value is not None and not self._day_only_awaiting_time()

    @property
    def prompt(self) -> str:
        if self._day_only_awaiting_time():
            return f"What time on {self.display}? (for example 9:30 or 3pm)"
        return self._prompt

    @prompt.setter
    def prompt(self, text: str) -> None:
        self._prompt = text

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.pop("prompt", None)
        if self._prompt:
            data["prompt"] = self._prompt  # the declared prompt, not the time question
        if self.value is None:
            data.update({k: v for k, v in (("kept_day", self.kept_day), ("kept_time", self.kept_time)) if v})
        return data

    def ask_again(self, keep_day: bool = False) -> bool:
        """Empty the slot, so that it is asked for as declared; with ``keep_day``, keep its day: a time
        said alone then ('10:30 then' after 'that time is taken', '4:30pm' after 'no - the time pls')
        lands on that day, and a day said anew replaces it. True when the day was kept (the slot
        requires a time and held one)."""
        held = str(self.value) if self.value is not None else ""
        self.clear()
        self.kept_time = held.split("T", 1)[1] if "T" in held else None  # ('Monday then, same time')
        if not keep_day or self.time_mode != "required" or "T" not in held:
            return False
        self.kept_day = held.split("T", 1)[0]
        return True

    def clear(self) -> None:
        super().clear()
        self.kept_day = self.kept_time = None

    def dump_value(self) -> dict[str, Any] | None:
        data = super().dump_value()
        kept = {k: v for k, v in (("kept_day", self.kept_day), ("kept_time", self.kept_time)) if v}
        if kept and self.value is None:
            data = {**(data or {"value": None}), **kept}
        return data

    def load_value(self, data: Any) -> None:
        super().load_value(data)
        self.kept_day = data.get("kept_day") if data else None
        self.kept_time = data.get("kept_time") if data else None

    @classmethod
    def from_dict(cls, data: Any) -> BaseSlot:
        slot = super().from_dict(data)
        if isinstance(slot, DateTimeSlot):
            slot.kept_day = data.get("kept_day")
            slot.kept_time = data.get("kept_time")
        return slot

    def _day_only_awaiting_time(self) -> bool:
        return self.time_mode == "required" and self.value is not None and "T" not in str(self.value)

    def _known(self) -> tuple[date | None, time | None]:
        """The day and time this slot holds now (a day awaiting its time, or a full value), else the
        day kept when it was asked for again."""
        parsed = _parse_iso(str(self.value)) if self.value is not None else None
        if parsed is None and self.kept_day:
            parsed = _parse_iso(self.kept_day)
        return parsed if parsed is not None else (None, None)

    def _display(self, day: date, moment: time | None, today: date) -> str:
        label = spoken(day, today)
        return f"{label} at {_clock(moment)}" if moment is not None else label

    def _accept(self, day: date, moment: time | None, ctx: SlotContext) -> Check:
        today = ctx.now.date()
        if self.time_mode == "none":
            moment = None
        if not self.params.get("past", False):
            now = ctx.now.replace(tzinfo=None)
            if day < today or (moment is not None and datetime.combine(day, moment) < now):
                return Check.reject(f"{self._display(day, moment, today)} is in the past — which upcoming {self.label}?")
        if moment is None and self.time_mode == "required":
            return Check.accept(day.isoformat(), spoken(day, today))  # kept; the slot now asks for the time
        value = day.isoformat() if moment is None else f"{day.isoformat()}T{moment.strftime('%H:%M')}"
        return Check.accept(value, self._display(day, moment, today))

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        today = ctx.now.date()
        if isinstance(raw, datetime):
            return self._accept(raw.date(), raw.time().replace(second=0, microsecond=0), ctx)
        if isinstance(raw, date):
            return self._accept(raw, None, ctx)
        text = str(raw or "").strip()
        iso = _parse_iso(text)
        if iso is not None:
            return self._accept(*iso, ctx)
        days = find_dates(text, today)
        times = find_times(text)
        known_day, known_time = self._known()
        if not days and times and known_day is not None:
            return self._accept(known_day, times[0][0], ctx)  # "3pm", answering "What time on Friday?"
        if not days:
            return Check.reject(f"I couldn't read '{text}' as a date. Try 'Dec 15', 'next Friday' or {today.year}-12-15.")
        return self._accept(days[0][0], times[0][0] if times else known_time, ctx)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        today = ctx.now.date()
        times = _unrepaired(find_times(text), text)
        known_day, known_time = self._known()
        if times and known_day is not None and not find_dates(text, today, past=self.of_an_event):
            checked = self._accept(known_day, times[0][0], ctx)
            return [Candidate(checked.value, checked.display, times[0][1], times[0][2], 0.9)] if checked.ok else []
        out = []
        days = find_dates(text, today, known_day, past=self.of_an_event)  # ('no wait, the 21st' of the day held)
        nearest = {i: min(range(len(days)), key=lambda d: _gap(days[d][1:], times[i][1:])) for i in range(len(times))} if days else {}
        for index, (day, start, end) in enumerate(days):
            near = next((times[i] for i, d in nearest.items() if d == index), None)  # each time goes with its nearest day
            moment = near[0] if near is not None else known_time  # "make it Friday" keeps the time
            checked = self._accept(day, moment, ctx)
            if near is not None and moment is not None:
                start, end = min(start, near[1]), max(end, near[2])
            if near is None and times and self.params.get("time") == "required":
                continue  # 'I rolled my ankle on the weekend ... could I come Thursday at 2pm?': the day with its time
            if checked.ok:
                out.append(Candidate(checked.value, checked.display, start, end, 0.9))
            else:
                out.append(Candidate(day.isoformat(), spoken(day, today), start, end, 0.4))
        return out


def _unrepaired(times: list[tuple[time, int, int]], text: str) -> list[tuple[time, int, int]]:
    """'thursday at 3pm, no wait, 4pm': a time taken back by the one said after a repair is dropped."""
    return [t for i, t in enumerate(times) if i + 1 == len(times) or not REPAIR.search(text, t[2], times[i + 1][1])]


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Characters between two spans (0 when they touch or overlap)."""
    return max(0, b[0] - a[1], a[0] - b[1])


def _parse_iso(text: str) -> tuple[date, time | None] | None:
    """``2026-12-15`` or ``2026-12-15T09:30`` (also with a space), else None."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text), None
        moment = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        return None
    return moment.date(), moment.time().replace(second=0, microsecond=0, tzinfo=None)
