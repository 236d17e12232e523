"""One turn in progress: the working context PEX, the policies and RES share.

A ``Turn`` holds the dialogue state being changed, what happened so far (tool calls,
flows that ended, the frame, reply parts) and small helpers that apply stack operations
with the turn's clock. It is created by the agent, used for one user message, then turned
into a :class:`TurnResult` and committed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..state.dialogue import DialogueState
from ..state.flows import BaseFlow, FlowState
from ..state.pending import Approval, Pending, RetryOffer
from ..state.slots import SlotContext
from .commands import Part
from .deps import TurnDeps
from .outcomes import Execution, ToolCallResult, Uncertain
from .render import render, slot_values


def grant_key(tool: str, args: dict[str, Any]) -> str:
    """What an approval grants: this tool with exactly these arguments."""
    return tool + ":" + hashlib.sha256(json.dumps(args, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass
class Turn:
    deps: TurnDeps[Turn]
    session_id: str
    text: str
    state: DialogueState
    slot_ctx: SlotContext
    now: float
    preferences: dict[str, Any]
    history: list[dict[str, Any]]
    context_kinds: frozenset[str]
    recorded_kinds: frozenset[str] = frozenset()  # the kinds the store held when the turn began
    tool_calls: list[ToolCallResult] = field(default_factory=list)
    transitions: dict[str, list[str]] = field(default_factory=dict)
    replies: list[str] = field(default_factory=list)
    frame: dict[str, Any] | None = None
    scratchpad_written: bool = False
    approval_requested: str | None = None
    warnings: list[str] = field(default_factory=list)
    hints: dict[str, list[str]] = field(default_factory=dict)
    slot_snapshot: dict[str, dict[str, Any]] = field(default_factory=dict)
    ended: list[BaseFlow] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # flow_id -> a slot whose value was refused this turn
    snapshot: bool = False  # several flows ended at once: store a snapshot with this turn
    # Approvals live for this turn only: a grant never leaks into another session or turn.
    grants: set[str] = field(default_factory=set)
    deferred_approval: dict[str, Any] | None = None
    calling: str | None = None  # grant key of the tool call in flight (a server may ask about it)
    lapsed: Pending | None = None  # the pending question the user moved on from this turn (a resume offer, ...)
    side_parts: list[Part] = field(default_factory=list)  # questions of a multi-part request, answered this turn

    # -- context for skills ---------------------------------------------------------
    def recent_context(self, turns: int = 3) -> dict[str, Any]:
        scratchpad = [e.text for e in self.deps.store.scratchpad(self.session_id, last=5)]
        return {"recent_turns": self.history[-turns:], "scratchpad": scratchpad, "user_text": self.text}

    def memory(self) -> dict[str, Any]:
        return {"preferences": self.preferences}

    def add_context_kinds(self, kinds: frozenset[str]) -> None:
        if not kinds <= self.context_kinds:
            self.context_kinds = self.context_kinds | kinds

    def record_call(self, result: ToolCallResult) -> None:
        self.tool_calls.append(result)

    @contextlib.contextmanager
    def spinner(self, label: str) -> Iterator[None]:
        with self.deps.spinner(label):
            yield

    # -- flows ------------------------------------------------------------------------
    def _note(self, flows: list[BaseFlow]) -> None:
        for flow in flows:
            self.transitions.setdefault(flow.state.value, []).append(flow.name)
            self.ended.append(flow)
            pending = self.state.pending
            if pending is not None and not isinstance(pending, Approval) and getattr(pending, "flow_id", None) == flow.flow_id:
                self.state.pending = None  # a question about a flow that ended is no longer open

    def complete(self, flow: BaseFlow) -> None:
        self.state.stack.complete(flow.flow_id, now=self.now)
        self._note([flow])

    def cancel(self, flow: BaseFlow, reason: str = "cancelled by the user") -> None:
        self._note(self.state.stack.cancel(flow.flow_id, now=self.now, reason=reason))
        if self.state.waiting_for_slot and self.state.active is None:
            self.state.waiting_for_slot = None

    def end_outside_stack(self, flow: BaseFlow, state: FlowState) -> None:
        """A digression or background flow never sits on the stack: archive it directly."""
        flow.move_to(state, "end outside the stack")
        flow.ended_at = self.now
        self.state.stack.archive.append(flow)
        self._note([flow])

    def values(self, flow: BaseFlow) -> dict[str, Any]:
        """What reply templates may name: inputs, slot display forms, then outputs."""
        values: dict[str, Any] = dict(flow.inputs)
        values.update(slot_values(flow.slots))
        values.update({k: v for k, v in flow.outputs.items() if v is not None})
        values["phrase"] = flow.label
        return values

    def template(self, name: str, **values: Any) -> str:
        return render(self.deps.templates.get(name, name), values)

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.state.has_issues = True

    # -- frames and memory -------------------------------------------------------------
    def set_frame(self, frame: dict[str, Any]) -> None:
        rows = frame.pop("all_rows", None)
        if rows is not None and len(rows) > len(frame["data"]):
            frame["table_id"] = self.deps.store.save_frame(self.session_id, {**frame, "data": rows})
        self.frame = frame

    def write_scratchpad(self, flow: BaseFlow, text: str) -> None:
        self.deps.store.write_scratchpad(self.session_id, flow.name, text, flow.name)
        self.scratchpad_written = True

    # -- approvals ------------------------------------------------------------------------
    async def approve(self, tool: str, args: dict[str, Any], reason: str) -> bool:
        """Whether ``tool`` may run with ``args``: granted this turn, or asked now, or deferred.

        Without an interactive approver the question is deferred: the reply asks it and the
        user's "/approve" (or "yes") on the next turn grants it for that turn.
        """
        key = grant_key(tool, args)
        if key in self.grants:
            return True
        if self.deps.approver is not None:
            approved = await self.deps.approver(tool, args, reason)
            if approved:
                self.grants.add(key)
            return approved
        self.deferred_approval = {"tool": tool, "args": args, "reason": reason}
        return False

    def approval_deferred(self, flow: BaseFlow) -> bool:
        """True when the refusal only means 'ask the user first' (no one was there to answer)."""
        deferred = self.deferred_approval
        if deferred is None:
            return False
        self.deferred_approval = None
        self.state.pending = Approval(tool=deferred["tool"], args=deferred.get("args", {}),
                                      reason=deferred.get("reason", ""), flow_id=flow.flow_id)
        self.approval_requested = deferred["tool"]
        return True

    def approval_question(self) -> str:
        pending = self.state.awaiting(Approval)
        if pending is None:
            return ""
        return approval_prompt(pending.tool, pending.args, pending.reason)

    def offer_retry(self, flow: BaseFlow) -> None:
        self.state.pending = RetryOffer(flow_id=flow.flow_id)

    async def recover(self, flow: BaseFlow, outcome: Uncertain) -> Execution:
        return await self.deps.recovery.recover(self, flow, outcome)


def approval_prompt(tool: str, args: dict[str, Any], reason: str) -> str:
    from ..tools.gate import shown_arguments

    shown = shown_arguments(args)  # invisible and bidirectional characters escaped
    why = f" ({reason})" if reason else ""
    return f"Allow {tool} to run with {shown or 'no arguments'}?{why} [y/N]"

