"""Slots holding free values: text, numbers, ranges, patterns and key-value pairs."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .slot_base import BaseSlot, Candidate, Check, SlotContext, show
from .text import a_or_an, example_for, find_numbers, join_options, parse_number

class FreeTextSlot(BaseSlot):
    """Open-ended text (``min_length``/``max_length`` characters)."""

    type_name = "FreeTextSlot"
    criteria = "multiple"

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        if not isinstance(raw, str) or not raw.strip():
            return Check.reject(f"I need some text for the {self.label}.")
        text = " ".join(raw.split())
        low, high = self.params.get("min_length"), self.params.get("max_length")
        if low is not None and len(text) < int(low):
            return Check.reject(f"The {self.label} is too short: at least {low} characters, please.")
        if high is not None and len(text) > int(high):
            return Check.reject(f"The {self.label} is too long: at most {high} characters, please.")
        return Check.accept(text)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        result = self.check(text, ctx)
        if not result.ok:
            return []
        return [Candidate(result.value, result.display, 0, len(text), 0.5)]


class LevelSlot(BaseSlot):
    """A number within ``min``/``max`` (``integer: true`` for whole numbers only)."""

    type_name = "LevelSlot"
    criteria = "numeric"

    def _bounds_text(self) -> str:
        low, high = self.params.get("min"), self.params.get("max")
        if low is not None and high is not None:
            return f"from {low} to {high}"
        return f"of at least {low}" if low is not None else f"of at most {high}"

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        number = parse_number(raw)
        if number is None:
            return Check.reject(f"{show(raw)} isn't a number; the {self.label} needs one.")
        if self.params.get("integer") and not isinstance(number, int):
            return Check.reject(f"The {self.label} must be a whole number, not {number}.")
        low, high = self.params.get("min"), self.params.get("max")
        if (low is not None and number < low) or (high is not None and number > high):
            return Check.reject(f"{number} is out of range for the {self.label}: pick a number {self._bounds_text()}.")
        return Check.accept(number, self.format(number))

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        out = []
        for f in find_numbers(text):
            ok = self.check(f.value, ctx).ok
            out.append(Candidate(f.value, self.format(f.value), f.start, f.end, 0.8 if ok else 0.3))
        return sorted(out, key=lambda c: (-c.score, c.start))


_RANGE_RE = re.compile(
    r"(?:between|from)?\s*(?P<low>[\w.,]+)\s*(?:and|to|-|–|until|through)\s*(?P<high>[\w.,]+)", re.IGNORECASE
)


class RangeSlot(BaseSlot):
    """A {min, max} pair ('between 100 and 300'), optionally within ``min``/``max`` bounds."""

    type_name = "RangeSlot"
    criteria = "range"

    def _pair(self, raw: Any) -> tuple[Any, Any] | None:
        if isinstance(raw, Mapping) and "min" in raw and "max" in raw:
            return raw["min"], raw["max"]
        if isinstance(raw, (list, tuple)) and len(raw) == 2:
            return raw[0], raw[1]
        if isinstance(raw, str):
            m = _RANGE_RE.fullmatch(raw.strip())
            return (m["low"], m["high"]) if m else None
        return None

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        pair = self._pair(raw)
        if pair is None:
            return Check.reject(f"I need a range for the {self.label}, like 'between 100 and 300'.")
        low, high = parse_number(pair[0]), parse_number(pair[1])
        if low is None or high is None:
            return Check.reject(f"Both ends of the {self.label} must be numbers.")
        if low > high:
            return Check.reject(f"The lower end ({low}) is above the upper end ({high}) of the {self.label}.")
        floor, ceiling = self.params.get("min"), self.params.get("max")
        if (floor is not None and low < floor) or (ceiling is not None and high > ceiling):
            return Check.reject(f"The {self.label} must stay within {floor} and {ceiling}.")
        value = {"min": low, "max": high}
        return Check.accept(value, self.format(value))

    def format(self, value: Any) -> str:
        if isinstance(value, Mapping):
            return f"{value.get('min')}–{value.get('max')}"
        return super().format(value)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        numbers = find_numbers(text)
        out = []
        for first, second in zip(numbers, numbers[1:]):
            gap = text[first.end:second.start].strip().lower()
            if gap not in ("and", "to", "-", "–", "until", "through"):
                continue
            before = text[:first.start].rstrip().lower()
            score = 0.9 if before.endswith(("between", "from")) else 0.7
            result = self.check({"min": first.value, "max": second.value}, ctx)
            if result.ok:
                out.append(Candidate(result.value, result.display, first.start, second.end, score))
        return sorted(out, key=lambda c: (-c.score, c.start))


_DASHED_PREFIX = re.compile(r"\^?(?P<letters>[A-Za-z]{1,6})-")  # a reference's pattern: 'BK-\\d{5}'


class ExactSlot(BaseSlot):
    """A string matching ``pattern`` exactly (``normalize: upper|lower``; ``example``)."""

    type_name = "ExactSlot"
    criteria = "exact"

    def _normalize(self, text: str) -> str:
        mode = self.params.get("normalize")
        return text.upper() if mode == "upper" else text.lower() if mode == "lower" else text

    def _flags(self) -> int:
        return re.IGNORECASE if self.params.get("normalize") in ("upper", "lower") else 0

    def example(self) -> str | None:
        explicit = self.params.get("example")
        if explicit:
            return str(explicit)
        pattern = self.params.get("pattern")
        return example_for(str(pattern)) if pattern else None

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            return Check.reject(f"I need the {self.label} as text.")
        text = self._normalize(str(raw).strip())
        pattern = self.params.get("pattern")
        if not text:
            return Check.reject(f"The {self.label} can't be empty.")
        if pattern and not re.fullmatch(str(pattern), text):
            example = self.example()
            hint = f" (expected something like {example})" if example else ""
            return Check.reject(f"{show(str(raw).strip())} doesn't look like {a_or_an(self.label)}{hint}.")
        return Check.accept(text)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        pattern = self.params.get("pattern")
        if not pattern:
            return []
        finder = re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", self._flags())
        out = []
        for m in finder.finditer(text):
            result = self.check(m.group(), ctx)
            if result.ok:
                out.append(Candidate(result.value, result.display, m.start(), m.end(), 0.95))
        prefix = _DASHED_PREFIX.match(str(pattern))
        rest = str(pattern)[prefix.end():] if prefix is not None else ""
        if not out and prefix is not None and rest[:1] not in ("", "?", "*", "+", "{", "|"):
            # 'bk 20481', 'bk20481' for a reference written 'BK-20481': its letters, then the rest
            try:
                loose = re.compile(rf"(?<![\w-])({prefix['letters']})[ ]?({rest})(?![\w-])", self._flags())
            except re.error:
                return out
            for m in loose.finditer(text):
                result = self.check(f"{m.group(1)}-{m.group(2)}", ctx)
                if result.ok:
                    out.append(Candidate(result.value, result.display, m.start(), m.end(), 0.9))
        return out


_PAIR_RE = re.compile(r"(?P<key>[A-Za-z_][\w ]*?)\s*[:=]\s*(?P<value>[^,;\n]+)")


class DictionarySlot(BaseSlot):
    """Key-value pairs ('seat: aisle, meal: vegan'); ``keys`` limits them, ``required_keys``."""

    type_name = "DictionarySlot"
    criteria = "dictionary"

    def _pairs(self, raw: Any) -> dict[str, Any] | None:
        if isinstance(raw, Mapping):
            return {str(k).strip(): v for k, v in raw.items()}
        if isinstance(raw, str):
            pairs = {m["key"].strip().lower(): m["value"].strip() for m in _PAIR_RE.finditer(raw)}
            return pairs or None
        return None

    def check(self, raw: Any, ctx: SlotContext) -> Check:
        pairs = self._pairs(raw)
        if not pairs:
            return Check.reject(f"I need the {self.label} as 'name: value' pairs.")
        allowed = self.params.get("keys")
        if allowed:
            unknown = [k for k in pairs if k not in allowed]
            if unknown:
                return Check.reject(f"{show(unknown[0])} isn't a known {self.label} field: use {join_options(allowed)}.")
        missing = [k for k in self.params.get("required_keys") or [] if k not in pairs]
        if missing:
            return Check.reject(f"The {self.label} still needs {join_options(missing, conj='and')}.")
        return Check.accept(pairs, self.format(pairs))

    def format(self, value: Any) -> str:
        if isinstance(value, Mapping):
            return ", ".join(f"{k}: {v}" for k, v in value.items())
        return super().format(value)

    def extract(self, text: str, ctx: SlotContext) -> list[Candidate]:
        result = self.check(text, ctx)
        if not result.ok:
            return []
        spans = list(_PAIR_RE.finditer(text))
        return [Candidate(result.value, result.display, spans[0].start(), spans[-1].end(), 0.7)]
