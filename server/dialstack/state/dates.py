"""Parse dates written the way people write them, relative to a given day (used by any pack).

Pure functions, no clock of their own: ``today`` is always passed in. Conventions:
- weekdays ("Friday", "next Friday", "this Friday") mean the first such day after today, "last Friday"
  the latest one before it; "yesterday" is read too (a past date is refused by the slot, not ignored);
- "this weekend" and "this coming weekend" are the coming Saturday, "next weekend" the Saturday after it;
  "Monday week" and "the Monday after next" are a week after "Monday"; "a week from Monday" too;
- "Friday next week" / "next week on Friday" is that day of next week (weeks run Monday to Sunday),
  "Sunday this week" that day of this week; "later today" is today;
- "next week" is a week from today; "next month" means the same day of the month, one month later (clamped to the month's end);
- numeric dates are day first ("15/12"), unless the first number cannot be a month ("12/15"); without a
  year they count only when one number cannot be a month or a cue ("on", "by", "the") comes before
  ("rated 10/10", "a 3/4 coat" are no dates), and with dots only with the closing dot ("25.12.");
- "sat", "sun", "mon", "wed" in lower case are days only after "on", "next", "this", ... or before a time
  of day ("sat at 10am", "wed morning"; not "I sat down");
- fixed holidays (Christmas, Christmas Eve, New Year's Eve and Day, Valentine's Day, Halloween) are read;
- a month and day without a year is this year's, or next year's when this year's passed more
  than two months ago (so "Jan 10" in December is next January, "Dec 1" on Dec 10 is past);
- misspelt day and month names are read (see ``date_spelling``); the spans point at what the user typed.
"""

from __future__ import annotations

import calendar
import collections
import re
from collections.abc import Iterable
from datetime import date, timedelta

from .date_spelling import respell
from .text import words_to_number

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
WEEKDAYS.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)})
WEEKDAYS.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})
ROLLOVER_DAYS = 61
_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
ORDINALS = {word: i for i, word in enumerate(_UNITS, 1)}
ORDINALS.update({"tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
                 "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
                 "thirtieth": 30, "thirty-first": 31})
ORDINALS.update({f"twenty-{word}": 20 + i for i, word in enumerate(_UNITS, 1)})
# a day of the month said as a number word after its month, as to a voice assistant ('december fifteen')
CARDINALS = {word: i for i, word in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
     "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"), 1)}
