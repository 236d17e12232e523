"""The gate: may this tool call run now, must a person approve it first, or is it refused?

One pure function, used by the MCP server before every call and by the orchestrator when
it plans one. No I/O: the caller passes the session's record of what has entered the
context (its *taint*) and, when it has them, the names of the arguments whose values came
from untrusted output (their *provenance*, see :mod:`dialstack.tools.provenance`).

Rules, in order:

1. ``deny`` -- the tool is on the caller's deny list (an operator switched it off).
2. ``needs_approval`` -- the seed rule: the tool carries all three trifecta tags
   (``accesses_private_data``, ``receives_untrusted_input``, ``communicates_externally``)
   or its manifest says ``requires_approval: true``.
3. ``needs_approval`` (``provenance_target``) -- an argument whose ``input_schema``
   property says ``x-dialstack-role: destination`` or ``target`` has a value that came
   from untrusted output (and was not typed by the user): where data goes, or what a
   change acts on, was chosen by someone else.
4. ``needs_approval`` (``provenance_state``) -- the tool ``changes_state`` and any of its
   arguments came from untrusted output. What counts as "came from" is the provenance's
   (:func:`dialstack.tools.provenance.untrusted_arguments`): a value the user typed, or a
   value of an output record the user named, is the user's; a ``content`` argument that
   copies a whole field of untrusted output, never seen inside an untrusted text, is data
   copied, not a value an instruction named.
5. ``needs_approval`` (``provenance_private``) -- the tool ``communicates_externally``,
   the session holds untrusted data, and an argument carries a value from private tool
   output the user did not type (a passport number on its way out, wherever it goes).
   A ``destination`` whose every string is a single token (an address, a name) is *where*
   data goes, not data leaving: an address from the user's own address book does not ask
   here (rule 3 still asks if untrusted output named it too).
6. ``needs_approval`` (``trifecta_session``) -- the session trifecta, the fallback: the
   tool ``communicates_externally``, the session's context holds private and untrusted
   data, and either no provenance was given or the tool's roles do not cover it (it marks
   no destination and leaves some argument without a role). A tool that marks a
   destination, or a role for every argument it takes, is covered by rules 3-5 when
   provenance is known: private data may go where the user (not the untrusted text) said,
   and a tool whose recipients are implied by a target (an event's participants) sends
   only where that target leads.
7. ``allow`` otherwise.

The conversation itself is private, so ``decide`` always counts :data:`PRIVATE`, whatever
the caller passes. A tool without a ``capabilities`` entry is treated as carrying all
four tags (:attr:`ToolSpec.tags`), so it always needs approval.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..domain.models import ToolSpec

PRIVATE = "private"
UNTRUSTED = "untrusted"
KINDS: frozenset[str] = frozenset({PRIVATE, UNTRUSTED})
INITIAL_KINDS: frozenset[str] = frozenset({PRIVATE})  # the conversation itself is private

Action = Literal["allow", "needs_approval", "deny"]
Rule = Literal["allowed", "denied", "manifest", "trifecta_tool", "trifecta_session", "provenance_target", "provenance_state",
               "provenance_private"]
Role = Literal["destination", "target", "content"]
ROLE_KEY = "x-dialstack-role"
ROLES: frozenset[str] = frozenset({"destination", "target", "content"})


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


def argument_roles(tool: ToolSpec) -> dict[str, str]:
    """``{argument: role}`` from the ``x-dialstack-role`` marks of the tool's top-level properties."""
    props = tool.input_schema.get("properties") if isinstance(tool.input_schema, Mapping) else None
    if not isinstance(props, Mapping):
        return {}
    return {name: s[ROLE_KEY] for name, s in props.items() if isinstance(s, Mapping) and s.get(ROLE_KEY) in ROLES}


def content_arguments(tool: ToolSpec) -> frozenset[str]:
    """The arguments the manifest marks ``content`` (what is written, not where it goes or what it changes)."""
    return frozenset(name for name, role in argument_roles(tool).items() if role == "content")


