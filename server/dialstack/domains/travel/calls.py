"""What a travel handler reads from its ``ToolContext``: the clock, the user, the database (:func:`~.connection.database`)."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from .connection import database
from .data import DEFAULT_USER

__all__ = ["database", "naive_now", "now", "session_id", "today", "user_id"]


def now(ctx: Any) -> datetime:
    """The call's clock (tz-aware); the wall clock when there is no context."""
    clock = getattr(ctx, "now", None)
    return clock() if clock else datetime.now(timezone.utc)


def today(ctx: Any) -> date:
    return now(ctx).date()


def naive_now(ctx: Any) -> datetime:
    """The clock as a naive datetime, comparable with schedule times (treated as UTC)."""
    return now(ctx).astimezone(timezone.utc).replace(tzinfo=None)


def user_id(ctx: Any) -> str:
    return getattr(ctx, "user_id", None) or DEFAULT_USER


def session_id(ctx: Any) -> str:
    return getattr(ctx, "session_id", None) or "local"
