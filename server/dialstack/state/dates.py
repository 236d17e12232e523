"""Parse dates written the way people write them, relative to a given day (used by any pack).

Pure functions, no clock of their own: ``today`` is always passed in. Conventions:
- weekdays ("Friday", "next Friday", "this Friday") mean the first such day after today, "last Friday"
  the latest one before it; "yesterday" is read too (a past date is refused by the slot, not ignored);
- "this weekend" is the coming Saturday, "next weekend" the Saturday after it;
- "next week" is a week from today; "next month" means the same day of the month, one month later (clamped to the month's end);
- numeric dates are day first ("15/12"), unless the first number cannot be a month ("12/15");
- a month and day without a year is this year's, or next year's when this year's passed more
  than two months ago (so "Jan 10" in December is next January, "Dec 1" on Dec 10 is past).
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from .text import words_to_number

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
WEEKDAYS.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)})
WEEKDAYS.update({"tues": 1, "thur": 3, "thurs": 3})
ROLLOVER_DAYS = 61

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s*(?P<year>\d{4}))?"
_WEEKDAY = r"(?P<weekday>" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")\.?"
_NUMBER = r"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|twenty|thirty)"

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)) for kind, body in (
    ("iso", r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})"),
    ("numeric", r"(?P<a>\d{1,2})[/.](?P<b>\d{1,2})(?:[/.](?P<year>\d{4}|\d{2}))?"),
    ("month_day", rf"{_MONTH}\s+(?:the\s+)?{_DAY}{_YEAR}"),
    ("day_month", rf"(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}"),
    ("in_n", rf"in\s+{_NUMBER}\s+(?P<unit>days?|weeks?|months?)"),
    ("n_from_now", rf"{_NUMBER}\s+(?P<unit>days?|weeks?|months?)\s+from\s+(?:now|today)"),
    ("relative_day", r"(?P<word>day after tomorrow|day before yesterday|today|tonight|tomorrow|tmrw|yesterday)"),
    ("next_unit", r"(?P<which>next|this\s+coming)\s+(?P<unit>week|month|weekend)"),
    ("weekend", r"(?P<which>this\s+)?weekend"),
    ("weekday", rf"(?:(?P<which>next|this|coming|this\s+coming|last|on)\s+)?{_WEEKDAY}"),
    ("day_only", r"(?:on\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)"),
))


def add_months(day: date, months: int) -> date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _count(text: str) -> int | None:
    if text.lower() in ("a", "an"):
        return 1
    return int(text) if text.isdigit() else words_to_number(text)


def _year_for(month: int, day: int, today: date) -> date | None:
    try:
        this_year = date(today.year, month, day)
    except ValueError:
        return None
    if this_year >= today or (today - this_year).days <= ROLLOVER_DAYS:
        return this_year
    try:
        return date(today.year + 1, month, day)
    except ValueError:  # 29 February
        return None


def _full_year(text: str | None) -> int | None:
    if not text:
        return None
    year = int(text)
    return year + 2000 if year < 100 else year


def _resolve(kind: str, m: re.Match[str], today: date) -> date | None:
    g = m.groupdict()
    if kind == "iso":
        return date(int(g["year"]), int(g["month"]), int(g["day"]))
    if kind == "numeric":
        a, b = int(g["a"]), int(g["b"])
        day, month = (b, a) if b > 12 >= a else (a, b)
        year = _full_year(g["year"])
        return date(year, month, day) if year else _year_for(month, day, today)
    if kind in ("month_day", "day_month"):
        month, day = MONTHS[g["month"].lower()], int(g["day"])
        year = _full_year(g["year"])
        return date(year, month, day) if year else _year_for(month, day, today)
    if kind == "relative_day":
        word = g["word"].lower()
        offsets = {"day after tomorrow": 2, "tomorrow": 1, "tmrw": 1, "yesterday": -1, "day before yesterday": -2}
        return today + timedelta(days=offsets.get(word, 0))  # a past day is read, and refused by the slot
    if kind in ("in_n", "n_from_now"):
        n = _count(g["n"])
        if n is None:
            return None
        unit = g["unit"].lower()
        if unit.startswith("month"):
            return add_months(today, n)
        return today + timedelta(days=n * (7 if unit.startswith("week") else 1))
    if kind == "next_unit":
        unit = g["unit"].lower()
        if unit == "month":
            return add_months(today, 1)
        if unit == "week":
            return today + timedelta(days=7)
        return today + timedelta(days=(5 - today.weekday()) % 7 + 7)
    if kind == "weekend":
        return today + timedelta(days=(5 - today.weekday()) % 7)
    if kind == "weekday":
        if (g["which"] or "").lower() == "last":  # 'last Friday': the latest one before today
            back = (today.weekday() - WEEKDAYS[g["weekday"].lower()]) % 7
            return today - timedelta(days=back or 7)
        ahead = (WEEKDAYS[g["weekday"].lower()] - today.weekday()) % 7
        return today + timedelta(days=ahead or 7)
    if kind == "day_only":
        day = int(g["day"])
        for months in (0, 1):
            first = add_months(today.replace(day=1), months)
            try:
                candidate = first.replace(day=day)
            except ValueError:
                continue
            if candidate >= today:
                return candidate
        return None
    return None  # pragma: no cover - every pattern kind is handled above


def find_dates(text: str, today: date) -> list[tuple[date, int, int]]:
    """Every date in ``text`` as ``(date, start, end)``, in order; overlapping matches keep the first pattern."""
    found: list[tuple[date, int, int]] = []
    for kind, pattern in PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for _, start, end in found):
                continue
            try:
                day = _resolve(kind, m, today)
            except ValueError:
                continue
            if day is not None:
                found.append((day, m.start(), m.end()))
    return sorted(found, key=lambda f: f[1])


def parse_date(text: str, today: date) -> date | None:
    """The single date ``text`` names, or None when it names none (or an impossible one)."""
    found = find_dates(text, today)
    return found[0][0] if found else None


def spoken(day: date, today: date) -> str:
    """'December 15', with the year when it is not this year's."""
    label = f"{calendar.month_name[day.month]} {day.day}"
    return label if day.year == today.year else f"{label}, {day.year}"
