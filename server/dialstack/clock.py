"""The one ``Clock`` protocol that the agent and the store read time through (no imports of
its own beyond the standard library: every layer may import it).

``SystemClock`` is wall time; ``AdjustableClock`` is wall time by default, or fixed at a
start and moved by hand (tests, scripted conversations). Both are tz-aware UTC.
"""

from __future__ import annotations

import time as _time
from datetime import datetime, timedelta, timezone
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Where the current time comes from: ``now()`` is tz-aware UTC, ``time()`` its epoch seconds."""

    def now(self) -> datetime: ...

    def time(self) -> float: ...


class SystemClock:
    """Wall time."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def time(self) -> float:
        return _time.time()


class AdjustableClock:
    """Wall time by default, or fixed at ``start``; ``advance(seconds)`` moves it either way."""

    def __init__(self, start: datetime | None = None) -> None:
        if start is not None and start.tzinfo is None:
            start = start.replace(tzinfo=timezone.utc)
        self._start = start
        self._offset = 0.0

    def now(self) -> datetime:
        base = self._start or datetime.now(timezone.utc)
        return base + timedelta(seconds=self._offset)

    def time(self) -> float:
        return self.now().timestamp()

    def advance(self, seconds: float) -> None:
        self._offset += float(seconds)


SYSTEM_CLOCK = SystemClock()
