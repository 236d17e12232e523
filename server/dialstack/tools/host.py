"""Stack operations for a client's own model: the host without our orchestrator.

``dialstack serve --host-tools`` (what ``install claude-desktop`` and the MCP bundle turn
on) adds seven tools with which a host model (Claude Desktop's) runs the flow stack itself:

- ``dialogue_stack``: what each open flow still needs, with its prompts (read-only);
- ``dialogue_start``: start a flow, with the values already said (the active one pauses);
- ``dialogue_fill``: fill or correct slots, each checked by its slot type (refusals say why);
- ``dialogue_confirm``: record the user's yes to a flow's current values;
- ``dialogue_complete``: finish the active flow with its outputs;
- ``dialogue_cancel`` and ``dialogue_resume``.

The server keeps the rules the orchestrator keeps: the same :class:`FlowStack` state machine
(an illegal operation is refused and leaves the stack unchanged), the depth limit, the
abandonment timeout (stale paused flows are abandoned before every operation), the
confirmation rule of :mod:`dialstack.state.confirmation` (a flow whose tool changes state
and is not idempotent completes only after the user's yes to its current values, and the
server refuses that tool while the yes is missing, see :func:`unconfirmed`) and the gate
(these tools run through the same runtime and gate as every other). The dialogue state is
the session's, in the store: each operation loads the head, changes it and commits it as a
turn onto that head, so a concurrent writer is never overwritten.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..domain.loader import resolve
from ..domain.models import Capabilities, DomainPack, SkillSpec, ToolSpec
from ..domain.skills import load_skill
from ..state import confirmation
from ..state.dialogue import DialogueState
from ..state.factory import FlowFactory
from ..state.flows import BaseFlow, StackError
from ..state.slots import SlotContext
from ..store.protocol import HeadMovedError, TurnRecord
from . import vocabulary
from .context import ToolContext, ToolInputError

T = TypeVar("T")
_MODULE = "dialstack.tools.host"
HOST_SKILL = "dialogue-host"  # skills/<domain>/dialogue-host/SKILL.md: how a client's model uses these tools
_DOMAINS: dict[tuple[str, str], DomainPack] = {}
_VOCABULARIES: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}

_VALUES = {"type": "object", "description": "slot name -> value as the user said it ('Boston', 'Dec 12', 2)"}
_FLOW_REF = {"type": "string", "minLength": 1, "maxLength": 128,
             "description": "a flow id or name from dialogue_stack (default: the active flow)"}
_VIEW = {"type": "object", "properties": {"active": {"type": ["object", "null"]}, "flows": {"type": "array"}},
         "required": ["active", "flows"]}


def host_specs(domain: DomainPack) -> tuple[ToolSpec, ...]:
    """The host tools for ``domain`` (its startable flows named in ``dialogue_start``'s schema)."""
    _DOMAINS[(domain.name, str(domain.root))] = domain
    startable = sorted(f.name for f in domain.ontology.flows if f.intent != "Internal")
    reads = Capabilities(accesses_private_data=True)
    writes = Capabilities(accesses_private_data=True, changes_state=True)

    def spec(tool_id: str, name: str, description: str, properties: dict[str, Any], required: list[str],
             caps: Capabilities) -> ToolSpec:
        schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
        return ToolSpec(tool_id=tool_id, name=name, description=description, input_schema=schema, output_schema=_VIEW,
                        idempotent=caps is reads, timeout_ms=5000, capabilities=caps, handler=f"{_MODULE}:{tool_id}")

    return (
        spec("dialogue_stack", "Dialogue stack", "The open flows of this conversation, top first: for each, what it "
             "still needs (with the question to ask), the values it holds, whether it waits for the user's yes. "
             "Read it before you answer.", {}, [], reads),
        spec("dialogue_start", "Start a flow", "Start a flow for what the user asked, with the values they already "
             "gave. The active flow pauses (resume it later). Refused values say why.",
             {"flow": {"enum": startable}, "values": _VALUES}, ["flow"], writes),
        spec("dialogue_fill", "Fill or correct slots", "Fill or correct slots of the active flow (or `flow`) with "
             "what the user said; each value is checked by its slot type and a refused one says why.",
             {"values": _VALUES, "flow": _FLOW_REF}, ["values"], writes),
        spec("dialogue_confirm", "Record the user's yes", "The user said yes to the values you showed them for the "
             "active flow (or `flow`). Needed before a flow that books, cancels, changes or sends completes; "
             "changing a value afterwards needs a new yes.", {"flow": _FLOW_REF}, [], writes),
        spec("dialogue_complete", "Complete a flow", "Finish the active flow after its tools ran, with their outputs "
             "(booking_ref, ...). Refused while a required slot is empty or the user's yes is missing.",
             {"outputs": {"type": "object"}, "flow": _FLOW_REF}, [], writes),
        spec("dialogue_cancel", "Cancel a flow", "Cancel the active flow (or `flow`) when the user drops it.",
             {"flow": _FLOW_REF, "reason": {"type": "string", "maxLength": 200}}, [], writes),
        spec("dialogue_resume", "Resume a paused flow", "Bring a paused flow back on top (the active one pauses).",
             {"flow": _FLOW_REF}, ["flow"], writes),
    )


def host_skill(domain: DomainPack) -> SkillSpec | None:
    """The domain's ``dialogue-host`` skill, or None when the pack has no valid one."""
    folder = domain.root / "skills" / domain.name / HOST_SKILL
    if not (folder / "SKILL.md").is_file():
        return None
    skill, problems = load_skill(folder, f"skills/{domain.name}/{HOST_SKILL}/SKILL.md")
    return None if skill is None or any(p.severity == "error" for p in problems) else skill


# -- the tools ---------------------------------------------------------------------------------
def dialogue_stack(*, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    if abandoned:
        host.commit("dialogue_stack", f"abandoned {', '.join(f.name for f in abandoned)}")
    return host.view(abandoned=abandoned)


def dialogue_start(flow: str, values: Mapping[str, Any] | None = None, *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    if flow not in host.flow_names:
        raise ToolInputError(f"no flow {flow!r} in {host.domain.name}; start one of: {', '.join(sorted(host.flow_names))}")
    new = host.factory.create(flow, now=host.now)
    host.unknown_slots(new, values or {})
    pushed = host.stack_op(lambda: host.state.stack.push(new, host.now, host.slot_ctx, reason=f"interrupted by {flow}"))
    refused = host.fill(new, values or {})
    host.commit("dialogue_start", f"started {flow}" + (f", paused {pushed.paused.name}" if pushed.paused else ""))
    return host.view(refused=refused, abandoned=abandoned, cancelled=list(pushed.cancelled),
                     paused=pushed.paused)


def dialogue_fill(values: Mapping[str, Any], flow: str | None = None, *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    target = host.live(flow, "fill")
    host.unknown_slots(target, values)
    refused = host.fill(target, values)
    host.commit("dialogue_fill", f"filled {', '.join(n for n in values if n not in refused) or 'nothing'} of {target.name}")
    return host.view(refused=refused, abandoned=abandoned)


def dialogue_confirm(flow: str | None = None, *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    target = host.live(flow, "confirm")
    if target.missing_slots():
        raise ToolInputError(f"{target.name} cannot be confirmed yet: it still needs {host.needs_text(target)}; "
                             "ask for those, show the user every value, then confirm")
    confirmation.remember(host.state, target)
    host.commit("dialogue_confirm", f"the user said yes to {target.name}")
    return host.view(abandoned=abandoned)


def dialogue_complete(outputs: Mapping[str, Any] | None = None, flow: str | None = None, *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    target = host.live(flow, "complete")
    outputs = dict(outputs or {})
    unknown = sorted(set(outputs) - set(target.spec.outputs))
    if unknown:
        raise ToolInputError(f"{target.name} has no output {', '.join(map(repr, unknown))}; its outputs are: "
                             f"{', '.join(target.spec.outputs) or 'none'}")
    if target.missing_slots():
        raise ToolInputError(f"{target.name} cannot complete: it still needs {host.needs_text(target)}")
    if host.awaits_yes(target):
        raise ToolInputError(f"{target.name} cannot complete without the user's yes to its current values: show them "
                             f"({host.values_text(target)}), and call dialogue_confirm once they agree")
    host.stack_op(lambda: host.state.stack.complete(target.flow_id, now=host.now, outputs=outputs))
    host.state.stack.pop_completed(host.now)
    host.state.confirmed.pop(target.flow_id, None)
    host.commit("dialogue_complete", f"completed {target.name}")
    return host.view(abandoned=abandoned, completed=target)


def dialogue_cancel(flow: str | None = None, reason: str = "", *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    ended = host.stack_op(lambda: host.state.stack.cancel(flow, now=host.now, reason=reason or "cancelled by the user"))
    host.commit("dialogue_cancel", f"cancelled {', '.join(f.name for f in ended)}")
    return host.view(abandoned=abandoned, cancelled=ended)


def dialogue_resume(flow: str, *, ctx: ToolContext) -> dict[str, Any]:
    host = _Host(ctx)
    abandoned = host.state.stack.abandon_stale(host.now)
    if host.state.stack.find(flow) is None and (gone := host.state.stack.find_archived(flow)) is not None:
        raise ToolInputError(f"{gone.name} cannot be resumed: it is {gone.state.value} ({gone.reason}); start it anew "
                             "with dialogue_start")
    host.stack_op(lambda: host.state.stack.resume(flow, host.now, host.slot_ctx))
    host.commit("dialogue_resume", f"resumed {flow}")
    return host.view(abandoned=abandoned)


def unconfirmed(domain: DomainPack, store: Any, session_id: str, tool: ToolSpec) -> str | None:
    """Why ``tool`` may not run yet in a host-run session, or None.

    An irreversible tool (changes state, not idempotent) runs as the orchestrator runs it:
    inside the active flow that lists it, once that flow has every required value and, when
    the confirmation rule asks for one, the user's yes to those values.
    """
    if "changes_state" not in tool.tags or tool.idempotent or all(t.tool_id != tool.tool_id for t in domain.manifest.tools):
        return None
    raw = store.load_state(session_id)
    state = DialogueState.from_dict(raw, FlowFactory(domain.ontology)) if raw is not None else None
    flow = state.active if state is not None else None
    if state is None or flow is None or tool.tool_id not in flow.spec.tools:
        owners = sorted(f.name for f in domain.ontology.flows if tool.tool_id in f.tools) or ["a flow that lists it"]
        return (f"{tool.tool_id} was not run: it changes something that cannot be undone, so it runs inside its flow; "
                f"start {' or '.join(owners)} with dialogue_start and collect its values first")
    if flow.missing_slots():
        return (f"{tool.tool_id} was not run: the active flow {flow.name} still needs "
                f"{', '.join(flow.missing_slots())}; fill them with dialogue_fill first")
    if confirmation.needed(flow.spec, domain.tools) and state.confirmed.get(flow.flow_id) != confirmation.digest(flow):
        return (f"{tool.tool_id} was not run: the active flow {flow.name} needs the user's yes to its current values "
                "first (show them, then call dialogue_confirm)")
    return None


# -- one operation on one session's state ------------------------------------------------------
class _Host:
    """The session's head state for one host operation, and its commit."""

    def __init__(self, ctx: ToolContext) -> None:
        if ctx.store is None:
            raise ToolInputError(f"{ctx.tool} needs a store, and this server has none")
        self.ctx = ctx
        self.store = ctx.store
        self.domain = _domain(ctx)
        self.factory = FlowFactory(self.domain.ontology)
        self.tools = self.domain.tools
        self.flow_names = {f.name for f in self.domain.ontology.flows if f.intent != "Internal"}
        context = self.store.turn_context(ctx.session_id, ctx.user_id, known_version=None, recent=0)
        self.version = context.version
        self.state = (DialogueState.from_dict(context.state, self.factory) if context.state is not None
                      else DialogueState.new(self.domain.settings))
        moment = ctx.now()
        self.now = moment.timestamp()
        self.slot_ctx = SlotContext(now=moment, vocabularies=_vocabularies(ctx, self.domain),
                                    preferences=context.preferences)

    def stack_op(self, op: Callable[[], T]) -> T:
        try:
            return op()
        except StackError as exc:
            raise ToolInputError(str(exc)) from None

    def live(self, ref: str | None, op: str) -> BaseFlow:
        flow = self.state.stack.active if ref is None else self.state.stack.find(ref)
        if flow is None or not flow.live:
            open_flows = ", ".join(f"{f.name} ({f.state.value})" for f in self.state.stack.top_down()) or "none"
            what = "there is no active flow" if ref is None else f"there is no open flow {ref!r}"
            raise ToolInputError(f"cannot {op}: {what}; open flows: {open_flows}. Start one with dialogue_start")
        return flow

    def unknown_slots(self, flow: BaseFlow, values: Mapping[str, Any]) -> None:
        unknown = sorted(set(values) - set(flow.slots))
        if unknown:
            raise ToolInputError(f"{flow.name} has no slot {', '.join(map(repr, unknown))}; its slots are: "
                                 f"{', '.join(flow.slots)}")

    def fill(self, flow: BaseFlow, values: Mapping[str, Any]) -> dict[str, str]:
        """Fill each value through its slot type; the refused ones, with the reason (the old value stays)."""
        refused: dict[str, str] = {}
        for name, raw in values.items():
            check = flow.slots[name].fill(raw, self.slot_ctx, source="host")
            if not check.ok:
                refused[name] = check.reason or f"{raw!r} is not a valid {flow.slots[name].type_name}"
        return refused

    def awaits_yes(self, flow: BaseFlow) -> bool:
        return (confirmation.needed(flow.spec, self.tools)
                and self.state.confirmed.get(flow.flow_id) != confirmation.digest(flow))

    def needs_text(self, flow: BaseFlow) -> str:
        return ", ".join(f"{n} (ask: {flow.slots[n].prompt or n})" for n in flow.missing_slots())

    def values_text(self, flow: BaseFlow) -> str:
        return ", ".join(f"{n} {s.display or s.value}" for n, s in flow.slots.items() if s.filled) or "no values yet"

    def commit(self, op: str, summary: str) -> None:
        self.state.turn += 1
        record = TurnRecord(user_text="", reply="", state=self.state.serialize(),
                            audit=[{"kind": "host_operation", "op": op, "summary": summary}], meta={"host": op})
        try:
            self.store.commit_turn(self.ctx.session_id, record, expected_version=self.version)
        except HeadMovedError:
            raise ToolInputError(f"{op} was not applied: this conversation's state changed meanwhile (another call or "
                                 "client); read dialogue_stack and try again") from None

    # -- the view -----------------------------------------------------------------------------
    def flow_view(self, flow: BaseFlow) -> dict[str, Any]:
        spec = flow.spec
        return {
            "flow_id": flow.flow_id, "flow": flow.name, "label": flow.label, "state": flow.state.value,
            "values": {n: s.display or s.value for n, s in flow.slots.items() if s.filled},
            "needs": [{"slot": n, "prompt": flow.slots[n].prompt, "type": flow.slots[n].type_name}
                      for n in flow.missing_slots()],
            "optional": [{"slot": s.name, "prompt": s.prompt} for s in flow.slots.values()
                         if not s.filled and s.priority == "optional"],
            "tools": list(spec.tools), "outputs": list(spec.outputs),
            "needs_yes": self.awaits_yes(flow) and not flow.missing_slots(),
            "skill": spec.skill, "reason": flow.reason,
        }

    def view(self, *, refused: Mapping[str, str] | None = None, abandoned: list[BaseFlow] | None = None,
             cancelled: list[BaseFlow] | None = None, paused: BaseFlow | None = None,
             completed: BaseFlow | None = None) -> dict[str, Any]:
        stack = self.state.stack
        active = stack.active
        out: dict[str, Any] = {
            "active": self.flow_view(active) if active is not None else None,
            "flows": [self.flow_view(f) for f in stack.top_down() if f.live],
            "next": self.next_step(active, stack.paused),
        }
        if refused:
            out["refused"] = dict(refused)
        if completed is not None:
            out["completed"] = {"flow_id": completed.flow_id, "flow": completed.name, "outputs": dict(completed.outputs)}
        if paused is not None:
            out["paused"] = paused.name
        for key, flows in (("abandoned", abandoned), ("cancelled", cancelled)):
            if flows:
                out[key] = [{"flow_id": f.flow_id, "flow": f.name, "reason": f.reason} for f in flows]
        return out

    def next_step(self, active: BaseFlow | None, paused: list[BaseFlow]) -> str:
        """One line telling the host model what the conversation waits for."""
        if active is not None:
            if active.missing_slots():
                return f"ask: {active.slots[active.missing_slots()[0]].prompt}"
            if self.awaits_yes(active):
                return f"show the values ({self.values_text(active)}) and ask for a yes, then call dialogue_confirm"
            return f"run {', '.join(active.spec.tools) or 'its steps'}, then call dialogue_complete with the outputs"
        resumable = [f for f in paused if f.can_be_resumed]
        if resumable:
            template = self.domain.ontology.templates.get("resume_offer") or "Would you like to continue {phrase}?"
            return f"offer: {template.format(phrase=resumable[0].label)} (dialogue_resume on yes, dialogue_cancel on no)"
        return "nothing open: start a flow when the user asks for something"


def _domain(ctx: ToolContext) -> DomainPack:
    domain = _DOMAINS.get((ctx.domain, str(ctx.pack_root)))
    if domain is None:
        raise ToolInputError(f"{ctx.tool}: the server was not started with --host-tools for domain {ctx.domain!r}")
    return domain


def _vocabularies(ctx: ToolContext, domain: DomainPack) -> dict[str, list[dict[str, Any]]]:
    """Each vocabulary read once per server and data folder, through its read-only tool's handler."""
    key = (domain.name, str(ctx.data_dir))
    cached = _VOCABULARIES.get(key)
    if cached is not None:
        return cached
    loaded: dict[str, list[dict[str, Any]]] = {}
    for name, spec in domain.ontology.vocabularies.items():
        tool = domain.tools.get(spec.tool)
        if tool is None:
            continue
        fn = resolve(tool.handler)
        params = inspect.signature(fn).parameters
        kwargs = dict(spec.args)
        if "ctx" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            kwargs["ctx"] = ToolContext(session_id=ctx.session_id, tool=spec.tool, domain=ctx.domain, store=ctx.store,
                                        now=ctx.now, data_dir=ctx.data_dir, pack_root=ctx.pack_root, user_id=ctx.user_id)
        result = fn(**kwargs)
        loaded[name] = vocabulary.items(asyncio.run(result) if inspect.iscoroutine(result) else result, spec)
    _VOCABULARIES[key] = loaded
    return loaded
