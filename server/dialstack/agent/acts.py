"""Apply an understood dialogue act to the state: push, fill, correct, resume, cancel, ...

Each handler returns whether the active flow's policy should run afterwards, and adds
what the user should hear to the turn's replies. A digression leaves the stack untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..domain.models import FlowSpec
from ..state.dialogue import FilledSlot
from ..state.flows import BaseFlow, FlowState, StackError
from ..state.pending import (Approval, CancelChoice, ChangeChoice, Confirmation, PlanReview, ResumeChoice,
                             ResumeOffer, RetryOffer)
from ..state.slot_datetime import DateTimeSlot
from ..state.stack import StackFullError
from . import confirmation, res
from . import lexicon as lx
from .commands import (
    Affirm,
    Approve,
    CancelFlow,
    ChitChat,
    Clarify,
    Close,
    CorrectSlot,
    Deny,
    Digress,
    Part,
    ResumeFlow,
    SetSlots,
    StartFlow,
    Values,
)
from .nlu import Understanding
from .reference import implied_place, referred, referred_values, returned_moments, reversed_trip

from .turn import Turn, grant_key


def carry_over(turn: Turn, flow: BaseFlow, said: set[str]) -> None:
    """'book that one' after a search, 'cancel it' after a check: the slots the user did not
    name take the values the most recent task had under the same name (its slots, then what it
    returned), newest task first."""
    recent = _recent(turn, flow)
    labels: dict[str, Any] = {}
    for name, slot in flow.slots.items():
        if name in said or slot.filled and slot.source != "default":
            continue
        for other in recent:
            held = other.slots.get(name)
            if held is not None and held.filled and held.source != "default":
                labels[name] = held.value
                break
            if other.outputs.get(name) is not None:
                labels[name] = other.outputs[name]
                break
    for name, value in _carried_by_part(flow, recent, said | set(labels)).items():
        labels[name] = value
    if lx.SAME_AGAIN.search(turn.text) and not _PART_OF_DAY.search(turn.text):
        labels.update(_time_kept(flow, recent, said))  # ('the same for friday morning' says its own time)
    # 'a hotel there', 'that day': a place or a day named by the task before, under any name
    labels.update(_referred(turn, flow, recent, said | set(labels)))
    # 'and a flight back on the 14th': the last trip reversed
    labels.update(reversed_trip(turn.text, _typed(flow), (_typed(f) for f in recent), said))
    _fill_carried(turn, flow, labels)


def _same_thing(turn: Turn, flow: BaseFlow, said: set[str]) -> bool:
    """Whether the values the user gave new task ``flow`` (the slots ``said``) agree with those the task just before held
    under the same names: 'book a flight for 2' after a search of Boston to Chicago is that flight; 'book a flight to
    Paris' is another one, and nothing carries."""
    recent = _recent(turn, flow)
    if not recent:
        return False
    last = recent[0]
    for name in said:
        held, given = last.slots.get(name), flow.slots.get(name)
        if held is not None and given is not None and held.filled and held.source != "default" and held.value != given.value:
            return False
    return True


def carry_referred(turn: Turn, flow: BaseFlow, said: set[str]) -> None:
    """'that same day at 10:30 would be handy' to the task in progress: the day (or place, or time)
    a task before named or returned."""
    _fill_carried(turn, flow, _referred(turn, flow, _recent(turn, flow), said))


def _referred(turn: Turn, flow: BaseFlow, recent: list[BaseFlow], said: set[str]) -> dict[str, Any]:
    return referred_values(turn.text, _typed(flow), (_typed(f) for f in recent), said, (f.outputs for f in recent))


