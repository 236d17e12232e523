"""The ``answer_faq`` handler: supported cities from the database, other questions from the FAQ table."""

from __future__ import annotations

import functools
import re
import sqlite3
from typing import Any

from . import calls
from .places import CityRecord, places

_CITIES_QUESTION = re.compile(
    r"\b(cities|city|destinations?|airports?|places|countries|where (do|can) (you|i) fly|fly to|flights? to|serve|support|go to)\b",
    re.IGNORECASE)
_REGIONS = {"na": "North America", "eu": "Europe", "as": "Asia and the Middle East", "oc": "Oceania",
            "sa": "South America", "af": "Africa"}
_HIGHLIGHTS = ("New York", "Los Angeles", "Chicago", "London", "Paris", "Tokyo")


def answer_faq(question: str | None = None, *, ctx: Any = None) -> dict[str, Any]:
    """Answer a question about the service; ``topic`` says which part of the data answered it.

    Without a question the answer is the list of supported cities: the question this
    digression is asked most (the ``question`` slot is optional in the flow).
    """
    text = (question or "").strip() or "What cities do you fly to?"
    with calls.database(ctx) as conn:
        cities = list(places(conn).cities)
        named = _cities_named(text, cities)
        if named:
            return {"topic": "city", "answer": " ".join(_city_answer(c) for c in named), "cities": [c.name for c in named]}
        if _CITIES_QUESTION.search(text) and not _faq_match(conn, text, strong=True):
            return {"topic": "cities", "answer": _cities_answer(cities), "cities": [c.name for c in cities]}
        match = _faq_match(conn, text)
        if match:
            return {"topic": match["topic"], "answer": match["answer"], "cities": []}
        topics = [r[0] for r in conn.execute("SELECT topic FROM faq ORDER BY topic")]
    return {"topic": "none", "cities": [],
            "answer": f"I don't have an answer to that. I can answer questions about {', '.join(topics)} and which cities we fly to."}


def _cities_answer(cities: list[CityRecord]) -> str:
    countries = {c.country for c in cities}
    parts = []
    for region, label in _REGIONS.items():
        names = [c.name for c in cities if c.region == region]
        if names:
            parts.append(f"{label}: {', '.join(names)}")
    highlights = ", ".join(_HIGHLIGHTS[:-1]) + f" and {_HIGHLIGHTS[-1]}"
    return (f"We fly to {len(cities)} cities in {len(countries)} countries, including {highlights}. "
            + ". ".join(parts) + ".")


def _city_answer(city: CityRecord) -> str:
    airports = ", ".join(f"{name} ({code})" for code, name in city.airports)
    return f"Yes, we fly to {city.name}, {city.country} ({city.code}): {airports}."


def _cities_named(text: str, cities: list[CityRecord]) -> list[CityRecord]:
    """Cities the question names: names and long aliases in any case, codes and short aliases in capitals."""
    lowered = text.lower()
    found = [city for city in cities if any(p.search(t) for p, t in zip(_city_patterns(city), (lowered, text)))]
    return found if len(found) <= 3 else []


@functools.lru_cache(maxsize=256)  # a pure function of a city (a frozen record): compiled once, not per question
def _city_patterns(city: CityRecord) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``(spelled, coded)``: its names and long aliases as words of a lowered text; its codes and short aliases as written."""
    words = [city.name, city.name.split(",")[0], *(a for a in city.aliases if len(a) > 3)]
    codes = [city.code, *(a for a, _ in city.airports), *(a for a in city.aliases if len(a) <= 3)]
    spelled = "|".join(rf"\b{re.escape(w.lower())}\b" for w in words)
    coded = "|".join(rf"(?<![\w.]){re.escape(code)}(?![\w.])" for code in codes)
    return re.compile(spelled), re.compile(coded)


def _faq_match(conn: sqlite3.Connection, text: str, *, strong: bool = False) -> sqlite3.Row | None:
    """The FAQ entry sharing the most keywords with the question (two or more when ``strong``)."""
    words = set(re.findall(r"[a-z][a-z-]+", text.lower()))
    best, best_score = None, 0
    for row in conn.execute("SELECT * FROM faq ORDER BY topic"):
        score = len(words & set(row["keywords"].split()))
        if score > best_score:
            best, best_score = row, score
    return best if best_score >= (2 if strong else 1) else None
