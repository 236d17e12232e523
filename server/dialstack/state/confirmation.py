"""The confirmation rule, pure: which flows need the user's yes, and what the yes covers.

A flow whose tool changes state and cannot be safely repeated (the manifest says
``changes_state`` and ``idempotent: false``) needs a yes before it runs; ``confirm: always |
never`` in the pack overrides the manifest; a flow with its own yes/no ``confirmation``
slot is never asked twice. What the user said yes to is a digest of the flow's values, so
changing any of them asks again. Used by the orchestrator (``dialstack.agent.confirmation``)
and by the host tools the server offers a client's model (``dialstack.tools.host``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from ..domain.models import FlowSpec, ToolSpec
from .dialogue import DialogueState
from .flows import BaseFlow


def irreversible(spec: FlowSpec, tools: Mapping[str, ToolSpec]) -> bool:
    """One of the flow's tools changes state and is not idempotent (book, cancel, modify, send)."""
    return any(t in tools and "changes_state" in tools[t].tags and not tools[t].idempotent for t in spec.tools)


def needed(spec: FlowSpec, tools: Mapping[str, ToolSpec]) -> bool:
    """Whether the flow asks for a yes before its tools run (``confirm`` in the pack, default auto)."""
    if spec.confirm == "never" or any(s.params.get("confirmation") for s in spec.slots):
        return False
    return spec.confirm == "always" or irreversible(spec, tools)


def digest(flow: BaseFlow) -> str:
    """The values the user is asked to confirm (defaults left out: they change only by a value said)."""
    said = {n: s.value for n, s in sorted(flow.slots.items()) if s.filled and s.source != "default"}
    return hashlib.sha256(json.dumps(said, sort_keys=True, default=str).encode()).hexdigest()[:16]


def remember(state: DialogueState, flow: BaseFlow) -> None:
    """The user said yes to ``flow``'s current values (what was said yes to for flows that ended goes)."""
    keep = {f.flow_id for f in state.stack.flows} | {s.flow_id for steps in state.plans.values() for s in steps}
    for gone in [k for k in state.confirmed if k not in keep]:
        del state.confirmed[gone]
    state.confirmed[flow.flow_id] = digest(flow)