def _fill_carried(turn: Turn, flow: BaseFlow, labels: dict[str, Any]) -> None:
    if not labels:
        return
    flow.fill_slots_by_label(labels, turn.slot_ctx, source="carried")
    # 'book me in for 9:30 that day': what the turn says completes a value carried in part
    completed = {}
    for name in labels:
        slot = flow.slots.get(name)
        if slot is not None and slot.value is not None and not slot.filled:
            found = slot.extract(turn.text, turn.slot_ctx)
            if found and found[0].score >= 0.5:
                completed[name] = found[0].value
    if completed:
        flow.fill_slots_by_label(completed, turn.slot_ctx, source="user")


def carry_same_time(turn: Turn, flow: BaseFlow) -> None:
    """'can we move it to fri same time' after a check of a Thursday 10:00 appointment: the day said, completed
    with the time of day a task before returned, else the time of this moment when it was asked for again."""
    if "time" not in referred(turn.text):
        return
    for name, slot in flow.slots.items():
        if not isinstance(slot, DateTimeSlot) or slot.filled or not isinstance(slot.value, str) or "T" in slot.value:
            continue
        moments = next((m for f in _recent(turn, flow) if "time" in (m := returned_moments(f.outputs))), None)
        # ('Monday then, same time' after 'we're closed on Sundays': the time of the moment refused)
        held = moments["time"] if moments is not None else slot.kept_time
        if held:
            flow.fill_slots_by_label({name: f"{slot.value}T{held}"}, turn.slot_ctx, source="carried")
        return


def carry_place(turn: Turn, flow: BaseFlow, said: set[str]) -> None:
    """A new task that needs one place and was told none takes the place the talk is about."""
    recent = _recent(turn, flow)
    labels = implied_place(_typed(flow), (_typed(f) for f in recent), said)
    if labels:
        flow.fill_slots_by_label(labels, turn.slot_ctx, source="carried")


def _recent(turn: Turn, flow: BaseFlow) -> list[BaseFlow]:
    """The conversation's other tasks, newest first."""
    return [f for f in reversed([*turn.state.stack.flows, *turn.state.stack.archive]) if f is not flow]


def _typed(flow: BaseFlow) -> dict[str, tuple[Any, Any]]:
    return {n: (spec, flow.slots[n]) for n in flow.slots if (spec := flow.spec.slot(n)) is not None}


_ROLES = ("from", "to", "source", "target", "origin", "destination")


def _carried_by_part(flow: BaseFlow, recent: list[BaseFlow], taken: set[str]) -> dict[str, Any]:
    """'move 100 of it to checking' after a savings balance: a value held as ``account`` goes to
    the one empty slot that names that word in a role (``from_account``; ``to_account`` was said)."""
    empty = [n for n, s in flow.slots.items() if n not in taken and not (s.filled and s.source != "default")]
    out: dict[str, Any] = {}
    for other in recent:
        held = {n: s.value for n, s in other.slots.items() if s.filled and s.source != "default"}
        held.update({n: v for n, v in other.outputs.items() if v is not None and n not in held})
        for source, value in held.items():
            fits = [n for n in empty if n in {f"{role}_{source}" for role in _ROLES}]
            if len(fits) == 1 and fits[0] not in out:
                out[fits[0]] = value
        if out:
            return out
    return out


_PART_OF_DAY = re.compile(r"\b(?:morning|afternoon|evening|night|tonight|noon|midday|lunchtime|am|pm)\b", re.IGNORECASE)


def _time_kept(flow: BaseFlow, recent: list[BaseFlow], said: set[str]) -> dict[str, str]:
    """'the same for friday' after a booking on Thursday at 2pm: a day said alone for a moment that
    needs its time takes the time the task before held under the same name (Friday at 2pm)."""
    out: dict[str, str] = {}
    for name in said:
        slot = flow.slots.get(name)
        if slot is None or slot.filled or slot.value is None or "T" in str(slot.value):
            continue
        held = next((o.slots[name].value for o in recent if name in o.slots and o.slots[name].filled), None)
        if held is not None and "T" in str(held):
            out[name] = f"{slot.value}T{str(held).split('T', 1)[1]}"
    return out


