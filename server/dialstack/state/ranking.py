"""Rank paused flows for an ambiguous resume request ("go back to booking").

Score = 10 per request word matching the flow's name, label or keywords
      + 3 when the request names the flow's category
      + 5 / (1 + minutes paused)                      (recency)
The request is ambiguous when the top two scores are within ``margin``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .flows import BaseFlow

_STOP = frozenset(
    "a an the to my me i we you your our us it that this those these back go going get let lets please "
    "return resume continue with for of on in at about what was were is are be do did want would like "
    "can could let's again there and or".split()
)
KEYWORD_POINTS = 10.0
CATEGORY_POINTS = 3.0
RECENCY_POINTS = 5.0


@dataclass(frozen=True)
class Ranking:
    """Paused flows, best first, with their scores; ``ambiguous`` means: ask the user."""

    ranked: tuple[tuple[BaseFlow, float], ...]
    ambiguous: bool

    @property
    def best(self) -> BaseFlow | None:
        """The flow to resume, or None when there is none or the choice is ambiguous."""
        if self.ambiguous or not self.ranked:
            return None
        return self.ranked[0][0]

    def options(self, margin: float) -> list[BaseFlow]:
        """The flows close enough to the top one to offer as choices."""
        if not self.ranked:
            return []
        top = self.ranked[0][1]
        return [flow for flow, score in self.ranked if top - score < margin]


def stem(word: str) -> str:
    """A crude stem so 'booking', 'bookings' and 'book' meet: lowercase, drop -'s, -s, -ing, -ed."""
    word = word.lower().removesuffix("'s")
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def terms(texts: Iterable[str]) -> set[str]:
    words = (w for text in texts for w in re.findall(r"[a-z0-9']+", text.lower().replace("_", " ")))
    return {stem(w) for w in words if w not in _STOP}


def score_flow(flow: BaseFlow, request: set[str], now: float) -> float:
    score = KEYWORD_POINTS * len(request & terms([flow.name, flow.label, *flow.keywords]))
    if flow.category and terms([flow.category]) & request:
        score += CATEGORY_POINTS
    paused_at = flow.paused_at if flow.paused_at is not None else flow.created_at
    minutes = max(now - paused_at, 0.0) / 60.0
    return score + RECENCY_POINTS / (1.0 + minutes)


def rank(flows: Sequence[BaseFlow], text: str, now: float, margin: float) -> Ranking:
    request = terms([text])
    scored = sorted(((f, round(score_flow(f, request, now), 6)) for f in flows), key=lambda p: -p[1])
    ambiguous = len(scored) > 1 and scored[0][1] - scored[1][1] < margin
    return Ranking(tuple(scored), ambiguous)
