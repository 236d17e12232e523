"""DateTimeSlot: the universal date (and time) slot any pack can use."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dialstack.state.dates import find_dates
from dialstack.state.slot_datetime import DateTimeSlot, find_times
from dialstack.state.slots import UNIVERSAL_SLOTS, SlotContext

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)  # a Tuesday
CTX = SlotContext(now=NOW)


def slot(**params: object) -> DateTimeSlot:
    return DateTimeSlot("when", params)


def test_date_time_slot_is_a_universal_type() -> None:
    assert UNIVERSAL_SLOTS["DateTimeSlot"] is DateTimeSlot


def test_a_day_and_a_time_are_stored_as_iso_and_shown_in_words() -> None:
    checked = slot().check("tomorrow at 3pm", CTX)
    assert (checked.ok, checked.value, checked.display) == (True, "2026-12-02T15:00", "December 2 at 3:00 PM")


def test_a_day_alone_is_a_date_when_the_time_is_optional() -> None:
    assert slot().check("Dec 15", CTX).value == "2026-12-15"


def test_a_required_time_keeps_the_day_asks_for_the_time_and_a_time_alone_completes_it() -> None:
    when = slot(time="required")
    when.prompt = "When would you like to come?"

    assert when.fill("next Friday", CTX).ok
    assert not when.filled and when.prompt == "What time on December 4? (for example 9:30 or 3pm)"
    [candidate] = when.extract("3pm please", CTX)
    assert candidate.value == "2026-12-04T15:00"
    assert when.fill("3pm", CTX).ok and when.filled and when.value == "2026-12-04T15:00"
    assert when.prompt == "When would you like to come?"


def test_a_new_day_keeps_the_time_already_given() -> None:
    when = slot()
    when.fill("Dec 15 at 10:30", CTX)

    assert when.fill("make it Friday", CTX).value == "2026-12-04T10:30"


def test_a_slot_waiting_for_its_time_round_trips_with_its_declared_prompt() -> None:
    when = DateTimeSlot("when", {"time": "required"}, prompt="When?")
    when.fill("Dec 15", CTX)

    restored = DateTimeSlot.from_dict(when.to_dict())

    assert restored.to_dict()["prompt"] == "When?" and not restored.filled
    assert restored.prompt.startswith("What time on December 15?")


def test_time_none_keeps_the_day_only() -> None:
    assert slot(time="none").check("Dec 15 at 10:30", CTX).value == "2026-12-15"


def test_a_moment_in_the_past_is_refused_unless_past_is_allowed() -> None:
    refused = slot().check("today at 8am", CTX)
    assert not refused.ok and "in the past" in refused.reason
    assert slot(past=True).check("2001-05-17", CTX).value == "2001-05-17"


def test_iso_values_from_tools_are_accepted_as_they_are() -> None:
    assert slot().check("2026-12-15T09:30", CTX).value == "2026-12-15T09:30"
    assert slot().check(datetime(2026, 12, 15, 9, 30), CTX).value == "2026-12-15T09:30"


def test_unreadable_text_gets_a_reason_with_examples() -> None:
    checked = slot().check("whenever", CTX)
    assert not checked.ok and "Dec 15" in checked.reason


def test_extract_joins_a_day_and_the_time_said_next_to_it() -> None:
    [found] = slot().extract("can I come next Friday at 9:30 please", CTX)
    assert found.value == "2026-12-04T09:30"
    assert "next Friday at 9:30" in "can I come next Friday at 9:30 please"[found.start:found.end]


def test_times_of_day_are_read_in_their_usual_forms() -> None:
    assert [t.strftime("%H:%M") for t, _, _ in find_times("15:30, 3:30 pm, 9am, 12am, noon, midnight, 15:30 pm")] == [
        "15:30", "15:30", "09:00", "00:00", "12:00", "00:00"]


@given(st.datetimes(min_value=datetime(2026, 12, 2), max_value=datetime(2030, 1, 1)))
def test_any_future_minute_round_trips_through_its_iso_form(moment: datetime) -> None:
    moment = moment.replace(second=0, microsecond=0)
    iso = moment.strftime("%Y-%m-%dT%H:%M")
    assert slot().check(iso, CTX).value == iso
    assert slot().check(moment, CTX).value == iso


def test_a_bare_hour_after_at_is_read_as_office_hours() -> None:
    assert [t for t, _, _ in find_times("thursday at 11")] == [datetime(2026, 1, 1, 11).time()]
    assert [t for t, _, _ in find_times("ok at 4 then")] == [datetime(2026, 1, 1, 16).time()]
    assert [t for t, _, _ in find_times("nine o'clock")] == [datetime(2026, 1, 1, 9).time()]
    assert [t for t, _, _ in find_times("9 o'clock")] == [datetime(2026, 1, 1, 9).time()]
    assert find_times("a table at 4 people") == [] and find_times("about 3 days") == []
    assert [t for t, _, _ in find_times("at 11.30")] == [datetime(2026, 1, 1, 11, 30).time()]  # not 11 o'clock


def test_a_new_day_said_alone_keeps_the_time_when_extracted() -> None:
    when = slot(time="required")
    assert when.fill("thursday at 9am", CTX).ok
    [candidate] = when.extract("oops sorry, I meant friday", CTX)
    assert candidate.value == "2026-12-04T09:00"


def test_a_single_digit_hour_from_1_to_6_without_am_pm_is_in_the_afternoon() -> None:
    assert [t.strftime("%H:%M") for t, _, _ in find_times("2:30, 02:30, 2:30 am, 7:15, 6:45")] == [
        "14:30", "02:30", "02:30", "07:15", "18:45"]


@pytest.mark.parametrize(("said", "hour"), [("saturday 10", 10), ("saturday 10 then", 10), ("tomorrow 9", 9), ("monday 3", 15)])
def test_a_bare_hour_right_after_a_day_is_that_days_hour(said: str, hour: int) -> None:
    assert [t.hour for t, _, _ in find_times(said)] == [hour]


@pytest.mark.parametrize("said", ["Friday 12 December", "friday 12th", "friday 25/12", "friday 2 people", "tomorrow 3 bags",
                                  "saturday 14", "friday 30 mins"])
def test_a_day_of_the_month_or_a_count_after_a_day_is_no_hour(said: str) -> None:
    assert find_times(said) == []


def test_a_day_and_a_bare_hour_fill_a_slot_that_needs_a_time() -> None:
    when = slot(time="required")
    assert [c.value for c in when.extract("saturday 10 then", CTX)] == ["2026-12-05T10:00"]


@pytest.mark.parametrize(("said", "days"), [("jan 8.. oh wait no the 9th", ["2027-01-08", "2027-01-09"]),
                                           ("jan 8, no sorry the 7th", ["2027-01-08", "2027-01-07"]),
                                           ("Dec 20 to the 3rd", ["2026-12-20", "2027-01-03"]),
                                           ("my last visit was jan 8, can I come back on the 20th", ["2027-01-08", "2026-12-20"])])
def test_a_bare_day_after_a_date_keeps_its_month_or_ends_in_the_next(said: str, days: list[str]) -> None:
    assert [d.isoformat() for d, _, _ in find_dates(said, NOW.date())] == days


@pytest.mark.parametrize(("said", "day"), [("fri 11th at 9:30", "2026-12-11"), ("wed 2nd at 4pm", "2026-12-02"),
                                          ("on tue 15th", "2026-12-15")])
def test_a_weekday_and_an_ordinal_name_the_day_of_the_month_that_falls_on_it(said: str, day: str) -> None:
    assert [d.isoformat() for d, _, _ in find_dates(said, NOW.date())] == [day]


@pytest.mark.parametrize("said", ["a rash since sunday", "coughing since last friday", "ever since Dec 2"])
def test_since_a_day_tells_when_a_story_began_and_names_no_day(said: str) -> None:
    assert find_dates(said, NOW.date()) == []


@pytest.mark.parametrize(("said", "hour", "minute"), [("monday at 9.30am", 9, 30), ("at 9.30", 9, 30), ("9.30 pm", 21, 30)])
def test_a_time_written_with_a_dot_is_read_where_nothing_else_is_meant(said: str, hour: int, minute: int) -> None:
    assert [(t.hour, t.minute) for t, _, _ in find_times(said)] == [(hour, minute)]


@pytest.mark.parametrize("said", ["4.5 stars", "$12.30", "it costs 9.99"])
def test_a_rating_or_a_price_with_a_dot_is_no_time(said: str) -> None:
    assert find_times(said) == []


def test_a_day_said_with_its_time_is_the_moment_a_slot_needing_a_time_takes() -> None:
    slot = DateTimeSlot("when", params={"time": "required"})
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc))
    said = "I rolled my ankle on the weekend, could I come in Thursday at 2pm?"
    assert [c.value for c in slot.extract(said, ctx)] == ["2026-12-03T14:00"]