def _joined(parts: Sequence[Part], turn: Turn) -> str:
    """'setting a check-in reminder ('can you also set a check-in reminder for it')': each part by
    its task and the user's own words."""
    return "; ".join(f"{turn.deps.domain.flow(p.flow).label} ('{p.words}')" for p in parts)


def _alternatives(current: FlowSpec, other: FlowSpec) -> bool:
    """Whether one task can stand in for the other: they take a slot of the same name (a move and a
    cancellation both take the appointment; a payment and a transfer both take the amount). A yes
    to go ahead says nothing of what a task is about."""
    def about(spec: FlowSpec) -> set[str]:
        return {s.name for s in spec.slots if not s.params.get("confirmation")}
    return bool(about(current) & about(other))


def forget_inputs(flow: BaseFlow, said: set[str]) -> None:
    """Drop the values ``flow`` received from an earlier task's outputs (its ``inputs``)."""
    for name in list(flow.inputs):
        slot = flow.slots.get(name)
        if slot is not None and name not in said and slot.source == "input":
            slot.clear()
    flow.inputs = {}


class ActHandler:
    async def apply(self, turn: Turn, u: Understanding) -> bool:
        """Apply the command ``u`` carries; True when the active flow's policy should run next.
        This is the only place a turn's understanding changes the stack."""
        state = turn.state
        command = u.command
        if not isinstance(command, Digress):
            state.digression_depth = 0
        pending = state.pending
        answers = (Approve, Deny, Digress) if isinstance(pending, Approval) else (Affirm, Deny, Digress)
        if isinstance(pending, (Confirmation, ChangeChoice)):
            answers += (Clarify, ChitChat)  # not understood, or small talk: the question still stands
        elif isinstance(pending, ResumeOffer):
            answers += (ChitChat,)  # ('thanks for that help' to 'continue booking ...?' answers nothing)
        if pending is not None and not isinstance(command, answers) and not self._cancels_aside(turn, command):
            state.pending, turn.lapsed = None, pending  # a question lapses when the user moves on
            if isinstance(pending, Approval):  # a later "yes" must never approve a forgotten request
                turn.replies.append(f"(I won't run {pending.tool} unless you ask again.)")
        match command:
            case StartFlow():
                return await self.on_start(turn, command)
            case SetSlots() | CorrectSlot():
                return await self.on_fill(turn, command)
            case CancelFlow():
                return await self.on_cancel(turn, command)
            case ResumeFlow():
                return await self.on_resume(turn, command)
            case Affirm(asked=asked):
                self.answer_after(turn, asked)
                return await self.on_affirm(turn)
            case Deny():
                return await self.on_deny(turn)
            case Approve():
                return await self.on_approve(turn)
            case Digress():
                return await self.on_digress(turn, command, u)
            case ChitChat(waits=waits):
                return await self.on_chitchat(turn, waits)
            case Close():
                if state.active is None:
                    self.drop_waiting_parts(turn)  # ('thats all thanks': nothing more of that request either)
                turn.replies.append(turn.template("goodbye"))
                return False
            case _:
                return await self.on_unknown(turn, command)

    @staticmethod
    def _cancels_aside(turn: Turn, command: object) -> bool:
        """'dont bother with the price alert' while 'shall I go ahead?' waits: a paused or queued task
        is cancelled, and the question of the task in progress still stands."""
        if not isinstance(command, CancelFlow) or command.flow is None:
            return False
        named = turn.state.stack.find(command.flow)
        return named is not None and named is not turn.state.active and named.state in (FlowState.PAUSED, FlowState.PENDING)

    # -- starting and filling --------------------------------------------------------
    async def on_start(self, turn: Turn, u: StartFlow) -> bool:
        state = turn.state
        name = u.flow
        if u.beside and state.active is not None and state.active.name != name:
            self.fill(turn, state.active, dict(u.beside), {})  # (the answer said beside the request is kept)
        making_room = state.stack.find(u.replaces) if u.replaces else None
        if making_room is not None and making_room.live:  # 'cancel the price alert' to 'which one?'
            turn.cancel(making_room, "cancelled to make room")
            turn.replies.append(turn.template("cancelled", phrase=making_room.label))
        # 'i'd rather change that one instead' to an offer to go back to the booking drops the booking;
        # 'actually, cancel it instead' while moving that appointment drops the move, while 'actually i
        # want to cancel my booking instead' in a new booking only pauses it: the two tasks are about
        # different things, and the user may still want the first once the second is done
        offer = turn.lapsed if isinstance(turn.lapsed, ResumeOffer) else None
        offered = state.stack.find(offer.flow_id) if offer is not None else None
        replaced = state.active or offered
        # ('oh hold on, can i move BW-1003 to thursday at 5pm instead': a pause first; instead of its time)
        instead = (lx.INSTEAD.search(turn.text) or lx.BETTER_TO.search(turn.text)) and not lx.HOLDS_ON.search(turn.text)
        if replaced is not None and replaced.name != name and instead \
                and not turn.deps.domain.flow(name).metadata.digression \
                and (replaced is offered or _alternatives(turn.deps.domain.flow(replaced.name), turn.deps.domain.flow(name))):
            turn.cancel(replaced, "replaced by another task")
            turn.replies.append(turn.template("cancelled", phrase=replaced.label))
        live = next((f for f in state.stack.flows if f.name == name and f.live), None)
        if live is not None:
            if live.state is FlowState.PAUSED:
                state.stack.resume(live.flow_id, turn.now, turn.slot_ctx)
            elif live.state is FlowState.PENDING:
                return await self.on_fill(turn, SetSlots(name, u.values, u.rejected))
            self.fill(turn, live, u.values, u.rejected)
            return True
        flow = turn.deps.factory.create(name, now=turn.now)
        # a question among the parts ('... and also when do you close on saturdays?') is answered this turn
        turn.side_parts = [p for p in u.later if self.answers_at_once(turn, p)]
        # ('... and a hotel near the airport too': no task of this pack does it, and it asks nothing)
        cannot = [p for p in u.later if turn.deps.domain.flow(p.flow).metadata.digression and p not in turn.side_parts]
        later = [p for p in u.later if p not in turn.side_parts and p not in cannot]
        queued = self.queue_parts(turn, later, name)
        try:
            pushed = state.stack.push(flow, turn.now, turn.slot_ctx, reason=f"user: {turn.text}")
        except StackFullError as exc:
            self.unqueue(turn, queued)
            return self.refuse(turn, exc, u)
        except StackError as exc:
            self.unqueue(turn, queued)
            turn.replies.append(f"I can't start {flow.label} right now: {exc}.")
            return False
        turn._note(list(pushed.cancelled))
        for dropped in pushed.cancelled:
            turn.replies.append(turn.template("limit_cancelled", phrase=dropped.label))
        state.natural_birth = True
        state.waiting_for_slot = None
        another_item = bool(lx.PICKS_ANOTHER_ITEM.search(turn.text))
        if another_item:  # 'cancel the second one': not the value the task before returned first
            forget_inputs(flow, set(u.values))
        self.fill(turn, flow, u.values, u.rejected)
        if (u.refers_back or lx.OF_IT.search(turn.text)) and not another_item:
            carry_over(turn, flow, set(u.values))
        elif u.follows and not another_item and _same_thing(turn, flow, set(u.values)):
            carry_over(turn, flow, set(u.values))  # ('ok, book a flight' after a search: the flight searched)
        elif not another_item:
            carry_place(turn, flow, set(u.values))
        queued_names = {f.name for f in queued}
        waiting = [p for p in later if p.queue and p.flow in queued_names]
        left = [p for p in later if p not in waiting]
        if waiting:  # never a part dropped in silence: what comes next, or what was left
            turn.replies.append(turn.template("later_parts", phrase=flow.label, parts=_joined(waiting, turn)))
        if left:
            turn.replies.append(turn.template("parts_left", phrase=flow.label, parts=_joined(left, turn)))
        if cannot:
            turn.replies.append(turn.template("plan_cannot", parts="; ".join(f"'{p.words}'" for p in cannot)))
        return True

    def queue_parts(self, turn: Turn, parts: Sequence[Part], first: str) -> list[BaseFlow]:
        """Queue the later parts of a multi-part request below the first (flow ``first``), last one lowest,
        each with the values its own words gave; a part whose words name no task, or that the stack cannot
        hold (full, or a second task of the same kind, the first's too), is left, and the reply says so."""
        queued: list[BaseFlow] = []
        for part in reversed([p for p in parts if p.queue and p.flow != first]):
            flow = turn.deps.factory.create(part.flow, now=turn.now)
            try:
                turn.state.stack.queue(flow)
            except StackError:
                continue
            self.fill(turn, flow, part.values, part.rejected)
            queued.append(flow)
        return queued[::-1]

    @staticmethod
    def unqueue(turn: Turn, queued: Sequence[BaseFlow]) -> None:
        """The first part could not start: the parts queued below it go too (none waits for nothing)."""
        for flow in queued:
            turn.cancel(flow, "its request could not start")

    def refuse(self, turn: Turn, exc: StackFullError, u: StartFlow) -> bool:
        state = turn.state
        if exc.strategy == "ask_user" and exc.options:
            state.pending = CancelChoice(flow_ids=tuple(f.flow_id for f in exc.options), flow=u.flow,
                                         labels={k: c.value for k, c in u.values.items()})
            options = ", ".join(f.label for f in exc.options)
            turn.replies.append(turn.template("ask_cancel_which", options=options))
        else:
            turn.replies.append(turn.template("limit_rejected", depth=exc.limit, phrase=exc.new_flow.label))
            prompt = res.reprompt(turn)
            if prompt:
                turn.replies.append(prompt)
        return False

    def fill(self, turn: Turn, flow: BaseFlow, values: Values, rejected: Mapping[str, str]) -> None:
        labels = {name: cand.value for name, cand in values.items() if name in flow.slots}
        checks = flow.fill_slots_by_label(labels, turn.slot_ctx)
        refused = [n for n, c in checks.items() if not c.ok] + [n for n in rejected if n in flow.slots]
        if refused:  # asked again even when a default would have let the flow run
            turn.refused[flow.flow_id] = refused[0]
        reasons = [c.reason for c in checks.values() if not c.ok and c.reason]
        reasons += [r for name, r in rejected.items() if name in flow.slots and r]
        for reason in dict.fromkeys(reasons):
            turn.replies.append(turn.template("invalid_value", reason=reason))
        filled = [n for n, c in checks.items() if c.ok]
        if filled:  # the value said last ('just give me vancouver'), which a bare repair changes
            last = max(filled, key=lambda n: getattr(values.get(n), "start", -1))
            alike = [n for n in filled if flow.slots[n].type_name == flow.slots[last].type_name]
            # ('i wanna go to rome from london', then 'paris instead': of two places said together, the
            # order they were said in tells nothing; the one a flow asks later, the destination, changes)
            turn.state.last_filled = FilledSlot(flow_id=flow.flow_id, slot=last) if len(alike) == 1 else None
        carry_same_time(turn, flow)

    async def on_fill(self, turn: Turn, u: SetSlots | CorrectSlot) -> bool:
        active = turn.state.active
        if active is None:
            return await self.on_unknown(turn, Clarify())
        if not u.values:  # ('that same day at 10:30 would be handy' to 'what day and time?')
            carry_referred(turn, active, set(u.rejected))
        self.fill(turn, active, u.values, u.rejected)
        return True

    # -- the stack ------------------------------------------------------------------------
    async def on_cancel(self, turn: Turn, u: CancelFlow) -> bool:
        state = turn.state
        named = state.stack.find(u.flow) if u.flow else None
        waiting = named is not None and named.state is FlowState.PENDING and named.plan_id is None
        if named is not None and (named.state is FlowState.PAUSED or waiting):  # "cancel the price alert"
            turn.cancel(named)
            turn.replies.append(turn.template("cancelled", phrase=named.label))
            prompt = res.reprompt(turn)
            if prompt:
                turn.replies.append(prompt)
            return False
        offer = state.awaiting(ResumeOffer)
        target = state.active or (state.stack.find(offer.flow_id) if offer else None)
        if target is None:
            turn.replies.append(turn.template("nothing_to_cancel"))
            return False
        turn.cancel(target)
        turn.replies.append(turn.template("cancelled", phrase=target.label))
        if lx.is_closing(turn.text):
            self.drop_waiting_parts(turn)  # 'thats all thanks': the parts waiting go too
        turn.replies.append(res.offer_resume(turn))  # the paused flow below, if any
        return False

    @staticmethod
    def answers_at_once(turn: Turn, part: Part) -> bool:
        """A side question, or a question to a look-up that its own words give all it needs."""
        spec = turn.deps.domain.flow(part.flow)
        if spec.metadata.digression:  # ('... and tell me the baggage allowance' asks too)
            return lx.is_question(part.words) or bool(lx.ORDER.match(part.words) or lx.REQUEST_ANYWHERE.search(part.words))
        needed = {s.name for s in spec.slots if s.priority == "required" and s.default is None}
        return part.flow in turn.deps.understander.scorer.readers and lx.is_question(part.words) \
            and needed <= set(part.values)

    def answer_after(self, turn: Turn, asked: Sequence[Part]) -> None:
        """Questions said with a yes are answered once the yes is done (this turn, after the task runs); one no task can
        answer is said so, never dropped."""
        turn.side_parts = [p for p in asked if self.answers_at_once(turn, p)]
        cannot = [p for p in asked if p not in turn.side_parts]
        if cannot:
            turn.replies.append(turn.template("plan_cannot", parts="; ".join(f"'{p.words}'" for p in cannot)))

    async def answer_side_parts(self, turn: Turn) -> None:
        """Answer the questions of a multi-part request once its first task has run this turn, before
        the question that task asks last ('What's the patient's name?' stays the last word)."""
        for part in turn.side_parts:
            asked = Understanding("digress", part.words, flow=part.flow, labels=dict(part.values))
            answer = await turn.deps.pex.run_detached(turn, part.flow, asked)
            waits = turn.state.active is not None or turn.state.pending is not None
            turn.replies.insert(len(turn.replies) - 1 if waits and turn.replies else len(turn.replies), answer)
        turn.side_parts = []

    def drop_waiting_parts(self, turn: Turn) -> None:
        """Cancel the later parts of a request still queued, and say so."""
        for flow in turn.state.stack.waiting_parts:
            turn.cancel(flow)
            turn.replies.append(turn.template("cancelled", phrase=flow.label))

    async def on_resume(self, turn: Turn, u: ResumeFlow) -> bool:
        state = turn.state
        if u.flow_id is not None:
            chosen = state.stack.find(u.flow_id)
            if chosen is not None and chosen.state is FlowState.PAUSED:
                resumed = self.resume(turn, chosen)
                if resumed and (u.values or u.rejected):  # 'to Denver please' to 'continue booking your flight?'
                    self.fill(turn, chosen, u.values, u.rejected)
                return resumed
        ranking = state.stack.rank_paused(turn.text, turn.now)
        if ranking.ambiguous:
            options = ranking.options(state.stack.settings.resume_margin)
            state.pending = ResumeChoice(flow_ids=tuple(f.flow_id for f in options))
            turn.replies.append(turn.template("ask_resume_which", options=" or ".join(f.label for f in options)))
            return False
        if ranking.best is None:
            turn.replies.append(turn.template("fallback"))
            return False
        return self.resume(turn, ranking.best)

    def resume(self, turn: Turn, flow: BaseFlow) -> bool:
        state = turn.state
        if isinstance(state.pending, (ResumeOffer, ResumeChoice)):
            state.pending = None
        try:
            state.stack.resume(flow.flow_id, turn.now, turn.slot_ctx)
        except StackError as exc:
            turn.replies.append(f"I can't go back to {flow.label}: {exc}.")
            return False
        turn.replies.append(turn.template("resume_accepted", phrase=flow.label))
        return True

    async def on_affirm(self, turn: Turn) -> bool:
        state = turn.state
        plan = self.reviewed_plan(turn)
        if plan is not None:
            execution = turn.deps.policies.get(plan.spec).start(turn, plan)
            turn.replies.append(execution.reply)
            return execution.status == "planned"
        answered = confirmation.answered(turn, yes=True)
        if answered is not None:
            return answered
        offer = state.awaiting(ResumeOffer)
        offered = state.stack.find(offer.flow_id) if offer else None
        if offered is not None and offered.state is FlowState.PAUSED:
            return self.resume(turn, offered)
        retry = state.awaiting(RetryOffer)
        if retry is not None and state.active is not None and retry.flow_id == state.active.flow_id:
            state.pending = None
            return True
        asked = state.active.slots.get(state.waiting_for_slot or "") if state.active is not None else None
        if asked is not None and asked.params.get("confirmation"):
            # ('yes cancel it. oh and btw do you fly to Tokyo?' to 'Are you sure ...?': the yes answers its own question)
            state.active.fill_slots_by_label({asked.name: "yes"}, turn.slot_ctx)
            return True
        return await self.on_unknown(turn, Clarify())

    def reviewed_plan(self, turn: Turn) -> BaseFlow | None:
        """The plan whose proposal awaits the user's yes or no (the plan feedback phase)."""
        review = turn.state.awaiting(PlanReview)
        if review is None:
            return None
        turn.state.pending = None
        plan = turn.state.stack.find(review.plan_id)
        return plan if plan is not None and plan.state is FlowState.ACTIVE else None

    async def on_deny(self, turn: Turn) -> bool:
        state = turn.state
        plan = self.reviewed_plan(turn)
        if plan is not None:
            turn.cancel(plan, "the user turned the plan down")
            turn.replies.append(turn.template("cancelled", phrase=plan.label))
            return False
        approval = state.awaiting(Approval)
        if approval is not None:
            state.pending = None
            flow = state.stack.find(approval.flow_id)
            if flow is not None and flow.live:
                turn.cancel(flow, f"the user declined {approval.tool}")
            turn.replies.append(turn.template("approval_declined", tool=approval.tool, phrase=flow.label if flow else ""))
            return False
        answered = confirmation.answered(turn, yes=False)
        if answered is not None:
            return answered
        offer = state.awaiting(ResumeOffer)
        offered = state.stack.find(offer.flow_id) if offer else None
        if offered is not None and offered.live:
            state.pending = None
            turn.cancel(offered, "the user declined to resume it")
            turn.replies.append(turn.template("resume_declined", phrase=offered.label))
            turn.replies.append(res.offer_resume(turn))  # the next paused flow, if any
            return False
        retry = state.awaiting(RetryOffer)
        if retry is not None and state.active is not None and retry.flow_id == state.active.flow_id:
            state.pending = None
            flow = state.active
            turn.cancel(flow)
            turn.replies.append(turn.template("cancelled", phrase=flow.label))
            return False
        return await self.on_unknown(turn, Clarify())

    async def on_approve(self, turn: Turn) -> bool:
        """Grant the pending call for this turn only, and run its flow (resumed if it was paused)."""
        state = turn.state
        pending = state.awaiting(Approval)
        if pending is None:
            return await self.on_unknown(turn, Clarify(reason="no_approval"))
        state.pending = None
        flow = state.stack.find(pending.flow_id)
        if flow is None or not flow.live:
            turn.replies.append(f"That request to run {pending.tool} is no longer open.")
            return False
        if flow.state is FlowState.PAUSED and not self.resume(turn, flow):
            return False
        turn.grants.add(grant_key(pending.tool, pending.args))
        return flow.state is FlowState.ACTIVE

    # -- talk -------------------------------------------------------------------------------
    async def on_digress(self, turn: Turn, command: Digress, u: Understanding) -> bool:
        state = turn.state
        state.digression_depth += 1
        state.last_digression_type = command.topic
        goes_on = bool(command.values) and state.active is not None
        if goes_on:  # ('make that 2 passengers, and can I bring my cat?'): the values first, then the answer
            self.fill(turn, state.active, dict(command.values), {})
        if command.flow:
            answer = await turn.deps.pex.run_detached(turn, command.flow, u)
        elif command.topic == "status":
            answer = self.status(turn)
        elif command.topic == "clarification":
            answer = self.clarify(turn)
        else:
            answer = turn.template("fallback")
        turn.replies.append(answer)
        if goes_on:
            return True  # the task goes on with its new values: its policy asks on, or reads them back
        prompt = res.reprompt(turn)
        if prompt:
            turn.replies.append("\n" + prompt)
        return False

    def status(self, turn: Turn) -> str:
        active = turn.state.active
        if active is None:
            return turn.template("greeting")
        filled = ", ".join(f"{s.label}: {s.display or s.value}" for s in active.slots.values() if s.filled)
        required = [active.slots[n].label for n in active.missing_slots() if active.slots[n].priority == "required"]
        electives = [active.slots[n].label for n in active.missing_slots() if active.slots[n].priority == "elective"]
        missing = ", ".join(required + ([" or ".join(electives)] if electives else []))
        status = turn.template(
            "status",
            phrase=active.label,
            filled=f"So far I have {filled}." if filled else "I don't have any details yet.",
            missing=f"I still need the {missing}." if missing else "I have everything I need.",
        )
        waiting = turn.state.stack.waiting_parts
        return f"{status} After that: {', then '.join(f.label for f in waiting)}." if waiting else status

    def clarify(self, turn: Turn) -> str:
        active = turn.state.active
        slot_name = turn.state.waiting_for_slot
        if active is None or slot_name not in active.slots:
            return turn.template("greeting")
        slot = active.slots[slot_name]
        spec = active.spec.slot(slot_name)
        why = spec.description if spec and spec.description else f"I need the {slot.label} to finish {active.label}."
        return why

    async def on_chitchat(self, turn: Turn, waits: bool = False) -> bool:
        greets = lx.GREETING.match(turn.text) and turn.state.active is None  # 'hello there' is answered in kind
        prompt = res.reprompt(turn)
        if waits:
            turn.replies.append(turn.template("wait"))  # 'one sec': no task asked, none dropped
        elif prompt and turn.state.active is None and lx.only_thanks(turn.text):
            turn.replies.append(turn.template("welcome"))  # 'thanks for that' to 'continue booking ...?'
        elif not prompt or turn.state.active is None:
            turn.replies.append(turn.template("greeting" if greets else "chitchat"))
        if prompt:
            turn.replies.append(prompt)  # 'ok lets continue' mid-task: the question stands, not 'what would you like?'
        return False

    async def on_unknown(self, turn: Turn, u: Clarify) -> bool:
        if u.reason == "no_approval":
            turn.replies.append("There's nothing waiting for approval right now.")
        else:
            turn.replies.append(turn.template("fallback"))
        prompt = res.reprompt(turn)
        if prompt:
            turn.replies.append(prompt)
        return False