def roles_cover(tool: ToolSpec, args: Mapping[str, Any]) -> bool:
    """Whether the manifest's roles say where the call's data goes: the tool marks a destination, or every
    argument it declares and every argument of the call has a role."""
    roles = argument_roles(tool)
    if any(r == "destination" for r in roles.values()):
        return True
    props = tool.input_schema.get("properties") if isinstance(tool.input_schema, Mapping) else None
    return bool(roles) and isinstance(props, Mapping) and set(props) | set(args) <= set(roles)


def _one_token_each(value: Any) -> bool:
    """Every string in ``value`` is one whitespace-free token (an address, a name), so nothing rides along with it."""
    if isinstance(value, str):
        return len(value.split()) == 1
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_one_token_each(v) for v in value)
    return False


def decide(
    tool: ToolSpec,
    args: Mapping[str, Any],
    kinds: Iterable[str],
    *,
    denied: frozenset[str] = frozenset(),
    untrusted_args: frozenset[str] | None = None,
    private_args: frozenset[str] = frozenset(),
) -> GateDecision:
    """Decide whether ``tool`` may run with ``args`` in a session holding ``kinds``.

    ``kinds`` is the session's taint (:data:`PRIVATE` is added here: the conversation);
    unknown kinds raise ``ValueError`` so that a typo can never silently weaken the gate.
    ``untrusted_args`` names the arguments whose values came from untrusted output; None
    means their provenance is unknown, and only the session rule judges the call.
    ``private_args`` names the arguments carrying values from private tool output.
    """
    kinds = INITIAL_KINDS | frozenset(kinds)
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
    roles = argument_roles(tool)
    if untrusted_args:
        steered = sorted(a for a in untrusted_args if roles.get(a) in ("destination", "target") and a in args)
        if steered:
            return GateDecision(
                "needs_approval",
                f"the {', '.join(repr(a) for a in steered)} of {name!r} came from untrusted tool output, "
                "not from you: someone else may have chosen where this goes",
                "provenance_target",
            )
        if "changes_state" in tool.tags and any(a in args for a in untrusted_args):
            shown = ", ".join(repr(a) for a in sorted(a for a in untrusted_args if a in args))
            return GateDecision(
                "needs_approval",
                f"{name!r} changes something, and its {shown} came from untrusted tool output, not from you",
                "provenance_state",
            )
    leaving = sorted(a for a in private_args if a in args and not (roles.get(a) == "destination" and _one_token_each(args[a])))
    if "communicates_externally" in tool.tags and UNTRUSTED in kinds and leaving:
        return GateDecision(
            "needs_approval",
            f"{name!r} would send private data ({', '.join(repr(a) for a in leaving)}) out of a conversation that "
            "holds untrusted input, and you did not type that data",
            "provenance_private",
        )
    vetted = untrusted_args is not None and roles_cover(tool, args)
    if "communicates_externally" in tool.tags and {PRIVATE, UNTRUSTED} <= kinds and not vetted:
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


_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")  # letters that draw nothing


def _hidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category in _HIDDEN_CATEGORIES or (category == "Zs" and ch != " ") or ch in _BLANK_LETTERS


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def visible(text: str) -> str:
    """``text`` with every invisible, bidirectional or control character written as a ``\\uXXXX`` escape.

    Applied to JSON or a Python literal, the result still parses to the original value: a
    person sees ``\\u202e``, not text running backwards.
    """
    return "".join(_escape(ch) if _hidden(ch) else ch for ch in text)


def shown_arguments(args: Mapping[str, Any]) -> str:
    """``name=value, ...`` for a one-line approval question, every value escaped (:func:`visible`)."""
    return ", ".join(f"{visible(str(k))}={visible(repr(v))}" for k, v in args.items())


def approval_message(tool: str, args: Mapping[str, Any], reason: str) -> str:
    """The approval prompt: the tool and its full arguments, as a person should see them.

    Arguments are JSON with invisible and bidirectional characters escaped (:func:`visible`).
    The layout is stable (``parse_approval_message`` reads it back) because MCP clients
    receive only this text with an elicitation request.
    """
    text = json.dumps(args, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    shown = "\n".join(visible(line) for line in text.split("\n"))  # a raw newline here is layout, never data
    return f"Approve running the tool {visible(repr(tool))}?\nReason: {visible(reason)}\nArguments (full):\n{shown}"


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
