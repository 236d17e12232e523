"""The gate: may this tool call run now, must a person approve it first, or is it refused?

One pure function, used by the MCP server before every call and by the orchestrator when
it plans one. No I/O: the caller passes the session's record of what has entered the
context and stores what the decision says.

Rules, in order:

1. ``deny`` -- the tool is on the caller's deny list (an operator switched it off).
2. ``needs_approval`` -- the seed rule: the tool carries all three trifecta tags
   (``accesses_private_data``, ``receives_untrusted_input``, ``communicates_externally``)
   or its manifest says ``requires_approval: true``.
3. ``needs_approval`` -- the session trifecta: the tool ``communicates_externally`` and
   the session's context already holds both private and untrusted data. The
   conversation itself is private, so a session starts with ``{"private"}``
   (:data:`INITIAL_KINDS`); a tool's *output* adds the kinds :func:`kinds_added` names.
4. ``allow`` otherwise.

A tool without a ``capabilities`` entry is treated as carrying all four tags
(:attr:`ToolSpec.tags`), so it always needs approval.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..domain.models import ToolSpec

PRIVATE = "private"
UNTRUSTED = "untrusted"
KINDS: frozenset[str] = frozenset({PRIVATE, UNTRUSTED})
INITIAL_KINDS: frozenset[str] = frozenset({PRIVATE})  # the conversation itself is private

Action = Literal["allow", "needs_approval", "deny"]
Rule = Literal["allowed", "denied", "manifest", "trifecta_tool", "trifecta_session"]


@dataclass(frozen=True)
class GateDecision:
    """What the gate says about one call; ``reason`` is a sentence a user can read."""

    action: Action
    reason: str
    rule: Rule

    @property
    def allowed(self) -> bool:
        return self.action == "allow"

    @property
    def needs_approval(self) -> bool:
        return self.action == "needs_approval"


def kinds_added(tool: ToolSpec) -> frozenset[str]:
    """The kinds of data a tool's output brings into the session's context."""
    tags = tool.tags
    added = set()
    if "accesses_private_data" in tags:
        added.add(PRIVATE)
    if "receives_untrusted_input" in tags:
        added.add(UNTRUSTED)
    return frozenset(added)


def session_kinds(recorded: Iterable[str]) -> frozenset[str]:
    """A session's context kinds: what the store recorded plus the (private) conversation."""
    return INITIAL_KINDS | frozenset(recorded)


def decide(
    tool: ToolSpec,
    args: Mapping[str, Any],
    kinds: frozenset[str],
    *,
    denied: frozenset[str] = frozenset(),
) -> GateDecision:
    """Decide whether ``tool`` may run with ``args`` in a session holding ``kinds``.

    ``kinds`` is the session's record (see :func:`session_kinds`); unknown kinds raise
    ``ValueError`` so that a typo can never silently weaken the gate. ``args`` does not
    change the decision today; it is part of the signature so that argument-aware rules
    (amount limits, recipient allow-lists) can be added without touching callers.
    """
    unknown = set(kinds) - KINDS
    if unknown:
        raise ValueError(f"unknown context kinds {sorted(unknown)}; expected a subset of {sorted(KINDS)}")
    name = tool.tool_id
    if name in denied:
        return GateDecision("deny", f"tool {name!r} is disabled on this server", "denied")
    if tool.has_trifecta:
        declared = "declares no capabilities, so it is treated as having all of them" if tool.capabilities is None else (
            "can read private data, receives untrusted input and communicates externally"
        )
        return GateDecision("needs_approval", f"{name!r} {declared}: approval is always required", "trifecta_tool")
    if tool.requires_approval:
        return GateDecision("needs_approval", f"the manifest marks {name!r} as requiring approval", "manifest")
    if "communicates_externally" in tool.tags and {PRIVATE, UNTRUSTED} <= kinds:
        return GateDecision(
            "needs_approval",
            f"{name!r} communicates externally and this session already holds private data "
            "(the conversation) and untrusted input (an earlier tool result): "
            "together they could leak private data",
            "trifecta_session",
        )
    return GateDecision("allow", "no trifecta risk", "allowed")


def args_digest(args: Mapping[str, Any]) -> str:
    """A stable digest of a call's arguments for audit records (sha256 of canonical JSON)."""
    canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def approval_message(tool: str, args: Mapping[str, Any], reason: str) -> str:
    """The approval prompt: the tool and its full arguments, as a person should see them.

    The layout is stable (``parse_approval_message`` reads it back) because MCP clients
    receive only this text with an elicitation request.
    """
    shown = json.dumps(args, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    return f"Approve running the tool {tool!r}?\nReason: {reason}\nArguments (full):\n{shown}"


def parse_approval_message(message: str) -> tuple[str, dict[str, Any], str] | None:
    """``(tool, args, reason)`` from an :func:`approval_message`, or None for other text."""
    head, sep, body = message.partition("\nArguments (full):\n")
    lines = head.split("\n")
    if not sep or len(lines) != 2 or not lines[0].startswith("Approve running the tool "):
        return None
    tool = lines[0][len("Approve running the tool ") :].rstrip("?").strip("'\"")
    reason = lines[1].removeprefix("Reason: ")
    try:
        args = json.loads(body)
    except json.JSONDecodeError:
        return None
    return (tool, args, reason) if isinstance(args, dict) else None
