"""Times of day written the way people say them, found inside a sentence with their spans.

Pure functions over strings: "15:30", "3:30 pm", "3pm", "seven pm", "noon", "midnight",
"half past 4", "quarter to 8", "ten thirty", "8 o'clock", "6 in the evening", "evening 6",
"9 tonight", and a bare hour after "at", "around", "about", "by" ("at 11"). An hour said
without am/pm takes it from a part of the day said next to it ("Friday evening around 8",
"8 o'clock at night"), else office hours: 7 to 12 in the morning, 1 to 6 in the afternoon
("2:30" said to a person is in the afternoon; "02:30" is not).
"""

from __future__ import annotations

import re
from datetime import time

_HOUR_WORDS = {word: i for i, word in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"), 1)}
_MINUTE_WORDS = {"fifteen": 15, "thirty": 30, "forty-five": 45, "forty five": 45}
_H = r"(?:1[0-2]|0?[1-9]|" + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True)) + r")"
_M = r"(?:" + "|".join(sorted(_MINUTE_WORDS, key=len, reverse=True)) + r")"
_DAYPART = r"(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight|this\s+(?:morning|afternoon|evening))"
_TIME = re.compile(
    r"(?<![\w:])(?:"
    r"(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?:\s*(?P<ampm1>[ap])\.?m\.?)?"
    rf"|(?P<h12>{_H})(?:\s+(?P<mw1>{_M}))?\s*(?P<ampm2>[ap])\.?m\.?"
    r"|(?P<word>noon|midday|midnight)"
    rf"|(?P<frac>half|quarter)\s+(?P<rel>past|after|to)\s+(?P<fh>{_H})"
    # 'about half ten': half past, said the British way (not 'half 2 hours', 'half of it')
    rf"|half\s+(?P<bh>{_H})(?![\w:])(?!\s+(?:hours?|hrs?|mins?|minutes|days?|weeks?|months?|people|of)\b)"
    rf"|(?P<wh>{'|'.join(_HOUR_WORDS)})\s+(?P<mw2>{_M})"
    r")(?![\w:])",
    re.IGNORECASE,
)
# "at 11", "around 4": a bare hour after a cue is a time of day, read as office hours
# (7 to 11 in the morning, 12 noon, 1 to 6 in the afternoon) unless a part of the day is said
# next to it ("at 8 in the evening", "Friday evening around 8"); other hours need am/pm.
_COUNTED = (r"(?:people|persons|guests|adults|children|kids|of\b|passengers|tickets|seats|nights|days|weeks|months|minutes|"
            r"mins?\b|hours|hrs?\b|years|bags|rooms|items|pieces|tables|cars)")
_NOT_AFTER = rf"(?![\w:]|\.\d|\s*(?:[ap]\.?m\b|o['\"’ ]?clock\b)|\s+{_COUNTED})"
_BARE_HOUR = re.compile(rf"\b(?:at|around|about|by)\s+(?P<hour>{_H}){_NOT_AFTER}", re.IGNORECASE)
# 'saturday 10', 'tomorrow 9': a bare hour in digits right after a day is that day's hour (not 'Friday
# 12 December', 'Friday 12th')
_DAY_HOUR = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|tmrw)\s+(?P<hour>1[0-2]|0?[1-9])"
    rf"(?!\s*(?:st|nd|rd|th)\b|\s*[/.-]\d|\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b){_NOT_AFTER}",
    re.IGNORECASE)
_OCLOCK = re.compile(rf"(?<![\w:])(?P<hour>{_H})\s*o['\"’ ]?clock\b", re.IGNORECASE)
_ISH = re.compile(rf"(?<![\w:])(?P<hour>{_H})\s*-?ish\b(?!\s+{_COUNTED}|\s+(?:minute|hour|day|week|month|year|mile|person)s?\b)",
                  re.IGNORECASE)  # 'sat morning, 9ish', 'ten-ish': about that hour
