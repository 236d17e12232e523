"""The travel domain's four slot types: a date, a location, an amount of money, a passenger count.

Like every slot they do no I/O: the clock and the ``cities`` vocabulary (items of the
``list_cities`` tool) come from the :class:`SlotContext`. Without a loaded vocabulary,
:class:`LocationSlot` falls back on the static city list the database is generated from.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from ...state.slots import BaseSlot, Candidate, CategorySlot, Check, LevelSlot, SlotContext
from ...state.text import close_matches, one_edit, parse_number, people_listed
from .cities import CITIES
from .places import fold as _fold
from ...state.dates import find_dates, parse_date, spoken


class DateSlot(BaseSlot):
    """A travel date, stored as ISO ``YYYY-MM-DD``; never in the past (relative to ``ctx.now``)."""

    type_name = "DateSlot"
    criteria = "single"

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        today = ctx.now.date()
        text = raw.isoformat() if hasattr(raw, "isoformat") else str(raw or "").strip()
        day = parse_date(text, today) if text else None
        if day is None:
            return Check.reject(f"I couldn't read '{text}' as a date. Try 'Dec 15', 'next Friday' or {today.year}-12-15.")
        if day < today:
            return Check.reject(f"{spoken(day, today)} is in the past — which upcoming date?")
        return Check.accept(day.isoformat(), spoken(day, today))

    def format(self, value: Any) -> str:
        return str(value)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        today = ctx.now.date()
        held = parse_date(str(self.value), today) if self.value else None  # ('no wait, the 21st' of the date held)
        return [Candidate(day.isoformat(), spoken(day, today), start, end, 0.9 if day >= today else 0.4)
                for day, start, end in find_dates(text, today, held)]


# ---------------------------------------------------------------- locations

# 0.8 let "Atlantis" pass for Atlanta (ratio 0.8); one-letter typos of 5+ letters stay above 0.85.
FUZZY_CUTOFF = 0.85
_LEAD = re.compile(r"^(?:i(?:'d| would)? (?:like to )?(?:fly|go|travel)\s+)?(?:from|to|in|at|out of|into)\s+", re.IGNORECASE)
_WORD_AFTER = re.compile(r"\b(?:from|to|out of|into)\s+(?P<place>[A-Za-z][a-z'.-]{3,})\b")
_TWO_AFTER = re.compile(r"\b(?:from|to|out of|into)\s+(?P<place>[A-Za-z][a-z'.-]{1,}\s+[A-Za-z][a-z'.-]{2,})\b")  # 'new yrok'
_WORD_BEFORE = re.compile(r"(?<![\w'-])(?P<place>[A-Za-z][a-z'.-]{3,})\s+(?:to|-)\s+[A-Za-z]")  # 'seatle to boston'
# 'to nyc', 'from sfo': a code in lower case counts only right after a travel cue, and not when
# it is an everyday word ('to sea', 'from den', 'to mad', 'to was')
_CODE_AFTER = re.compile(r"\b(?:from|to|into|out of|via)\s+(?P<code>[a-z]{2,3})\b")
_CODE_BEFORE = re.compile(r"(?<![\w'-])(?P<code>[a-z]{2,3})\s+(?:to|-)\s+[A-Za-z]")  # 'book nyc to lax', 'sf - seattle'
_CODE_WORDS = frozenset("sea den mad was lin mel mil rom sin cia dal del sha sel sao sto bom dub cai fra par lon hou "
                        "ba hk dc saw".split())
_PLACE_AFTER = re.compile(r"\b(?:from|to)\s+(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})")


def _static_items() -> list[dict[str, Any]]:
    return [{"city": c.name, "code": c.code, "aliases": list(c.aliases),
             "airports": [{"code": a.code, "name": a.name} for a in c.airports]} for c in CITIES]


def _entry_names(item: Mapping[str, Any]) -> tuple[str, list[str], list[str]]:
    """(city, names matched in any case, codes matched in capitals only) of a vocabulary item.

    Accepts raw ``list_cities`` items (``city``, ``code``, ``airports``, ``aliases``) and
    vocabulary items (``value``, ``synonyms``).
    """
    city = str(item.get("value") or item.get("city"))
    names, codes = [city], []
    pieces: list[Any] = [item.get("code"), *(item.get("aliases") or []), *(item.get("airports") or [])]
    synonyms = item.get("synonyms") or []
    pieces += [synonyms] if isinstance(synonyms, str) else list(synonyms)
    for piece in pieces:
        if isinstance(piece, Mapping):
            codes.append(str(piece.get("code") or ""))
            if piece.get("name"):
                names.append(str(piece["name"]))
        elif isinstance(piece, str) and piece:
            (codes if len(piece) <= 3 and piece.upper() == piece else names).append(piece)
    return city, names, [c for c in codes if c]


# vocabulary list -> its (city, names, codes): every turn reads the same list many times
_ENTRIES: dict[int, tuple[Any, list[tuple[str, list[str], list[str]]]]] = {}


_MATCHERS: dict[int, tuple[Any, tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str]]]] = {}


def _matchers(entries: list[tuple[str, list[str], list[str]]]) -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str]]:
    """One compiled pattern for every spelled-out name and one for every code of a vocabulary.

    Names match whole words, case-insensitively, longest first ("New York" before "York");
    codes match in capitals only ("SEA", never "sea").
    """
    cached = _MATCHERS.get(id(entries))
    if cached is not None and cached[0] is entries:
        return cached[1]
    by_name: dict[str, str] = {}
    by_code: dict[str, str] = {}
    for city, names, codes in entries:
        for name in [n for n in names if len(n) > 3] + ([city.split(",")[0]] if "," in city else []):
            by_name.setdefault(name.casefold(), city.split(",")[0] if name == city.split(",")[0] and "," in city else city)
        for code in codes:
            by_code.setdefault(code, city)
    spelled = sorted(by_name, key=len, reverse=True)
    names_re = re.compile(r"(?<!\w)(?:" + "|".join(r"\s+".join(map(re.escape, n.split())) for n in spelled) + r")(?!\w)",
                          re.IGNORECASE)
    codes_re = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(by_code, key=len, reverse=True))) + r")(?![\w.])")
    built = (names_re, by_name, codes_re, by_code)
    if len(_MATCHERS) > 32:
        _MATCHERS.clear()
    _MATCHERS[id(entries)] = (entries, built)
    return built


_INDEXES: dict[int, tuple[Any, dict[str, frozenset[str]]]] = {}


def _folded_index(entries: list[tuple[str, list[str], list[str]]]) -> dict[str, frozenset[str]]:
    """Each folded name and code of a vocabulary -> the cities it names (built once per vocabulary list)."""
    cached = _INDEXES.get(id(entries))
    if cached is not None and cached[0] is entries:
        return cached[1]
    index: dict[str, set[str]] = {}
    for city, names, codes in entries:
        for label in (*names, *codes):
            index.setdefault(_fold(label), set()).add(city)
    built = {name: frozenset(cities) for name, cities in index.items()}
    if len(_INDEXES) > 32:
        _INDEXES.clear()
    _INDEXES[id(entries)] = (entries, built)
    return built


def _close_names(typed: str, names: list[str]) -> list[str]:
    """The known names ``typed`` may misspell, closest first: alike by ``FUZZY_CUTOFF``, or one edit
    away inside a word of five letters or more, its first and last letters right ('bostin' ->
    'boston', whose ratio is only 0.83; not 'change' -> 'changi')."""
    close = close_matches(typed, tuple(names), 3, 0.75)
    return [name for name in close if difflib.SequenceMatcher(None, typed, name).ratio() >= FUZZY_CUTOFF
            or len(typed) >= 5 and typed[0] == name[0] and typed[-1] == name[-1] and one_edit(typed, name)]


class LocationSlot(CategorySlot):
    """A supported city, named by city, alias, airport name or IATA code; fuzzy-matched."""

    type_name = "LocationSlot"
    criteria = "category"

    def _entries(self, ctx: SlotContext) -> list[tuple[str, list[str], list[str]]]:
        items = ctx.vocabularies.get(str(self.params.get("vocabulary", "cities"))) or None
        cached = _ENTRIES.get(id(items))
        if cached is not None and cached[0] is items:  # same list object: its names are already read
            return cached[1]
        entries = [_entry_names(item) for item in (items if items else _static_items())]
        if len(_ENTRIES) > 32:
            _ENTRIES.clear()
        _ENTRIES[id(items)] = (items, entries)
        return entries

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        text = _LEAD.sub("", str(raw or "").strip()).strip(" ?!.,")
        if not text:
            return Check.reject("Which city? For example 'New York' or 'JFK'.")
        entries = self._entries(ctx)
        index = _folded_index(entries)
        wanted = _fold(text)
        cities = index.get(wanted) or {city for city, _, _ in entries if _fold(city.split(",")[0]) == wanted}
        if not cities:
            close = _close_names(wanted, list(index))[:1]
            cities = index[close[0]] if close else set()
        if not cities:  # "Paris CDG", "New York JFK airport": every known name in it is one city
            named = {c.value for c in self.extract(text, ctx) if c.score >= 0.8}
            cities = named if len(named) == 1 else set()
        if len(cities) == 1:
            city = next(iter(cities))
            return Check.accept(city, city)
        if cities:
            options = [c.split(", ", 1)[1] if ", " in c else c for c, _, _ in entries if c in cities]
            return Check.reject(f"{text} — {' or '.join(options)}?")
        return Check.reject(f"Sorry, we don't fly to {text}. Ask 'what cities do you fly to?' to see where we go.")

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        names, by_name, codes, by_code = _matchers(self._entries(ctx))
        found = [(by_name[" ".join(m.group().split()).casefold()], m.start(), m.end(), 0.9) for m in names.finditer(text)]
        for m in codes.finditer(text):
            if not any(m.start() < e and s < m.end() for _, s, e, _ in found):
                found.append((by_code[m.group()], m.start(), m.end(), 0.8))
        for m in (*_CODE_AFTER.finditer(text), *_CODE_BEFORE.finditer(text)):
            code = m.group("code")
            if code.upper() in by_code and code not in _CODE_WORDS \
                    and not any(m.start("code") < e and s < m.end("code") for _, s, e, _ in found):
                found.append((by_code[code.upper()], m.start("code"), m.end("code"), 0.7))
        # 'from bostn to chicgo', 'seatle to san fran': a misspelt city after its cue, or before 'to'
        for m in (*_TWO_AFTER.finditer(text), *_WORD_AFTER.finditer(text), *_WORD_BEFORE.finditer(text)):
            start, end = m.span("place")
            if any(start < e and s < end for _, s, e, _ in found):
                continue
            close = _close_names(m.group("place").casefold(), list(by_name))[:2]
            cities = {by_name[c] for c in close}
            if len(cities) == 1:
                found.append((cities.pop(), start, end, 0.7))
        for m in _PLACE_AFTER.finditer(text):
            start, end = m.span("place")
            if not any(start < e and s < end for _, s, e, _ in found):
                found.append((m.group("place"), start, end, 0.4))  # unknown: check() says we don't fly there
        return [Candidate(value, str(value), s, e, score) for value, s, e, score in sorted(found, key=lambda f: f[1])]


# ---------------------------------------------------------------- money

CURRENCY_WORDS: dict[str, str] = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD",
    "us dollars": "USD", "us dollar": "USD", "american dollars": "USD", "canadian dollars": "CAD", "australian dollars": "AUD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "quid": "GBP",
    "¥": "JPY", "jpy": "JPY", "yen": "JPY",
    "cad": "CAD", "c$": "CAD", "aud": "AUD", "a$": "AUD", "chf": "CHF", "franc": "CHF", "francs": "CHF",
    "mxn": "MXN", "peso": "MXN", "pesos": "MXN",
}
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
_AMOUNT = r"\d[\d,]*(?:\.\d+)?(?:\s*[kK]\b)?"
_PREFIX = r"(?P<pre>us\$|c\$|a\$|\$|€|£|¥|usd|eur|gbp|jpy|cad|aud|chf|mxn)"
_SUFFIX = r"(?P<post>" + "|".join(sorted((w.replace(" ", r"\s+") for w in CURRENCY_WORDS if w.replace(" ", "").isalpha()),
                                          key=len, reverse=True)) + r")\b"
# a sign before the amount ('-5 dollars', '$-5', 'minus 5 dollars') is read, so the slot can refuse it
def _sign(group: str) -> str:
    return rf"(?:(?<![\w-])(?P<{group}>-|\u2212|minus\s+|negative\s+))?"


_MONEY = re.compile(rf"(?:{_sign('neg')}{_PREFIX}\s*(?P<neg2>-|\u2212)?\s*(?P<a1>{_AMOUNT})|{_sign('neg3')}(?P<a2>{_AMOUNT})\s*{_SUFFIX})",
                    re.IGNORECASE)
# ('under two hundred dollars', 'a hundred and fifty euros'): an amount in words, before its currency
_NUMBER_WORD = (r"(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and)")
_MONEY_WORDS = re.compile(rf"\b(?P<words>(?!and\b){_NUMBER_WORD}(?:[\s-]+{_NUMBER_WORD}){{0,5}})\s+{_SUFFIX}", re.IGNORECASE)
_BUDGET = re.compile(r"\b(?:under|below|less than|max(?:imum)?|budget(?: of| is)?|up to|at most)\s+(?P<amount>\d[\d,]*(?:\.\d+)?)",
                     re.IGNORECASE)


def _amount(text: str) -> float | None:
    cleaned = text.replace(",", "").strip()
    scale = 1000 if cleaned.lower().endswith("k") else 1
    number = parse_number(cleaned.rstrip("kK").strip())
    return None if number is None else float(number) * scale


class MoneySlot(LevelSlot):
    """An amount with a currency, stored as ``{"amount": 300.0, "currency": "USD"}`` (USD by default)."""

    type_name = "MoneySlot"
    criteria = "numeric"

    def format(self, value: Any) -> str:
        if not isinstance(value, Mapping):
            return str(value)
        amount, currency = value.get("amount"), value.get("currency", "USD")
        shown = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
        symbol = SYMBOLS.get(currency)
        return f"{symbol}{shown}" if symbol else f"{shown} {currency}"

    def _parse(self, raw: Any) -> tuple[float, str] | None:
        if isinstance(raw, Mapping):
            amount = parse_number(raw.get("amount"))
            currency = str(raw.get("currency") or "USD").upper()
            return (float(amount), currency) if amount is not None else None
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            return float(raw), "USD"
        text = str(raw or "").strip()
        m = _MONEY.search(text)
        if m:
            amount = _amount(m.group("a1") or m.group("a2"))
            word = " ".join((m.group("pre") or m.group("post") or "").lower().split())
            if amount is not None and (m.group("neg") or m.group("neg2") or m.group("neg3")):
                amount = -amount
            return (amount, CURRENCY_WORDS[word]) if amount is not None else None
        for word, code in CURRENCY_WORDS.items():  # "two hundred dollars"
            if word.isalpha() and re.search(rf"\b{word}\b", text, re.IGNORECASE):
                amount = parse_number(re.sub(rf"\b{word}\b", "", text, flags=re.IGNORECASE).strip())
                return (float(amount), code) if amount is not None else None
        budget = _BUDGET.search(text)
        if budget:
            text = budget.group("amount")
        amount = _amount(text) if re.fullmatch(r"[\d,.\s]+[kK]?|[a-zA-Z\s-]+", text) else None
        return (amount, "USD") if amount is not None else None

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        parsed = self._parse(raw)
        if parsed is None:
            return Check.reject(f"I couldn't read '{raw}' as an amount. Try '$300' or '250 EUR'.")
        amount, currency = parsed
        if currency not in set(CURRENCY_WORDS.values()):
            return Check.reject(f"I can't use {currency}; try USD, EUR, GBP, CAD, AUD, CHF, JPY or MXN.")
        low, high = self.params.get("min", 0), self.params.get("max")
        if amount < 0:
            shown = self.format({"amount": -amount, "currency": currency})
            return Check.reject(f"An amount can't be negative (-{shown}); give a price such as $300.")
        if amount <= low or (high is not None and amount > high):
            return Check.reject(f"{self.format({'amount': amount, 'currency': currency})} isn't a usable amount; "
                                "give a price such as $300.")
        value = {"amount": round(amount, 2), "currency": currency}
        return Check.accept(value, self.format(value))

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        out = []
        for m in _MONEY.finditer(text):
            result = self.check(m.group(), ctx)
            if result.ok:
                out.append(Candidate(result.value, result.display, m.start(), m.end(), 0.9))
            elif m.group("neg") or m.group("neg2") or m.group("neg3"):
                # '-5 dollars': kept as typed, so filling the slot refuses it with the reason
                out.append(Candidate(m.group(), m.group(), m.start(), m.end(), 0.4))
        for m in _MONEY_WORDS.finditer(text):
            if m["words"].lower() in ("a", "and") or any(c.start < m.end() and m.start() < c.end for c in out):
                continue
            amount = parse_number(m["words"])
            word = " ".join(m["post"].lower().split())
            result = self.check({"amount": amount, "currency": CURRENCY_WORDS[word]}, ctx) if amount is not None else None
            if result is not None and result.ok:
                out.append(Candidate(result.value, result.display, m.start(), m.end(), 0.85))
        for m in _BUDGET.finditer(text):
            if any(c.start <= m.start("amount") < c.end for c in out):
                continue
            result = self.check(m.group("amount"), ctx)
            if result.ok:
                out.append(Candidate(result.value, result.display, m.start("amount"), m.end("amount"), 0.6))
        return sorted(out, key=lambda c: c.start)


# ---------------------------------------------------------------- passengers

_ALONE = re.compile(r"\b(just me|only me|(?:(?<=for )|(?<=just )|(?<=only )|(?<=by )|^\s*)myself|solo|on my own|"  # (not 'I have confused myself')
                    # ('travelling alone, boston to chicago', "I'm flying alone"; not 'will the kids be able to fly alone?')
                    r"(?:(?:i'?m|i am|i'?ll be|i will be)\s+(?:\w+\s+)?|^\s*(?:travell?ing|flying|going)\s+)alone)\b", re.IGNORECASE)
_PAIR = re.compile(r"\b(couple|me and my (?:wife|husband|partner|friend|son|daughter|mother|father|mom|dad)|two of us)\b",
                   re.IGNORECASE)
_COUNTED = re.compile(
    r"\b(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:passengers?|people|ppl|persons?|pax|adults?|travell?ers?|tickets?|tix|seats?|of us)\b"
    r"|\bparty of\s+(?P<m>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b"
    # ('passengers: 2', 'pax 3': the count after the name of what it counts, as a form's field)
    r"|\b(?:passengers|pax|travell?ers|no\.? of passengers|number of passengers)\s*[:=]?\s*"
    r"(?P<j>\d{1,2}|one|two|three|four|five|six|seven|eight|nine)\b(?![\w/:-]|\.\d)"
    r"|\bfor\s+(?P<k>\d|one|two|three|four|five|six|seven|eight|nine)\b(?!\s*(?:st|nd|rd|th|/|-|:|am|pm|" + "|".join(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "day", "week", "month", "hour", "night")) + r"))",
    re.IGNORECASE)


class PassengerCountSlot(LevelSlot):
    """How many people travel: a whole number from 1 to 9, in digits or words."""

    type_name = "PassengerCountSlot"
    criteria = "numeric"

    def _bounds(self) -> tuple[int, int]:
        return int(self.params.get("min", 1)), int(self.params.get("max", 9))

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        text = str(raw).strip() if not isinstance(raw, (int, float)) else ""
        number = parse_number(raw)
        if number is None and text:
            if _ALONE.search(text):
                number = 1
            elif _PAIR.search(text):
                number = 2
            else:
                m = _COUNTED.search(text)
                number = parse_number(next(g for g in m.groups() if g)) if m else None
        low, high = self._bounds()
        if number is None or isinstance(raw, bool):
            return Check.reject(f"How many passengers? Please give a number from {low} to {high}.")
        if not float(number).is_integer():
            return Check.reject(f"{number} isn't a whole number of passengers.")
        count = int(number)
        if count < low:
            return Check.reject(f"At least {low} passenger has to travel.")
        if count > high:
            return Check.reject(f"I can book at most {high} passengers at a time; for {count}, please split the group.")
        return Check.accept(count, f"{count} passenger{'s' if count != 1 else ''}")

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        out: list[Candidate] = []
        for pattern, value in ((_ALONE, 1), (_PAIR, 2)):
            out += [Candidate(value, self.format(value), m.start(), m.end(), 0.8) for m in pattern.finditer(text)]
        for party in people_listed(text):  # 'me, my wife and our two kids'
            ok = self.check(party.value, ctx).ok
            out.append(Candidate(party.value, str(party.value), party.start, party.end, 0.85 if ok else 0.3))
        for m in _COUNTED.finditer(text):
            number = parse_number(next(g for g in m.groups() if g))
            if number is not None:
                ok = self.check(number, ctx).ok
                out.append(Candidate(int(number), str(int(number)), m.start(), m.end(), 0.9 if ok else 0.3))
        return sorted(out, key=lambda c: (-c.score, c.start))
