"""Text helpers for System-1 slot extraction: numbers, whole-word matching, pattern examples.

Pure functions over strings; nothing here knows about slots or flows.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from dataclasses import dataclass
from typing import Iterable

try:  # Python >= 3.11 keeps the regex parser here; ``sre_parse`` is deprecated.
    import re._parser as _sre  # type: ignore[import-not-found]
    import re._constants as _sc  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - older interpreters
    import sre_constants as _sc  # type: ignore[no-redef]
    import sre_parse as _sre  # type: ignore[no-redef]

_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "a": 1, "an": 1, "single": 1, "couple": 2, "pair": 2, "dozen": 12,
    "once": 1, "twice": 2, "thrice": 3,
}
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# "a"/"an" only count as numbers in front of a scale word ("a hundred"), never alone.
_WORD = r"(?:" + "|".join(sorted({*_ONES, *_TENS, *_SCALES} - {"a", "an"}, key=len, reverse=True)) + r")"
_WORDS_RE = re.compile(
    rf"(?<![\w-])(?:(?:an?|{_WORD})[\s-]+(?:and[\s-]+)?)*{_WORD}(?![\w-])", re.IGNORECASE
)
# digits inside a code ('RNT-123', 'A4') are not numbers; an ordinal suffix is ('the 31st')
_DIGITS_RE = re.compile(
    r"(?<![\w.,])(?<!\w-)-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:(?<=1)st|(?<=2)nd|(?<=3)rd|th)?(?![\w]|\.\d)"
)
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)$", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """A piece of text found in an utterance, with its span."""

    value: object
    text: str
    start: int
    end: int


def clean_number(value: float) -> int | float:
    """2.0 -> 2; anything non-integral stays a float."""
    return int(value) if float(value).is_integer() else float(value)


def words_to_number(text: str) -> int | None:
    """'twenty five' -> 25, 'a hundred and two' -> 102, 'two' -> 2; None when not a number."""
    tokens = [t for t in re.split(r"[\s-]+", text.strip().lower()) if t and t != "and"]
    if not tokens or tokens in (["a"], ["an"]):
        return None
    total, current = 0, 0
    for token in tokens:
        if token in _ONES:
            current += _ONES[token]
        elif token in _TENS:
            current += _TENS[token]
        elif token in _SCALES:
            scale = _SCALES[token]
            current = max(current, 1) * scale
            if scale >= 1000:
                total, current = total + current, 0
        else:
            return None
    return total + current


def parse_number(raw: object) -> int | float | None:
    """A number from an int/float or a string of digits ('1,200', '2.5') or words ('two')."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        return clean_number(raw) if math.isfinite(raw) else None
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    digits = _ORDINAL_SUFFIX.sub("", text.replace(",", "")) if text[:1].isdigit() else text.replace(",", "")
    if re.fullmatch(r"-?\d+(?:\.\d+)?", digits):
        return clean_number(float(digits))
    return words_to_number(text)


