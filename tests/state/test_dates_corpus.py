"""Everyday date and time phrases in sentences, read by the slots' public ``extract``.

The corpus (tests/fixtures/dates/*.yaml) is our own writing; benchmarks/dates.py prints the
same cases' accuracy next to dateparser's. Here every case is a test of its own.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from dialstack.domains.travel.slots import DateSlot
from dialstack.state.slot_datetime import DateTimeSlot
from dialstack.state.slots import SlotContext

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dates"
# held-out misses, kept visible rather than tuned away (docs/understanding.md, "Dates and times")
KNOWN_MISSES = {"a week on Friday"}


def _cases() -> list[tuple[datetime, list[object]]]:
    out = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        now = datetime.fromisoformat(data["now"])
        out += [(now, row) for rows in data["cases"].values() for row in rows]
    return out


CASES = _cases()
NOW = CASES[0][0]


def _first(text: str, known_day: str | None, now: datetime) -> tuple[str, int, int] | None:
    slot = DateTimeSlot("when")
    slot.value = known_day
    found = slot.extract(text, SlotContext(now=now))
    return (str(found[0].value), found[0].start, found[0].end) if found else None


@pytest.mark.parametrize(("now", "row"), CASES, ids=[str(row[0]) for _, row in CASES])
def test_date_time_slot_reads_the_moment_a_sentence_names_inside_its_words(now: datetime, row: list[object]) -> None:
    text, phrase, value = str(row[0]), row[1], row[2]
    known_day = str(row[3]) if len(row) > 3 else None
    if text in KNOWN_MISSES:
        pytest.xfail("held-out miss, documented")
    found = _first(text, known_day, now)
    if value is None:
        assert found is None, f"{text!r} names no moment, but {found} was read"
        return
    assert found is not None and found[0] == value, f"{text!r}: expected {value}, read {found}"
    lo = text.find(str(phrase))
    assert lo <= found[1] < found[2] <= lo + len(str(phrase)), f"{text!r}: span {text[found[1]:found[2]]!r} is not inside {phrase!r}"


@pytest.mark.parametrize("text, expected", [
    ("tomorow works", "2026-12-02"), ("Fri Dec 11", "2026-12-11"), ("in a fortnight", "2026-12-15"),
    ("New Year's Eve", "2026-12-31"), ("I sat by the window", None), ("rated 4.5 stars", None),
])
def test_travel_date_slot_shares_the_date_reading(text: str, expected: str | None) -> None:
    found = DateSlot("date").extract(text, SlotContext(now=NOW))
    assert [c.value for c in found][:1] == ([expected] if expected else [])


def test_a_misspelt_day_is_reported_where_the_user_typed_it() -> None:
    text = "nxt monday or tommorow, and satruday at 3pm"
    found = DateTimeSlot("when").extract(text, SlotContext(now=NOW))
    assert [text[c.start:c.end] for c in found] == ["nxt monday", "tommorow", "satruday at 3pm"]
    assert [c.value for c in found] == ["2026-12-07", "2026-12-02", "2026-12-05T15:00"]


_WORDS = st.sampled_from([
    "on", "the", "at", "next", "this", "tomorow", "thrusday", "Dec", "December", "fifteenth", "3rd", "of", "Jan",
    "half", "quarter", "past", "to", "noon", "pm", "am", "o'clock", "in", "evening", "morning", "night", "tonight",
    "week", "weeks", "from", "Monday", "Sat", "sun", "after", "ago", "a", "two", "12/25", "25.12.", "4.5", "7:30",
    "Christmas", "Eve", "New", "Year's", "nxt", "2moro", ",", "?", "weekend", "coming", "seven", "thirty", "around",
])
_SENTENCES = st.one_of(st.text(max_size=60), st.lists(_WORDS, max_size=12).map(" ".join))


@given(_SENTENCES, st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)),
       st.sampled_from([None, "2026-12-04", "2026-12-04T10:30"]))
def test_reading_any_text_never_fails_and_every_span_indexes_the_text(text: str, today: date, known: str | None) -> None:
    ctx = SlotContext(now=datetime(today.year, today.month, today.day, 9, tzinfo=timezone.utc))
    when = DateTimeSlot("when")
    when.value = known
    for slot in (when, DateSlot("date")):
        for candidate in slot.extract(text, ctx):
            assert 0 <= candidate.start < candidate.end <= len(text)
            assert text[candidate.start:candidate.end].strip() == text[candidate.start:candidate.end]
