"""Slots whose values come from a set of options: categories, groups and checklists."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from .slot_base import BaseSlot, Candidate, Check, SlotContext, show
from .text import Found, close_matches, find_phrases, join_options, one_edit, split_list

# -- options: shared by CategorySlot, ChecklistSlot and GroupSlot ------------------

_YES = ("yes", "yeah", "yep", "yup", "yea", "ya", "ye", "yah", "yass", "aye", "sure", "ok", "okay", "k", "alright", "all right",
        "certainly", "certain", "please do", "go ahead", "of course",
        "absolutely", "definitely", "correct", "confirm", "do it", "sounds good", "y",
        # not objecting is agreeing: these win over the 'don't' / 'no' / 'not' inside them
        "don't mind", "dont mind", "do not mind", "no problem", "not a problem", "why not", "fine by me")
_NO = ("no", "nope", "nah", "naw", "don't", "do not", "dont", "not", "never", "n", "negative", "stop")


def option_table(slot: BaseSlot, ctx: SlotContext) -> list[tuple[str, list[str]]] | None:
    """(canonical value, names) for each option; None when the vocabulary isn't loaded."""
    vocabulary = slot.params.get("vocabulary")
    if vocabulary:
        items = ctx.vocabularies.get(str(vocabulary))
        if items is None:
            return None
        return [(str(item["value"]), _names(item)) for item in items if item.get("value") is not None]
    table = []
    for option in slot.params.get("options") or []:
        if isinstance(option, Mapping):
            table.append((str(option["value"]), _names(option)))
        else:
            table.append((str(option), [str(option)]))
    if _is_yes_no(table):
        table = [(v, [v, *(_YES if v.lower() == "yes" else _NO)]) for v, _ in table]
    return table


def _names(item: Mapping[str, Any]) -> list[str]:
    names = [str(item["value"])]
    synonyms = item.get("synonyms") or []
    names += [str(s) for s in ([synonyms] if isinstance(synonyms, str) else synonyms) if s]
    return names


def _is_yes_no(table: list[tuple[str, list[str]]]) -> bool:
    return sorted(v.lower() for v, _ in table) == ["no", "yes"]


def match_option(raw: Any, table: list[tuple[str, list[str]]]) -> str | None:
    """The canonical option named by ``raw`` (case-insensitive, any synonym); bools for yes/no."""
    if isinstance(raw, bool) and _is_yes_no(table):
        raw = "yes" if raw else "no"
    wanted = _loose(str(raw))
    for value, names in table:
        if any(wanted == _loose(name) for name in names):
            return value
    return _misspelt(wanted, _typo_index(_key(table))) if len(wanted) >= _TYPO_MIN_LENGTH else None


# a misspelt option ('consultaton'): a long word this close to exactly one option's name
_TYPO_CUTOFF = 0.9
_TYPO_MIN_LENGTH = 6


