"""Confirmation before irreversible actions.

A flow whose tool changes state and cannot be safely repeated (the manifest says
``changes_state`` and ``idempotent: false``) says what it will do in one line and waits for a
yes before the tool runs. A no asks which value to change; a new value given instead ("no,
make it the 14th") changes it and asks again. ``confirm: always | never`` in the pack
overrides the manifest; a flow with its own yes/no ``confirmation`` slot is never asked twice.

What the user said yes to is kept as a digest of the flow's values: changing any of them
asks again.
"""

from __future__ import annotations

import re

from ..state.confirmation import digest, irreversible, needed, remember  # noqa: F401  (the pure rule; re-exported)
from ..state.flows import BaseFlow, FlowState
from ..state.pending import ChangeChoice, Confirmation
from ..state.slots import BaseSlot, Candidate, FreeTextSlot
from . import lexicon as lx
from .freetext import name_run
from .slot_reading import holds_whole_request
from .nlu import Understanding
from .render import render

from .turn import Turn


def ask(turn: Turn, flow: BaseFlow) -> str | None:
    """The confirmation question for ``flow``, or None when it may run now."""
    if not needed(flow.spec, turn.deps.domain.tools):
        return None
    current = digest(flow)
    if turn.state.confirmed.get(flow.flow_id) == current:
        return None
    turn.state.pending = Confirmation(flow_id=flow.flow_id, digest=current)
    turn.state.waiting_for_slot = None
    return line(turn, flow)


def shown_slots(flow: BaseFlow) -> list[BaseSlot]:
    return [s for s in flow.slots.values() if s.filled and not s.params.get("confirmation")]


def line(turn: Turn, flow: BaseFlow) -> str:
    """'Booking a new flight from Boston to Paris on December 12 for 2 passengers — shall I go ahead?',
    or the flow's own ``responses.confirm`` line rendered with its values."""
    own = flow.spec.responses.get("confirm")
    if own:
        summary = render(own, turn.values(flow))
    else:
        cued, others = [], []
        for slot in shown_slots(flow):
            cue = cue_word(slot) if not str(slot.display or slot.value).isdigit() else None  # 'for 1' says too little
            (cued if cue else others).append(f"{cue} {slot.display or slot.value}" if cue else shown(slot))
        summary = flow.label[:1].upper() + flow.label[1:]
        if cued:
            summary += " " + " ".join(cued)
        if others:
            summary += (", " if cued else ": ") + ", ".join(others)
    return turn.template("confirm", summary=summary)


def cue_word(slot: BaseSlot) -> str | None:
    """The preposition that introduces this slot's value: 'from' an origin, 'on' a date, 'for' passengers."""
    parts = set(slot.name.split("_"))
    return next((cue for cue, names in lx.CUE_SYNONYMS.items() if parts & names), None)


def shown(slot: BaseSlot) -> str:
    """'seat window', '2 passengers' (a display that names its slot needs no label)."""
    display = str(slot.display or slot.value)
    named = {lx.stem(w) for w in lx.tokens(slot.label)} <= {lx.stem(w) for w in lx.tokens(display)}
    return display if named else f"{slot.label} {display}"


def change_question(turn: Turn, flow: BaseFlow) -> str:
    names = [s.label for s in shown_slots(flow)] or [s.label for s in flow.slots.values()]
    options = ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1] if names else "the details"
    return turn.template("ask_change_which", options=options)


def question(turn: Turn, pending: Confirmation | ChangeChoice) -> str:
    """The question to repeat after a digression."""
    flow = turn.state.stack.find(pending.flow_id)
    if flow is None or not flow.live:
        return ""
    return line(turn, flow) if isinstance(pending, Confirmation) else change_question(turn, flow)