def find_numbers(text: str) -> list[Found]:
    """Every number in ``text``, written in digits or words, in order of appearance."""
    found = [Found(clean_number(float(_ORDINAL_SUFFIX.sub("", m.group()).replace(",", ""))), m.group(), m.start(), m.end())
             for m in _DIGITS_RE.finditer(text)]
    for m in _WORDS_RE.finditer(text):
        value = words_to_number(m.group())
        if value is not None:
            found.append(Found(value, m.group(), m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)


@functools.lru_cache(maxsize=4096)
def word_pattern(phrase: str) -> re.Pattern[str]:
    """Case-insensitive whole-word pattern for a phrase; inner spaces and hyphens match any
    whitespace, a hyphen or nothing ('follow-up', 'follow up', 'followup')."""
    body = r"(?:\s+|\s*-\s*|)".join(re.escape(part) for part in re.split(r"\s+|(?<=\w)-(?=\w)", phrase.strip()))
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def find_phrases(text: str, names: Iterable[tuple[str, object]]) -> list[Found]:
    """Whole-word matches of (phrase, value) pairs; longer phrases win overlapping spans."""
    taken: list[tuple[int, int]] = []
    found: list[Found] = []
    for phrase, value in sorted(names, key=lambda pair: len(pair[0]), reverse=True):
        if not phrase.strip():
            continue
        for m in word_pattern(phrase).finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append(Found(value, m.group(), m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)


@functools.lru_cache(maxsize=8192)
def close_matches(word: str, names: tuple[str, ...], n: int, cutoff: float) -> tuple[str, ...]:
    """``difflib.get_close_matches`` of ``word`` among ``names``, remembered: every turn reads the
    same words against the same names (a pack's options, a vocabulary's cities), and an agent
    reads every example of its pack once when it starts."""
    return tuple(difflib.get_close_matches(word, names, n=n, cutoff=cutoff))


def one_edit(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with one letter changed, added, dropped, or two neighbours
    swapped ('bostin', 'bostn', 'bosston', 'bsoton' of 'boston')."""
    if typed == word or abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word)) if a != b]
        return len(diff) == 1 or len(diff) == 2 and diff[1] == diff[0] + 1 \
            and typed[diff[0]] == word[diff[1]] and typed[diff[1]] == word[diff[0]]
    short, long = sorted((typed, word), key=len)
    at = next((i for i, (a, b) in enumerate(zip(short, long)) if a != b), len(short))
    return short[at:] == long[at + 1:]


def split_list(text: str) -> list[str]:
    """'window, aisle and middle' -> ['window', 'aisle', 'middle']."""
    parts = re.split(r"\s*(?:,|;|/|\band\b|\bor\b|&|\+)\s*", text.strip(), flags=re.IGNORECASE)
    return [p.strip() for p in parts if p and p.strip()]


def humanize(name: str) -> str:
    """'booking_ref' -> 'booking reference'."""
    expand = {"ref": "reference", "num": "number", "qty": "quantity", "id": "ID", "dest": "destination"}
    return " ".join(expand.get(w, w) for w in name.split("_"))


def a_or_an(phrase: str) -> str:
    """'email' -> 'an email', 'booking reference' -> 'a booking reference'."""
    return f"{'an' if phrase[:1].lower() in 'aeiou' else 'a'} {phrase}"


def join_options(options: Iterable[str], limit: int = 6, conj: str = "or") -> str:
    """['a', 'b', 'c'] -> 'a, b or c' (long lists are cut with '...')."""
    items = list(options)
    if len(items) > limit:
        return ", ".join(items[:limit]) + ", ..."
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


# -- examples from patterns -------------------------------------------------------

_CATEGORY_SAMPLES = {_sc.CATEGORY_DIGIT: "12345678", _sc.CATEGORY_WORD: "abcdefgh"}


def example_for(pattern: str) -> str | None:
    """A string matching ``pattern`` to show users ('BK-\\d{5}' -> 'BK-12345').

    Only for patterns that give a sensible example: literals, digit/letter classes,
    bounded or simple repeats. Negated classes, lookarounds etc. give None.
    """
    try:
        tree = _sre.parse(pattern)
    except re.error:
        return None
    out = _render(list(tree))
    if out is None or not re.fullmatch(pattern, out):
        return None
    return out


def _render(items: list[tuple[object, object]]) -> str | None:
    parts: list[str] = []
    for op, arg in items:
        piece = _render_one(op, arg)
        if piece is None:
            return None
        parts.append(piece)
    return "".join(parts)


def _render_one(op: object, arg: object) -> str | None:
    if op is _sc.LITERAL:
        return chr(arg)  # type: ignore[arg-type]
    if op is _sc.IN:
        return _sample_class(arg, 0)  # type: ignore[arg-type]
    if op is _sc.SUBPATTERN:
        return _render(list(arg[-1]))  # type: ignore[index]
    if op is _sc.BRANCH:
        return _render(list(arg[1][0]))  # type: ignore[index]
    if op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT):
        low, _high, body = arg  # type: ignore[misc]
        body = list(body)
        count = max(int(low), 1)
        if len(body) == 1 and body[0][0] is _sc.IN:
            chars = [_sample_class(body[0][1], i) for i in range(count)]
            return None if None in chars else "".join(chars)  # type: ignore[arg-type]
        once = _render(body)
        return None if once is None else once * count
    if op in (_sc.AT,):
        return ""
    return None


def _sample_class(items: list[tuple[object, object]], index: int) -> str | None:
    for op, arg in items:
        if op is _sc.NEGATE:
            return None
    op, arg = items[0]
    if op is _sc.LITERAL:
        return chr(arg)  # type: ignore[arg-type]
    if op is _sc.RANGE:
        low, high = arg  # type: ignore[misc]
        start = low + 1 if chr(low) == "0" and high > low else low
        return chr(start + index % (high - start + 1))
    if op is _sc.CATEGORY and arg in _CATEGORY_SAMPLES:
        sample = _CATEGORY_SAMPLES[arg]
        return sample[index % len(sample)]
    return None


# ---------------------------------------------------------------- people listed

# the words for the people one books for: 'my wife', 'our two kids', 'his mum'

KIN = (r"wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|son|daughter|kid|child|baby|toddler|mum|mom|mother|"
        r"dad|father|brother|sister|friend|buddy|mate|colleague|coworker|co-worker|boss|grandma|grandmother|grandpa|"
        r"grandfather|granddaughter|grandson|grandkid|boy|girl|twin|teenager|aunt|uncle|niece|nephew|cousin|neighbou?r|roommate|flatmate|carer|"
        r"young'?un|youngster|kiddo|nipper|bairn|pickney|mam|mammy|mummy|mommy|da|nan|nana|gran|granny|grandad|"
        r"granddad|missus|missis|hubby|wifey|other half")  # ('me and my two young'uns', 'me and my mam')
KIN_OWNER = r"(?:my|our|his|her|their)"  # whose relative: 'my son', 'our kids'
KIN_KINDS = r"little|older|younger|baby|elderly|best"  # 'my little girl', 'my best friend'
_MEMBER = (rf"(?:me|myself|(?<=and )i|(?<= n )i|{KIN_OWNER}\s+(?:(?:{KIN_KINDS}|two|three|four|five|six|\d)\s+)?(?:(?:{KIN})s?|children)|"
           rf"(?:a|one|two|three|four|five|six|\d)\s+(?:(?:other|more|of my|of our)\s+)?(?:(?:{KIN}|adult|person|guest)s?|children|people)|"
           # ('me and 3 of the squad'): some of a group one belongs to
           rf"(?:two|three|four|five|six|\d)\s+of\s+(?:the|my|our)\s+(?:squad|crew|gang|team|lads|girls|boys|guys|mates|friends|group))")
_COUNTED_NEXT = r"(?<!\bmy)(?<!\bour)(?<!\bhis)(?<!\bher)(?<!\btheir)\s+(?=(?:two|three|four|five|six|\d)\s+(?:(?:other|more)\s+)?(?:(?:" + KIN + r"|adult|person|guest)s?|children|people)\b)"
_PARTY = re.compile(rf"(?<![\w'-]){_MEMBER}(?:\s*(?:,\s*(?:and\s+|plus\s+)?|\s+(?:and|n|an|'n'?)\s+|\s+plus\s+|\s*&\s*|\s*\+\s*"
                    rf"|\s+(?=(?:my|our)\s)|{_COUNTED_NEXT}){_MEMBER})+(?![\w'-])",  # ('2 adults 1 kid': counted, side by side)
                    re.IGNORECASE)
_COUNTED_MEMBER = re.compile(rf"(?:{KIN_OWNER}\s+)?(?:(?:{KIN_KINDS})\s+)?"
                             rf"(?P<n>two|three|four|five|six|a|one|\d)?\s*(?:(?:other|more|of my|of our|of the)\s+)?"
                             rf"(?P<who>me|myself|i|{KIN}|adult|people|person|guest|children|squad|crew|gang|team|lads|girls|boys|"
                             rf"guys|mates|friends|group)(?P<plural>s)?$", re.IGNORECASE)


def people_listed(text: str) -> list[Found]:
    """'me, my wife and our two kids' -> 4: people named one by one, with how many they are; a
    plural without a number ('my kids') cannot be counted, so the list gives nothing."""
    found = []
    for m in _PARTY.finditer(text):
        parts = re.split(r"(\s*(?:,|\band\b|\bplus\b|&|\+)\s*|\s+(?:n|an|'n'?)\s+|\s+(?=(?:my|our)\s)|" + _COUNTED_NEXT + ")",
                         m.group(), flags=re.IGNORECASE)
        members = [(p, parts[i - 1] if i else "") for i, p in enumerate(parts) if i % 2 == 0 and p.strip()]
        total, group = 0, False
        listed = any(j.strip() != "," for _, j in members[1:])  # 'and', 'plus', '&': the members are summed
        for member, joined in members:
            one = _COUNTED_MEMBER.search(member.strip())
            if one is None or group and joined.strip() == "," and one["n"] is None and not listed:
                break  # '2 people, my husband is coming too': the husband is one of the 2
            number = one["n"]
            if number is None and (one["plural"] or one["who"].lower() in ("people", "children")):
                break  # 'our kids': how many?
            counted = 1 if number is None or number.lower() in ("a", "one") else int(parse_number(number) or 0)
            if total and joined.strip() == "," and number is not None and one["who"].lower() in ("people", "person", "guest", "adult"):
                total = counted  # 'me and my partner, 2 people': the total said again, not more people
                continue
            group = one["who"].lower() in ("people", "adult", "person", "guest", "children")
            total += counted
        else:
            if total >= 2:
                found.append(Found(total, m.group(), m.start(), m.end()))
    return found