CARDINALS.update({f"twenty-{word}": 20 + i for i, word in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"), 1)})
CARDINALS.update({"thirty": 30, "thirty-one": 31})
AMBIGUOUS_DAYS = frozenset({"sat", "sun", "mon", "wed"})  # also English words: a day only when capitalized or cued
CALENDAR_KINDS = frozenset({"iso", "numeric", "month_day", "day_month", "day_only", "weekday_day"})
_CUE = re.compile(r"\b(?:on|by|for|until|till|from|the|before|after|due|" + "|".join(WEEKDAYS) + r")[\s,]*$", re.IGNORECASE)


def _words(names: Iterable[str]) -> str:
    """An alternation of ``names``, longest first; a hyphen also matches a space or nothing."""
    return "|".join(n.replace("-", r"[\s-]?") for n in sorted(names, key=len, reverse=True))


_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = rf"(?P<day>\d{{1,2}}(?:st|nd|rd|th)?|{_words(ORDINALS)})"
_LATE_DAY = rf"(?P<day>\d{{1,2}}(?:st|nd|rd|th)|{_words(w for w, n in ORDINALS.items() if n >= 13)})"
_YEAR = r"(?:,?\s*(?P<year>\d{4}))?"
_WEEKDAY = r"(?P<weekday>" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")\.?"
_NUMBER = r"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|twenty|thirty)"
_UNIT = r"(?P<unit>days?|weeks?|fortnights?|months?|hours?|hrs?|minutes?|mins?)"  # (hours and minutes: that day)
_WEEKDAY_WORDS = "|".join(sorted(WEEKDAYS, key=len, reverse=True))

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(rf"(?<![\w'’-]){body}(?![\w-])", re.IGNORECASE)) for kind, body in (
    ("iso", r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})"),
    ("numeric", r"(?P<a>\d{1,2})(?P<sep>[/.])(?P<b>\d{1,2})(?:(?P=sep)(?P<year>\d{4}|\d{2}))?(?P<dot>(?<=\d)\.(?!\d))?"),
    ("nth_weekday", rf"(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+{_WEEKDAY}\s+(?:of|in)\s+{_MONTH}"),
    ("day_next_month", rf"(?:the\s+)?{_DAY}\s+of\s+next\s+month"),
    ("month_day", rf"{_MONTH}\s+(?:the\s+)?{_DAY}(?![:.]\d){_YEAR}"),  # (not '7 December 9:30': a time after the month)
    # ('book flight boston chicago december fifteen'; not 'in december two of us', a count)
    ("month_day", rf"(?!may\b){_MONTH}\s+(?P<day>{_words(CARDINALS)})(?![\w-])(?!\s+(?:of|people|persons|adults|kids|children|"
                  r"passengers|tickets|seats|nights|days|weeks|hours|rooms|bags|pax)\b)"),
    ("day_month", rf"(?:the\s+)?{_DAY}\.?\s+(?:of\s+)?{_MONTH}{_YEAR}"),  # (and '13. December', written German-style)
    ("holiday", r"(?P<holiday>christmas\s+eve|christmas(?:\s+day)?|xmas|boxing\s+day|new\s+year(?:['’]?s(?:\s+(?:eve|day))?|\s+(?:eve|day))"
                r"|valentine(?:['’]?s)?(?:\s+day)?|halloween)"),
    ("in_n", rf"in\s+{_NUMBER}\s+{_UNIT}"),
    ("n_from", rf"{_NUMBER}\s+{_UNIT}\s+from\s+(?P<anchor>now|today|tomorrow|tmrw|(?:next\s+|this\s+)?(?:{_WEEKDAY_WORDS}))"),
    ("ago", rf"{_NUMBER}\s+{_UNIT}\s+ago"),
    ("relative_day", r"(?P<word>day after tomorrow|day before yesterday|this\s+(?:morning|afternoon|evening)|"
                     r"(?:later\s+)?today|(?:later\s+)?tonight|tomorrow|tmrw|yesterday)"),
    ("week_weekday", rf"(?:on\s+)?{_WEEKDAY}\s+(?:of\s+)?(?P<which>next|this|the\s+following|the\s+coming)\s+week"
                     rf"|(?P<which2>next|this)\s+week(?:\s+on)?\s+{_WEEKDAY.replace('weekday', 'weekday2')}"),
    ("weekday_week", rf"(?:the\s+)?{_WEEKDAY}\s+(?:week|after\s+next)"),
    ("next_unit", r"(?P<which>next|this\s+coming)\s+(?P<unit>week|month|weekend)"),
    ("weekend", r"(?P<which>this\s+)?weekend"),
    ("weekday_day", rf"(?:on\s+)?{_WEEKDAY}\s+(?:the\s+)?(?P<day>\d{{1,2}}(?:st|nd|rd|th))"),  # 'fri 11th', 'wed 2nd'
    # ('for Fridays at 7am': a weekday said as every one of them, at a time, is the next one; not 'she can't do thursdays')
    ("weekday", rf"(?:(?<=\bfor\s)|(?<=\bon\s)|(?<=\bevery\s)){_WEEKDAY}(?<=day)s(?=\s+at\b)"),
    ("weekday", rf"(?:(?P<which>next|this|coming|this\s+coming|last|on)\s+)?{_WEEKDAY}"),
    ("day_only", rf"(?:on\s+)?the\s+{_LATE_DAY}"),
    # ('for the day 18', 'the day 12': a day of the month as Spanish and Italian speakers say it, 'el día 18')
    ("day_only", r"(?:on\s+|for\s+)?the\s+day\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?(?!\s*(?::|hours?|days?|nights?|of\s+(?:the\s+|my\s+)?"
                 r"(?:week|trip|stay|holiday|course)))"),
    # '15th not 14th': a day put against the day it replaces
    ("day_not_day", r"(?P<day>\d{1,2}(?:st|nd|rd|th))(?=\s*,?\s*(?:not|instead of)\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b)"),
    # 'move EN-2043 to 16th 11am', '16th at 9:30', 'to 22nd please': a day of this month by its number, with a
    # time after it or 'to' / 'on' before it (not 'on 3rd floor', 'my 2nd booking')
    ("day_with_time", r"(?P<day>\d{1,2}(?:st|nd|rd|th))(?=\s*,?\s*(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)"
                      r"|\s*,?\s*at\s+\d{1,2}(?:[:.]\d{2})?\b)"),
    ("cued_day", r"(?<=\b(?:to|on) )(?P<day>\d{1,2}(?:st|nd|rd|th))"
                 r"(?!\s+(?:floor|time|one|option|choice|place|row|passenger|person|booking|appointment|visit|of)\b)"),
    # '23rd', 'the 19th pls' as the whole answer to 'what date?'
    ("day_alone", r"^\s*(?:on\s+)?(?:the\s+)?(?P<day>\d{1,2}(?:st|nd|rd|th))(?=[\s,]*(?:please|pls|plz|then|thanks|thx)?[\s.!]*$)"),
))
# a day of the month said by its number alone ('the 19th', '16th 11am'): this month's, or the month said before it
_DAY_IN_A_SENTENCE_KINDS = frozenset({"day_only", "day_with_time", "cued_day"})
_DAY_NUMBER_KINDS = _DAY_IN_A_SENTENCE_KINDS | {"day_alone", "day_not_day"}
HOLIDAYS = (("christmas eve", 12, 24), ("christmas", 12, 25), ("xmas", 12, 25), ("boxing", 12, 26), ("new year", 1, 1),
            ("valentine", 2, 14), ("halloween", 10, 31))


