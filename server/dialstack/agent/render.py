"""Fill reply templates from the domain YAML: ``{name}``, ``{date:date}``, ``{price:money}``.

Missing fields never raise: a template naming a value we do not have renders it as
"unknown" so a reply is always produced.
"""

from __future__ import annotations

import string
from datetime import date, datetime
from typing import Any, Mapping

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def format_date(value: Any) -> str:
    try:
        day = date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value)
    return f"{day:%b} {day.day}"


def format_datetime(value: Any) -> str:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    return f"{moment:%b} {moment.day} at {moment:%H:%M}"


def format_money(value: Any) -> str:
    if isinstance(value, Mapping) and "amount" in value:
        currency = str(value.get("currency", "USD")).upper()
        amount = float(value["amount"])
    elif isinstance(value, (int, float)):
        currency, amount = "USD", float(value)
    else:
        return str(value)
    text = f"{amount:,.2f}".removesuffix(".00")
    symbol = _SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


def format_count(value: Any, noun: str) -> str:
    """'1 flight', '3 flights': a number with its noun ('flight', or 'person/people' for a plural of its own)."""
    one, _, many = noun.partition("/")
    try:
        n = int(value)
    except (TypeError, ValueError):
        return f"{value} {many or one + 's'}"
    return f"{n} {one if n == 1 else many or one + 's'}"


_FORMATS = {"date": format_date, "datetime": format_datetime, "money": format_money}


class Shown:
    """A slot value with its display form: ``{x}`` renders the display, ``{x:money}`` the value."""

    __slots__ = ("value", "display")

    def __init__(self, value: Any, display: str = "") -> None:
        self.value, self.display = value, display

    def __str__(self) -> str:
        return self.display or str(self.value)


def slot_values(slots: Mapping[str, Any]) -> dict[str, Shown]:
    """Template values of the filled slots of a flow."""
    return {name: Shown(slot.value, slot.display) for name, slot in slots.items() if slot.filled}


class _Formatter(string.Formatter):
    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "unknown")
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("count:"):
            return format_count(value.value if isinstance(value, Shown) else value, format_spec[len("count:"):])
        if isinstance(value, Shown):
            if format_spec in _FORMATS:
                return _FORMATS[format_spec](value.value)
            return str(value) if not format_spec else super().format_field(str(value), format_spec)
        if format_spec in _FORMATS:
            return _FORMATS[format_spec](value)
        if isinstance(value, Mapping) and "amount" in value:
            return format_money(value)
        if isinstance(value, (dict, list)):
            return str(value)
        try:
            return super().format_field(value, format_spec)
        except (ValueError, TypeError):
            return str(value)


_FORMATTER = _Formatter()


def render(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with its fields filled from ``values``; malformed templates come back as is."""
    try:
        return _FORMATTER.vformat(template, (), values)
    except (ValueError, IndexError, KeyError, AttributeError):
        return template
