"""From a user turn to an ``Understanding``: System 1, answers to pending questions, System 2.

System 1 (``Understander``) decides alone when it is confident. Answers to a question the
agent asked on the previous turn ("which one?") are resolved here. When System 1 is unsure
and an LLM backend is configured, ``contemplate`` re-predicts.
"""

from __future__ import annotations

from typing import Any

from ..domain.models import DomainPack
from ..state.flows import BaseFlow, FlowState
from ..state.pending import Approval, CancelChoice, ChangeChoice, Confirmation, PlanReview, ResumeChoice, ResumeOffer
from ..state.slots import Candidate
from . import confirmation
from . import lexicon as lx
from .nlu import ActiveView, NLUView, Understanding

from .turn import Turn


def _offered(state: Any) -> ActiveView | None:
    """The paused flow a resume offer names, for answers that go straight to its question."""
    offer = state.awaiting(ResumeOffer)
    flow = state.stack.find(offer.flow_id) if offer else None
    if flow is None or flow.state is not FlowState.PAUSED:
        return None
    asks = next((s.name for s in flow.spec.slots if s.priority == "required" and not s.params.get("confirmation")
                 and s.name in flow.slots and not flow.slots[s.name].filled), None)
    return ActiveView(flow.name, flow.spec, flow.slots, flow_id=flow.flow_id, next_question=asks)


