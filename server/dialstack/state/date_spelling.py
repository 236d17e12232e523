"""Misspelt date words ("tomorow", "thrusday", "decmber") read as what they mean, spans kept.

:func:`respell` returns the text with such words replaced by their proper spelling, and a
function that maps a position in the new text back to the original, so a date found in the
respelt text is reported where the user wrote it. A word is corrected only when it is not a
date word already, starts with the same letter as the word it stands for, is not that word's
plural, and is one edit away (a letter missing, extra, wrong, or two letters swapped), or two
for the long words people most often misspell (Wednesday, Thursday, Saturday, tomorrow). Long
ordinals are corrected the same way ("fourtenth"), and an ordinal made the regular way from a number
whose ordinal is not ("twentyth", "nineth") reads as that ordinal.
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Callable

# shorthand people type, and words a correction would otherwise turn into a date ("sundae")
SHORTHAND = {"2moro": "tomorrow", "2morrow": "tomorrow", "2mrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow",
             "tomm": "tomorrow", "nxt": "next",
             # an ordinal made the regular way from a number whose ordinal is not ("the twentyth")
             "fiveth": "fifth", "eightth": "eighth", "nineth": "ninth", "twelveth": "twelfth",
             "twentyth": "twentieth", "thirtyth": "thirtieth"}
NOT_TYPOS = frozenset({"sundae", "sundry", "mondo", "augusta", "auguste", "junes", "julys", "marches", "mayday"})
# long ordinals too ("fourtenth"); a shorter one is a word away from another word ('seventy', 'forth')
_TARGETS = tuple(name.lower() for name in (*calendar.day_name, *calendar.month_name[1:], "tomorrow", "yesterday")
                 if len(name) >= 6) + ("thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                                       "eighteenth", "nineteenth", "twentieth", "thirtieth")
_TWO_EDITS = frozenset({"wednesday", "thursday", "saturday", "tomorrow", "yesterday"})
_WORD = re.compile(r"[A-Za-z0-9]+")


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance with swaps of neighbours counted once (optimal string alignment), capped at limit + 1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]


@functools.lru_cache(maxsize=8192)
def correction(word: str) -> str | None:
    """The date word ``word`` is a misspelling of (lower case), or None."""
    word = word.lower()
    if word in SHORTHAND:
        return SHORTHAND[word]
    if len(word) < 5 or word in NOT_TYPOS or word in _TARGETS or not word.isalpha():
        return None
    for target in _TARGETS:
        if target[0] != word[0] or word == target + "s":
            continue
        limit = 2 if target in _TWO_EDITS and len(word) >= 7 else 1
        if _distance(word, target, limit) <= limit:
            return target
    return None


def _identity(position: int) -> int:
    return position


def respell(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with misspelt date words corrected, and the map from its positions to ``text``'s."""
    pieces: list[str] = []
    shifts: list[tuple[int, int, int]] = []  # (end in new text, end in old text, start in new text)
    last = 0
    length = 0
    for m in _WORD.finditer(text):
        fixed = correction(m.group())
        if fixed is None:
            continue
        pieces.append(text[last:m.start()])
        length += m.start() - last
        start = length
        pieces.append(fixed)
        length += len(fixed)
        shifts.append((length, m.end(), start))
        last = m.end()
    if not shifts:
        return text, _identity
    pieces.append(text[last:])

    def to_original(position: int) -> int:
        offset = 0
        for new_end, old_end, new_start in shifts:
            if new_end <= position:
                offset = old_end - new_end
            elif new_start < position:  # inside a corrected word: its end
                return old_end
            else:
                break
        return position + offset
    return "".join(pieces), to_original