def add_months(day: date, months: int) -> date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _day_number(text: str) -> int:
    word = re.sub(r"[\s-]+", "-", text.lower())
    if word in CARDINALS:
        return CARDINALS[word]
    return ORDINALS[word] if word in ORDINALS else int(re.sub(r"\D", "", word))


def _days_in(unit: str, n: int, today: date) -> date:
    if unit.startswith("month"):
        return add_months(today, n)
    return today + timedelta(days=n * {"d": 1, "w": 7, "f": 14, "h": 0, "m": 0}[unit[0]])  # ('2 hours ago': today)


def _next_weekday(name: str, today: date) -> date:
    ahead = (WEEKDAYS[name.lower().rstrip(".")] - today.weekday()) % 7
    return today + timedelta(days=ahead or 7)


def _nth_weekday(nth: str, weekday: int, month: int, today: date) -> date | None:
    order = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}.get(nth.lower(), -1)
    for year in (today.year, today.year + 1):
        days = [d for d in calendar.Calendar().itermonthdates(year, month) if d.month == month and d.weekday() == weekday]
        day = days[order - 1] if order > 0 else days[-1]
        if day >= today:
            return day
    return None


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


# a time of day right after a word: 'sat at 10am', 'wed morning', 'mon 3pm'
_TIMED_AFTER = re.compile(r"\s+(?:at\s+\d|\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|(?:morning|afternoon|evening|night|noon)\b)",
                          re.IGNORECASE)
# who did it, or 'the', right before the word: 'I sat at 9', 'the sun at 5pm' are no days
_DOER_BEFORE = re.compile(r"\b(?:i|we|you|he|she|they|it|who|the|had|have|has|just|then)\s+$", re.IGNORECASE)