def answered(turn: Turn, *, yes: bool) -> bool | None:
    """A yes or no to the pending confirmation: None when none is pending for the active flow,
    else whether the active flow should run now (a yes runs it; a no asks what to change)."""
    state = turn.state
    pending = state.pending
    if not isinstance(pending, (Confirmation, ChangeChoice)):
        return None
    flow = state.active
    if flow is None or flow.flow_id != pending.flow_id or flow.state is not FlowState.ACTIVE:
        return None
    state.pending = None
    if isinstance(pending, ChangeChoice):
        return True  # nothing to change after all: the flow asks for its confirmation again
    if not yes:
        state.pending = ChangeChoice(flow_id=flow.flow_id)
        turn.replies.append(change_question(turn, flow))
        return False
    if digest(flow) == pending.digest:
        remember(state, flow)
    return True


def slot_named(turn: Turn, pending: Confirmation | ChangeChoice, u: Understanding) -> Understanding:
    """An answer to 'shall I go ahead?' or 'what would you like to change?' that names what to change.

    'no, make it the 14th' changes the date (and the flow asks again); 'the date', 'no, the
    date' or 'change the date' clears the date so that it is asked for; 'no, leave it' or
    'never mind' drops the task; anything else is left as understood.
    """
    state = turn.state
    flow = state.active
    if flow is None or flow.flow_id != pending.flow_id:
        return u
    if (lx.DENY.match(u.text) or lx.NO_LEAD.match(u.text)) and (lx.LET_IT_BE.search(u.text) or lx.is_closing(u.text)) \
            and not (u.act in ("fill", "correct") and u.labels) \
            or lx.CANCEL.match(u.text) and lx.NO_LEAD.match(u.text):  # ('no forget the whole thing, I'll think ...')
        # (not 'no, the original time is better, make it 9am': a new value is given)
        # 'no, leave it', 'never mind', 'no, that's all': the task is let go, not only the question
        state.pending = None
        return Understanding("cancel", u.text, flow=flow.name, confidence=u.confidence, rule="lets_it_go")
    if u.act == "start" and u.flow != flow.name and (isinstance(pending, ChangeChoice) or lx.CORRECTION.search(u.text)):
        changed = new_values(turn, flow, u, asked=isinstance(pending, ChangeChoice))
        if changed is not None:
            return changed
    if u.labels and not _names_a_slot_only(flow, u):
        return u
    # (a 'fill' with no value: 'Yes - I mean, yes, book it' names the task being read back, and nothing new)
    if isinstance(pending, Confirmation) and u.act in ("start", "digress", "unknown", "fill") and says_yes_first(u.text) \
            and not turn.deps.understander.names_another_task(u.text, flow.name):  # ('yes, send it' to a booking's)
        # 'Yes, that is correct. Does the restaurant have live music?': the yes answers the read-back
        return Understanding("affirm", u.text, confidence=u.confidence, rule="says_yes_first")
    no = lx.NO_LEAD.match(u.text)
    said_no = no is not None
    if isinstance(pending, Confirmation) and not said_no and (lx.AFFIRM.match(u.text) or not asks_to_change(flow, u.text)):
        return u  # ('ok go for it' is a yes, though 'for' can point at a day)
    lead = no or lx.YES_NO_LEAD.match(u.text)
    rest = lead["rest"] if lead is not None else u.text
    if said_no and rest.strip():
        labels, rejected = turn.deps.understander.reader.read(flow.spec, flow.slots, rest, turn.slot_ctx, None)
        if not (labels or rejected):
            labels = _name_given_again(flow, rest)
        if labels or rejected:
            return Understanding("correct", u.text, flow=flow.name, labels=labels, rejected=rejected,
                                 confidence=u.confidence)
    slot = named_slot(flow, rest)
    if slot is None:
        return u
    # ('the time pls': the day stays, and '4:30pm' alone is that day's new time)
    slot.ask_again(keep_day=bool(_TIME_ONLY.search(rest)) and not _DAY_TOO.search(rest))
    turn.refused[flow.flow_id] = slot.name  # asked for again, even an optional one, then confirmed again
    state.pending = None
    return Understanding("fill", u.text, flow=flow.name, confidence=u.confidence, rule="names_the_value_to_change")


