"""The three component tools every skill gets, next to its flow's 1-3 manifest tools.

- ``context_coordinator``: the conversation history (3 turns back by default).
- ``memory_manager``: read / write the session scratchpad, read the user's preferences.
- ``flow_stack``: slot values and metadata of the current and previous flows (read-only).

They read the store the orchestrator writes, always for the calling session only. Each
is described by a :class:`ToolSpec` like a manifest tool, so the runtime validates,
times, audits and gates them the same way. They read the conversation, so they carry
``accesses_private_data``; ``memory_manager`` also ``changes_state`` (it writes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..domain.models import Capabilities, ToolSpec
from .context import ToolContext, ToolInputError

_MODULE = "dialstack.tools.components"
MAX_TURNS = 50
MAX_SCRATCHPAD_TEXT = 4000

_TURN = {
    "type": "object",
    "properties": {
        "turn": {"type": "integer"},
        "user": {"type": "string"},
        "agent": {"type": "string"},
    },
    "required": ["turn", "user", "agent"],
}
_ENTRY = {
    "type": "object",
    "properties": {
        "entry_id": {"type": "integer"},
        "key": {"type": "string"},
        "text": {"type": "string"},
        "source": {"type": "string"},
    },
    "required": ["entry_id", "key", "text", "source"],
}
_FLOW = {
    "type": "object",
    "properties": {
        "flow_id": {"type": ["string", "null"]},
        "name": {"type": ["string", "null"]},
        "intent": {"type": ["string", "null"]},
        "state": {"type": ["string", "null"]},
        "slots": {"type": "object"},
        "outputs": {"type": "object"},
        "metadata": {"type": "object"},
    },
    "required": ["name", "slots"],
}

CONTEXT_COORDINATOR = ToolSpec(
    tool_id="context_coordinator",
    name="Conversation history",
    description="Read the recent conversation of this dialogue session: the last 3 turns "
    "(user text and agent reply), or more with `turns`.",
    input_schema={
        "type": "object",
        "properties": {"turns": {"type": "integer", "minimum": 1, "maximum": MAX_TURNS, "default": 3}},
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {"turns": {"type": "array", "items": _TURN}},
        "required": ["turns"],
    },
    idempotent=True,
    timeout_ms=2000,
    capabilities=Capabilities(accesses_private_data=True),
    handler=f"{_MODULE}:context_coordinator",
)

MEMORY_MANAGER = ToolSpec(
    tool_id="memory_manager",
    name="Session memory",
    description="Read the session scratchpad (action read_scratchpad), add a note to it "
    "(write_scratchpad with key and text), or read the user's preferences (read_preferences).",
    input_schema={
        "type": "object",
        "properties": {
            "action": {"enum": ["read_scratchpad", "write_scratchpad", "read_preferences"]},
            "key": {"type": "string", "minLength": 1, "maxLength": 200},
            "text": {"type": "string", "minLength": 1, "maxLength": MAX_SCRATCHPAD_TEXT},
            "last": {"type": "integer", "minimum": 1, "maximum": 200},
        },
        "required": ["action"],
        "additionalProperties": False,
        "if": {"properties": {"action": {"const": "write_scratchpad"}}},
        "then": {"required": ["action", "key", "text"]},
    },
    output_schema={
        "type": "object",
        "properties": {
            "action": {"type": "string"},
            "entries": {"type": "array", "items": _ENTRY},
            "written": _ENTRY,
            "preferences": {"type": "object"},
        },
        "required": ["action"],
    },
    idempotent=False,
    timeout_ms=2000,
    capabilities=Capabilities(accesses_private_data=True, changes_state=True),
    handler=f"{_MODULE}:memory_manager",
)

FLOW_STACK = ToolSpec(
    tool_id="flow_stack",
    name="Flow stack",
    description="Read the slot values and metadata of the current flow and of previous flows "
    "(most recent first). Read-only.",
    input_schema={
        "type": "object",
        "properties": {"previous": {"type": "integer", "minimum": 0, "maximum": 20, "default": 3}},
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {
            "current": {"anyOf": [_FLOW, {"type": "null"}]},
            "previous": {"type": "array", "items": _FLOW},
        },
        "required": ["current", "previous"],
    },
    idempotent=True,
    timeout_ms=2000,
    capabilities=Capabilities(accesses_private_data=True),
    handler=f"{_MODULE}:flow_stack",
)

COMPONENT_SPECS: tuple[ToolSpec, ...] = (CONTEXT_COORDINATOR, MEMORY_MANAGER, FLOW_STACK)


def _store(ctx: ToolContext) -> Any:
    if ctx.store is None:
        raise ToolInputError(f"{ctx.tool} needs a store, and this server has none")
    return ctx.store


def context_coordinator(*, ctx: ToolContext, turns: int = 3) -> dict[str, Any]:
    # the texts alone, in one read (``turns()`` would rebuild each turn's state and diff); the
    # live line's last turns are numbered up to the head's without a gap
    context = _store(ctx).turn_context(ctx.session_id, ctx.user_id, recent=turns)
    first = context.turn - len(context.recent) + 1
    return {"turns": [{"turn": first + i, "user": user, "agent": agent} for i, (user, agent) in enumerate(context.recent)]}


def _entry(e: Any) -> dict[str, Any]:
    return {"entry_id": e.entry_id, "key": e.key, "text": e.text, "source": e.source}


def memory_manager(
    *, ctx: ToolContext, action: str, key: str | None = None, text: str | None = None, last: int | None = None
) -> dict[str, Any]:
    store = _store(ctx)
    if action == "read_scratchpad":
        return {"action": action, "entries": [_entry(e) for e in store.scratchpad(ctx.session_id, last=last)]}
    if action == "write_scratchpad":
        assert key is not None and text is not None  # the input schema requires both
        written = store.write_scratchpad(ctx.session_id, key, text, ctx.meta.get("dialstack/source", "skill"))
        return {"action": action, "written": _entry(written)}
    info = store.session_info(ctx.session_id) or {}
    return {"action": action, "preferences": dict(store.preferences(info.get("user_id") or ctx.user_id))}


def flow_stack(*, ctx: ToolContext, previous: int = 3) -> dict[str, Any]:
    state = _store(ctx).load_state(ctx.session_id) or {}
    stack = [f for f in _flows(state.get("stack")) if isinstance(f, Mapping)]
    archive = [f for f in _flows(state.get("archive")) if isinstance(f, Mapping)]
    active = [f for f in stack if f.get("state") == "active"]
    current = active[-1] if active else (stack[-1] if stack else None)
    earlier = [f for f in reversed(stack) if f is not current] + list(reversed(archive))
    return {
        "current": _flow_view(current) if current is not None else None,
        "previous": [_flow_view(f) for f in earlier[:previous]],
    }


def _flows(value: Any) -> list[Any]:
    """The flows of a serialized stack or archive, whichever shape the state uses."""
    if isinstance(value, list):
        return value
    if isinstance(value, Mapping):
        for key in ("flows", "items", "stack"):
            if isinstance(value.get(key), list):
                return value[key]
    return []


def _flow_view(flow: Mapping[str, Any]) -> dict[str, Any]:
    slots: dict[str, Any] = {}
    raw_slots = flow.get("slots") or {}
    items = raw_slots.items() if isinstance(raw_slots, Mapping) else ((s.get("name"), s) for s in raw_slots if isinstance(s, Mapping))
    for name, slot in items:
        if not isinstance(name, str):
            continue
        slots[name] = slot.get("value") if isinstance(slot, Mapping) else slot
    known = {"flow_id", "name", "intent", "state", "slots", "outputs"}
    metadata = {k: v for k, v in flow.items() if k not in known and isinstance(v, (str, int, float, bool, type(None)))}
    outputs = flow.get("outputs")
    return {
        "flow_id": _str_or_none(flow.get("flow_id")),
        "name": _str_or_none(flow.get("name")),
        "intent": _str_or_none(flow.get("intent")),
        "state": _str_or_none(flow.get("state")),
        "slots": slots,
        "outputs": dict(outputs) if isinstance(outputs, Mapping) else {},
        "metadata": metadata,
    }


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