def _key(table: list[tuple[str, list[str]]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((value, tuple(names)) for value, names in table)


class _TypoIndex:
    """An option table's long names, loosely written, with their values and their own words.

    Built once per table (the same options are read every turn) and compared by identity, so a
    word looked up again costs no more than the lookup."""

    __slots__ = ("names",)

    def __init__(self, names: tuple[tuple[str, str, frozenset[str]], ...]) -> None:
        self.names = names


@functools.lru_cache(maxsize=512)
def _typo_index(table: tuple[tuple[str, tuple[str, ...]], ...]) -> _TypoIndex:
    return _TypoIndex(tuple((loose, value, frozenset(re.split(r"[\s-]+", name.casefold())))
                            for value, names in table for name in names
                            if len(loose := _loose(name)) >= _TYPO_MIN_LENGTH))


@functools.lru_cache(maxsize=16384)
def _misspelt(wanted: str, index: _TypoIndex) -> str | None:
    """The one option ``wanted`` (loosely written, at least ``_TYPO_MIN_LENGTH`` long) misspells."""
    # a word said right that is only part of a name ('appointment' of 'gp appointment') mends nothing
    names = {loose: value for loose, value, words in index.names if wanted not in words}
    # (a typo keeps its first letter: 'bike serviced' is no 'e-bike service')
    close = [n for n in close_matches(wanted, tuple(names), 2, _TYPO_CUTOFF) if n[:1] == wanted[:1]] \
        or [n for n in names if n[:1] == wanted[:1] and one_edit(wanted, n)]  # ('smaer test': two letters swapped)
    values = {names[c] for c in close}
    return values.pop() if len(values) == 1 else None


def _misspelt_in(text: str, table: list[tuple[str, list[str]]]) -> list[Found]:
    """The options ``text`` names misspelt: two words read as one name first ('folow up' for
    'follow-up'), then single words; each word in one at most."""
    words = list(re.finditer(r"[A-Za-z][A-Za-z-]+", text))
    found: list[Found] = []
    used: set[int] = set()
    index: _TypoIndex | None = None
    for size in (2, 1):
        for i in range(len(words) - size + 1):
            span = words[i:i + size]
            if used & set(range(i, i + size)) or size == 2 and text[span[0].end():span[1].start()].strip():
                continue
            said = text[span[0].start():span[-1].end()]
            wanted = _loose(said)
            if len(wanted) < _TYPO_MIN_LENGTH:
                continue
            index = index if index is not None else _typo_index(_key(table))
            value = _misspelt(wanted, index)
            if value is not None:
                found.append(Found(value, said, span[0].start(), span[-1].end()))
                used |= set(range(i, i + size))
    return sorted(found, key=lambda f: f.start)


@functools.lru_cache(maxsize=16384)
def _loose(name: str) -> str:
    """'Follow-up', 'follow up' and 'followup' name the same option."""
    return re.sub(r"[\s-]+", "", name.strip().casefold())


class _OptionsMixin(BaseSlot):
    def _table(self, ctx: SlotContext) -> tuple[list[tuple[str, list[str]]] | None, Check | None]:
        table = option_table(self, ctx)
        if table is None:
            vocabulary = self.params.get("vocabulary")
            return None, Check.reject(f"I can't check the {self.label} right now (the {vocabulary} list isn't loaded).")
        return table, None

    def _unknown(self, raw: Any, table: list[tuple[str, list[str]]]) -> Check:
        return Check.reject(
            f"{show(raw)} isn't one of the {self.label} options: {join_options(v for v, _ in table)}."
        )


class CategorySlot(_OptionsMixin):
    """One value from a set: ``options`` (strings or {value, synonyms}) or a ``vocabulary``."""

    type_name = "CategorySlot"
    criteria = "category"

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        table, problem = self._table(ctx)
        if problem or table is None:
            return problem or Check.reject("")
        value = match_option(raw, table)
        return Check.accept(value) if value is not None else self._unknown(raw, table)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        table = option_table(self, ctx)
        if not table:
            return []
        found = find_phrases(text, [(name, value) for value, names in table for name in names])
        if _is_yes_no(table):  # ('Before I confirm, would you tell me ...?': not yet a yes)
            return _yes_no_candidate([f for f in found if not NOT_YET.search(text[: f.start])])
        if not found:  # 'a consultaton tomorrow', 'a folow up': one long word, or two, misspelt
            found = _misspelt_in(text, table)
        best: dict[str, Candidate] = {}
        for f in found:
            exact = f.text.casefold() == str(f.value).casefold()
            cand = Candidate(f.value, str(f.value), f.start, f.end, 0.9 if exact else 0.8)
            best.setdefault(str(f.value), cand)
        return sorted(best.values(), key=lambda c: (-c.score, c.start))


# a yes/no word in a clause of time or condition says nothing yet ('before I confirm', 'if I say yes'), nor does one the
# user will say later ('let me confirm from my wife first', 'I'll confirm tomorrow')
NOT_YET = re.compile(r"\b(?:before|until|till|once|when|if|whether)\s+(?:(?:i|we)\s+)?(?:(?:can|could|do|say|should)\s+)?$"
                     r"|\b(?:let me|let us|i'?ll|i will|we'?ll|we will|i need to|i have to|i must|i'?ve got to)\s+(?:just\s+)?$",
                     re.IGNORECASE)


def _yes_no_candidate(found: list[Any]) -> list[Candidate]:
    """A negation anywhere wins: confirming by mistake is worse than asking again."""
    negatives = [f for f in found if str(f.value).lower() == "no"]
    pick = negatives[0] if negatives else (found[0] if found else None)
    if pick is None:
        return []
    return [Candidate(pick.value, str(pick.value), pick.start, pick.end, 0.9)]


class GroupSlot(_OptionsMixin):
    """A list of values (optionally limited to ``options``/``vocabulary``; ``max_size``)."""

    type_name = "GroupSlot"
    criteria = "multiple"

    @property
    def min_size(self) -> int:
        return int(self.params.get("min_size", 1))

    @property
    def filled(self) -> bool:
        return isinstance(self.value, list) and len(self.value) >= self.min_size

    def _restricted(self) -> bool:
        return bool(self.params.get("options") or self.params.get("vocabulary"))

    def _items(self, raw: Any) -> list[Any] | None:
        if isinstance(raw, str):
            return split_list(raw)
        if isinstance(raw, (list, tuple)):
            return [item.strip() if isinstance(item, str) else item for item in raw]
        return None

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        items = self._items(raw)
        if items is None:
            return Check.reject(f"I need a list for the {self.label}.")
        items = [i for i in items if i is not None and i != ""]
        if any(isinstance(i, (list, tuple, dict)) for i in items):
            return Check.reject(f"Each {self.label} value must be a single value, not a nested list.")
        if self._restricted():
            table, problem = self._table(ctx)
            if problem or table is None:
                return problem or Check.reject("")
            matched = [match_option(item, table) for item in items]
            unknown = [item for item, value in zip(items, matched) if value is None]
            if unknown:
                return self._unknown(unknown[0], table)
            items = matched
        values = list(dict.fromkeys(items))  # drop repeats, keep order
        return self._check_size(values)

    def _check_size(self, values: list[Any]) -> Check:
        if len(values) < self.min_size:
            need = "at least one" if self.min_size == 1 else f"at least {self.min_size}"
            return Check.reject(f"I need {need} {self.label} value{'s' if self.min_size > 1 else ''}.")
        max_size = self.params.get("max_size")
        if max_size is not None and len(values) > int(max_size):
            return Check.reject(f"That's {len(values)} {self.label} values; at most {max_size} are allowed.")
        return Check.accept(values, self.format(values))

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        table = option_table(self, ctx) if self._restricted() else None
        if not table:
            return []
        found = find_phrases(text, [(name, value) for value, names in table for name in names])
        values = list(dict.fromkeys(f.value for f in found))
        if not values:
            return []
        return [Candidate(values, self.format(values), found[0].start, found[-1].end, 0.85)]


class SourceSlot(GroupSlot):
    """A group of entities to read from; filled when it holds at least ``min_size`` values."""

    type_name = "SourceSlot"


class TargetSlot(SourceSlot):
    """A group of destination entities."""

    type_name = "TargetSlot"


class RemovalSlot(SourceSlot):
    """A group of entities to remove."""

    type_name = "RemovalSlot"


class ChecklistSlot(GroupSlot):
    """Several choices from a fixed list of ``options`` (or a ``vocabulary``)."""

    type_name = "ChecklistSlot"

    def _restricted(self) -> bool:
        return True