def _name_given_again(flow: BaseFlow, rest: str) -> dict[str, Candidate]:
    """'no, wrong surgery, it should be Brookfield Health Centre' to a read-back: a name in capitals,
    said after the no, replaces the one free-text value the flow holds (nothing when it holds several)."""
    held = [n for n, s in flow.slots.items() if isinstance(s, FreeTextSlot) and s.filled and s.source != "default"
            and (spec := flow.spec.slot(n)) is not None and not holds_whole_request(flow.spec, spec)]
    run = name_run(rest) if len(held) == 1 else None
    if run is None or not run.value[:1].isupper() or run.value == flow.slots[held[0]].value:
        return {}
    return {held[0]: Candidate(run.value, run.display, run.start, run.end, 0.5)}


def no_with_values(turn: Turn, u: Understanding) -> Understanding:
    """'no, make it 11am' to a flow's own yes/no ``confirmation`` slot: the values said change
    (and the question comes again once they are in); a no alone, or 'no, keep it', still declines."""
    flow, waiting = turn.state.active, turn.state.waiting_for_slot
    if flow is None or waiting not in flow.slots or not flow.slots[waiting].params.get("confirmation") \
            or u.act not in ("fill", "correct") or waiting not in u.labels:
        return u
    lead = lx.YES_NO_LEAD.match(u.text)
    if lead is None or not lead["rest"].strip() or lx.tokens(u.text)[:1] not in (["no"], ["nope"], ["nah"]):
        return u
    labels, rejected = dict(u.labels), dict(u.rejected)
    if set(labels) == {waiting}:
        labels, rejected = turn.deps.understander.reader.read(flow.spec, flow.slots, lead["rest"], turn.slot_ctx, None)
    labels.pop(waiting, None)
    rejected.pop(waiting, None)
    if not (labels or rejected):
        return u
    return Understanding("correct", u.text, flow=flow.name, labels=labels, rejected=rejected,
                         confidence=u.confidence, rule="changes_instead_of_no")


_FIRST_CLAUSE = re.compile(r"[.!?;]|\s[-–—]\s|,\s*(?=(?:what|whats|what's|where|when|how|who|which|is|are|does|do|can|could)\b)",
                           re.IGNORECASE)
# what takes a yes back or puts it on hold ('Yes... actually no', 'Yeah. Wait, is that this Thursday?')
_TAKEN_BACK = re.compile(r"\b(?:no|not|wait|hold on|hang on|actually|cancel|change|instead|but|rather|sorry|hmm+|"
                         r"is (?:that|it)|different|another|other)\b", re.IGNORECASE)


def says_yes_first(text: str) -> bool:
    """'Yes, that is correct. What's their number?', 'Yeah, that sounds right - ...': a clear yes
    in the first clause, and nothing after it that takes it back, puts it on hold or checks the
    values read back ('ok, what's the price?' is no clear yes; 'Yes - hold on, can I change the
    doctor?' holds it)."""
    parts = _FIRST_CLAUSE.split(text, maxsplit=1)
    first, rest = parts[0], parts[1] if len(parts) > 1 else ""
    return bool(set(lx.tokens(first)) & lx.CLEAR_YES) and lx.agrees(first) and not _TAKEN_BACK.search(rest)