def _resolve(kind: str, m: re.Match[str], today: date) -> date | None:
    g = collections.defaultdict(lambda: None, m.groupdict())  # (a group a kind's pattern lacks is one not said)
    if kind == "iso":
        return date(int(g["year"]), int(g["month"]), int(g["day"]))
    if kind == "numeric":
        a, b = int(g["a"]), int(g["b"])
        if not g["year"] and (g["sep"] == "." and not g["dot"]
                              or max(a, b) <= 12 and not _CUE.search(m.string, 0, m.start())):
            return None  # '4.5 stars', 'rated 10/10': no date without its closing dot or a cue
        day, month = (b, a) if b > 12 >= a else (a, b)
        year = _full_year(g["year"])
        return date(year, month, day) if year else _year_for(month, day, today)
    if kind in ("month_day", "day_month"):
        month, day = MONTHS[g["month"].lower()], _day_number(g["day"])
        year = _full_year(g["year"])
        return date(year, month, day) if year else _year_for(month, day, today)
    if kind == "nth_weekday":
        return _nth_weekday(g["nth"], WEEKDAYS[g["weekday"].lower()], MONTHS[g["month"].lower()], today)
    if kind == "day_next_month":
        return add_months(today.replace(day=1), 1).replace(day=_day_number(g["day"]))
    if kind == "holiday":
        name = " ".join(g["holiday"].lower().split())
        month, day = next((month, day) for key, month, day in HOLIDAYS if name.startswith(key))
        if name.startswith("new year") and name.endswith("eve"):
            month, day = 12, 31
        return _year_for(month, day, today)
    if kind == "relative_day":
        word = " ".join(g["word"].lower().split())
        offsets = {"day after tomorrow": 2, "tomorrow": 1, "tmrw": 1, "yesterday": -1, "day before yesterday": -2}
        return today + timedelta(days=offsets.get(word, 0))  # a past day is read, and refused by the slot
    if kind in ("in_n", "n_from", "ago"):
        n = _count(g["n"])
        if n is None:
            return None
        start = today
        anchor = (g.get("anchor") or "").lower().split()
        if anchor and anchor[-1] in ("tomorrow", "tmrw"):
            start = today + timedelta(days=1)
        elif anchor and anchor[-1] in WEEKDAYS:
            start = _next_weekday(anchor[-1], today)
        return _days_in(g["unit"].lower(), -n if kind == "ago" else n, start)
    if kind == "week_weekday":  # 'friday next week': that day of the week (Monday to Sunday) after this one
        which = (g["which"] or g["which2"]).lower()
        monday = today - timedelta(days=today.weekday()) + timedelta(days=0 if which == "this" else 7)
        return monday + timedelta(days=WEEKDAYS[(g["weekday"] or g["weekday2"]).lower().rstrip(".")])
    if kind == "weekday_week":
        return _next_weekday(g["weekday"], today) + timedelta(days=7)
    if kind == "next_unit":
        unit = g["unit"].lower()
        if unit == "month":
            return add_months(today, 1)
        if unit == "week":
            return today + timedelta(days=7)
        coming = today + timedelta(days=(5 - today.weekday()) % 7)
        return coming if g["which"].lower().startswith("this") else coming + timedelta(days=7)
    if kind == "weekend":
        return today + timedelta(days=(5 - today.weekday()) % 7)
    if kind == "weekday":
        name = g["weekday"].lower().rstrip(".")
        if name in AMBIGUOUS_DAYS and not g["which"] and not g["weekday"][0].isupper() \
                and not (_TIMED_AFTER.match(m.string, m.end()) and not _DOER_BEFORE.search(m.string, 0, m.start())):
            return None  # 'I sat down', 'sun cream' (but 'sat at 10am', 'wed morning' are days)
        if (g["which"] or "").lower() == "last":  # 'last Friday': the latest one before today
            back = (today.weekday() - WEEKDAYS[name]) % 7
            return today - timedelta(days=back or 7)
        return _next_weekday(name, today)
    if kind == "weekday_day":  # the next such day of the month that falls on that weekday, else the next one
        day, weekday = _day_number(g["day"]), WEEKDAYS[g["weekday"].lower().rstrip(".")]
        fallback = None
        for months in range(12):
            try:
                candidate = add_months(today.replace(day=1), months).replace(day=day)
            except ValueError:
                continue
            if candidate >= today:
                fallback = fallback or candidate
                if candidate.weekday() == weekday:
                    return candidate
        return fallback
    if kind in _DAY_NUMBER_KINDS:
        day = _day_number(g["day"])
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