class Interpreter:
    """Understanding with System 2 when unsure; ``reason_slots`` needs no turn (flows call it)."""

    def __init__(self, domain: DomainPack, reasoner: Any = None) -> None:
        self.domain = domain
        self.reasoner = reasoner  # for reason_slots only; a turn's understanding uses turn.deps.reasoner

    async def understand(self, turn: Turn) -> Understanding:
        state = turn.state
        active = state.active
        last = state.last_filled
        view = NLUView(
            active=ActiveView(active.name, active.spec, active.slots,
                              last.slot if last and last.flow_id == active.flow_id else None,
                              flow_id=active.flow_id) if active else None,
            waiting_for_slot=state.waiting_for_slot,
            paused=[(f.flow_id, f.name) for f in state.stack.paused],
            pending_offer=isinstance(state.pending, (ResumeOffer, PlanReview, Confirmation, ChangeChoice)),
            confirming=isinstance(state.pending, (PlanReview, Confirmation)),
            pending_approval=isinstance(state.pending, Approval),
            recent=state.stack.archive[-1].name if active is None and state.stack.archive else None,
            offered=_offered(state),
            queued=[(f.flow_id, f.name) for f in state.stack.waiting_parts],
            done=[f.name for f in state.stack.archive[-3:]],
        )
        understanding = self._put_right(turn, view) or turn.deps.understander.understand(turn.text, view, turn.slot_ctx)
        understanding = self.pending_choice(turn, understanding)
        understanding = confirmation.no_with_values(turn, understanding)
        if not understanding.confident and turn.deps.reasoner is not None:
            understanding = await self.contemplate(turn, understanding)
        return understanding

    @staticmethod
    def _put_right(turn: Turn, view: NLUView) -> Understanding | None:
        """A turn that puts right a word typed in the last one ('Move*, not mice, sorry'): what else it says
        is understood ('Yes please. And sorry, booking, not boo king' says yes); said alone, the last turn is
        read again as meant, and a task that turn started on the misread word gives way to the one meant.
        A value said against another ('I meant Paris, not London') is a correction of a slot, not this."""
        before = next((m["text"] for m in reversed(turn.history) if m["role"] == "user"), None)
        fixed = lx.word_put_right(turn.text, before) if before else None
        understander = turn.deps.understander
        if fixed is None or understander.scorer.values_in(fixed[2], turn.slot_ctx)[0] or any(
                fixed[2].lower() in str(slot.value).lower() for flow in turn.state.stack.flows if flow.live
                for slot in flow.slots.values() if slot.value is not None):
            return None  # (a value said against another: 'sorry I mean Joan Mcallister, not Jean')
        rest, meant, _ = fixed
        u = understander.understand(rest if lx.tokens(rest) else meant, view, turn.slot_ctx)
        active = turn.state.active
        if not lx.tokens(rest) and u.act == "start" and active is not None and u.flow != active.name \
                and active.turn_ids == [turn.state.turn - 1]:
            u.replaces = active.flow_id
        u.rule = f"puts_a_word_right, then {u.rule}"  # (TurnResult.understanding names both)
        return u

    def pending_choice(self, turn: Turn, u: Understanding) -> Understanding:
        """Answers to 'which one?' questions asked on the previous turn."""
        state = turn.state
        pending = state.pending
        if isinstance(pending, (Confirmation, ChangeChoice)):
            return confirmation.slot_named(turn, pending, u)
        if isinstance(pending, (ResumeChoice, CancelChoice)):
            state.pending = None  # asked once: any answer closes the question
        if isinstance(pending, ResumeChoice):
            options = [f for f in (state.stack.find(i) for i in pending.flow_ids) if f is not None and f.state is FlowState.PAUSED]
            best = choose(options, turn.text)
            if best is not None:
                return Understanding("resume", turn.text, flow=best.flow_id, confidence=u.confidence, rule="resume_choice")
        if isinstance(pending, CancelChoice):
            options = [f for f in (state.stack.find(i) for i in pending.flow_ids) if f is not None and f.live]
            best = choose(options, turn.text)
            if best is not None:  # the acts layer cancels it, then starts the new task
                labels = {k: Candidate(v, str(v), 0, 0, 1.0) for k, v in pending.labels.items()}
                return Understanding("start", turn.text, flow=pending.flow, labels=labels, confidence=u.confidence,
                                     replaces=best.flow_id, rule="cancel_choice")
        return u

    async def contemplate(self, turn: Turn, u: Understanding) -> Understanding:
        result = await turn.deps.reasoner.contemplate(self.request(turn, "predict"))
        if result.act in ("unknown",) or result.confidence < 0.5:
            return u
        labels = {k: Candidate(v, str(v), 0, 0, result.confidence) for k, v in (result.slots or {}).items()}
        act = result.act if result.act in ("start", "fill", "correct", "digress", "resume", "cancel", "affirm", "deny", "chitchat") else u.act
        flow = result.flow if act != "resume" else next((i for i, n in [(f.flow_id, f.name) for f in turn.state.stack.paused] if n == result.flow), None)
        return Understanding(act, turn.text, flow=flow, labels=labels, confidence=u.confidence,
                             digression_type="question" if act == "digress" else None, rule="system_2")

    def request(self, turn: Turn, purpose: str, *, failed: str | None = None, reason: str = "") -> Any:
        from .llm.base import ContemplateRequest, FlowSummary

        flows = [FlowSummary(f.name, f.intent, f.description, [s.name for s in f.slots])
                 for f in turn.deps.domain.ontology.flows if f.intent != "Internal"]
        active = turn.state.active
        return ContemplateRequest(
            purpose=purpose, text=turn.text, flows=flows, active_flow=active.name if active else None,
            waiting_for_slot=turn.state.waiting_for_slot, paused_flows=[f.name for f in turn.state.stack.paused],
            recent_turns=turn.history, failed_flow=failed, reason=reason,
        )

    async def reason_slots(self, request: Any) -> dict[str, Any]:
        """System 2 slot filling (``BaseFlow.afill_slot_values``) through ``contemplate``."""
        from .llm.base import ContemplateRequest, FlowSummary

        spec = self.domain.flow(request.flow_name)
        context = request.context or {}
        result = await self.reasoner.contemplate(ContemplateRequest(
            purpose="predict", text=str(context.get("user_text", "")),
            flows=[FlowSummary(spec.name, spec.intent, spec.description, [s.name for s in spec.slots])],
            active_flow=spec.name, waiting_for_slot=next(iter(request.missing), None), paused_flows=[],
            recent_turns=list(context.get("recent_turns", [])),
            reason=f"fill the missing slots {sorted(request.missing)} from the conversation and memory {request.memory}",
        ))
        return {k: v for k, v in (result.slots or {}).items() if k in request.missing}



_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "last": -1, "latter": -1, "former": 0}
_NUMBERS = {"1": 0, "one": 0, "2": 1, "two": 1, "3": 2, "three": 2, "4": 3, "four": 3}


def choose(options: list[BaseFlow], text: str) -> BaseFlow | None:
    """The option an answer to 'which one: A or B?' names: by position ('the second one')
    or by the words of its label, name and keywords ('changing my booking'); None if unclear."""
    if not options:
        return None
    words = lx.tokens(text)
    bare = [w for w in words if w not in ("the", "number", "option", "please")]
    positions = [_ORDINALS[w] for w in words if w in _ORDINALS]
    if len(bare) == 1 and bare[0] in _NUMBERS:
        positions.append(_NUMBERS[bare[0]])
    for index in positions:
        if -len(options) <= index < len(options):
            return options[index]
    said = {w[:4] for w in words if w not in lx.STOPWORDS}
    scores = []
    for flow in options:
        names = {w[:4] for w in lx.tokens(" ".join([flow.label, flow.name.replace("_", " "), *flow.keywords]))}
        scores.append(len(said & names))
    best = max(scores)
    return options[scores.index(best)] if best and scores.count(best) == 1 else None