def new_values(turn: Turn, flow: BaseFlow, u: Understanding, asked: bool = False) -> Understanding | None:
    """'make it 45' to 'what would you like to change?': values of the flow being confirmed, said
    without a word of the other task they might also fit, change this flow's values; when that was
    ``asked``, in any words but a request of the other task's own ('the number of people, there's three
    of us now')."""
    understander = turn.deps.understander
    labels, rejected = understander.reader.read(flow.spec, flow.slots, u.text, turn.slot_ctx, None)
    if not (labels or rejected):
        return None
    said = [(c.start, c.end) for c in labels.values()] + lx.act_spans(u.text) \
        + [m.span() for m in lx.SELF_REPAIR.finditer(u.text)]  # 'make it' names no task
    requests = bool(lx.REQUEST_ANYWHERE.search(u.text) or lx.WANTS.match(u.text)) \
        or understander.scorer.verb_flow(u.text) == u.flow
    if u.flow and (requests or not asked) and understander.scorer.names_task(u.text, said, u.flow):
        return None  # 'actually, transfer 45 to savings': the other task, by its words
    return Understanding("correct", u.text, flow=flow.name, labels=labels, rejected=rejected,
                         confidence=u.confidence, rule="changes_a_confirmed_value")


# Words that ask for an edit without saying what the new value is ('change the date').
EDIT_WORDS = frozenset({"change", "edit", "modify", "update", "fix", "correct", "switch", "different", "another",
                        "wrong", "rather", "instead", "actually", "wait", "hmm", "hold", "on"})


_MOMENT_WORDS = frozenset(lx.stem(w) for w in ("date", "day", "time"))
_TIME = lx.stem("time")


def asks_to_change(flow: BaseFlow, text: str) -> bool:
    """'change the destination': the text names one slot of the flow and says nothing else."""
    slot = named_slot(flow, text)
    if slot is None:
        return False
    rest = {lx.stem(w) for w in lx.tokens(text) if w not in lx.STOPWORDS and w not in EDIT_WORDS}
    return rest <= _slot_words(slot)


def _slot_words(slot: BaseSlot) -> frozenset[str]:
    """The words that name a slot: its label and name, and for a day or time slot called 'when',
    'the date' too."""
    words = {lx.stem(w) for w in lx.tokens(f"{slot.label} {slot.name.replace('_', ' ')}")}
    if "Date" not in slot.type_name:
        return frozenset(words)
    # ('the time' is not a date of birth, which takes no time of day)
    return frozenset(words | (_MOMENT_WORDS - {_TIME} if slot.params.get("time") == "none" else _MOMENT_WORDS))


def _names_a_slot_only(flow: BaseFlow, u: Understanding) -> bool:
    """'the pickup address' to 'what would you like to change?': the free text read is the words that
    name a slot ('address'), not a new value for it (an option is one: 'by video instead')."""
    slot = named_slot(flow, u.text)
    return slot is not None and all(
        isinstance(flow.slots.get(name), FreeTextSlot) and (said := lx.content_stems(str(c.value)))
        and said <= _slot_words(slot) for name, c in u.labels.items())


def named_slot(flow: BaseFlow, text: str) -> BaseSlot | None:
    """The one slot whose label or name the text says ('the date', 'number of passengers', 'from')."""
    said = {lx.stem(w) for w in lx.tokens(text) if w not in lx.STOPWORDS or w in lx.CUE_SYNONYMS}
    cued = {syn for w in lx.tokens(text) for syn in lx.CUE_SYNONYMS.get(w, ())} if len(said) == 1 else set()
    scores: list[tuple[int, BaseSlot]] = []
    for slot in flow.slots.values():
        if slot.params.get("confirmation"):
            continue
        words = _slot_words(slot) - lx.STOP_STEMS
        score = len(said & words) + (1 if words & {lx.stem(c) for c in cued} else 0)
        if score:
            scores.append((score, slot))
    if not scores:
        return None
    best = max(s for s, _ in scores)
    top = [slot for s, slot in scores if s == best]
    return top[0] if len(top) == 1 else None


# 'the time pls', 'a different hour': the time of a day-and-time, not its day
_TIME_ONLY = re.compile(r"\b(?:time|times|hour|o'?clock|slot)\b", re.IGNORECASE)
_DAY_TOO = re.compile(r"\b(?:day|date|days|dates|both|everything|all)\b", re.IGNORECASE)
