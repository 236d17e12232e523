"""Idempotency keys: a key's receipt, and what a call gets when its key is already claimed or recorded."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..domain.models import ToolSpec
from ..store.guard import Claim
from ..store.protocol import Receipt
from . import gate
from .outcome import CallOutcome

CLAIM_STALE_S = 600.0  # an idempotency claim this old belongs to a process that died mid-call


def receipt_key(session_id: str, key: str) -> str:
    """Keys are per session: one session's key never replays another's result."""
    return f"{session_id}\x1f{key}"


def make_receipt(rkey: str, spec: ToolSpec, args: dict[str, Any], data: dict[str, Any] | None, at: datetime) -> Receipt:
    return Receipt(
        key=rkey, tool=spec.tool_id, result={"data": data, "args_digest": gate.args_digest(args)},
        is_error=False, created_at=at.timestamp(),
    )


def claim_outcome(spec: ToolSpec, args: dict[str, Any], key: str, claim: Claim) -> CallOutcome | None:
    """None when this call holds the key's claim; else the recorded result, a conflict or still_running."""
    if claim.status == "claimed":
        return None
    if claim.status == "recorded":
        tool, digest = claim.receipt.tool, claim.receipt.result.get("args_digest")  # type: ignore[union-attr]
    else:
        tool, digest = claim.tool, claim.args_digest
    if tool != spec.tool_id or digest != gate.args_digest(args):
        return CallOutcome.failed(
            spec.tool_id, "idempotency_conflict",
            f"idempotency key {key!r} was already used for a different call "
            f"({tool} with other arguments); use a new key for a new call",
        )
    if claim.status == "running":
        return CallOutcome.failed(
            spec.tool_id, "still_running",
            f"{spec.tool_id} is still running: another call with idempotency key {key!r} (from another "
            "process or connection) has started it and not finished, so it was not started again. Retry later "
            "with the same key to get its recorded result (if it failed, the call runs anew).",
        )
    return CallOutcome(tool=spec.tool_id, ok=True, data=claim.receipt.result.get("data"), replayed=True)  # type: ignore[union-attr]
