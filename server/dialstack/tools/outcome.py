"""``CallOutcome``: what one tool call produced (the runtime's result, read by the server)."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal

ErrorKind = Literal[
    "invalid_arguments", "too_large", "timeout", "handler_error", "invalid_output", "idempotency_conflict", "denied",
    "approval_declined", "approval_unsupported", "still_running", "session_required",
]


@dataclass(frozen=True)
class CallOutcome:
    """What one call produced; ``message`` is the error text when ``ok`` is false."""

    tool: str
    ok: bool
    data: dict[str, Any] | None = None
    message: str = ""
    error: ErrorKind | None = None
    attempts: int = 0
    replayed: bool = False
    category: str | None = None  # a domain error's own category (ToolInputError.category), if any
    # a timed-out sync handler's thread, still running (its late result is recorded by ``run``)
    abandoned: Future[Any] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def failed(cls, tool: str, error: ErrorKind, message: str, attempts: int = 0, category: str | None = None) -> CallOutcome:
        return cls(tool=tool, ok=False, message=message, error=error, attempts=attempts, category=category)
