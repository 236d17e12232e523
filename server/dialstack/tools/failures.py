"""What a handler's failure becomes: a transient error (worth one retry), a domain error, a bug, a timeout."""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import Any

from ..domain.models import ToolSpec
from .context import ToolInputError, TransientToolError
from .outcome import CallOutcome

log = logging.getLogger("dialstack.tools")

TRANSIENT_ERRORS = (TransientToolError, TimeoutError, ConnectionError)


def failure(spec: ToolSpec, exc: BaseException, attempt: int) -> CallOutcome | None:
    """The outcome of a handler exception; None for a transient one (worth a retry)."""
    if isinstance(exc, TRANSIENT_ERRORS):
        log.info("tool %s: transient error: %r", spec.tool_id, exc)
        return None
    if isinstance(exc, ToolInputError):
        category = getattr(exc, "category", None)
        return CallOutcome.failed(spec.tool_id, "handler_error", f"{spec.tool_id}: {exc}", attempt,
                                  category if isinstance(category, str) else None)
    # a handler bug must become an isError result, not a crashed server
    log.error("tool %s raised", spec.tool_id, exc_info=exc)
    return CallOutcome.failed(spec.tool_id, "handler_error", f"{spec.tool_id} failed: {type(exc).__name__}: {exc}", attempt)


def timed_out(spec: ToolSpec, future: Future[Any] | None, attempt: int, keyed: bool, timeout_s: float) -> CallOutcome:
    """The honest timeout message: what happened to the handler, and what to do about it."""
    ms = int(timeout_s * 1000)
    head = f"{spec.tool_id} did not finish within its timeout of {ms} ms"
    if future is None:  # async: cancelled at its next await
        return CallOutcome.failed(
            spec.tool_id, "timeout", f"{head} and was cancelled (it stopped at its next await; "
            "anything it completed before that point stays done)", attempt,
        )
    if future.cancelled():  # still queued behind busy worker threads
        return CallOutcome.failed(spec.tool_id, "timeout", f"{head}: it had not started (every worker thread was busy) "
                                  "and was cancelled, so it did not run", attempt)
    text = (f"{head}. It runs in a worker thread that cannot be stopped, so it is still running and may still "
            "complete, with its effects; its late result will be audited")
    if keyed:
        text += (" and recorded under this call's idempotency key. Retry with the same key to get that result: "
                 "the tool never runs twice for one key, and until it finishes a retry answers 'still running'.")
    else:
        text += (". Check whether it took effect before retrying" + ("" if spec.idempotent else " (running it again may do it twice)")
                 + "; a call carrying an idempotency key can be retried safely with the same key.")
    return CallOutcome(tool=spec.tool_id, ok=False, message=text, error="timeout", attempts=attempt, abandoned=future)