_OCCASION = re.compile(r"\b(?:for|over|at)\s+(?:the\s+)?$", re.IGNORECASE)
_SINCE = re.compile(r"\bsince\s+(?:last\s+|this\s+(?:past\s+)?|the\s+)?$", re.IGNORECASE)
_MONTH_KINDS = frozenset({"iso", "numeric", "month_day", "day_month"})
# words that take back what was just said ('jan 8, no wait, the 9th'; 'at 3pm, no wait, 4pm')
REPAIR = re.compile(r"\b(?:no|wait|sorry|actually|meant|mean|make (?:it|that)|rather|oops)\b", re.IGNORECASE)
# between a date and a bare day that goes with it: a repair or a range, nothing else
_LINKED = re.compile(r"(?:[\s,.!-]|\b(?:no|oh|wait|sorry|i|meant|mean|actually|rather|make it|oops|to|till|until|through|"
                     r"or|and|back|return(?:ing)?|on|the)\b)*", re.IGNORECASE)


def find_dates(text: str, today: date, month_of: date | None = None, past: bool = False) -> list[tuple[date, int, int]]:
    """Every date in ``text`` as ``(date, start, end)``, in order; overlapping matches keep the first pattern.

    A weekday said just before a calendar date names that date ("Friday the 11th", "Fri Dec 11").
    ``month_of``: the date a bare day of the month is said against (the one a slot holds: 'no wait,
    the 21st' of January 20th is January 21st), when the text names no month before it and that
    day is still to come. ``past``: the dates asked for are gone by (when a problem started): a bare
    weekday is the last one ('started on sunday'), and 'since yesterday' is a day.
    """
    spelled, to_original = respell(text)
    found: list[tuple[date, int, int, str]] = []
    for kind, pattern in PATTERNS:
        for m in pattern.finditer(spelled):
            if any(m.start() < end and start < m.end() for _, start, end, _ in found):
                continue
            if _SINCE.search(spelled, 0, m.start()) and not past:
                continue  # 'a rash since sunday': when a story began, never a day to come
            try:
                day = _resolve(kind, m, today)
            except (ValueError, IndexError):
                continue
            if day is not None and past and kind == "weekday" and day > today and (m["which"] or "on").lower() == "on":
                day -= timedelta(days=7)  # ('it started on sunday': the Sunday gone by)
            if day is not None:
                found.append((day, m.start(), m.end(), kind))
    found.sort(key=lambda f: f[1])
    if any(kind in CALENDAR_KINDS for *_, kind in found):
        # 'for Christmas, on the 22nd of December': the holiday is the occasion, the date the day
        found = [f for f in found if f[3] != "holiday" or not _OCCASION.search(spelled, 0, f[1])]
    merged: list[tuple[date, int, int]] = []
    # 'jan 8.. oh wait no the 9th': a bare day keeps the month said before it; 'Dec 20 to the 3rd'
    # ends in the month after, unless the day is taken back ('no, the 7th')
    said: tuple[date, int] | None = None
    for i, (day, start, end, kind) in enumerate(found):
        if kind in _DAY_NUMBER_KINDS and said is None and month_of is not None:
            try:
                held = month_of.replace(day=day.day)
            except ValueError:
                held = None
            day = held if held is not None and held >= today else day
        if kind in _DAY_IN_A_SENTENCE_KINDS and said is not None:
            between = spelled[said[1]:start]
            try:
                if _LINKED.fullmatch(between):  # not 'my last visit was on jan 8, can I come back on the 20th'
                    moved = said[0].replace(day=day.day)
                    day = add_months(moved, 1) if moved < said[0] and not REPAIR.search(between) else moved
            except ValueError:
                pass
        if kind in _MONTH_KINDS:
            said = (day, end)
        if merged and kind in CALENDAR_KINDS and found[i - 1][3] == "weekday" \
                and re.fullmatch(r"[\s,]*", spelled[found[i - 1][2]:start]):
            start = merged.pop()[1]
        merged.append((day, start, end))
    return [(day, to_original(start), to_original(end)) for day, start, end in merged]


def parse_date(text: str, today: date) -> date | None:
    """The single date ``text`` names, or None when it names none (or an impossible one)."""
    found = find_dates(text, today)
    return found[0][0] if found else None


def spoken(day: date, today: date) -> str:
    """'December 15', with the year when it is not this year's."""
    label = f"{calendar.month_name[day.month]} {day.day}"
    return label if day.year == today.year else f"{label}, {day.year}"