_HOUR_DAYPART = re.compile(rf"(?<![\w:.])(?<!for\s)(?<!of\s)(?P<hour>{_H})\s+{_DAYPART}\b", re.IGNORECASE)
_DAYPART_HOUR = re.compile(rf"\b(?:morning|afternoon|evening|night|tonight)\s+(?:at\s+|around\s+|about\s+)?(?P<hour>{_H}){_NOT_AFTER}",
                           re.IGNORECASE)
# a word hour after a cue is a time only when nothing but an end, a part of the day or a day follows ('at one point' is not)
_WORD_HOUR_END = re.compile(r"\s*(?:$|[,.!?;]|in\s+the\b|at\s+night|tonight|o['\"’ ]?clock|sharp|please|then|on\b|tomorrow|today|this\b)",
                            re.IGNORECASE)
_PART_OF_DAY = re.compile(r"\b(?P<part>morning|afternoon|evening|night|tonight)\b", re.IGNORECASE)
_DAYPART_AFTER = re.compile(r"\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight)\b", re.IGNORECASE)
PART_OF_DAY_REACH = 14  # characters between a time and the part of the day that sets its am/pm


def _hour(text: str) -> int:
    return _HOUR_WORDS.get(text.lower()) or int(text)


def _office_hour(hour: int) -> int:
    return hour if 7 <= hour <= 12 else hour + 12


def _part_of_day(text: str, start: int, end: int) -> str | None:
    """'am' or 'pm' when a part of the day is said right next to (or inside) ``text[start:end]``."""
    best: tuple[int, str] | None = None
    for m in _PART_OF_DAY.finditer(text):
        between = text[m.end():start] if m.end() <= start else text[end:m.start()] if m.start() >= end else ""
        if len(between) > PART_OF_DAY_REACH or re.search(r"[,;.!?]|\b(?:or|and)\b", between):
            continue
        if best is None or len(between) < best[0]:
            best = (len(between), "am" if m.group("part").lower() == "morning" else "pm")
    return best[1] if best else None


def _with_part(hour: int, minute: int, part: str) -> time:
    hour %= 12
    return time(hour + 12 if part == "pm" else hour, minute)


def _read_time(m: re.Match[str], text: str) -> time | None:
    """The moment a ``_TIME`` match names; None for a reading that is no time ('15:30 pm')."""
    g = m.groupdict()
    if g["word"]:
        return time(0, 0) if g["word"].lower() == "midnight" else time(12, 0)
    part = _part_of_day(text, m.start(), m.end())
    if g["frac"]:
        if g["frac"].lower() == "half" and g["rel"].lower() == "to":
            return None
        hour, minute = _hour(g["fh"]), 30 if g["frac"].lower() == "half" else 15
        if g["rel"].lower() == "to":
            hour, minute = (hour - 2) % 12 + 1, 45
        return _with_part(hour, minute, part) if part else time(_office_hour(hour) % 24, minute)
    if g["bh"]:
        hour = _hour(g["bh"])
        return _with_part(hour, 30, part) if part else time(_office_hour(hour) % 24, 30)
    if g["wh"]:
        hour, minute = _hour(g["wh"]), _MINUTE_WORDS[" ".join(g["mw2"].lower().split()).replace(" ", "-")]
        return _with_part(hour, minute, part) if part else time(_office_hour(hour) % 24, minute)
    hour = _hour(g["h24"] or g["h12"])
    minute = int(g["m24"]) if g["m24"] else _MINUTE_WORDS.get(" ".join((g["mw1"] or "").lower().split()).replace(" ", "-"), 0)
    meridiem = (g["ampm1"] or g["ampm2"] or "").lower()
    if meridiem and not 1 <= hour <= 12:
        return None  # "15:30 pm"
    if meridiem:
        return _with_part(hour, minute, meridiem + "m")
    if len(g["h24"]) == 1 and 1 <= hour <= 12:
        if part:
            return _with_part(hour, minute, part)
        if hour <= 6:
            return time(hour + 12, minute)  # "2:30" said to a person is in the afternoon; "02:30" is not
    return time(hour, minute)


# '9.30am', 'at 9.30', '7.30 in the morning': a dot between hour and minutes, where nothing else (a
# price, a rating, a dose) is meant (not 'I take 1.25 in the morning', nor the '10' of '2.10 in the afternoon')
_DOTTED = re.compile(r"(?<![$£€])\b(\d{1,2})\.([0-5]\d)(?=\s*[ap]\.?m\b)"
                     r"|(?<![$£€])(?<!\btake )(?<!\btakes )(?<!\btaking )(?<!\bdose of )\b(\d{1,2})\.([0-5]\d)"
                     r"(?=\s+" + _DAYPART + r"(?!\s+(?:fee|price|charge|cost|rate|fare)))"
                     r"|(?:(?<=\bat )|(?<=\bby )|(?<=\blike )|(?<=\babout )|(?<=\baround )|(?<=\bsay ))(\d{1,2})\.([0-5]\d)\b(?!\.\d)"
                     r"(?!\s*(?:pounds?|quid|dollars?|euros?|bucks|p|kg|kilos?|mg|ml|miles?|km|percent|%)\b)"
                     # ('wait no 9.30 not 9': a time put against the hour it replaces)
                     r"|(?<![$£€])(?<!\btake )(?<!\btakes )(?<!\bcost )(?<!\bcosts )(?<!\bdose of )"
                     r"\b(\d{1,2})\.([0-5]\d)(?=\s*,?\s*(?:not|instead of)\s+\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\b)?\s*[.!]*$)"
                     # ('12.30 please' to 'what time?': a time said alone)
                     r"|^\s*(?:(?:about|around|say|maybe)\s+)?(\d{1,2})\.([0-5]\d)"
                     r"(?=\s*,?\s*(?:please|pls|plz|thanks|thank you|then|if possible|ideally)?[\s.!?]*$)",
                     re.IGNORECASE)


def find_times(text: str) -> list[tuple[time, int, int]]:
    """Every time of day in ``text`` as ``(time, start, end)``: 15:30, 3:30 pm, 3pm, seven pm, noon,
    half past 4, quarter to 8, 8 o'clock, 6 in the evening, at 11 (office hours), evening 6, 9.30am, 9ish."""
    text = _DOTTED.sub(lambda m: m.group().replace(".", ":"), text)  # same length: spans stay
    found: list[tuple[time, int, int]] = []
    for m in _TIME.finditer(text):
        moment = _read_time(m, text)
        if moment is not None:
            found.append((moment, m.start(), m.end()))
    for pattern in (_HOUR_DAYPART, _DAYPART_HOUR, _OCLOCK, _ISH, _BARE_HOUR, _DAY_HOUR):
        for m in pattern.finditer(text):
            if any(start <= m.start("hour") < end for _, start, end in found):
                continue
            if pattern is _BARE_HOUR and not m.group("hour")[0].isdigit() and not _WORD_HOUR_END.match(text, m.end()):
                continue
            hour = _hour(m.group("hour"))
            part = _part_of_day(text, m.start(), m.end())
            moment = _with_part(hour, 0, part) if part else time(_office_hour(hour) % 24, 0)
            start = m.start("hour") if pattern in (_BARE_HOUR, _OCLOCK, _ISH, _HOUR_DAYPART, _DAY_HOUR) else m.start()
            found.append((moment, start, m.end()))
    # ('quarter past 6 in the evening', '12 o'clock in the afternoon'): the part of the day said after it is the time's own
    found = [(moment, start, m.end() if (m := _DAYPART_AFTER.match(text, end)) else end) for moment, start, end in found]
    return sorted(found, key=lambda item: item[1])
