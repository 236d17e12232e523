"""System-1 understanding: decide the dialogue act of a user turn, offline and zero-shot.

Everything comes from the domain's YAML (flow descriptions, examples, keywords, slot prompts)
and the typed slot parsers; no per-domain code, no model. The result keeps the top three
flows with their confidence. When it is unsure it says so (``confident=False``), and the
agent may ask System 2 (``contemplate``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..domain.models import DomainPack, FlowSpec
from ..state.slots import BaseSlot, Candidate, CategorySlot, DateTimeSlot, ExactSlot, FreeTextSlot, SlotContext
from ..state.text import KIN, KIN_OWNER, parse_number, people_listed
from ..state.times import find_times
from . import lexicon as lx
from .commands import (
    Affirm,
    Approve,
    CancelFlow,
    ChitChat,
    Clarify,
    Close,
    Command,
    CorrectSlot,
    Deny,
    Digress,
    Part,
    ResumeFlow,
    SetSlots,
    StartFlow,
)
from .embedding import load_embedder
from .freetext import could_be_a_name, name_run, names_nothing, not_a_value, roles_of
from .options import PEOPLE_STEMS, count_units, counts_things, is_count
from .reference import kind_of, referred
from .scoring import FlowScorer, cue_score, mask, strip_cues, value_key
from .slot_reading import CUED, SlotReader, holds_whole_request, remainder



@dataclass(frozen=True)
class ActiveView:
    """What understanding needs to know about the active flow."""

    name: str
    spec: FlowSpec
    slots: Mapping[str, BaseSlot]
    last_filled: str | None = None
    flow_id: str | None = None
    next_question: str | None = None  # the slot the flow asks for next (for a paused flow offered back)


@dataclass(frozen=True)
class NLUView:
    active: ActiveView | None
    waiting_for_slot: str | None
    paused: Sequence[tuple[str, str]]  # (flow_id, name), most recent last
    pending_offer: bool = False
    confirming: bool = False  # the offer asks to go ahead with what was read back ('shall I go ahead?')
    pending_approval: bool = False
    recent: str | None = None  # the flow that ended last, when none is active: the conversation's focus
    offered: ActiveView | None = None  # the paused flow a resume offer names
    queued: list[tuple[str, str]] = field(default_factory=list)  # (flow_id, name): later parts of a request, next first
    done: Sequence[str] = ()  # the flows that ended lately (names), last last


@dataclass
class Understanding:
    act: str  # start | fill | correct | digress | resume | cancel | affirm | deny | chitchat | close | approve | unknown
    text: str
    flow: str | None = None  # target flow (start, digress, cancel); flow_id for resume
    labels: dict[str, Candidate] = field(default_factory=dict)  # slot -> value for the target flow
    rejected: dict[str, str] = field(default_factory=dict)  # slot -> why its value was refused
    confidence: list[tuple[str, float]] = field(default_factory=list)  # top 3 flows
    digression_type: str | None = None
    confident: bool = True
    refers_back: bool = False  # 'book that one', 'cancel it': values come from the task before
    rule: str = ""  # the rule of System 1 that decided (or 'system_2')
    replaces: str | None = None  # start: the live flow (id) to cancel first, to make room
    later: tuple[Part, ...] = ()  # start: the other parts of a multi-part request, queued after it
    beside: dict[str, Candidate] = field(default_factory=dict)  # start, digress: values for the task in progress said beside
    follows: bool = False  # start: the task the look-up just done prepares (its values carry over unless others are said)

    @property
    def command(self) -> Command:
        """The typed command this understanding asks the acts layer to apply."""
        act = self.act
        if act == "start" and self.flow:
            return StartFlow(self.flow, self.labels, self.rejected, self.replaces, self.refers_back, self.later, dict(self.beside),
                             self.follows)
        if act == "fill":
            return SetSlots(self.flow, self.labels, self.rejected)
        if act == "correct":
            return CorrectSlot(self.flow, self.labels, self.rejected)
        if act == "cancel":
            return CancelFlow(self.flow)
        if act == "resume":
            return ResumeFlow(self.flow, self.labels, self.rejected)
        if act == "chitchat":
            return ChitChat(waits=self.digression_type == "wait")
        if act == "affirm":
            return Affirm(asked=self.later)
        simple = {"deny": Deny, "approve": Approve, "close": Close}
        if act in simple:
            return simple[act]()
        if act == "digress":
            return Digress(self.flow, self.digression_type, values=dict(self.beside))
        return Clarify(self.digression_type)

    def to_dict(self) -> dict[str, Any]:
        return {
            "act": self.act,
            "command": self.command.kind,
            "rule": self.rule,
            "flow": self.flow,
            "labels": {k: c.value for k, c in self.labels.items()},
            "rejected": dict(self.rejected),
            "confidence": [[n, round(s, 3)] for n, s in self.confidence],
            "digression_type": self.digression_type,
            "confident": self.confident,
        }


@dataclass(frozen=True)
class Reading:
    """What the rules look at for one turn: computed once, read by each rule in turn."""

    text: str
    view: NLUView
    ctx: SlotContext
    active: ActiveView | None
    waiting: BaseSlot | None
    own_labels: dict[str, Candidate]
    own_rejected: dict[str, str]
    free_answer: Candidate | None
    is_question: bool
    asks: str | None  # what a question asks: 'lookup', 'detail', or None (a request, or no question)
    ranked: list[tuple[str, float]]
    best: str | None
    best_score: float
    best_spec: FlowSpec | None
    strong: bool
    starts_other: bool
    runner_up: float
    held: float = 0.0  # what the flow in focus scored

    def result(self, act: str, **kw: Any) -> Understanding:
        if act in ("start", "digress") and kw.get("flow") == self.best \
                and self.best_score - self.runner_up < CONFIDENT_MARGIN:
            kw["confident"] = False  # two flows nearly tie: System 2, when there is one, decides
        top3 = [(n, round(s, 3)) for n, s in self.ranked[:3]]
        kw.setdefault("refers_back", bool(lx.REFERS_BACK.search(self.text)))
        return Understanding(act, self.text, confidence=top3, **kw)


# what the examples of a loaded pack hold, shared by every agent of that pack in the process
_EXAMPLE_READINGS: dict[int, tuple[DomainPack, dict[Any, Any]]] = {}
_PACKS_KEPT = 64


def _example_readings(domain: DomainPack) -> dict[Any, Any]:
    held = _EXAMPLE_READINGS.get(id(domain))
    if held is None or held[0] is not domain:
        if len(_EXAMPLE_READINGS) >= _PACKS_KEPT:
            _EXAMPLE_READINGS.clear()
        held = _EXAMPLE_READINGS[id(domain)] = (domain, {})
    return held[1]


class Understander:
    """Scores flows from their YAML and reads slot values with the typed parsers."""

    def __init__(self, domain: DomainPack, make_slot: Any, threshold: float | None = None) -> None:
        self.domain = domain
        self.make_slot = make_slot  # SlotSpec -> BaseSlot
        self.threshold = threshold if threshold is not None else domain.settings.confidence_threshold
        flows = [f for f in domain.ontology.flows if f.intent != "Internal"]
        intents = domain.ontology.intents
        readers = frozenset(f.name for f in flows if f.intent in intents and intents[f.intent].role == "read")
        self.scorer = FlowScorer(flows, make_slot, readers, load_embedder(), _example_readings(domain))
        self._pick_cache: dict[str, dict[str, frozenset[str]]] = {}
        self._keyword_cache: dict[str, frozenset[str]] = {}
        self._own_things_cache: dict[str, bool] = {}
        self.reader = SlotReader(self.scorer, make_slot)
        self._examples = {
            _normal(example): spec.name
            for spec in domain.ontology.flows if spec.intent != "Internal"
            for example in spec.examples
        }
        # the words of each example but for its values, for one flow only (read once values can be)
        self._example_words: dict[frozenset[str], str] | None = None
        self._example_kinds: dict[frozenset[str], set[str]] = {}  # ... and the kinds of value those examples name
        self._last_example: tuple[tuple[str, int], str | None] | None = None  # (the turn's text, its example flow)
        # the side tasks a question may go to, and the one of them that says it answers questions
        self._side_tasks = [f for f in flows if f.metadata.digression and f.intent not in ("Internal", "Plan")]
        answering = [f.name for f in self._side_tasks
                     if _QUESTION_STEM in lx.content_stems(f"{f.label} {f.description}")]
        self._answers_questions = answering[0] if len(answering) == 1 else None

    # -- scoring -------------------------------------------------------------
    def rank(
        self, text: str, ignore: Sequence[tuple[int, int]] = (), ctx: SlotContext | None = None,
        values_alone: bool = True, question: bool = False,
    ) -> list[tuple[str, float]]:
        """Every user-facing flow with its score for ``text``, best first (values need ``ctx``).

        A text that is word for word one of a flow's examples, but for the values it names ('what
        are your opening hours on saturday?' of 'What are your opening hours?'), ranks that flow first.
        """
        ranked = self.scorer.rank(text, ignore, ctx, values_alone, question)
        exact = self.example_flow(text, ctx)
        if exact is not None and ranked and ranked[0][0] != exact:
            top = ranked[0][1]
            ranked = _promoted(ranked, exact, max(top, self.threshold) + 0.01)
        return ranked

    def example_flow(self, text: str, ctx: SlotContext | None) -> str | None:
        """The flow one of whose examples ``text`` says word for word, or in the same words but for
        the values both name and the fillers around them ('wait are you open on saturdays?' of 'Are
        you open on Saturday?', 'what are ur opening hours on saturday' of 'What are your opening
        hours?')."""
        key = (text, id(ctx))
        if self._last_example is not None and self._last_example[0] == key:
            return self._last_example[1]  # (asked again by the ranking, its preferences and the focus)
        exact = self._example_of(text, ctx)
        self._last_example = (key, exact)
        return exact

    def _example_of(self, text: str, ctx: SlotContext | None) -> str | None:
        # (a yes, thanks or small talk says no task, even one an example spells; a question may)
        question = lx.is_question(text)
        if not question and not_a_value(text):
            return None
        exact = self._examples.get(_normal(text))
        if exact is None and ctx is not None:
            if self._example_words is None:
                owners: dict[frozenset[str], set[str]] = {}
                for spec in self.domain.ontology.flows:
                    for example in spec.examples if spec.intent != "Internal" else ():
                        spans = self.scorer.example_spans(example, ctx)
                        words = self._plain_words(example, ctx, spans)
                        owners.setdefault(words, set()).add(spec.name)
                        if spans:
                            self._example_kinds.setdefault(words, set()).update(self.scorer.values_in(example, ctx)[0])
                self._example_words = {w: next(iter(names)) for w, names in owners.items() if w and len(names) == 1}
            said = self._plain_words(text, ctx)
            # ('I need to cancel my yoga on saturday', 'cancel' an option of another task: 'i need' alone is no example)
            exact = self._example_words.get(said) if len(said) >= 2 and said - lx.STOPWORDS else None
            if exact is not None and self._names_other_values(text, said, exact, ctx):
                exact = None  # ('Can I book a face to face with a GP?' of 'Can I book bloods for next week?')
            if exact is None and len(said) >= 3:
                exact = self._example_but_a_keyword(said)
            asked = _ASKED_THEN_TOLD.match(text)
            if exact is None and asked is not None and not lx.is_question(asked["told"]) \
                    and not lx.REQUEST_ANYWHERE.search(asked["told"]):
                # "when's my mammogram again? I've lost the letter": an example asked, then a remark
                said = self._plain_words(asked["asked"], ctx)
                exact = self._example_words.get(said) if len(said) >= 2 and said - lx.STOPWORDS else None
        return exact

    def _names_other_values(self, text: str, said: frozenset[str], name: str, ctx: SlotContext) -> bool:
        """Whether ``text``, said in the words of an example of flow ``name`` that names values of its own, names values
        of other kinds, which flow ``name`` cannot hold: the words are alike but for values, and the values differ."""
        named = self._example_kinds.get(said)
        if not named:
            return False  # ('what are ur opening hours on saturday' of 'What are your opening hours?': a value added)
        kinds = self.scorer.values_in(text, ctx)[0] - named - self.scorer.profiles[name].value_keys
        return any(not isinstance(self.scorer.value_slots.get(k), DateTimeSlot) for k in kinds)

    def _example_but_a_keyword(self, said: frozenset[str]) -> str | None:
        """'wat time do u close on sat?' of 'What time do you open on Saturday?': an example said with
        one of its flow's keywords swapped for another keyword of that flow only."""
        owners = set()
        for words, name in (self._example_words or {}).items():
            added, dropped = said - words, words - said
            if len(added) == 1 and len(dropped) == 1:
                own = self._own_keywords(name)
                if {lx.stem(w) for w in added | dropped} <= own:
                    owners.add(name)
        return owners.pop() if len(owners) == 1 else None

    def _own_keywords(self, name: str) -> frozenset[str]:
        """The stems of flow ``name``'s keywords that no other flow lists."""
        cached = self._keyword_cache.get(name)
        if cached is None:
            mine = {lx.stem(k) for k in self.domain.flow(name).keywords}
            others = {lx.stem(k) for f in self.domain.ontology.flows if f.name != name for k in f.keywords}
            cached = self._keyword_cache[name] = frozenset(mine - others)
        return cached

    def _plain_words(self, text: str, ctx: SlotContext, spans: list[tuple[int, int]] | None = None) -> frozenset[str]:
        """The words of ``text`` but for its values and their lead-ins, fillers ('wait', 'oh'), days
        ('on saturdays': every one) and articles and prepositions; texting spelt out ('ur' -> 'your'),
        and 'what time' said as 'when' ('wat time r u open' of 'When are you open?').
        'then', 'and', 'not' stay: 'Book flights to Madrid and then Lisbon' plans a trip of two legs."""
        spans = self.scorer.values_in(text, ctx)[1] if spans is None else spans
        plain = mask(text, [*spans, *lx.value_lead_spans(text, spans)]) if spans else text
        words = lx.WHAT_TIME.sub("when", " ".join(_TEXTED.get(w, w) for w in lx.tokens(plain))).split()
        return frozenset(w for w in words if w not in _SMALL_WORDS and w not in lx.OPENING_FILLERS
                         and w not in _FILLERS and not _DAY_WORD.fullmatch(w))

    def _known_word(self, word: str) -> bool:
        """A word the pack uses or the embedder knows, spelled as written."""
        return word in self.scorer.spelled or self.scorer.is_word(word)

    # -- the act -------------------------------------------------------------
    def understand(self, text: str, view: NLUView, ctx: SlotContext) -> Understanding:
        """The first rule of ``RULES`` that decides, applied to what this turn says."""
        text = lx.mend_slips(lx.plain_words(text.strip()), self._known_word)  # ('yse go aheaf'; not 'find a book')
        for name, rule in PRE_RULES:
            decided = rule(text, view)
            if decided is not None:
                decided.rule = name
                return decided
        turn = self.read(text, view, ctx)
        for name, rule in RULES:
            decided = rule(self, turn)
            if decided is not None:
                decided.rule = name
                return decided
        raise AssertionError("the last rule always decides")  # pragma: no cover

    def read(self, text: str, view: NLUView, ctx: SlotContext) -> Reading:
        """What every rule looks at: the active flow's values in the text, the flows ranked."""
        active = view.active
        waiting = active.slots.get(view.waiting_for_slot) if active and view.waiting_for_slot else None
        # values the active flow could take from this text (their spans are masked for scoring)
        own_labels: dict[str, Candidate] = {}
        own_rejected: dict[str, str] = {}
        if active:
            own_labels, own_rejected = self.reader.read(
                active.spec, active.slots, text, ctx, view.waiting_for_slot, active.last_filled
            )
        if own_labels and (lx.DENY.match(text) and lx.is_closing(text) or lx.CLOSING.match(text) or lx.puts_off(text)):
            # 'no thanks, that's all for today', 'Thank you; that concludes my business for today.' give no date
            own_labels, own_rejected = {}, {}
        if active and own_labels and lx.INSTEAD.search(text):
            own_labels = _said_instead(active, own_labels, text)
        if waiting is not None and waiting.params.get("confirmation") and view.waiting_for_slot in own_labels \
                and self.names_another_task(text, active.name):
            del own_labels[view.waiting_for_slot]  # ('yes, move it' to 'cancel BK-20481?' confirms nothing)
        # an answer to a free-text question is any text: it is taken only if nothing else is meant
        # (a question, small talk, giving up, another task), so it masks nothing for scoring
        free_answer = None
        counted = self._count_said_alone(active, text, ctx) if active and isinstance(waiting, FreeTextSlot) else None
        if counted is not None:  # '2 please' to 'what's the event?': the count the task still needs
            own_labels, own_rejected = counted, {}
        if active and isinstance(waiting, FreeTextSlot) and view.waiting_for_slot in own_labels \
                and own_labels[view.waiting_for_slot].score < CUED:
            free_answer = own_labels.pop(view.waiting_for_slot)
            asked = active.spec.slot(waiting.name) or waiting
            # (the story told to 'what's the problem with it?' is the answer, the task's words in it too)
            if not holds_whole_request(active.spec, asked) and "reason" not in roles_of(asked).roles:
                free_answer = self._task_words_dropped(free_answer, active.name, text, asked)
        is_question = lx.is_question(text)
        asks = self._asks_about(text, is_question)
        if asks is not None and self._asks_by_its_verb(text):
            asks = None
        if asks is not None and view.waiting_for_slot in own_labels and lx.is_tentative(text):
            asks = None  # 'tomorrow after school, like 4pm?' to 'when?': an answer, said unsure
        if asks is not None and own_labels and lx.proposes(text):
            asks = None  # 'ok how about Dec 26': a value put forward for the task in progress
        if asks is not None and self._answered_last(text, own_labels.get(view.waiting_for_slot or "")):
            asks = None  # 'Ha, anyway, where was I. Los Angeles!': the question was to oneself, the answer follows
        # the active flow's values speak for no other flow, even those a question does not give it
        spans = [(c.start, c.end) for c in own_labels.values()] + lx.act_spans(text) + lx.shift_spans(text) \
            + lx.idle_spans(text) + lx.put_aside_spans(text) \
            + lx.before_the_yes_spans(text) + self._task_done_named(text, view.done) + self._own_errands(text, ctx)
        undone = lx.CANCEL_LEAD.match(text) if own_labels else None
        if undone is not None and undone["rest"] and _only_values(undone["rest"], [
                (c.start - undone.start("rest"), c.end - undone.start("rest")) for c in own_labels.values()]):
            spans.append((0, undone.start("rest")))  # 'scratch that, from atlanta': the taking back names no task
            own_labels = _taken_back(active, own_labels, text, ctx) if active else own_labels
        if active and (asks is not None or lx.REMARK.match(text)):  # 'are there hotels near Paris?' gives no address
            # nor answers 'where to?', unless it looks up this very task ('are there buses to Fresno?')
            unasked = asks is not None and (asks != "lookup" or not self.scorer.names_task(text, spans, active.name))
            # ('how long is the wait at old town?' while booking at Old Town: a value restated changes nothing)
            own_labels = {k: c for k, c in own_labels.items()
                          if not (isinstance(active.slots[k], FreeTextSlot) or unasked and k == view.waiting_for_slot
                                  or active.slots[k].filled and active.slots[k].value == c.value)}
        begun = {name for _, name in view.paused} | {active.name if active else None, view.recent} - {None}
        ranked = self.prefer_reading(
            self.rank(text, spans, ctx, values_alone=active is None, question=asks is not None), text, ctx, begun)
        # ('how much does it cost to change a booking?' right after a check: an example of the FAQ, word
        # for word, whatever 'it' seems to point at)
        if active is None and view.recent is not None and lx.REFERS_BACK.search(text) \
                and not (ranked and self.example_flow(text, ctx) == ranked[0][0]):
            ranked = self._takes_what_was_found(ranked, view.recent, text)
            if lx.SAME_AGAIN.search(text):  # 'can you do the same for friday': the task just done, again
                ranked = _promoted(ranked, view.recent, max(ranked[0][1] if ranked else 0.0, self.threshold))
        best, best_score = ranked[0] if ranked else (None, 0.0)
        best_spec = self.domain.flow(best) if best else None
        # the flow in focus keeps it unless another is clearly better, not merely a little
        incumbent = active.name if active else view.recent
        held = dict(ranked).get(incumbent, 0.0) if incumbent else None
        if active is not None and self._not_doing_it(text, active):
            held = 0.0  # ('show me what flights there are ..., not booking anything' while booking: that task holds nothing)
        # two other tasks named equally and weakly mid-task: the words said tell neither ('hang on, let me ask my wife')
        tied = active is not None and best_score < 2 * self.threshold and len(ranked) > 1 and ranked[1][0] != incumbent \
            and ranked[1][1] >= best_score - 1e-9
        strong = best_score >= self.threshold and (best == incumbent or not tied and self._takes_focus(
            text, spans, best, best_score, held, asks, active is not None, ctx, incumbent,
            active.slots if active else {}, waiting))
        starts_other = strong and best_spec is not None and best != (active.name if active else None)
        if starts_other and own_labels and self._only_tells(text, is_question):
            # 'There will be two of us travelling now, myself and my grandson.' to 'what would you like to
            # change?': a statement that gives the task in progress a value, and asks for nothing, answers it
            starts_other = strong = False
        cued = active is not None and any(
            cue_score(text, c, active.spec.slot(n), None) > 0 for n, c in own_labels.items() if active.spec.slot(n)
        )
        if starts_other and cued and lx.CORRECTION.search(text) and best_score < 2 * self.threshold:
            starts_other = False  # "actually, from New York": a correction of this task, not a new one
        # 'hmm no my meeting moved, the 12th then': a value given again, changed, and nothing asked for
        changes = active is not None and any(active.slots[k].filled and active.slots[k].value != c.value
                                             for k, c in own_labels.items())
        # ('oh wait no, wednesday the 9th': a repair; not 'oops, whats the status of BK-31337?', a question)
        if starts_other and changes and (lx.CORRECTION.search(text) or lx.SETTLES_ON.search(text)
                                         or lx.SELF_REPAIR.search(text) and not is_question) \
                and not (lx.REQUEST_ANYWHERE.search(text) and not lx.PROPOSES_ANYWHERE.search(text)) \
                and not lx.ORDER.match(text) and self.scorer.verb_flow(text) != best \
                and not self.scorer.names_flow(text, best, active.name):
            starts_other = False  # (', can we do friday at 10 instead' puts a value forward, it asks no other task)
        # 'can we switch the date to dec 11', 'swap to an aisle seat' at the read-back: a value of this
        # task changed in the words of changing, not a change to a booking named elsewhere ('BK-20481')
        changed_here = {k: c for k, c in own_labels.items() if active and not active.slots[k].params.get("confirmation")}
        if starts_other and changed_here and lx.CHANGE_TO.search(text) and not self.scorer.reference_spans(text, ctx) \
                and not any(active.slots[k].filled and active.slots[k].value == c.value for k, c in changed_here.items()):
            besides = lx.CHANGE_TO.sub(" ", text)  # (what else the turn asks for, the words of changing aside)
            if not self.scorer.requested_flows(besides) - {active.name} and self.scorer.verb_flow(besides) in (None, active.name):
                starts_other = False
        return Reading(
            text=text, view=view, ctx=ctx, active=active, waiting=waiting, own_labels=own_labels,
            own_rejected=own_rejected, free_answer=free_answer, is_question=is_question, asks=asks, ranked=ranked,
            best=best, best_score=best_score, best_spec=best_spec, strong=strong, starts_other=starts_other,
            runner_up=ranked[1][1] if len(ranked) > 1 else 0.0, held=held or 0.0,
        )

    # -- the rules, in the order they are tried (RULES below) -----------------------------------
    def answers_yes_no_slot(self, r: Reading) -> Understanding | None:
        """'no, keep it' to 'Cancel BK-20481?': a yes/no question being answered fills its slot
        ('go on then' too, in words its options do not list)."""
        if r.waiting is None:
            return None
        if r.view.waiting_for_slot not in r.own_labels and r.waiting.params.get("confirmation"):
            agrees = lx.agrees(r.text) or self._yes_then_its_verb(r)
            asked = () if agrees else self._yes_then_asks(r)
            if asked:  # ('yes cancel it. oh and btw do you fly to Tokyo?' to 'Are you sure ...?': yes, and the question answered)
                return r.result("affirm", later=asked)
            said = "yes" if agrees and not self.names_another_task(r.text, r.active.name) \
                else "no" if lx.DENY.match(r.text) or self._keeps_it(r) \
                else None  # ('yes, book it' to 'cancel BK-31337?' is no yes; '... Please don't cancel it.' is a no)
            check = r.waiting.check(said, r.ctx) if said else None
            if check is not None and check.ok:
                answer = Candidate(check.value, check.display, 0, len(r.text), 0.8)
                return r.result("fill", flow=r.active.name, labels={r.waiting.name: answer})
        if r.view.waiting_for_slot not in r.own_labels:
            return None
        if any(k != r.view.waiting_for_slot and r.active.slots[k].filled and r.active.slots[k].value != c.value
               for k, c in r.own_labels.items()):
            return None  # ('actually no, cancel BK-20481 instead' to 'cancel BK-31337?': another value, not an answer)
        if lx.agrees(r.text) or lx.DENY.match(r.text) \
                or self._answers_yes_no(r.text, r.waiting, r.ranked, r.active) \
                or self._keeps_it(r):
            return r.result("fill", flow=r.active.name, labels=r.own_labels)
        return None

    def accepts_offer(self, r: Reading) -> Understanding | None:
        # to 'shall I go ahead?' a yes in any words ('yes thats it'); to an offer to go back to a
        # task only a plain yes ('that works for me' judges what was just found)
        if r.view.confirming:
            agrees = (lx.agrees(r.text) or self._yes_then_its_verb(r) or self._yes_restating(r)) \
                and not (r.active is not None and self.names_another_task(r.text, r.active.name))
        else:
            agrees = lx.AFFIRM.match(r.text) or lx.AGREES.match(r.text) or self._yes_to_go_back(r)
        if r.view.pending_offer and not agrees and r.view.confirming:
            asked = self._yes_then_asks(r)
            if asked:  # ('Yes, that's correct. Can I bring my cat?': the yes, then the question answered)
                return r.result("affirm", later=asked)
        return r.result("affirm") if r.view.pending_offer and agrees else None

    def _yes_then_asks(self, r: Reading) -> tuple[Part, ...]:
        """'Yes, that's correct. Can I bring my cat?' to 'shall I go ahead?': sentences that only say yes, then questions
        a side task answers (not requests: 'Yes. Can you also book a hotel?'; nor a yes with a doubt: 'yes but is it
        refundable?'), each as the part that side task takes."""
        sentences = [s.strip() for s in _SENTENCES.split(r.text.strip()) if s.strip()]
        said = 0
        while said < len(sentences) and (lx.agrees(sentences[said]) or self._yes_then_its_verb(r, sentences[said])) \
                and not _DOUBT.search(sentences[said]):
            said += 1
        questions = sentences[said:]
        if not said or not questions or any(_DOUBT.match(q) or not lx.is_question(q) or self._asks_about(q, True) is None
                                            for q in questions):
            return ()
        parts = []
        for q in questions:
            # (by its words: a place asked about, 'do you fly to Tokyo?', is no value for a task here)
            ranked = self.rank(q, (), None, values_alone=False, question=True)
            clear = bool(ranked) and (ranked[0][1] >= self.threshold or ranked[0][1] > 0 and (
                len(ranked) < 2 or ranked[0][1] - ranked[1][1] >= CONFIDENT_MARGIN))
            if not clear or not self.domain.flow(ranked[0][0]).metadata.digression:
                return ()  # (only a side question is answered beside the yes: a look-up asked for waits its turn)
            name = ranked[0][0]
            labels, rejected = self._read_new(self.domain.flow(name), q, r.ctx)
            parts.append(Part(name, labels, rejected, words=q))
        return tuple(parts)

    def _yes_to_go_back(self, r: Reading) -> bool:
        """'Yes, finish the booking.', 'YES OBVIOUSLY' to 'continue booking a new flight?': a yes, then
        only words of going on with the task offered (its own words, 'finish', 'continue') or of insisting."""
        yes = _YES_FIRST.match(r.text)
        offered = r.view.offered
        if yes is None or offered is None or r.is_question or r.own_labels:
            return False
        rest = lx.content_stems(r.text[yes.end():])
        # (the words the pack itself gives the task, not its examples': 'sounds good' may be said in one)
        going_on = self.scorer.declared_task_words(offered.name) | lx.content_stems(offered.spec.label) | _GOING_ON
        return bool(rest & _GOING_ON) and not rest - going_on - _COURTESY  # (a word of going on said: not 'yes, that will work')

    def names_another_task(self, text: str, name: str) -> bool:
        """'yes, cancel it' to a booking's read-back, 'yes, move it' to 'cancel BK-20481?': a verb of
        another task than flow ``name``, the one asking, takes the yes back (it never books); a no has
        no yes to take back ('no wait, keep it'), and a task put off for later is an aside ('yes cancel
        it, i'll book another one later')."""
        if lx.NO_LEAD.match(text) or lx.DENY.match(text):
            return False
        for word in lx.tokens(_LATER_ASIDE.sub(" ", text)):
            other = self.scorer.request_verbs.get(word)
            if other is None and word not in self.scorer.spelled:
                other = self.scorer.request_verbs.get(self.scorer.mend(word))  # ('yes, cancle it')
            if other is not None and other != name and not self.domain.flow(other).metadata.digression:
                return True
        return False

    @staticmethod
    def _yes_restating(r: Reading) -> bool:
        """"yes, friday's perfect" to 'Move VX-1001 to Dec 4 at 14:00 - shall I go ahead?': a yes that
        says again a value already read back (and nothing new) agrees."""
        active = r.active
        if active is None or not r.own_labels or _YES_FIRST.match(r.text) is None or r.is_question \
                or not all(k in active.slots and active.slots[k].filled and active.slots[k].value == c.value
                           for k, c in r.own_labels.items()):
            return False
        # ('yes friday I think', 'yes flu, and covid too', 'yes friday, wait': held back, or more asked for)
        said = mask(r.text, [(c.start, c.end) for c in r.own_labels.values()])
        return lx.agrees(re.sub(r"\s+'s\b", " is", said))  # ("friday's perfect": the day masked, 'is perfect')

    def _yes_then_its_verb(self, r: Reading, text: str | None = None) -> bool:
        """'ok fine, yes go ahead and cancel', 'sure, move it', 'yes cancel it cheers' to the read-back of
        that very task: a yes, then the task's own verb and nothing else of it ('yes, cancel' to a
        booking's read-back is no yes). ``text``: a sentence of the turn (the whole turn by default)."""
        said = r.text if text is None else text
        yes = _YES_FIRST.match(said)
        if yes is None or r.active is None or (lx.is_question(said) if text is not None else r.is_question) \
                or text is None and r.own_labels:
            return False
        rest = _GO_AHEAD_AND.sub("", said[yes.end():])
        verb = lx.opener(rest) or ""
        if (self.scorer.verb_flow(rest) or self.scorer.request_verbs.get(verb)) != r.active.name:
            return False  # ('yes please, move it' to a change's read-back: 'move' is one of its request verbs)
        return not lx.content_stems(rest) - self.scorer.task_words(r.active.name) - {lx.stem(verb)} - _COURTESY

    def answers_resume_offer(self, r: Reading) -> Understanding | None:
        """'to Denver please' to 'continue booking your flight?': resume it and fill it."""
        offered = r.view.offered
        # ('how much is a hearing test?' names a value to ask about it: it is answered, not stored)
        if offered is None or r.asks is not None or lx.DENY.match(r.text) or lx.CANCEL.match(r.text) \
                or lx.is_closing(r.text) \
                or not (r.best in (None, offered.name) or not r.strong or not lx.REQUEST_ANYWHERE.search(r.text)):
            return None
        # 'Lena Fischer', 'a rash on my neck': the answer to the question resuming would ask next (a
        # free-text answer only when the turn is nothing but a name or a short phrase that judges
        # nothing and asks for no task: 'That house sounds good' answers another question)
        nxt = None if r.is_question else offered.next_question
        if nxt is not None and isinstance(offered.slots[nxt], FreeTextSlot):
            said = r.text.strip().rstrip(".!")
            run = name_run(said)
            named = run is not None and (run.start, run.end) == (0, len(said))
            phrase = not r.strong and not lx.act_spans(said) and len(lx.tokens(said)) <= 6 and not not_a_value(said)
            nxt = nxt if named or phrase else None
        labels, rejected = self.reader.read(offered.spec, offered.slots, r.text, r.ctx, nxt)
        # ('ok. for the LA one, December 16 please': a value the task holds already names the task, it changes nothing)
        held = {s.value for s in offered.slots.values()
                if s.filled and s.source != "default" and isinstance(s.value, str)}
        labels = {k: c for k, c in labels.items() if k == nxt or not isinstance(c.value, str) or c.value not in held}
        if labels or rejected:
            return r.result("resume", flow=offered.flow_id, labels=labels, rejected=rejected)
        return None

    def takes_the_next_step(self, r: Reading) -> Understanding | None:
        """'yes please' right after a look-up finished: go on to the task it prepares (the flow that
        changes something and shares most of the look-up's slots: search, then book it)."""
        if r.active is not None or r.view.pending_offer or r.view.recent is None:
            return None
        follow = self.follow_up(r.view.recent)
        verb = self.scorer.verb_flow(r.text)
        # 'nice, book that one': the next step's own verb, pointing back at what was found
        named = verb is not None and verb == follow and lx.REFERS_BACK.search(r.text)
        if not (lx.AFFIRM.match(r.text) or lx.TAKES_IT.search(r.text) or named):
            return None
        if follow is None or verb is not None and verb != follow:
            return None  # 'great, please move it' after a look-up asks for another task than its next step
        spec = self.domain.flow(follow)  # 'I'll take one for 4 days': the values said go with it ('one' is none)
        taken = lx.TAKES_IT.search(r.text)
        # (the people put on it are a value: 'put 2 PAX on that one')
        if taken is None:
            text = r.text
        elif taken["count"] is None:
            text = mask(r.text, [taken.span()])
        else:
            text = mask(r.text, [(taken.start(), taken.start("count")), (taken.end("count"), taken.end())])
        labels, rejected = self._read_new(spec, text, r.ctx)
        return r.result("start", flow=follow, labels=labels, rejected=rejected, refers_back=True)

    def follow_up(self, name: str) -> str | None:
        """The one flow that changes state and shares the most slot names with look-up ``name``."""
        if name not in self.scorer.readers:
            return None
        mine = {s.name for s in self.domain.flow(name).slots}
        shared = sorted(((len(mine & {s.name for s in spec.slots}), spec.name) for spec in self.domain.ontology.flows
                         if spec.name not in self.scorer.readers and spec.intent not in ("Internal", "Plan", "Converse")
                         and not spec.metadata.digression), reverse=True)
        if not shared or shared[0][0] == 0 or len(shared) > 1 and shared[1][0] == shared[0][0]:
            return None
        return shared[0][1]

    def declines_offer(self, r: Reading) -> Understanding | None:
        if not r.view.pending_offer:
            return None
        if r.view.confirming and r.active is not None and lx.KEEPS_IT.search(r.text) and not r.is_question:
            # ('On reflection, I withdraw that instruction; the original date shall stand.': what is held stays)
            return r.result("cancel", flow=r.active.name)
        if lx.DENY.match(r.text):
            return r.result("deny")
        # 'nope, no need now, that's the trip I was thinking of' to 'continue booking ...?': a no, then
        # a remark that asks for nothing and says no value (not 'no, to miami', 'no, i want a hotel')
        lead = lx.NO_LEAD.match(r.text)
        if r.view.offered is None or lead is None or not lead["rest"]:
            return None
        rest = lead["rest"]
        asks = any(c.isdigit() for c in rest) or lx.is_question(rest) or lx.REQUEST_ANYWHERE.search(rest) \
            or lx.WANTS.match(rest) or lx.ORDER.match(rest) or lx.CORRECTION.search(rest) or _asks_more(rest) \
            or self.scorer.verb_flow(rest) is not None or self.scorer.values_in(rest, r.ctx)[0] or lx.RESUME.search(rest)
        return None if asks else r.result("deny")

    def stops(self, r: Reading) -> Understanding | None:
        """'forget it', 'scrap that'; 'ok, cancel it' right after a check cancels what was checked; 'wait no
        dont cancel it keep it' to a cancellation's question (its own verb taken back) stops it."""
        if r.active is not None and r.waiting is not None and not r.waiting.params.get("confirmation") \
                and not r.own_labels and self._keeps_it(r):
            return r.result("cancel", flow=r.active.name)
        if not lx.CANCEL.match(r.text):
            return None
        if r.waiting is not None and r.waiting.priority != "required" and _DONT_WORRY.match(r.text):
            return None  # ("don't worry about it" to 'any special requests?' declines the question, not the task)
        # 'hmm, on second thought, cancel it' right after a booking: its verb, past the fillers
        undo = self.scorer.verb_flow(r.text) if r.active is None and r.view.recent else None
        if undo is not None and lx.REFERS_BACK.search(r.text):
            return r.result("start", flow=undo, labels={})
        if r.active is None and r.view.pending_offer and r.view.offered is not None:
            # ("ah I've already got one with the pharmacist, forget it then" to 'continue booking?': the task offered goes)
            return r.result("cancel", flow=r.view.offered.name)
        return r.result("cancel", flow=r.active.name if r.active else None)

    def stops_everything(self, r: Reading) -> Understanding | None:
        """'stop everything, cancel both', 'forget all of it': the task in progress stops (and the parts
        of the request still waiting, by the agent), whatever task 'cancel' alone would name."""
        if r.active is None or not lx.STOPS_EVERYTHING.search(r.text) \
                or self.scorer.reference_spans(r.text, r.ctx):
            return None
        return r.result("cancel", flow=r.active.name)

    def cancels_paused_by_name(self, r: Reading) -> Understanding | None:
        """'scrap the transfer' while another task is active, 'dont bother with the price alert': cancel
        that paused one (never resume it), or that part queued for later."""
        stop = lx.CANCEL_VERB.search(r.text) or lx.ABANDON.search(r.text) or lx.DONT_BOTHER.search(r.text)
        if not stop:
            return None
        back = lx.RESUME.search(r.text)
        if back is not None and back.start() > stop.start() and self._paused_named(r.text[:back.start()], r.view) is None:
            return None  # 'never mind that, lets go back to booking the flight': the one named is gone back to
        lead = lx.CANCEL_LEAD.match(r.text)
        if r.active is not None and lead is not None and lead["task"] and self._paused_named(lead["task"], r.view) is None \
                and lx.content_stems(lead["task"]) <= self._own_words(r.active):
            return None  # 'nvm the alert, lets do the flight': the task in progress is let go, the paused one wanted
        named = self._paused_named(r.text, r.view)
        return r.result("cancel", flow=named) if named is not None else None

    def stops_then_says_more(self, r: Reading) -> Understanding | None:
        """'never mind, cancel that', 'forget it, it works again': a stop word, then nothing new."""
        lead = self._stops_first(r)
        if not lead or not r.active and r.view.recent:
            return None  # ('nvm, cancel it' right after a check may mean the booking checked)
        rest = lead["rest"]
        if _FIRST_THIS.match(rest):
            return None  # ('Stop, before this please remember me to the check-in of BK-12345': wait, another thing first)
        if lx.CANCEL.match(rest):
            return r.result("cancel", flow=r.active.name if r.active else None)
        if not r.active:
            return None
        given = [(c.start - lead.start("rest"), c.end - lead.start("rest")) for c in r.own_labels.values()
                 if c.start >= lead.start("rest")]
        if _only_values(r.text[lead.start("rest"):], given) or given and lx.INSTEAD.search(rest):
            return None  # 'scratch that, from atlanta', 'nah scratch that, boston instead': the answer taken back, given again
        # what the rest asks for, the task let go aside ('actually forget booking, i just want to look at flights')
        other, score = next(((n, s) for n, s in self.rank(rest, (), r.ctx, question=lx.is_question(rest))
                             if n != r.active.name), (None, 0.0))
        # ('no, forget it, i need to check with her dad first': someone else to ask, no task)
        # (... or says the user will do it themselves: 'forget the repair, I'll just drop it in to reception myself')
        if other is None or score < self.threshold or self.domain.flow(other).metadata.digression \
                or lx.CONSULTS.search(rest) or lx.DOES_IT_ONESELF.match(rest) or not (
                    self._asks_for(rest, other, r.ctx)
                    # ('No, forget the change, go back to the new flight': the paused task named, gone back to)
                    or lx.RESUME.search(rest) and (self._paused_named(rest, r.view), other) in r.view.paused):
            return r.result("cancel", flow=r.active.name)
        return self._starts(r, other, replaces=r.active.flow_id)

    def _stops_first(self, r: Reading) -> re.Match[str] | None:
        """'forget it, ...', 'actually forget booking, ...': the turn first lets the task in progress
        go (by a stop word, or by naming that task), then says more."""
        lead = lx.CANCEL_LEAD.match(r.text)
        if lead is None:
            # ('never mind that, lets go back to booking the flight': to a paused task, not on with this one)
            back = lx.CANCEL_TO_GO_BACK.match(r.text)
            return back if back is not None and r.active is not None and self._paused_named(back["rest"], r.view) else None
        if r.active is None or lead["task"] is None:
            return lead
        named = lx.content_stems(lead["task"]) - {lx.stem(w) for w in lx.ABANDON_FILLER}  # ('scrap the alert idea')
        return lead if named and named <= self._own_words(r.active) else None

    def _only_references(self, text: str, ctx: SlotContext) -> bool:
        """'KB-4823' to 'the patient's name?': a reference, and nothing else, names no one."""
        return lx.tokens(mask(text, self.scorer.reference_spans(text, ctx))) == []

    def _asks_for(self, text: str, name: str | None, ctx: SlotContext) -> bool:
        """Whether ``text`` asks for flow ``name``: a request, its own verb, or values it takes
        ('forget it, too pricey' gives a reason, it asks for no price alert)."""
        if name is None:
            return False
        return bool(lx.REQUEST_ANYWHERE.search(text) or lx.WANTS.match(text) or self.scorer.verb_flow(text) == name
                    or lx.is_question(text) or self._read_new(self.domain.flow(name), text, ctx)[0])

    def gives_up(self, r: Reading) -> Understanding | None:
        if r.active and (self._abandons(r.text, r.active, r.own_labels) or self._takes_its_verb_back(r)):
            return r.result("cancel", flow=r.active.name)
        return None

    def _takes_its_verb_back(self, r: Reading) -> bool:
        """'no don't book it, I've changed my mind about the whole trip': the task in progress, named by
        its own verb, is not wanted, when nothing follows but a change of mind or a goodbye ('don't book it,
        the date is wrong', '... it should be the 19th', '..., is there an earlier flight?' mend or ask)."""
        m = lx.DONT_DO_IT.match(r.text)
        if m is None or self.scorer.flow_of_verb(m["verb"].lower()) != r.active.name:
            return False
        rest = (m["rest"] or "").strip()
        # (or what a plain no may be followed by: 'thanks anyway', 'I'll do it later', 'leave it where it is')
        return not rest or bool(lx.ABANDON.match(rest) or lx.is_closing(rest) or lx.DOES_IT_ONESELF.match(rest)
                                or lx.DENY.match(f"no, {rest}") or lx.LET_IT_BE.search(rest) or lx.LATER_ALONE.match(rest)
                                or lx.CONSULTS.search(rest))  # ("... We'll talk it over with the children first.")

    def goes_back(self, r: Reading) -> Understanding | None:
        """'let's go back to booking the tickets': the paused task it names (or the most fitting
        paused one); a task named that is not paused (it ended, or never began) starts again."""
        resume = [m.span() for m in lx.RESUME.finditer(r.text)]
        if not resume:
            return None
        named = self._paused_by_label(r, resume[-1][1])
        if named is not None:
            return self._resumes_with_values(r, *named)
        # a paused task named besides the words of going back ('go back to the booking', where another
        # task's keywords hold 'back')
        besides = self.rank(r.text, resume, r.ctx)
        if besides and besides[0][1] >= self.threshold:
            top = besides[0][0]
            paused = next((i for i, name in reversed(r.view.paused) if name == top), None)
            # (two paused tasks the words fit alike: which one is asked, below)
            if paused is not None and _clearly_beats_paused(besides, top, r.view.paused):
                return self._resumes_with_values(r, paused, top)
        if r.best_score >= self.threshold and r.best_spec is not None and r.best != (r.active.name if r.active else None):
            paused = next((i for i, name in reversed(r.view.paused) if name == r.best), None)
            if paused is not None:
                return self._resumes_with_values(r, paused, r.best)
            if _clearly_beats_paused(r.ranked, r.best, r.view.paused) and r.best_spec.intent != "Plan" \
                    and not r.best_spec.metadata.digression and lx.RESUME_TASK.search(r.text):
                return self._starts(r, r.best, refers_back=True)
        if len(r.view.paused) == 1:
            return self._resumes_with_values(r, *r.view.paused[0])
        return r.result("resume") if r.view.paused else None

    def _paused_by_label(self, r: Reading, after: int) -> tuple[str, str] | None:
        """'ok go back to moving the dressing appointment': the paused task whose own label ('moving
        a nurse appointment', the words the offer to go back uses), and no other task's, opens with
        the word said right after going back, whatever values of other tasks the rest names."""
        # ('go back to the booking' names a thing, which two paused tasks may both be about)
        said = lx.stem(next(iter(lx.tokens(r.text[after:])), ""))
        named = [f.name for f in self.domain.ontology.flows if said and _label_head(f) == said]
        if len(named) != 1:  # ('continue searching for movies': searching for restaurants, paused, says it too)
            return None
        return next(((flow_id, name) for flow_id, name in reversed(r.view.paused) if name == named[0]), None)

    def _resumes_with_values(self, r: Reading, flow_id: str, name: str) -> Understanding:
        """'ok back to my booking, make it jan 5': the paused task resumes with what the turn says of it."""
        spec = self.domain.flow(name)
        labels, rejected = self._read_new(spec, r.text, r.ctx)
        return r.result("resume", flow=flow_id, labels=labels, rejected=rejected)

    def asks_for_help(self, r: Reading) -> Understanding | None:
        if lx.HELP.match(r.text):
            return r.result("digress", flow=self._digression_flow(r.ranked, "help"), digression_type="help")
        return None

    def asks_status(self, r: Reading) -> Understanding | None:
        if r.active and lx.STATUS.search(r.text):
            return r.result("digress", digression_type="status")
        if not r.active and _LOST_PLACE.search(r.text):  # ('Sorry, I'm back ... Where were we?' after the task was dropped)
            return r.result("digress", digression_type="status")
        if r.active and lx.CLARIFICATION.match(r.text):
            return r.result("digress", digression_type="clarification")
        return None

    def asks_a_side_question(self, r: Reading) -> Understanding | None:
        """'do you fly to Honolulu?': a question a digression flow answers; nothing is stored."""
        # 'if my son is poorly on the day can i cancel?': what the service allows, asked of no booking
        # in particular, is for the side task that answers questions (not a look-up, not the task)
        # ("my son tells me I must 'check in' before I fly. What does that mean, please?": what a word means, too)
        if self._answers_questions is not None and not r.own_labels \
                and (self._asks_what_is_allowed(r) or lx.asks_what_it_means(r.text)):
            return self._digresses(r, self._answers_questions, confident=False)
        # ('lovely, thats all i needed, thanks bye' with nothing open: a goodbye, whatever its words score)
        if r.starts_other and r.best_spec.metadata.digression \
                and (r.is_question or not r.active and not lx.is_closing(r.text) and not _agrees_only(r)
                     and not lx.thanks_then_remark(r.text)):  # ('thanks, you've been really helpful' asks no help)
            task = None if r.is_question else self._task_said_with_values(r)
            if task is not None:  # 'dentist on saturday at 10 please': a request with its values, not a question
                name, labels, rejected = task
                return r.result("start", flow=name, labels=labels, rejected=rejected)
            return self._digresses(r, r.best)
        if r.is_question and r.active and not r.own_labels and r.best_spec is not None \
                and r.best_spec.metadata.digression:
            return self._digresses(r, r.best, confident=r.strong)
        if self._asks_before_saying_yes(r):
            return self._digresses(r, self._answers_questions, confident=False)
        asked = self._digression_asked(r.text, r.ranked) if r.is_question else None
        if asked is not None and not r.starts_other:
            return self._digresses(r, asked, confident=False)
        # 'do you fly to Honolulu?', 'do you have flights out of Vancouver?': whether the service
        # covers one thing, not a request that gives a task its details
        if lx.SERVICE_QUESTION.match(r.text) and len(self.scorer.values_in(r.text, r.ctx)[1]) <= 1:
            # the best side task or look-up whose own examples ask such questions ('do you have any
            # openings on Thursday?' of a look-up of free times), else the side task that scores at all
            answers = next((n for n, score in r.ranked if (
                self.domain.flow(n).metadata.digression or n in self.scorer.readers and score > 0)
                and any(lx.SERVICE_QUESTION.match(e) for e in self.domain.flow(n).examples)), None) \
                or next((n for n, score in r.ranked if score > 0 and self.domain.flow(n).metadata.digression), None)
            if answers is not None and not self.domain.flow(answers).metadata.digression:
                return None if r.active and r.active.name == answers else self._starts(r, answers)
            if answers is not None:
                return self._digresses(r, answers, confident=False)
        side = self._asked_about_a_value(r) or self._asked_in_no_tasks_words(r)
        return self._digresses(r, side, confident=False) if side is not None else None

    def _asks_before_saying_yes(self, r: Reading) -> bool:
        """'Will she get the whole fare back if it's cancelled today?', 'Before I confirm, would you tell
        me whether ...?' to 'Are you sure you want to cancel BK-31337?': a question asked before the yes,
        for the side task that answers questions; not 'could you cancel it now?' (the task's own verb,
        asked for: a yes) nor a question that asks for another task."""
        waiting_yes_no = r.view.confirming or r.waiting is not None and r.waiting.params.get("confirmation")
        if not waiting_yes_no or self._answers_questions is None or not r.is_question or r.own_labels \
                or r.active is None or lx.agrees(r.text) or self.names_another_task(r.text, r.active.name) \
                or _YES_FIRST.match(r.text) and not lx.NO_LEAD.match(r.text) \
                or r.starts_other and r.strong and r.best in self.scorer.readers \
                or r.starts_other and r.best_score >= OTHER_TASK_MARGIN and bool(lx.REQUEST_ANYWHERE.search(r.text)) \
                and self.scorer.names_task(r.text, [], r.best):
            # ('wait, before that - what have i already got booked?' asks a look-up; 'Before you confirm that, can
            # you set a check-in reminder for ...?' asks another task)
            return False
        return not (lx.REQUEST_START.match(r.text) and self.scorer.verb_flow(r.text) == r.active.name)

    def _asks_what_is_allowed(self, r: Reading) -> bool:
        """'if my son is poorly on the day can i cancel?', 'is it possible to change the date after i've
        paid?': what the service allows, asked of no booking in particular; not a request ending on
        'is that ok?' ('i'd like to cancel my booking, is that ok?', 'book a ride friday 10am, is that
        ok?'), nor a question of a look-up that takes the value it names ('is it ok to travel to Cairo?')."""
        if not lx.asks_what_is_allowed(r.text) or self.scorer.reference_spans(r.text, r.ctx):
            return False  # (the words first: most turns ask nothing of the kind, and the values cost more)
        if lx.asks_what_is_allowed(r.text, strongly=True):
            return True  # (whatever values it names: '... flying after Christmas, how much luggage am I allowed to bring')
        keys, spans = self.scorer.values_in(r.text, r.ctx)
        if r.strong and r.best in self.scorer.readers and keys & self.scorer.profiles[r.best].value_keys:
            return False
        requests = lx.REQUEST_ANYWHERE.search(r.text) or lx.WANTS.match(r.text) or lx.ORDER.match(r.text) \
            or self.scorer.verb_flow(r.text) not in (None, *self.scorer.readers)
        return not requests and not spans

    def _asked_in_no_tasks_words(self, r: Reading) -> str | None:
        """'what if i panic inside the machine?': a question no flow's words speak for (none scores
        its threshold) goes to the one side task that answers questions (its label or description
        says so), which says what it knows, rather than to 'Sorry, I didn't understand'."""
        if r.asks is None or r.own_labels or r.best_score >= self.threshold or not lx.content_stems(r.text) \
                or r.best_spec is not None and r.best_spec.metadata.digression and r.best_score > 0 \
                or r.view.pending_offer and lx.YES_NO_LEAD.match(r.text) or lx.SMALL_TALK.search(r.text) \
                or _TO_YOU.search(r.text):
            # (help asked in other words; 'yes, that's correct - who will I see?'; 'what can you
            # actually do?', 'hows your day going': about the assistant, not the service)
            return None
        # ... when it asks about something the side task speaks of ('will my results come back
        # quickly?' of a FAQ on results; not 'what is the weather tomorrow?' of one on opening hours),
        # or asks what to do for the task in hand ('do i need a full bladder for it??', 'what if i panic
        # inside the machine?')
        profile = self.scorer.profiles.get(self._answers_questions) if self._answers_questions else None
        if profile is None:
            return None
        # (not 'can i take the 10am on friday?', which offers a value)
        advice = r.active is not None and bool(lx.ASKS_ADVICE.search(r.text)) and not self.scorer.values_in(r.text, r.ctx)[1]
        return self._answers_questions if advice or self.scorer.stems(r.text) & profile.vocabulary else None

    def _asked_about_a_value(self, r: Reading) -> str | None:
        """'where is the old town one actually?': a question about a value it names, in no task's
        words, goes to the side task whose own examples or keywords ask that way ('Where is the Old
        Town clinic?')."""
        if r.asks is None or r.own_labels or r.best_score > 0 or lx.SMALL_TALK.search(r.text) or _TO_YOU.search(r.text):
            return None  # ('ok how about Dec 26': a value put forward, not a question about it)
        asked = next((t.lower() for t in lx.tokens(r.text) if t.lower() in _WH), None)
        # ('and where do i go for them?' right after a list: where or when, of nothing any task names)
        if asked is None or not self.scorer.values_in(r.text, r.ctx)[1] and asked not in ("where", "when"):
            return None
        return next((f.name for f in self._side_tasks if any(asked in lx.tokens(e) for e in [*f.examples, *f.keywords])),
                    None)

    def _task_said_with_values(self, r: Reading) -> tuple[str, dict[str, Candidate], dict[str, str]] | None:
        """A task near the side question that ranks first, which takes at least as many of the
        values said (with what it read): a statement giving values asks for the task, not for the
        side answer."""
        side_values = self._read_new(self.domain.flow(r.best), r.text, r.ctx)[0]
        for name, score in r.ranked[1:3]:
            spec = self.domain.flow(name)
            if score < self.threshold or r.best_score - score >= SIDE_MARGIN or spec.metadata.digression \
                    or spec.intent in ("Plan", "Internal", "Converse"):
                continue
            values, rejected = self._read_new(spec, r.text, r.ctx)
            if values and len(values) >= len(side_values):
                return name, values, rejected
        return None

    def _digresses(self, r: Reading, name: str, confident: bool = True) -> Understanding:
        """A side question answered by digression flow ``name`` with the values it names ('how long
        is the wait at harbour st?'); one that lacks a value it needs is started, so it asks."""
        spec = self.domain.flow(name)
        fresh = self._fresh_slots(spec)
        labels, rejected = self.reader.read(spec, fresh, r.text, r.ctx, None)
        missing = [s.name for s in spec.slots if s.priority == "required" and s.name not in labels
                   and not isinstance(fresh.get(s.name), FreeTextSlot) and s.default is None]
        if missing:
            return r.result("start", flow=name, labels=labels, rejected=rejected, confident=confident)
        return r.result("digress", flow=name, labels=labels, digression_type="question", confident=confident,
                        beside=self._values_beside(r))

    def _values_beside(self, r: Reading, other: str | None = None) -> dict[str, Candidate]:
        """'Make that 2 passengers, and can I bring my cat in the cabin?', 'how much can I carry on, and switch it to
        the 15th please': new values for the task in progress, in a clause of their own beside the question or the
        request for flow ``other`` (a clause that gives ``other`` values of its own is for it)."""
        active = r.active
        if active is None:
            return {}
        other_spec = self.domain.flow(other) if other else None
        start_only = other_spec is not None  # (for a request: the answer said before it, in values alone)
        beside: dict[str, Candidate] = {}
        start = 0
        clauses = _CLAUSES.split(r.text)
        if len(clauses) < 2:
            return beside
        for clause in clauses:
            at = r.text.index(clause, start)
            start = at + len(clause)
            told = _AND_LEAD.sub("", clause)
            if other_spec is not None and (self._read_new(other_spec, told, r.ctx)[0] or self.scorer.names_task(told, [], other)):
                if start_only:
                    break  # ('let me check my other booking first, the one to Paris - London to Paris': about that one)
                continue
            if lx.is_question(told) or lx.QUESTION_START.match(told) or lx.SERVICE_QUESTION.match(told):
                continue
            labels, _ = self.reader.read(active.spec, active.slots, told, r.ctx, None)
            if start_only and not _only_values(told, [(c.start, c.end) for c in labels.values()]):
                continue
            beside.update({k: c for k, c in labels.items() if not isinstance(active.slots[k], FreeTextSlot)
                           and not (active.slots[k].filled and active.slots[k].value == c.value)})
        return beside

    def splits_into_parts(self, r: Reading) -> Understanding | None:
        """'Boston to Denver on Dec 10, then Denver to Seattle on Dec 14': several tasks in one
        message. A pack with a planning flow plans them all (and reviews the plan first); without
        one, the first starts and the reply names the rest, so no part is dropped in silence."""
        if r.active is not None:
            return None
        pieces = lx.PART_BREAK.split(r.text) if lx.PART_BREAK.search(r.text) else \
            self._two_requests(r) or self._request_then_question(r)
        if not pieces:
            return None
        parts: list[tuple[str, str]] = []  # (flow, words of the part)
        for piece in (p.strip(" ,;.") for p in pieces):
            if not piece:
                continue
            # ('..., and also how much of the fare will I get back?': a question asks to be answered, not a task made;
            # not 'can you cancel LB-2002' nor '... and could you also post me a copy ...?', requests put as questions)
            asked = lx.is_question(piece) and bool(lx.QUESTION_START.match(_AND_LEAD.sub("", piece))) \
                and self._asks_about(piece, True) is not None
            ranked = self.prefer_reading(self.rank(piece, (), r.ctx, values_alone=False, question=asked), piece)
            if ranked and ranked[0][0] == self._digression_flow(ranked[:1], "help"):
                continue  # '..., can you help me set that up?': help with the request, no part of it
            if ranked and ranked[0][1] >= self.threshold:
                name = ranked[0][0]
                if parts and parts[-1][0] == name and self._completes(
                        self.domain.flow(name), self._read_new(self.domain.flow(name), piece, r.ctx)[0], parts[-1][1], r.ctx):
                    # ('book my dad onto the online strength and balance class': one task, said in two pieces)
                    parts[-1] = (name, f"{parts[-1][1]} and {piece}")
                else:
                    parts.append((name, piece))
            elif parts or r.strong and r.best_spec is not None and not r.best_spec.metadata.digression:
                # 'then Denver to Seattle on Dec 14': the same kind of task again, if it takes the values
                # ('from New York to London on Jan 8 and then on to Paris': the task the whole asks for)
                spec = self.domain.flow(parts[-1][0]) if parts else r.best_spec
                labels, _ = self._read_new(spec, piece, r.ctx)
                if labels and parts and self._completes(spec, labels, parts[-1][1], r.ctx):
                    # ('can i book a first appointment then, monday 7th at 9:30': values the part before
                    # lacks complete it; they ask for no second one)
                    parts[-1] = (parts[-1][0], f"{parts[-1][1]}, {piece}")
                elif labels:
                    parts.append((spec.name, piece))
        if len(parts) < 2:
            return None
        planner = next((f for f in self.domain.ontology.flows if f.intent == "Plan"), None)
        if planner is not None and len({flow for flow, _ in parts}) == 1:  # legs of one kind of task: a plan
            return self._starts(r, planner.name)
        first, words = parts[0]
        spec = self.domain.flow(first)
        labels, rejected = self._read_new(spec, words, r.ctx)
        # each later part keeps the values its own words give, to be queued after the first when its
        # words name its task ('around 2:15 in the afternoon' after 'then' names none: it is only named)
        later = tuple(Part(name, *self._read_new(self.domain.flow(name), w, r.ctx), words=w,
                           queue=self.scorer.names_task(w, self.scorer.values_in(w, r.ctx)[1], name))
                      for name, w in parts[1:])
        return r.result("start", flow=first, labels=labels, rejected=rejected, later=later)

    def _completes(self, spec: FlowSpec, labels: Mapping[str, Candidate], before: str, ctx: SlotContext) -> bool:
        """Whether values ``labels`` of flow ``spec`` name no slot the words ``before`` them already named: they
        complete that part of the request rather than ask for a second one of the same task."""
        return not set(labels) & set(self._read_new(spec, before, ctx)[0])

    def _request_then_question(self, r: Reading) -> list[str]:
        """'Please cancel BK-31337 for me. How much of the fare will I get back?': a request opening with its task's
        verb, then a question for the side task that answers questions, in a sentence of its own (answered at once)."""
        sentences = _SENTENCES.split(r.text.strip())
        if len(sentences) != 2 or not lx.is_question(sentences[1]) or lx.is_question(sentences[0]):
            return []
        asked = self.scorer.requested_flows(sentences[0])
        first = self.scorer.verb_flow(sentences[0]) or (next(iter(asked)) if len(asked) == 1 else None)
        if first is None:
            return []
        ranked = self.rank(sentences[1], (), r.ctx, values_alone=False, question=True)
        answers = bool(ranked) and ranked[0][1] >= self.threshold and self.domain.flow(ranked[0][0]).metadata.digression
        return sentences if answers else []

    def _two_requests(self, r: Reading) -> list[str]:
        """'cancel BK-31337 and set me up a price alert': two requests joined by 'and', the first
        opening with its task's verb or asking a look-up's question, the second clearly another task
        (not 'from Boston and Denver')."""
        pieces = lx.AND_BREAK.split(r.text)
        if len(pieces) != 2:
            return []
        first = self.scorer.verb_flow(pieces[0])
        # ('Change BK-20481 to Dec 15 and set me a price alert ...': two orders, the first opening with a verb several
        # tasks open with, which the first part's words say; not 'can you look thru my emails and see if ...')
        ordered = lx.ORDER.match(pieces[1]) or _SETS_UP.match(pieces[1]) or lx.REQUEST_ANYWHERE.match(pieces[1])
        if first is None and (said := self.scorer.flow_of_verb(lx.opener(pieces[0]) or "")) is not None and ordered:
            opening = self.rank(pieces[0], (), r.ctx, values_alone=False)
            first = said if opening and opening[0][0] == said else None
        # ('Set a check-in reminder for BK-12345 and email the itinerary for BK-31337 to ...': an order to set something
        # up, clearly one task's, then an order in a verb of its own)
        ranked = self.rank(pieces[1], (), r.ctx, values_alone=False)
        opens = lx.opener(pieces[0]) or ""
        opening = self.rank(pieces[0], (), r.ctx, values_alone=False) if first is None and ranked else []
        # (an order opens with a verb of ordering, or with its own task's word: 'nice. email the itinerary to ...')
        if opening and (_SETS_UP.match(pieces[0]) or not lx.WANTS.match(pieces[0]) and (
                re.fullmatch(lx.ORDER_VERBS, opens, re.IGNORECASE) or self._opens_with_own_word(pieces[0], opening[0][0]))) \
                and (ordered or _IMPERATIVE.match(pieces[1]) and self._opens_with_own_word(pieces[1], ranked[0][0])
                     # ('can u set a checkin reminder for BK-20481 and whats the baggage allowence': a side question)
                     or lx.is_question(pieces[1]) and self.domain.flow(ranked[0][0]).metadata.digression):
            if opening[0][1] >= self.threshold and (len(opening) < 2 or opening[0][1] - opening[1][1] >= PART_MARGIN):
                first = opening[0][0]
        if first is None and ranked:
            first = self._asked_then_requested(r.text, pieces, ranked[0][0], r.ctx)
        if first is None or not ranked or ranked[0][1] < self.threshold or ranked[0][0] == first:
            return []
        # 'for me, my wife and our two kids, boston to miami': values and people, no second task named
        values = self.scorer.values_in(pieces[1], r.ctx)[1]
        return pieces if self.scorer.names_task(pieces[1], values, ranked[0][0]) else []

    def _opens_with_own_word(self, text: str, name: str) -> bool:
        """Whether ``text`` opens with a keyword of flow ``name`` or a word its examples open with ('email the itinerary'
        of the task that sends it; not 'confirm the departure date', a word of no task's)."""
        profile = self.scorer.profiles.get(name)
        opens = lx.opener(text)
        return profile is not None and opens is not None and (
            opens in profile.openers or opens in {k.lower() for k in profile.spec.keywords})

    def _asked_then_requested(self, text: str, pieces: list[str], second: str, ctx: SlotContext) -> str | None:
        """'whats the status of BK-20481, and can you also set a check-in reminder for it': the look-up
        a question asks (not a request put as one: 'can you check ...'), when a request for a task
        that does something follows (not a second question: 'when does it arrive and is it refundable?')."""
        asked, then = pieces
        joint = lx.AND_BREAK.search(text)
        requests = bool(joint and _ASKS_TO.search(joint.group()) or lx.REQUEST_ANYWHERE.search(then) or lx.ORDER.match(then)
                        or _SETS_UP.match(then))  # ('..., and set us a check-in reminder for it an' all')
        if not requests or lx.REQUEST_START.match(asked) or self.domain.flow(second).metadata.digression:
            return None
        if not lx.is_question(asked):
            # 'i prefer window seats, and can you list my bookings': a wish stated, then a request
            ranked = self.rank(asked, (), ctx, values_alone=False)
            stated = ranked[0][0] if ranked and ranked[0][1] >= self.threshold else None
            # (a task that keeps preferences: not a booking the preference would start)
            return stated if stated is not None and lx.STATES_A_WISH.match(asked) \
                and not self.domain.flow(stated).metadata.digression and _PREFER in self.scorer.task_words(stated) else None
        if second in self.scorer.readers:
            return None
        ranked = self.rank(asked, (), ctx, values_alone=False, question=True)
        return ranked[0][0] if ranked and ranked[0][1] >= self.threshold and ranked[0][0] in self.scorer.readers else None

    def asks_for_more(self, r: Reading) -> Understanding | None:
        """'Any others?', 'What else can you find?' right after a look-up: that look-up again, with what it was told and
        anything said now (unless the words name another task)."""
        recent = r.view.recent
        if r.active is not None or recent not in self.scorer.readers:
            return None
        more = _MORE_OF_THE_SAME.search(r.text)
        if more is None or r.best is not None and r.best != recent and r.best_score >= self.threshold \
                and self.scorer.names_task(r.text, [more.span()], r.best):
            return None
        labels, rejected = self._read_new(self.domain.flow(recent), r.text, r.ctx)
        return r.result("start", flow=recent, labels=labels, rejected=rejected, refers_back=True)

    def asks_the_same_again(self, r: Reading) -> Understanding | None:
        """'same for savings', 'what about Oakland?' right after a task ended: that task again with
        the value said, the rest carried over; unless the words name another task. So is a look-up
        put right ('Sorry, my mistake, she meant the 10th, not the 9th.'): it only reads, so it is
        done again as meant (a booking put right is a change of it, asked for as one)."""
        recent = r.view.recent
        ellipsis = lx.ELLIPSIS.match(r.text)
        if r.active is not None or recent is None:
            return None
        if ellipsis is None and recent in self.scorer.readers and not r.is_question:
            ellipsis = lx.CORRECTION.search(r.text)
        if ellipsis is None:
            return None
        spec = self.domain.flow(recent)
        labels, rejected = self._read_new(spec, r.text, r.ctx)
        if not labels:
            return None
        said = [(c.start, c.end) for c in labels.values()] + [ellipsis.span()]  # 'the way back' names no task
        if r.best is not None and r.best != recent and self.scorer.names_task(r.text, said, r.best):
            return None  # 'what about booking a hotel?' ('savings' is a value, not 'save a payee')
        return r.result("start", flow=recent, labels=labels, rejected=rejected, refers_back=True)

    def names_a_day_before(self, r: Reading) -> Understanding | None:
        """'that same day at 10:30 would be handy' to 'what day and time?', after a check of another
        appointment: the day a task before named answers the question (the acts layer carries it)."""
        active, waiting = r.active, r.waiting
        if active is None or waiting is None or r.is_question or r.own_labels or "day" not in referred(r.text):
            return None
        spec = active.spec.slot(waiting.name)
        if spec is None or kind_of(spec, waiting) != "day" or self.scorer.requested_flows(r.text) \
                or self.scorer.verb_flow(r.text) not in (None, active.name) or lx.SHIFT.search(r.text):
            return None
        return r.result("fill", flow=active.name)

    def starts_another(self, r: Reading) -> Understanding | None:
        """A request for another task; an answer to the question asked stays in this one unless it
        also asks for another ('he's 45, and my husband will drive' answers)."""
        if not r.starts_other or r.best_spec.metadata.digression or lx.is_closing(r.text) or lx.UNSURE.match(r.text) \
                or lx.only_thanks(r.text) or _agrees_only(r) or lx.thanks_then_remark(r.text) and not r.own_labels:
            return None  # 'No. I am all set, thanks' sets nothing up; nor do 'not sure yet, i'll get back to you', 'ok good, thank u'
        active = r.active
        cancel_other = lx.CANCEL_VERB.search(r.text) and r.best_score < self.threshold * 1.5 and active
        fills_waiting = r.view.waiting_for_slot in r.own_labels or r.free_answer is not None
        # ("omg hang on the cat's just collapsed ..." while booking the cat in: a value held, said again, gives nothing)
        told = {k: c for k, c in r.own_labels.items()
                if not (active is not None and active.slots[k].filled and active.slots[k].value == c.value)}
        # values for the task in progress keep the turn in it unless another is asked for clearly
        answers = fills_waiting or (bool(told) and r.best_score < r.held + ANSWER_MARGIN)
        # ("She'd prefer an aisle seat if there's one" while booking for one's boss: what someone else prefers,
        # in values the task in progress takes, is a detail of it, not a preference of one's own to keep)
        answers = answers or bool(r.own_labels) and bool(_THEIR_PREFERENCE.match(r.text)) \
            and not self.scorer.requested_flows(r.text)
        # 'oh and cancel AP-20417 while you're at it' to 'the patient's name?': a request opening
        # with the other task's own verb is no answer
        # ('let me find my glasses... it says BK-31337' to 'which booking?': the answer, after the user's own
        # errand; an errand that names a value the other task takes still turns away)
        shifts = {m.group().lower() for m in lx.SHIFT.finditer(r.text)}
        errand = shifts == {"let me"} and fills_waiting and active is not None and not self._takes_values_said(r)
        # ('hang on its on the letter somewhere.. DA2002' to 'which appointment?', 'oh hang on, me brother wants in
        # too, so 4 of us all up' at a read-back: a pause, then values of the task in progress, asking for no other)
        paused = shifts <= _PAUSE_WORDS and active is not None and bool(told or r.free_answer) \
            and not self.scorer.requested_flows(r.text) and self.scorer.verb_flow(r.text) in (None, active.name) \
            and not r.is_question and not (r.free_answer is not None and not fills_waiting) \
            and not _ASKS_OR_ORDERS.search(r.text) and not lx.REQUEST_ANYWHERE.search(r.text) \
            and not self._says_a_task_verb(r.text)
        errand = errand or bool(shifts) and paused
        turns_away = bool(shifts) and not errand
        # 'oh random q, are there any boston to chicago flights on the 15th?' while booking New York to Los
        # Angeles: a look-up asked of other values than the task holds is no answer to its question
        asks_of_others = r.asks is not None and active is not None and r.best in self.scorer.readers \
            and not (lx.CORRECTION.search(r.text) or lx.INSTEAD.search(r.text) or lx.proposes(r.text)) \
            and self._asks_of_other_values(r.text, r.best, active.slots, r.ctx)
        shifting = turns_away or asks_of_others or not active or not answers or self._not_doing_it(r.text, active) or (
            r.best_score >= 2 * self.threshold and (bool(lx.REQUEST_ANYWHERE.search(r.text))
                                                    or self.scorer.verb_flow(r.text) == r.best
                                                    # 'also set alert: london to paris under $150' while
                                                    # booking: an order naming the other task by its name
                                                    or bool(_SETS_UP.match(r.text))
                                                    and self.scorer.names_flow(r.text, r.best, active.name)))
        if cancel_other or not shifting:
            return None
        if active is not None and (self._rather_than_it(r.text, active) or self._not_doing_it(r.text, active)
                                   or self._its_verb_unwanted(r.text, active) and r.best in self.scorer.requested_flows(r.text)):
            return self._starts(r, r.best, replaces=active.flow_id)
        # ('New York to Los Angeles, and is BK-20481 still confirmed?' to 'where from?': the answer kept, the look-up done)
        beside = self._values_beside(r, r.best) if active is not None else {}
        return self._starts(r, r.best, beside=beside, **_refines(r))

    def _own_words(self, active: ActiveView) -> set[str]:
        """The words that name the task in progress: its flow's task words and its label's ('forget booking',
        'rather than an extra one')."""
        return self.scorer.task_words(active.name) | lx.content_stems(active.spec.label)

    def _rather_than_it(self, text: str, active: ActiveView) -> bool:
        """'rather than an extra one, can I just move my Saturday one': the task in progress, named by
        its own words after 'rather than' or 'instead of', is not wanted (not 'instead of friday', a value)."""
        m = lx.RATHER_THAN.search(text)
        said = lx.content_stems(m["what"]) - {"one", "thing"} if m else set()
        return bool(said) and said <= self._own_words(active)

    def _keeps_it(self, r: Reading) -> bool:
        """"... Please don't cancel it." to the task's own yes/no question: its verb taken back, with no question
        and no other task asked for ("hmm wait no, don't cancel it. i'd rather move it to the 30th" moves it)."""
        # ('I'll be keeping that flight after all', 'keep it for now, they might still fit me in': kept, whatever else scores)
        kept = lx.KEEPS_IT.search(r.text) is not None
        return (kept or self._its_verb_unwanted(r.text, r.active)) and not r.is_question \
            and not (r.strong and r.best not in (None, r.active.name) and not kept)

    def _its_verb_unwanted(self, text: str, active: ActiveView) -> bool:
        """'I've changed my mind, I don't want to move it, please cancel the appointment altogether':
        the task in progress, named by its own verb, said not to be wanted (beside a request for another, in
        its own verb: not "don't book it, is there an earlier flight?")."""
        return any(self.scorer.flow_of_verb(m["verb"].lower()) == active.name for m in _UNWANTED_VERB.finditer(text))

    def _not_doing_it(self, text: str, active: ActiveView) -> bool:
        """'..., not booking anything', 'without booking it': the task in progress, by its own verb, said not to be done."""
        return any(self.scorer.flow_of_verb(lx.stem(m["verb"])) == active.name for m in _NOT_DOING.finditer(text))

    def _takes_values_said(self, r: Reading) -> bool:
        """Whether the best flow takes a kind of value the turn gives the task in progress."""
        kinds = {value_key(spec) for k in r.own_labels if (spec := r.active.spec.slot(k)) is not None}
        return bool(kinds & self.scorer.profiles[r.best].value_keys) if r.best in self.scorer.profiles else False

    def fills_or_corrects(self, r: Reading) -> Understanding | None:
        """Values for the task in progress; a value that replaces one already given is a correction."""
        active = r.active
        if not active or r.asks == "detail":  # 'do you go to Lisbon?' names a value; it gives none
            return None
        if self._asks_beside_a_value(r):
            return None  # 'can i tan before laser?' while booking a facial: asked, nothing changed
        corrects = any(active.slots[k].filled for k in r.own_labels) and lx.CORRECTION.search(r.text)
        if r.own_labels and r.free_answer is not None and not corrects:
            # ('oh sorry can it be the physio instead of the GP' to 'the patient's name?' gives no name)
            return r.result("fill", flow=active.name, labels={**r.own_labels, r.view.waiting_for_slot: r.free_answer},
                            rejected=r.own_rejected)
        if r.own_labels:
            corrected = {k for k in r.own_labels if active.slots[k].filled}
            act = "correct" if corrected and (lx.CORRECTION.search(r.text) or not (set(r.own_labels) - corrected)) \
                else "fill"
            return r.result(act, flow=active.name, labels=r.own_labels, rejected=r.own_rejected)
        if r.own_rejected:
            return r.result("fill", flow=active.name, rejected=r.own_rejected)
        if r.strong and r.best == active.name and not r.is_question and r.free_answer is None:
            return r.result("fill", flow=active.name)  # restating the task in progress: ask on
        return None

    def _asks_beside_a_value(self, r: Reading) -> bool:
        """A question the side task that answers questions ranks first for, which names values that
        would only change ones already given, in no words of changing ('can i tan before laser?'
        while booking a facial; not 'can we do laser instead?', 'how about friday?')."""
        active = r.active
        if not (r.is_question and r.own_labels and self._answers_questions is not None and r.best == self._answers_questions):
            return False
        changes = all(active.slots[k].filled and active.slots[k].value != c.value for k, c in r.own_labels.items())
        return changes and not (lx.CORRECTION.search(r.text) or lx.proposes(r.text) or lx.CHANGE_TO.search(r.text)
                                or lx.INSTEAD.search(r.text) or lx.SELF_REPAIR.search(r.text))

    def says_goodbye(self, r: Reading) -> Understanding | None:
        """'no thanks, that's all I needed', 'thanks, bye' with nothing in progress: the user is done."""
        if r.active is None and r.view.offered is not None and lx.is_closing(r.text):
            return r.result("cancel", flow=r.view.offered.flow_id)  # 'nah I'm done for today' to 'continue ...?'
        if r.active is None and (lx.is_closing(r.text) or lx.all_sorted(r.text) and not r.view.pending_offer
                                 or lx.DENY.match(r.text) and not r.view.pending_offer):
            return r.result("close")
        # 'that's all, thanks' with a task open, or 'no thanks' to a value it cannot do without: it is dropped
        declines = lx.DENY.match(r.text) and r.waiting is not None and r.waiting.priority == "required"
        if r.active is not None and (lx.is_closing(r.text) or declines) and not r.own_labels:
            leaves = lx.DENY.match(r.text) or lx.NO_LEAD.match(r.text) or lx.PARTING.search(r.text) or lx.puts_off(r.text)
            if r.view.confirming and not leaves:
                # 'lovely, that's everything, thanks' to 'shall I go ahead?' says neither yes nor no:
                # the read-back is asked again (a misread yes books, a misread no loses the task);
                # a goodbye ('thats everything i need thanks bye') leaves, and the task with it
                return r.result("chitchat", digression_type="small_talk")
            return r.result("cancel", flow=r.active.name)
        return None

    def chats(self, r: Reading) -> Understanding | None:
        """'hey how r u today?', 'haha sorry long day, how r u anyway?': asking after the assistant,
        before any reading of it as a question for a task (its 'today' is no date for a search); 'one sec',
        'paged. brb': asking the assistant to wait."""
        if lx.asks_after_you(r.text) or lx.remarks_on_you(r.text):
            return r.result("chitchat", digression_type="small_talk")
        # ('hang on a sec', 'paged. brb', 'hold on, let me look at my calendar'): the question stands, answered later
        errands = self._own_errands(r.text, r.ctx)
        rest = mask(r.text, errands).strip(" ,.;:!-") if errands else r.text
        if lx.asks_to_wait(rest) or errands and not rest:
            return r.result("chitchat", digression_type="wait")
        # 'haha sorry, crazy busy day here': laughter, then a remark that asks for nothing and gives no
        # value; a task word or two in it ('day') is no request
        # (laughter last too, unless the rest is values alone: 'boston to denver on dec 18 haha' still asks)
        laughs = lx.LAUGHS.match(r.text) or lx.LAUGHS_LAST.search(r.text) and not self._values_alone(r)
        if laughs and not (r.is_question or r.own_labels or r.free_answer is not None
                           or lx.REQUEST_ANYWHERE.search(r.text) or lx.WANTS.match(lx.LAUGHS.sub("", r.text))
                           or r.best_score >= 2 * self.threshold):
            return r.result("chitchat", digression_type="small_talk")
        return None

    def _values_alone(self, r: Reading) -> bool:
        """Whether the turn gives the details of a request: values and nothing else but courtesy and
        laughter ('BK-12345 lol'), two values or more, or a value that names a thing of the pack (an
        option, a place, a reference: 'sakura tonight for 2 haha'); not a day said in a remark ('my
        back is killing me today lol')."""
        keys, spans = self.scorer.values_in(r.text, r.ctx)
        left = lx.content_stems(mask(lx.LAUGHS_LAST.sub(" ", r.text), spans)) if spans else None
        named = any(isinstance(self.scorer.value_slots.get(k), (CategorySlot, ExactSlot)) for k in keys)
        return left is not None and (len(spans) >= 2 or named or not left - _COURTESY)

    def makes_small_talk(self, r: Reading) -> Understanding | None:
        if lx.SMALL_TALK.match(r.text) or lx.UNSURE.match(r.text) or lx.only_thanks(r.text) \
                or lx.thanks_then_remark(r.text) and not r.own_labels \
                or (lx.SMALL_TALK_LEAD.match(r.text) and not r.strong and not r.is_question):
            return r.result("chitchat", digression_type="small_talk")
        return None

    def answers_free_text(self, r: Reading) -> Understanding | None:
        if r.free_answer is not None and not (r.is_question and r.best_score > 0 and r.best_spec is not None
                                              and r.best_spec.metadata.digression):
            said = str(r.free_answer.value).casefold()
            if any(k != r.view.waiting_for_slot and s.filled and str(s.value).casefold() == said
                   for k, s in r.active.slots.items()):
                # ('Rosemary Quinn' to 'what's the address?' when she is the one named: said again, no address)
                return r.result("chitchat", digression_type="small_talk")
            return r.result("fill", flow=r.active.name, labels={r.view.waiting_for_slot: r.free_answer})
        return None

    def asks_what_a_digression_answers(self, r: Reading) -> Understanding | None:
        if r.is_question and r.best_spec is not None and r.best_spec.metadata.digression:
            return self._digresses(r, r.best, confident=False)
        return None

    def answers_the_question(self, r: Reading) -> Understanding | None:
        """A bare answer to the slot asked ('Atlantis' -> refused with the slot's reason)."""
        if r.waiting is None or r.is_question:
            return None
        if isinstance(r.waiting, FreeTextSlot) and (not_a_value(r.text) or self._only_references(r.text, r.ctx)):
            return r.result("chitchat", digression_type="small_talk")  # 'that's it for today, thanks': asked again
        waited = r.active.spec.slot(r.waiting.name) if r.active else None
        if isinstance(r.waiting, FreeTextSlot) and waited is not None and "person" in roles_of(waited).roles \
                and not could_be_a_name(r.text):
            return r.result("chitchat", digression_type="small_talk")  # 'sorry, bit of a hectic morning here'
        check = r.waiting.check(strip_cues(r.text), r.ctx)
        if check.ok:
            cand = Candidate(check.value, check.display, 0, len(r.text), 0.5)
            return r.result("fill", flow=r.active.name, labels={r.waiting.name: cand})
        if not_a_value(r.text):
            return r.result("chitchat", digression_type="small_talk")  # 'ok lets continue' to 'where to?'
        return r.result("fill", flow=r.active.name, rejected={r.waiting.name: check.reason})

    @staticmethod
    def _count_said_alone(active: Any, text: str, ctx: SlotContext) -> dict[str, Candidate] | None:
        """'2 please', 'just one' to a question a name or a title answers: a number alone names nothing;
        it is the count of the one slot of the task that counts things and is still empty."""
        said = _BARE_COUNT.fullmatch(text)
        group = next((g for g in (1, 2, 3) if said and said.group(g)), None)
        number = parse_number(said.group(group)) if said and group else None
        if said is None or group is None or number is None:
            return None
        empty = [(s, active.slots[s.name]) for s in active.spec.slots if s.name in active.slots
                 and not active.slots[s.name].filled and (counts_things(s) or is_count(s.params.get("options") or ()))]
        if len(empty) != 1:
            return None
        spec, slot = empty[0]
        check = slot.check(int(number), ctx)
        return {spec.name: Candidate(check.value, check.display, said.start(group), said.end(group), 0.5)} if check.ok else None

    def starts_a_task(self, r: Reading) -> Understanding | None:
        if r.strong and r.best_spec is not None and not lx.only_thanks(r.text) and not _agrees_only(r):
            return self._starts(r, r.best, **_refines(r))
        return None

    def means_to_stop(self, r: Reading) -> Understanding | None:
        """A stop word left over, with a task in progress ('cancel the stuff'); a question that
        names a stop word ('how do I cancel AP-1003?') stops nothing."""
        if lx.CANCEL_VERB.search(r.text) and r.active and not r.is_question:
            return r.result("cancel", flow=r.active.name, confident=False)
        return None

    def shows_what_it_names(self, r: Reading) -> Understanding | None:
        """'TW-2043', 'could you pull up TW-2043 please' with no task in progress: a reference said in
        no word of the pack asks to see what it names, so the look-up that takes it answers (showing
        changes nothing; the change or the cancelling may be asked for next). A guess: System 2, when
        there is one, decides."""
        if r.active is not None or r.best_score >= self.threshold:
            return None
        keys, spans = self.scorer.values_in(r.text, r.ctx)
        named = keys & self.scorer.reference_keys
        said = self.scorer.stems(mask(r.text, [*spans, *lx.act_spans(r.text)]))
        if not named or said & self.scorer.text_weights.keys():
            return None
        reader = next((n for n, _ in r.ranked
                       if n in self.scorer.readers and self.scorer.profiles[n].value_keys & named), None)
        return None if reader is None else self._starts(r, reader, confident=False)

    def does_not_know(self, r: Reading) -> Understanding:
        return r.result("unknown", confident=False)

    def _takes_focus(self, text: str, spans: Sequence[tuple[int, int]], best: str, score: float,
                     held: float | None, asks: str | None, live: bool, ctx: SlotContext,
                     incumbent: str | None = None, held_slots: Mapping[str, BaseSlot] | None = None,
                     waiting: BaseSlot | None = None) -> bool:
        """Whether flow ``best`` takes the focus from the flow in focus (which scored ``held``): it
        must score clearly better, the words said must name its task when the flow in focus is
        still ``live`` (not only give values it could take), and a
        question ('is it pet friendly?') asks about the task in focus unless it asks whether things
        exist or turns away first ('hold on, what's the status of ...?')."""
        if held is None:
            return True
        # 'actually, first show me my bookings': turning away first, a task named as strongly as the
        # one in focus takes it
        margin = 0.0 if lx.SHIFT.search(text) and self.scorer.names_task(text, spans, best) else SWITCH_MARGIN
        # 'oh hold on, is my BK-20481 still on?' mid-search: the thing it names only the other task holds
        other_thing = self._names_what_only_it_holds(text, best, incumbent, ctx)
        # 'quick q, what are prices like from new york to los angeles?' while booking Boston to Chicago
        other_values = asks is not None and best in self.scorer.readers \
            and self._asks_of_other_values(text, best, held_slots or {}, ctx)
        if score < held + margin or (live and not self.scorer.names_task(text, spans, best) and not other_thing
                                     and not other_values):
            return False
        # 'hold on, what's the status of INC004512?': a question that turns away first, or names
        # something only the other flow can look up, looks elsewhere
        # ('just me so a small one. is there wifi in the rooms btw?': whether the service has a thing, in the words of
        # the side task that answers questions)
        if asks == "lookup" and self.domain.flow(best).metadata.digression and self.scorer.names_task(text, spans, best):
            return True
        return asks is None or other_thing or best in self.scorer.readers and (
            asks == "lookup" or bool(lx.SHIFT.search(text)) or other_values
            or self._names_its_value(text, spans, best, ctx)
            # 'are you open on saturdays?': a look-up that needs no detail of any task is about none
            or not self.domain.flow(best).slots
            # 'what times r free on friday?' asked 'what day and time?': a look-up, in its own words, of
            # the moments the question asked could be answered with
            or (isinstance(waiting, DateTimeSlot) and score >= (held or 0.0) + OTHER_TASK_MARGIN
                and self.scorer.names_task(text, [], best)
                and any(isinstance(self.make_slot(s), DateTimeSlot) for s in self.domain.flow(best).slots)
                # (not 'what time do you open?', which a side task answers as well)
                and not any(self.domain.flow(n).metadata.digression and s >= self.threshold
                            for n, s in self.scorer.rank(text, (), ctx)))
            or (incumbent in self.scorer.readers and score >= (held or 0.0) + DETAIL_MARGIN
                and self.scorer.names_task(text, spans, best))
            # 'are my blood test results back yet?' while moving an appointment: a question in another
            # task's own words, none of the task in focus, is not about it
            or (score >= (held or 0.0) + OTHER_TASK_MARGIN and self.scorer.names_task(text, spans, best)
                and incumbent is not None and (not self.scorer.names_task(text, spans, incumbent)
                                               # 'how much are flights from A to B on D?' while booking
                                               # one: with values of its own, none that only the task in
                                               # focus has
                                               or not self.scorer.names_task_beyond(text, spans, incumbent, best)
                                               and self._gives_values(text, best, held_slots or {}, ctx))))

    def _asks_by_its_verb(self, text: str) -> bool:
        """A question that asks for a task by its own verb: 'could it be moved to the 20th?' (not 'can it
        be refunded?', no task's verb), 'could you send me the itinerary for BK-31337?' (its verb and its thing)."""
        asked = self.scorer.requested_flows(text)
        verbs = lx.requested_verb_spans(text)  # (its thing besides its verb: 'could you send me the flights ...?' asks a look-up)
        # ('can I just postpone it to 5th January?': leave to do it, asked of a task that changes something)
        leave = _MAY_I_DO.search(text)
        return bool(asked) and (bool(lx.PASSIVE_REQUEST.search(text)) or any(
            n not in self.scorer.readers and (self.scorer.names_task(text, verbs, n)
                                              or leave is not None and self.scorer.flow_of_verb(leave["verb"].lower()) == n)
            for n in asked))

    @staticmethod
    def _answered_last(text: str, answer: Candidate | None) -> bool:
        """Whether ``answer`` (the value of the slot asked) is the whole last sentence of a turn of several."""
        if answer is None:
            return False
        starts = [m.end() for m in _SENTENCES.finditer(text)]
        last = starts[-1] if starts else 0
        # (a question to oneself before it, 'where was I', not one about something else: 'is my other booking
        # still on? the paris one')
        return last > 0 and answer.start >= last and _only_values(text[last:], [(answer.start - last, answer.end - last)]) \
            and bool(lx.STATUS.search(text[:last]) or not lx.content_stems(text[:last]))

    def _says_a_task_verb(self, text: str) -> bool:
        """Whether ``text`` says a task's verb as the pack has it ('reserve', 'alert'; not 'travelling')."""
        return not {w.lower() for w in lx.tokens(text)}.isdisjoint(self.scorer.said_verbs)

    def _only_tells(self, text: str, is_question: bool) -> bool:
        """Whether ``text`` is a statement that asks for nothing: no question, no request or wish, no
        turning away, no opening verb of a task."""
        return not is_question and not lx.SHIFT.search(text) and not lx.REQUEST_ANYWHERE.search(text) \
            and not lx.WANTS.search(text) and not _WANTS_THINGS.search(text) and not _WISHES.search(text) \
            and not lx.ORDER.match(text) and not _SETS_UP.match(text) and self.scorer.verb_flow(text) is None and not self.scorer.requested_flows(text) \
            and not self._says_a_task_verb(text)

    def _gives_values(self, text: str, best: str, held: Mapping[str, BaseSlot], ctx: SlotContext) -> bool:
        """Whether ``text`` gives flow ``best`` two values or more, one of them not what the flow in
        focus holds (its slots ``held``): a new search, not a question about the values in focus."""
        labels, _ = self._read_new(self.domain.flow(best), text, ctx)
        return len(labels) >= 2 and any(n not in held or held[n].value != c.value for n, c in labels.items())

    def _names_what_only_it_holds(self, text: str, best: str, incumbent: str | None, ctx: SlotContext) -> bool:
        """Whether ``text`` names one thing (a reference) that flow ``best`` holds and the flow in
        focus cannot."""
        keys = self.scorer.values_in(text, ctx)[0] & self.scorer.rare_or_identifying_keys
        held = self.scorer.profiles[incumbent].value_keys if incumbent in self.scorer.profiles else frozenset()
        return bool(keys & self.scorer.profiles[best].value_keys) and not keys & held

    def _asks_of_other_values(self, text: str, name: str, held_slots: Mapping[str, BaseSlot], ctx: SlotContext) -> bool:
        """'quick q, what are prices like from new york to los angeles?' while booking Boston to Chicago:
        a question in a look-up's words about other values than the task in focus holds asks about them."""
        labels, _ = self._read_new(self.domain.flow(name), text, ctx)
        # (values of a kind that is read, not free text: 'do they have WiFi?' names no other hotel)
        return any(k in held_slots and held_slots[k].filled and held_slots[k].value != c.value
                   and not isinstance(held_slots[k], FreeTextSlot) for k, c in labels.items())

    def _names_its_value(self, text: str, spans: Sequence[tuple[int, int]], name: str, ctx: SlotContext) -> bool:
        """Whether ``text`` holds a value of flow ``name``'s slots beyond those already read."""
        spec = self.domain.flow(name)
        labels, _ = self._read_new(spec, text, ctx)
        return any(not any(c.start < e and s < c.end for s, e in spans) for c in labels.values())

    @staticmethod
    def _asks_about(text: str, is_question: bool) -> str | None:
        """What a question asks: None for a request ('can you book it?', 'Go ahead and get tickets'),
        'lookup' for whether things exist ('are there any buses?'), 'detail' for a detail of the
        task in focus ('is it pet friendly?', 'how much does it cost?')."""
        # ('Can you tell me when our patient's falls appointment is?': asked to be told, a question)
        # ('oh wait, rather than cancelling could you just move it ...?': the task put aside said first)
        if not is_question or lx.REQUEST_ANYWHERE.search(_TELL_ME_WH.sub(" ", lx.RATHER_THAN.sub(",", text))):
            return None
        # ('is it possible to change the day of my booking BK-20481?': a request for one's own, put politely;
        # not 'is it possible to change the date after i've paid?', what the service allows)
        if _POSSIBLE_TO.search(text) and (_MINE.search(text) or _REFERENCE_LIKE.search(text)):
            return None  # (or of a booking named by its reference: 'Is possible change date for booking BK-12345?')
        # ('I ... need to do the gym induction ... Any chance of Thursday morning around 10?': a wish, then a moment asked for)
        if _ANY_CHANCE_OF.search(text) and _WANTS_THINGS.search(text):
            return None
        return "lookup" if lx.EXISTENTIAL.search(text) else "detail"

    def prefer_reading(self, ranked: list[tuple[str, float]], text: str = "",
                       ctx: SlotContext | None = None, begun: AbstractSet[str] = frozenset()) -> list[tuple[str, float]]:
        """Between nearly equal readings the flow that only reads goes first (a misread search
        costs a question, a misread booking costs a real booking, confirmed first), unless the turn
        says otherwise: it asks for a new one ('I'd like an appointment'), asks what one has ('what
        have I got'), or wants a thing named by its values alone ('i need chicago to boston').
        A booking that needs a pick its look-up finds (which hotel, which bus) is looked up first
        when neither has begun (``begun``: the flows in the conversation)."""
        if len(ranked) < 2 or text and self.example_flow(text, ctx) == ranked[0][0]:
            return ranked  # (what an example of the flow says word for word is what the flow is for)
        first = self._looks_before_it_books(ranked, text, ctx, begun)
        if first is not None:
            return first
        # (in order: each says what the turn asks for when the scores alone would not)
        for reorder in (self._change_unasked, self._looked_up_by_reference, self._adds_to_what_is_held,
                        self._requested_by_its_verb, self._asks_for_a_new_one, self._asks_about_own):
            reordered = reorder(ranked, text, ctx)
            if reordered is not None:
                return reordered
        first, top = ranked[0]
        if 0 < top < self.threshold and _STILL_ON.match(text) and first in self.scorer.readers and self._of_own_things(first):
            return _promoted(ranked, first, self.threshold)  # 'is my nurse review still happening?': about one's own
        party = self._wants_for_a_party(ranked, text, ctx)
        if party is not None:
            return party
        top = ranked[0][1]
        tied = [pair for pair in ranked if top - pair[1] < TIE_MARGIN]
        # ("I've never flown before and I'm a bit terrified, but I have to get from Boston to Chicago on the 21st":
        # the wish in a later clause, the story before it)
        later = _LATER_WISH.search(text) if len(tied) > 1 and not lx.WANTS.match(text) else None
        said = text[later.end():] if later is not None else text
        spans = self.scorer.values_in(said, ctx)[1] if ctx is not None else []
        if len(tied) > 1 and (lx.WANTS.match(said) or len(spans) >= 2 and not lx.is_question(said)) \
                and not lx.content_stems(_KIN_SAID.sub(" ", mask(said, [*spans, *lx.act_spans(said)]))) - _COURTESY - _GETTING_THERE:
            # 'i need chicago to boston on the 13th', 'dallas to houston on dec 4 please': wanting a
            # thing, said with values alone, asks for the task that gets it (a booking is read back
            # before it is made); two values or more are enough to start it
            maker = next((n for n, _ in tied if n not in self.scorer.readers and not self.domain.flow(n).metadata.digression
                          and self.domain.flow(n).intent not in ("Plan", "Internal", "Converse")), None)
            if maker is not None:
                wanted = len(spans) >= 2 or bool(spans) and lx.WANTS.match(said)
                return _promoted(ranked, maker, max(top, self.threshold) if wanted else top)
        near = [pair for pair in ranked if top - pair[1] < NEW_ONE_MARGIN]
        if len(near) > 1 and spans and (lx.WANTS.match(said) or _NEEDS_TO_GET.search(said)) and not lx.is_question(said):
            # ('Need flt BOS to ORD Dec 15 pls, 1 pax. ASAP.', 'FIVE of us need to get from New York to Los Angeles on
            # Dec 21. Five.', 'me and 3 of the squad need flights out of chicago': a wish with its values, for a task
            # that finds what it makes by itself, asks for that task)
            maker = self._finds_its_own(near, said)
            references = self.scorer.reference_spans(said, ctx) if maker is not None and ctx is not None else []
            if references:
                held = [(c.start, c.end) for c in self._read_new(self.domain.flow(maker), said, ctx)[0].values()]
                if any(not any(a <= s and e <= b for a, b in held) for s, e in references):
                    maker = None  # ('I want to mice my flight BK-12345 to the 18th': a booking held, no new one)
            if maker is not None:
                return _promoted(ranked, maker, max(top, self.threshold))

        # 'wat time do u shut on fridays': a question about the service itself, tied with a look-up of one's own
        # things, is for the side task that answers questions
        answers = self._answers_questions
        if len(tied) > 1 and top > 0 and answers in dict(tied) and any(n in self.scorer.readers for n, _ in tied) \
                and _ASKS_THE_SERVICE.search(text) and not lx.OWNED.search(text) and not _MINE.search(text) \
                and not (ctx is not None and self.scorer.reference_spans(text, ctx)):
            return _promoted(ranked, answers, top)
        # 'what time do you close on fridays?': the service's own hours, asked of the side task that answers questions
        # (even in words its own do not use: 'what time do you shut anyway?' of a side task that speaks of opening,
        # when no other side task speaks for it: a pack's own opening-hours flow does)
        if answers is not None and _SERVICE_HOURS.search(text) and not lx.OWNED.search(text) and not _MINE.search(text) \
                and (dict(ranked).get(answers, 0.0) > 0 or not any(
                    score > 0 and self.domain.flow(n).metadata.digression for n, score in ranked)):
            return _promoted(ranked, answers, max(top, self.threshold))
        maker = self._takes_the_moment(tied, text, ctx) if len(tied) > 1 and top >= self.threshold else None
        if maker is not None:
            return _promoted(ranked, maker, top)
        if ranked[0][0] in self.scorer.readers:
            held = self._look_up_of_what_is_named(ranked, text, ctx)
            if held is not None:
                return held
            # two look-ups tie: the one that needs nothing more answers at once ('what have I got
            # booked?' lists; checking one booking would ask which)
            (first, top), (second, score) = ranked[0], ranked[1]
            if second in self.scorer.readers and top - score < TIE_MARGIN and not self._required(second) \
                    and self._required(first):
                return [(second, top), (first, score), *ranked[2:]]
            if second in self.scorer.readers and top - score < NAMED_MARGIN and self._named_not_owned(text, second, first, ctx):
                return [(second, top), (first, score), *ranked[2:]]
            return ranked
        reader = next((pair for pair in tied if pair[0] in self.scorer.readers), None)
        if reader is None:
            return ranked
        return _promoted(ranked, reader[0], top)

    def _finds_its_own(self, tied: list[tuple[str, float]], text: str) -> str | None:
        """Of tasks tied, the one task that makes something and calls every tool of the look-ups tied with it (a booking
        that searches for its own flight), when ``text`` asks to look at nothing ('show', 'options', 'find')."""
        if lx.content_stems(text) & _LOOKS or self.scorer.verb_flow(text) in self.scorer.readers:
            return None
        makers = [n for n, _ in tied if n not in self.scorer.readers and not self.domain.flow(n).metadata.digression
                  and self.domain.flow(n).intent not in ("Plan", "Internal", "Converse")]
        # (the look-ups of the same things: two slots shared with a maker; not a look-up of one's bookings by reference)
        slots = {n: {s.name for s in self.domain.flow(n).slots} for n, _ in tied}
        readers = [set(self.domain.flow(n).tools) for n, _ in tied if n in self.scorer.readers
                   and any(len(slots[n] & slots[m]) >= 2 for m in makers)]
        if not readers or not all(readers):
            return None
        makers = [n for n in makers if all(tools <= set(self.domain.flow(n).tools) for tools in readers)]
        return makers[0] if len(makers) == 1 else None

    def _takes_the_moment(self, tied: list[tuple[str, float]], text: str, ctx: SlotContext | None) -> str | None:
        """'... could we do tuesday the 8th at 10?': of tasks tied on the values alone, the one that
        makes something at a time of day goes first when every look-up tied with it keeps only the
        day (a look-up of free times on a day would drop the 10 o'clock the user asked for)."""
        if ctx is None or not find_times(text):
            return None
        timed = [name for name, _ in tied if self._holds_a_time(name, text, ctx)]
        makers = [name for name in timed if name not in self.scorer.readers
                  and not self.domain.flow(name).metadata.digression]
        readers = [name for name, _ in tied if name in self.scorer.readers]
        return makers[0] if len(makers) == 1 and readers and not set(readers) & set(timed) else None

    def _holds_a_time(self, name: str, text: str, ctx: SlotContext) -> bool:
        spec = self.domain.flow(name)
        slots = self._fresh_slots(spec)
        labels, _ = self.reader.read(spec, slots, text, ctx, None)
        return any(isinstance(slots[k], DateTimeSlot) and "T" in str(c.value) for k, c in labels.items())

    def _looks_before_it_books(self, ranked: list[tuple[str, float]], text: str, ctx: SlotContext | None,
                               begun: AbstractSet[str]) -> list[tuple[str, float]] | None:
        """'I need a bus for next Thursday', 'can you book me a hotel room in Delhi?': a task that
        makes something and needs a pick a look-up of the same things finds (the bus's time, the
        hotel's name) starts with that look-up, when it is near the best, the turn names no pick
        and neither task has begun. (A booking that finds its own flight needs no look-up first.)"""
        first, top = ranked[0]
        if ctx is None or first in self.scorer.readers or first in begun or self.domain.flow(first).metadata.digression:
            return None
        said = lx.content_stems(text)
        # ('I need to book a rental car', 'can you reserve a table': asked to make it, it is made, unless
        # the user also asks to find ('I'd like to book 2 rooms, can you find some?'); 'book it', 'put it
        # on my calendar': the pick was made already)
        if said & _MAKES and not said & _LOOKS or any(m.group().lower() != "there" for m in lx.REFERS_BACK.finditer(text)):
            return None
        # ('could I have two places at aqua yoga on thursday': places wanted for a party are asked for)
        if not said & _LOOKS and _WANTS_THINGS.search(text) and (people_listed(text) or _PARTY_SIZE.search(text)):
            return None
        picks = self._picks(first)
        if not picks:
            return None
        for name, score in ranked[1:3]:
            if top - score >= LOOK_MARGIN:
                break
            if name in picks and name not in begun:
                given, _ = self._read_new(self.domain.flow(first), text, ctx)
                if not set(given) & picks[name]:
                    return _promoted(ranked, name, top)
        return None

    def _picks(self, maker: str) -> dict[str, frozenset[str]]:
        """The look-ups of the things flow ``maker`` makes, each with the required slots of ``maker``
        it does not take: what is picked from what it finds. A look-up of those things names the
        same thing ('find bus' of 'buy bus ticket', 'get cars available' of 'reserve car'), or asks
        for nothing ``maker`` does not take and shares two slots with it; a look-up of the user's
        own things ('your appointments') finds nothing to pick."""
        cached = self._pick_cache.get(maker)
        if cached is not None:
            return cached
        spec = self.domain.flow(maker)
        slots = {s.name for s in spec.slots if not s.params.get("confirmation")}
        required = {s.name for s in spec.slots if s.priority == "required" and s.name in slots}
        things = _things(spec)
        found: dict[str, frozenset[str]] = {}
        for name in self.scorer.readers:
            reader = self.domain.flow(name)
            takes = {s.name for s in reader.slots}
            asks = {s.name for s in reader.slots if s.priority == "required"}
            same = bool(things & _things(reader)) or asks <= slots and len(takes & slots) >= 2
            if same and required - takes and not self._of_own_things(name):
                found[name] = frozenset(required - takes)
        self._pick_cache[maker] = found
        return found

    def _requested_by_its_verb(self, ranked: list[tuple[str, float]], text: str,
                               ctx: SlotContext | None = None) -> list[tuple[str, float]] | None:
        """'... my conference got moved, so ... Could you please cancel my reservation BK-20481?': the
        one task a request names by its own verb goes first when it nearly ties with the best (the
        story around a request names other tasks' words); so does an order that opens with it ('Book NYC to
        LAX, Dec 18, 1 pax, aisle.': the seat is a detail of the booking, no preference to save)."""
        asked = self.scorer.requested_flows(text)
        if not asked and not _NOT_FIRST.match(text) and (opening := self.scorer.verb_flow(text)) is not None:
            asked = {opening}  # (not 'hmm actually dont book anything yet, i just wanna see whats available')
        margin = NEW_ONE_MARGIN
        if not asked:
            # 'Need 1 pax JFK to LAX on 12/18, aisle. Book it.', 'Cheapest one, I suppose. Book it.', 'fine the
            # 15th it is then, book me the cheapest seat': a later sentence or clause that is an order in a
            # task's own verb, the rest its details
            asked = {n for part in _CLAUSES.split(text)[1:] if not _NOT_FIRST.match(part)
                     and (n := self.scorer.verb_flow(part)) is not None}
            margin = 2 * NEW_ONE_MARGIN
        if not asked:
            # 'I think I'd like to book the assessment anyway': a verb several tasks share, and the thing it is
            # done to, that one task's name holds both of
            asked = {f.name for verb, thing in lx.requested_things(text) for f in self.domain.ontology.flows
                     if f.intent != "Internal" and {lx.stem(verb), lx.stem(thing)} <= {lx.stem(w) for w in f.name.split("_")}}
        if len(asked) != 1:
            return None
        name = next(iter(asked))
        first, top = ranked[0]
        score = dict(ranked).get(name, 0.0)
        if _DONE_TO_ONES_OWN.search(text) and first not in self.scorer.readers \
                and not self.reader.works_on_a_held_thing(self.domain.flow(first)) and self.scorer.requested_flows(text) == {name}:
            # ('I need to cancel my yoga on saturday': one's own thing, done to by another task's verb, is no new one to
            # make, however strongly its words speak for making one)
            margin = ANSWER_MARGIN
        if name == first:
            # ('Grandma says she wants to book a flight to Chicago to see my aunt': asked for by its verb and first
            # already, though tied with a look-up)
            return ranked if score >= self.threshold and self.scorer.requested_flows(text) == {name} else None
        if score < self.threshold or top - score >= margin:
            return None
        if first in self.scorer.readers and name in self.scorer.readers and self._named_not_owned(text, first, name, ctx):
            return None  # ('can you look up flights london to paris': the look-up of what the turn names)
        return _promoted(ranked, name, top)

    def _adds_to_what_is_held(self, ranked: list[tuple[str, float]], text: str,
                              ctx: SlotContext | None) -> list[tuple[str, float]] | None:
        """'I should like to add him to my existing reservation', 'can you take my wife off BK-20481?':
        someone or something added to or taken off a thing held is a change to it, so the one flow
        that changes that thing (it needs its reference) goes first, whatever the nouns of the
        things added say ('add a passenger' is no new booking)."""
        found = _ADDED_TO_HELD.search(text)
        if found is None:
            return None
        thing = lx.stem(found["thing"])
        things = {thing, self.scorer.mend(thing), *lx.SYNONYMS.get(thing, ())}
        named = ctx is not None and any(s <= found.start("thing") < e for s, e in self.scorer.reference_spans(text, ctx))
        # what is added must be something the change can take: people, to a change that counts them
        # ('add my partner to MC-1001' to a pack that can only move the appointment changes nothing)
        added = text[found.start():found.start("thing")]
        people = bool(_PEOPLE_ADDED.search(added))
        keys = self.scorer.values_in(added, ctx)[0] if ctx is not None else frozenset()
        changers = [name for name, _ in ranked if name not in self.scorer.readers and self._needs_a_reference(name)
                    and self.scorer.declared_task_words(name) & _CHANGES
                    and (named or things & (self.scorer.task_words(name) | self.scorer.declared_task_words(name)))
                    and (any(count_units(s) & PEOPLE_STEMS for s in self.domain.flow(name).slots) if people
                         else bool(keys & self.scorer.profiles[name].value_keys))]
        if len(changers) != 1 or changers[0] == ranked[0][0]:
            return None
        return _promoted(ranked, changers[0], max(ranked[0][1], self.threshold))

    def _wants_for_a_party(self, ranked: list[tuple[str, float]], text: str,
                           ctx: SlotContext | None = None) -> list[tuple[str, float]] | None:
        """'need flights for 4 of us LA to honolulu', 'can I get 3 seats ...': wanting things for a
        party of people asks for the task that gets them, when it nearly ties with a look-up or with
        a change to something held that the turn does not name ('need 3 seats from new york to los
        angeles on friday' names no booking to change)."""
        first, top = ranked[0]
        # ('need 2 seats on my booking', '... instead of 1', 'update my reservation' name the one held)
        owned = any(lx.stem(m[1]) in self.scorer.task_words(first) for m in _OWNED_THING.finditer(text)) \
            or lx.INSTEAD.search(text) or _CHANGING.search(text)
        unnamed = self._needs_a_reference(first) and ctx is not None and not self.scorer.reference_spans(text, ctx) \
            and not owned
        if not (first in self.scorer.readers or unnamed) or not _WANTS_THINGS.search(text) \
                or not (people_listed(text) or _PARTY_SIZE.search(text)) or self.scorer.verb_flow(text) in self.scorer.readers:
            return None  # ('I'd like to find flights for three' looks them up)
        # (a change without the thing it changes holds its lead more loosely than a look-up)
        # ('need 2 seats to miami': seats or tickets wanted are got, not looked up)
        margin = NEW_ONE_MARGIN if first in self.scorer.readers and not _SEATS_WANTED.search(text) else 2 * NEW_ONE_MARGIN
        for name, score in ranked[1:3]:
            spec = self.domain.flow(name)
            if name in self.scorer.readers or top - score >= margin or spec.metadata.digression \
                    or spec.intent in ("Plan", "Internal", "Converse") or self._needs_a_reference(name):
                continue  # (changing a booking needs the booking: not getting new things)
            return _promoted(ranked, name, top)
        return None

    def _needs_a_reference(self, name: str) -> bool:
        """Whether flow ``name`` works on a thing held, named by its reference (a booking to change)."""
        return self.reader.works_on_a_held_thing(self.domain.flow(name))

    def _change_unasked(self, ranked: list[tuple[str, float]], text: str,
                        ctx: SlotContext | None) -> list[tuple[str, float]] | None:
        """'my reservation BK-31337', 'I want to see my actual reservation, the BK-31337': a thing held, named by its
        reference in no verb of changing it and with no new value for it, is looked up (the look-up of it goes first,
        though a change of it scores more on the thing's own name)."""
        if ctx is None or not text:
            return None
        first, top = ranked[0]
        if first in self.scorer.readers or self.domain.flow(first).metadata.digression \
                or not self.reader.works_on_a_held_thing(self.domain.flow(first)):
            return None
        keys = self.scorer.values_in(text, ctx)[0] & self.scorer.reference_keys
        if not keys or any(self.scorer.flow_of_verb(lx.stem(w)) == first or self.scorer.flow_of_verb(w) == first
                           for w in lx.tokens(text)) or self.scorer.verb_flow(text) == first \
                or lx.requested_verbs(text) - _READING_VERBS or lx.CANCEL_VERB.search(text):
            return None  # (a verb asked for: 'can you book transport for EY-1002', 'please move reservation BK-12345')
        given, _ = self._read_new(self.domain.flow(first), text, ctx)
        if any(value_key(s) not in keys for n in given if (s := self.domain.flow(first).slot(n)) is not None):
            return None  # ('BK-31337 to the 5th please': a new value for it, a change)
        reader = next((n for n, score in ranked[1:4] if n in self.scorer.readers and score > 0
                       and self.scorer.profiles[n].value_keys & keys), None)
        if reader is None:
            return None
        # (only the thing both name, and words of looking at it: not 'I'd like to alter the date on BK-31337', 'give me a
        # nudge to check in for BK-20481', 'my account number is BB-118842, I have a fault')
        things = self.scorer.declared_task_words(first) & self.scorer.declared_task_words(reader)
        said = self.scorer.stems(mask(text, self.scorer.reference_spans(text, ctx))) - lx.STOP_STEMS
        return _promoted(ranked, reader, top) if said <= things | _LOOKING_WORDS else None

    def _looked_up_by_reference(self, ranked: list[tuple[str, float]], text: str,
                                ctx: SlotContext | None) -> list[tuple[str, float]] | None:
        """'Can you look up JOB-4421 for me?': a look-up asked for in the plain verbs of looking, of a thing named by its
        reference, is the look-up that takes that reference (though the pack's own words for it are others)."""
        if ctx is None or not text or not _LOOK_AT.search(text) or lx.requested_verbs(text) - _READING_VERBS:
            return None  # ('my GP wants to see the echo results, can you send them over? CD-1004': sending asked for)
        keys = self.scorer.values_in(text, ctx)[0] & self.scorer.reference_keys
        first, top = ranked[0]
        if not keys or top < self.threshold or first in self.scorer.readers and self.scorer.profiles[first].value_keys & keys:
            return None  # (nothing asked for strongly: the reference alone says what to show, later)
        reader = next((n for n, _ in ranked if n in self.scorer.readers and self.scorer.profiles[n].value_keys & keys), None)
        return _promoted(ranked, reader, max(top, self.threshold)) if reader is not None else None

    def _look_up_of_what_is_named(self, ranked: list[tuple[str, float]], text: str,
                                  ctx: SlotContext | None) -> list[tuple[str, float]] | None:
        """'what day is my trip on bk-12345?': a look-up that takes the reference said goes before a
        look-up that takes nothing said, when it scores at least ``NAMED_SHARE`` as much."""
        if ctx is None or not text:
            return None
        keys = self.scorer.values_in(text, ctx)[0] & self.scorer.rare_or_identifying_keys
        keys = keys & self.scorer.reference_keys or keys  # ('is AP-1002 at northgate ...?': the reference says which)
        first, top = ranked[0]
        if not keys or self.scorer.profiles[first].value_keys & keys:
            return None
        for name, score in ranked[1:3]:
            if name in self.scorer.readers and self.scorer.profiles[name].value_keys & keys and score >= top * NAMED_SHARE:
                return _promoted(ranked, name, top)
        return None

    def _named_not_owned(self, text: str, named: str, other: str, ctx: SlotContext | None) -> bool:
        """'can you look up flights london to paris': of two look-ups near each other, the turn names the thing
        one is named after ('flights'), not one's own ('my flight'), and not the other's thing; the other looks
        up one's own things by a value the turn does not give (a booking by its reference)."""
        if lx.OWNED.search(text) or _MINE.search(text) or not self._of_own_things(other) or not self._required(other) \
                or ctx is not None and self._names_its_value(text, [], other, ctx):
            return False
        profiles, said = self.scorer.profiles, self.scorer.stems(text)
        return bool(said & (profiles[named].name - profiles[other].name)) \
            and not said & (profiles[other].name - profiles[named].name)

    def _asks_for_a_new_one(self, ranked: list[tuple[str, float]], text: str,
                            ctx: SlotContext | None = None) -> list[tuple[str, float]] | None:
        """'I'd like an appointment', 'need a GP appointment saturday at 10': a task's noun said
        with 'a', 'an', 'another' (and values) asks for a new one, so the flow that makes it goes
        before a look-up that nearly ties with it (unless the request opens with a verb: 'find a
        restaurant' looks one up)."""
        first, top = ranked[0]
        if first not in self.scorer.readers or not text or self.scorer.verb_flow(text) is not None \
                or lx.content_stems(text) & _LOOKS:  # ('can you help me find a doctor?' looks one up)
            return None
        spec = self.domain.flow(first)
        if not {lx.stem(w) for w in lx.tokens(f"{spec.label} {spec.description}")} & _OWN_THINGS:
            return None  # a look-up of options ('find a rental car') is the way to a new one
        # ('hi i need a check up': the thing asked for may be a value of the task that makes it)
        said = {lx.stem(w) for m in lx.INDEFINITE.finditer(text) for w in m.groups() if w}
        said |= {self.scorer.mend(w) for w in said}  # ('a flite to miami')
        said |= {lx.stem(f"{a}{joint}{b}") for m in lx.INDEFINITE.finditer(text) if (a := m[1]) and (b := m[2])
                 for joint in ("-", "")}  # ('a check up' is a 'check-up', a 'checkup')
        text = mask(text, self.scorer.values_in(text, ctx)[1]) if ctx is not None else text
        said |= {other for w in said for other in lx.SYNONYMS.get(w, ())}  # 'an appt'
        # ('i need an appt for my mum': who it is for asks for nothing else; 'can i make an appointment':
        # a verb of making one neither)
        # (words as meant: 'can i bok a blood tset for tomorow morning' makes one; the part of a day is a moment's)
        words = self.scorer.stems(_FOR_KIN.sub(" ", text))
        opens = lx.opener(text)
        if opens is not None and len(opens) >= 3 and lx.stem(opens) in words:
            words = words - {lx.stem(opens)} | {self.scorer.mend(opens)}
        if not said or not words - lx.LEAD_INS - _DAY_PARTS <= said | _COURTESY | _MAKES:
            return None  # only the thing asked for ('I'd like an appointment please'), no verb of a look-up
        for name, score in ranked[1:3]:
            spec = self.domain.flow(name)
            # (a new one is not made by a task on one already held: cancelling an appointment)
            if name in self.scorer.readers or top - score >= NEW_ONE_MARGIN or spec.metadata.digression \
                    or spec.intent in ("Plan", "Internal", "Converse") or self._needs_a_reference(name):
                continue
            if said & ({lx.stem(w) for w in name.split("_")} | lx.content_stems(spec.label) | lx.content_stems(spec.description)):
                return _promoted(ranked, name, top)
        # 'hi i need an appointment', nothing else: the task whose own words make a new one, wherever it ranks
        for name, score in ranked[1:]:
            spec = self.domain.flow(name)
            if name in self.scorer.readers or score < self.threshold or spec.metadata.digression \
                    or spec.intent in ("Plan", "Internal", "Converse"):
                continue
            own = {lx.stem(w) for w in name.split("_")} | lx.content_stems(spec.label) | lx.content_stems(spec.description)
            if said & own and own & _MAKES:
                return _promoted(ranked, name, top)
        return None

    def _own_errands(self, text: str, ctx: SlotContext | None) -> list[tuple[int, int]]:
        """'let me look at my calendar', 'let me confirm from my wife first': what the user will do themselves, of
        nothing a task here is named after and with no value of one, asks for no task (not 'let me book a flight to
        Paris', 'let me look at BK-31337 first')."""
        spans: list[tuple[int, int]] = []
        if "let me" not in text.lower():
            return spans  # (most turns: nothing more to read)
        names = {w for p in self.scorer.profiles.values() for w in p.name | p.keywords}
        for m in _LET_ME.finditer(text):
            if ctx is not None and self.scorer.values_in(m["rest"], ctx)[1]:
                continue
            # ('let me first check my other booking BK-20481': a thing a task is named after, as a thing)
            things = {lx.stem(w) for t in _A_THING.finditer(m["rest"]) for w in t["thing"].split()}
            named = lx.content_stems(m["rest"]) & (names - self.scorer.said_verbs) or things & names
            if lx.CONSULTS.search(m.group()) or not named:
                spans.append(m.span())
        return spans

    def _task_done_named(self, text: str, done: Sequence[str]) -> list[tuple[int, int]]:
        """'Book the cheapest one from that search': the verb of a task done lately, named as a thing done
        ('that search', 'the last search'), asks for that task no more."""
        profiles = self.scorer.profiles
        verbs = {v for name in done if name in profiles for v in profiles[name].name & self.scorer.said_verbs}
        if not verbs:
            return []
        return [m.span(1) for m in lx.TASK_DONE.finditer(text) if lx.stem(m[1]) in verbs]

    def _takes_what_was_found(self, ranked: list[tuple[str, float]], recent: str,
                              text: str) -> list[tuple[str, float]]:
        """'email that to me at lou@example.com' right after a check: of two near readings, the task
        that can take what the task before found or held (its booking) goes first; not over a question
        the side task that answers questions is asked in its own words ('does that flight come with a
        free checked bag?' asks about baggage, whichever flight)."""
        if len(ranked) < 2 or ranked[0][1] - ranked[1][1] >= REFER_MARGIN:
            return ranked
        before = self.domain.flow(recent)
        found = {s.name for s in before.slots} | set(before.outputs)
        (first, top), (second, score) = ranked[0], ranked[1]
        if self.domain.flow(first).metadata.digression and lx.is_question(text) \
                and self.scorer.stems(text) & (self.scorer.task_words(first) - self.scorer.task_words(second)):
            return ranked
        takes = {name: bool(found & {s.name for s in self.domain.flow(name).slots}) for name in (first, second)}
        if takes[second] and not takes[first]:
            return [(second, top), (first, score), *ranked[2:]]
        # ('cn i move it 2 fri 11th' after a check of an appointment: the move of an appointment, not of an infusion)
        profiles = self.scorer.profiles
        thing = profiles[recent].name - self.scorer.said_verbs if recent in profiles else set()
        if takes[first] == takes[second] and thing:
            owns = {name: bool(thing & profiles[name].name) for name in (first, second)}
            if owns[second] and not owns[first]:
                return [(second, top), (first, score), *ranked[2:]]
        return ranked

    def _asks_about_own(self, ranked: list[tuple[str, float]], text: str,
                        ctx: SlotContext | None) -> list[tuple[str, float]] | None:
        """'what flights have I got coming up?': asking what one has goes to the look-up of one's own
        things (its words say 'my', 'existing', 'upcoming'), when it is near the best."""
        if not text or not lx.OWNED.search(text):
            return None
        first, top = ranked[0]
        if first not in self.scorer.readers and first in self.scorer.requested_flows(text):
            return None  # ("I've got my MOT booked thursday but ..., can I move it?": a task asked for by its own verb)
        if first in self.scorer.readers and self._of_own_things(first):
            # 'what bookings do I already have?': a look-up that needs a value not said gives way to
            # the one that needs nothing ('which one?' would be asked of someone who asks what they have)
            if ctx is not None and self._required(first) and not self._names_its_value(text, [], first, ctx):
                plain = next((n for n, score in ranked[1:3] if top - score < OWN_MARGIN and n in self.scorer.readers
                              and self._of_own_things(n) and not self._required(n)), None)
                if plain is not None:
                    return _promoted(ranked, plain, top)
            return None
        for name, score in ranked[:3]:
            if top - score >= OWN_MARGIN:
                break
            if name in self.scorer.readers and self._of_own_things(name):
                return _promoted(ranked, name, top)
        return None

    def _of_own_things(self, name: str) -> bool:
        owns = self._own_things_cache.get(name)
        if owns is None:  # (asked on many turns: the pack's words do not change)
            spec = self.domain.flow(name)
            words = {lx.stem(w) for w in lx.tokens(" ".join([spec.label, spec.description, *spec.keywords]))}
            owns = self._own_things_cache[name] = bool(words & (_OWN_THINGS | {"my"}))
        return owns

    def _required(self, name: str) -> bool:
        return any(s.priority == "required" for s in self.domain.flow(name).slots)

    def _task_words_dropped(self, answer: Candidate, flow: str, said: str = "", asked: Any = None) -> Candidate | None:
        """'I want to borrow Dune' to 'Which book?' -> 'Dune'; 'I want to borrow a book' -> nothing
        (the task restated); 'The Hobbit' stays whole, and so does a name in capitals in a turn ``said``
        that is not all in capitals ('Parkside Surgery on Elm Road': 'surgery' is a word of the task). The words of
        the question ``asked`` itself are the answer's own ('back row ideally' to 'Any seating wishes, like aisle seats
        or the back row?')."""
        triggers = self.scorer.trigger_words(flow)
        if asked is not None:
            own = " ".join(str(getattr(asked, a, "") or "") for a in ("name", "description", "prompt"))
            triggers = triggers - {lx.stem(w) for w in lx.tokens(own.replace("_", " "))}
        text = answer.value
        words = str(text).split()
        # (a short turn all in capitals is a name said alone too: 'Little Acorns Nursery')
        if len(words) > 1 and all(w[:1].isupper() for w in words) \
                and (not all(w[:1].isupper() for w in said.split() if w.isalpha()) or len(said.split()) <= _NAME_ALONE):
            return answer
        rest = remainder(text, [], triggers)
        if rest is None or names_nothing(rest.value):
            return None  # 'ok then yes book it': only the task and a yes
        if not any(lx.stem(t) in triggers for t in lx.tokens(text)):
            return answer
        return Candidate(rest.value, rest.display, answer.start + rest.start, answer.start + rest.end, answer.score)

    def _abandons(self, text: str, active: ActiveView, own_labels: Mapping[str, Candidate]) -> bool:
        """'I changed my mind', 'I don't want to book anymore', 'forget the flight': the user gives up
        the task in progress, naming it by its own words or not at all (no value of it is given)."""
        m = lx.ABANDON.match(text)
        # (a value said in what follows the change of mind is none: 'no booking today')
        after = m.start("after") if m is not None and m["after"] else len(text)
        if m is None or any(not isinstance(active.slots[k], FreeTextSlot) and c.start < after
                            for k, c in own_labels.items()):
            return False
        what = m["about"] or m["what"] or m["task"] or ""
        said = lx.content_stems(what) - lx.ABANDON_FILLER
        if not said:  # 'I changed my mind', 'I don't need it anymore'; not 'I don't need any'
            return m["task"] is None and (m["what"] is None or m["tail"] is not None)
        return said <= self._own_words(active)

    def _answers_yes_no(
        self, text: str, waiting: BaseSlot, ranked: list[tuple[str, float]], active: ActiveView
    ) -> bool:
        """'no wait, keep it' to 'Cancel RNT-48213?': a leading yes/no answers a yes/no question,
        unless a long rest clearly asks for another flow ('no, I want to check my balance instead')."""
        lead = lx.YES_NO_LEAD.match(text) or lx.LED_NO.match(text)
        if lead is None or not waiting.params.get("confirmation"):
            return False
        rest = lead["rest"]
        if len(lx.tokens(rest)) <= 3 or self._only_tells(rest, lx.is_question(rest)):
            return True  # ('Actually no, keep it - the client meeting is back on.': a reason, asking for nothing)
        best, score = ranked[0] if ranked else (None, 0.0)
        return best == active.name or score < 2 * self.threshold

    def _paused_named(self, text: str, view: NLUView) -> str | None:
        """'cancel the price alert', 'scrap the transfer', 'never mind the rental': the paused flow
        (most recent first), or the part queued for later, named by a word of its name or label."""
        said = {w[:4] for w in lx.tokens(text) if w not in lx.STOPWORDS and not lx.CANCEL_VERB.fullmatch(w)}
        for flow_id, name in [*reversed(view.paused), *view.queued]:  # (a part queued for later, too)
            spec = self.domain.flow(name)
            words = {w[:4] for w in [*name.split("_"), *lx.tokens(spec.label)] if w not in lx.STOPWORDS}
            if said & words:
                return flow_id
        return None

    def _digression_asked(self, text: str, ranked: list[tuple[str, float]]) -> str | None:
        """'Do you fly to Tokyo?': an inquiry (not a request) that a digression flow can answer."""
        if not (lx.QUESTION_START.match(text) or lx.SERVICE_QUESTION.match(text)) or lx.REQUEST_START.match(text):
            return None
        for name, score in ranked:
            if score >= self.threshold / 2 and self.domain.flow(name).metadata.digression:
                return name
        return None

    def _digression_flow(self, ranked: list[tuple[str, float]], hint: str) -> str | None:
        for name, _ in ranked:
            spec = self.domain.flow(name)
            if spec.metadata.digression and hint in name:
                return name
        return None

    def _fresh_slots(self, spec: FlowSpec) -> dict[str, BaseSlot]:
        return {s.name: self.make_slot(s) for s in spec.slots}

    def _read_new(self, spec: FlowSpec, text: str, ctx: SlotContext) -> tuple[dict[str, Candidate], dict[str, str]]:
        """The values ``text`` gives a new instance of flow ``spec`` (all its slots still empty)."""
        return self.reader.read(spec, self._fresh_slots(spec), text, ctx, None)

    def _starts(self, r: Reading, name: str, **kw: Any) -> Understanding:
        """Start flow ``name`` with the values the turn gives it (and, for the task the look-up just done prepares,
        the look-up's own: 'ok, book a flight' after a search books what was searched)."""
        labels, rejected = self._read_new(self.domain.flow(name), r.text, r.ctx)
        if r.active is None and r.view.recent is not None and not kw.get("refers_back") \
                and name == self.follow_up(r.view.recent):
            kw["follows"] = True
        return r.result("start", flow=name, labels=labels, rejected=rejected, **kw)

    # -- slot reading ---------------------------------------------------------
SWITCH_MARGIN = 0.15  # how much better another flow must score to take the focus
TIE_MARGIN = 0.05  # closer than this, two flows are a tie
NAMED_MARGIN = 0.15  # 'look up flights': within this, a look-up the turn names goes before one of one's own things
NEW_ONE_MARGIN = 0.25  # 'an appointment': within this, the flow that makes one goes before a look-up
LOOK_MARGIN = 0.5  # 'I need a bus for Thursday': within this, the look-up goes before a booking that needs a pick
ANSWER_MARGIN = 1.0  # a turn that gives the task in progress values leaves it only for a flow this much better
CONFIDENT_MARGIN = 0.1  # a flow chosen by less than this over the next is a guess
DETAIL_MARGIN = 0.5  # a question about a detail moves the focus only to a look-up this much better
SIDE_MARGIN = 1.0  # a task giving values this near a side question's score is what a statement asks for
NAMED_SHARE = 0.4  # 'is my boston-chicago trip still on? it's BK-20481': the look-up of what is named, this near
OWN_MARGIN = 0.75  # 'what have I got': within this, the look-up of one's own things goes first
REFER_MARGIN = 0.5  # 'email that to me': within this, the task that takes what was just found goes first
PART_MARGIN = 0.5  # an order opening a request of two parts is for its best task when this far ahead of the next
OTHER_TASK_MARGIN = 1.5  # a question in only another task's words moves the focus to it when this much better


def _label_head(spec: FlowSpec) -> str | None:
    """The stem of the word a flow's label opens with ('moving a nurse appointment' -> 'move'),
    when it is a word of the task and not a stopword."""
    words = lx.tokens(spec.label or "")
    head = lx.stem(words[0]) if words else None
    return head if head and head not in lx.STOP_STEMS else None


def _clearly_beats_paused(ranked: list[tuple[str, float]], name: str, paused: Sequence[tuple[str, str]]) -> bool:
    """Whether flow ``name`` scores clearly better than every other paused flow in ``ranked``."""
    scores = dict(ranked)
    return all(scores.get(name, 0.0) >= scores.get(other, 0.0) + SWITCH_MARGIN for _, other in paused if other != name)


def _taken_back(active: ActiveView, labels: dict[str, Candidate], text: str, ctx: SlotContext) -> dict[str, Candidate]:
    """'book a flight to Paris', then 'scratch that, rome': a value with no cue of its own replaces
    the answer taken back (the slot filled last), not the one asked next."""
    last = active.last_filled
    if len(labels) != 1 or last is None or last in labels or last not in active.slots:
        return labels
    (name, cand), = labels.items()
    spec = active.spec.slot(name)
    if spec is None or cue_score(text, cand, spec, None) > 0 or not active.slots[last].check(cand.value, ctx).ok:
        return labels
    return {last: cand}


def _said_instead(active: ActiveView, labels: dict[str, Candidate], text: str) -> dict[str, Candidate]:
    """'Actually, Miami in December, how original of me. Make it Los Angeles instead.': a value the task
    holds, said again, then a new one of the same kind said 'instead': the new one replaces it (it does not
    go to another slot of that kind)."""
    out = dict(labels)
    for name, cand in labels.items():
        spec = active.spec.slot(name)
        if spec is None or cue_score(text, cand, spec, None) > 0:
            continue  # ('from boston to miami instead': each said with its own cue)
        kind = type(active.slots[name])
        named = [k for k, slot in active.slots.items() if k != name and type(slot) is kind and slot.filled
                 and isinstance(slot.value, str) and re.search(rf"\b{re.escape(slot.value)}\b", text[:cand.start], re.IGNORECASE)]
        held = named[0] if len(named) == 1 else None
        if held is not None and name in out and (held not in out or out[held].value == active.slots[held].value):
            out[held] = out.pop(name)  # (and the value said again, 'chicago? no, denver instead', changes nothing)
    return out


def _only_values(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``text`` says nothing but the values at ``spans`` and the words that lead to them
    ('from atlanta'; not "i'll just walk in", not 'just show me flights from boston')."""
    inside = [(a, b) for a, b in spans if 0 <= a < b <= len(text)]
    return bool(inside) and not lx.content_stems(mask(text, [*inside, *lx.value_lead_spans(text, inside)]))


def _promoted(ranked: list[tuple[str, float]], name: str, score: float) -> list[tuple[str, float]]:
    """``ranked`` with flow ``name`` first, at ``score`` (the rest in their order)."""
    return [(name, score), *((n, v) for n, v in ranked if n != name)]


def _refines(r: Reading) -> dict[str, bool]:
    """'one with wifi', 'what else do you have?' right after that very task ended: the same task
    again, changed only where the user says so (the values not said carry over)."""
    return {"refers_back": True} if r.active is None and r.best == r.view.recent else {}


def _approval_answer(text: str, view: NLUView) -> Understanding | None:
    """'/approve', 'yes' while a tool call waits for approval; '/deny', 'no'."""
    if view.pending_approval:
        if lx.APPROVE_COMMAND.match(text) or lx.AFFIRM.match(text):
            return Understanding("approve", text)
        if lx.DENY_COMMAND.match(text) or lx.DENY.match(text):
            return Understanding("deny", text)
    return None


# a look-up of the user's own things ('looking up your appointments', 'an existing booking')
_MAKES = frozenset(lx.stem(w) for w in "new make book create add schedule reserve order buy rent hire open".split())
_DOES = frozenset(lx.stem(w) for w in "get lookup play check list see view cancel change modify".split())
_TEXTED = {"u": "you", "ur": "your", "r": "are", "pls": "please", "plz": "please", "ya": "you", "wat": "what",
           "wot": "what", "wen": "when",
           # ("when's my mammogram again?" of 'When is my mammogram?')
           **{f"{w}{s}": f"{w} is" for w in ("when", "what", "where", "how", "who") for s in ("'s", "s")}}
# a number said alone, with a please or a 'just' ('2 please', 'just one', 'Three, thanks.')
# (a number word alone may be a title: 'Six', 'Nine' to 'which show?'; with a 'just' or a 'please' it counts)
_NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_BARE_COUNT = re.compile(r"\s*(?:(?:just|only|ok|okay|um+|er+)[\s,]+)?(\d{1,3})(?:[\s,]+(?:please|pls|plz|thanks|thank you|thx))?[\s.!]*"
                         r"|\s*(?:(?:ok|okay|um+|er+)[\s,]+)?(?:(?:just|only)[\s,]+(" + _NUMBER_WORD + r")[\s,]*(?:please|pls|plz|thanks|thank you|thx)?"
                         r"|(" + _NUMBER_WORD + r")[\s,]+(?:please|pls|plz|thanks|thank you|thx))[\s.!]*", re.IGNORECASE)
_SMALL_WORDS = frozenset("a an the on at in for to of by with from my your our please".split())
_DAY_WORD = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|today|tonight|tomorrow")
_QUESTION_STEM = lx.stem("questions")
_PREFER = lx.stem("preferences")
_TO_YOU = re.compile(r"\b(?:you|u|ya|your|ur|yourself)\b", re.IGNORECASE)
_FILLERS = frozenset({"wait", "hang", "hold", "quick", "question", "q", "btw", "sorry", "also", "just", "again"})
_ASKS_TO = re.compile(r"\b(?:can|could) you\b|\bplease\b", re.IGNORECASE)  # (what joins a request on)
_WH = frozenset({"where", "when", "what", "how", "which", "who", "why"})
_LOOKS = frozenset(lx.stem(w) for w in "find search look show browse available options".split())


def _things(spec: FlowSpec) -> frozenset[str]:
    """What a flow's label says it is about, without its verbs ('buy bus ticket' -> bus, ticket)."""
    return frozenset(lx.content_stems(spec.label) - _MAKES - _LOOKS - _DOES)


_KIN_SAID = re.compile(rf"\b{KIN_OWNER}\s+(?:{KIN})s?\b", re.IGNORECASE)  # ('my boss needs to get ...': who, no task)
_FOR_KIN = re.compile(rf"\bfor\s+{KIN_OWNER}\s+(?:{KIN})s?\b", re.IGNORECASE)
_OWN_THINGS = frozenset(lx.stem(w) for w in ("your", "existing", "current", "upcoming", "own"))
_DAY_PARTS = frozenset(lx.stem(w) for w in ("morning", "afternoon", "evening", "night", "lunchtime", "midday"))
# wanting, asked for ('need flights', 'I'd like', 'can I get', 'could we get'), and how many people it is for
# (at the start of the turn or of a clause: "we're a family of four, need seattle to honolulu")
_WANTS_THINGS = re.compile(r"(?:^|[,;.]\s*|\band\s+)\s*(?:(?:hi|hey|hello|ok|okay|so|um+|hmm+|right)[\s,!.]+)*(?:" + lx.WE + r"\s*(?:'d like|would like|"
                           r"need|want|wanna|(?:'m|am|'re|are) (?:organi[sz]ing|arranging|sorting out))|need|want|"
                           r"(?:can|could) (?:i|we) (?:get|have)|(?:can|could|would|will) (?:you|u) (?:get|sort))\b", re.IGNORECASE)
_OWNED_THING = re.compile(r"\b(?:my|our|the)\s+(?:current\s+|existing\s+)?(\w+)", re.IGNORECASE)
# something added to or taken off a thing held ('add him to my existing reservation', 'take me off the booking')
_ADDED_TO_HELD = re.compile(r"\b(?:add|adding|put|include|squeeze|remove|take)\b[^.?!;]{0,60}?\b(?:to|on|onto|into|from|off)\s+"
                            r"(?:(?:my|our|the|this|that)\s+)?(?:current\s+|existing\s+|upcoming\s+|original\s+)?"
                            r"(?P<thing>[\w-]+)", re.IGNORECASE)
_PEOPLE_ADDED = re.compile(rf"\b(?:{KIN}|him|her|them|me|myself|us|passengers?|people|persons?|guests?|travell?ers?|adults?|"
                           rf"child(?:ren)?|kids?|someone|somebody|one more)s?\b", re.IGNORECASE)
_CHANGES = frozenset(lx.stem(w) for w in "change modify update amend edit alter".split())
# a wish anywhere in a turn ('I'll need a bus ...', 'I wish to get bus tickets', 'I'm going to need a flight')
_WISHES = re.compile(r"\b(?:i|we|he|she|they)(?:'ll| will|'m going to| am going to|'re going to| are going to|'s going to)? ?"
                     r"(?:wish(?:es)?|wants?|needs?|would like|'d like|like to|prefer|am looking for|'m looking for|are looking for)\b",
                     re.IGNORECASE)
# a verb with what it is done to, opening an order ('email the itinerary ...', 'send me a copy')
_IMPERATIVE = re.compile(r"^\s*(?:(?:also|then|please|pls)\s+)*[a-z]+\s+(?:the|my|me|us|our|a|an)\b", re.IGNORECASE)
# more of what a look-up found, asked for ('Any others?', 'What else can you find?', 'Do you have anything else?', 'any
# other options?'; not 'anything else I should know?')
_MORE_OF_THE_SAME = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|cool|hmm+|um+|well|sure|right|alright|all right|great|nice|and|so|but)[\s,.!]+)*"
    r"(?:(?:is|are) there |do you have |(?:have )?you got |do you see |did you find |can you find |could you find |got )?"
    r"(?:any ?others?|any ?thing else|something else|some ?thing other|what else|any other (?:ones?|options?|suggestions?|choices?)|"
    r"other (?:options?|ones?|choices?)|more (?:options?|choices?|results?))\b"
    r"(?!\s+(?:i|we)\s+(?:should|need|must|have)\b|\s+to know\b|\s+(?:for|about)\s+(?:me|us)\b)", re.IGNORECASE)
# where the talk had got to, asked with nothing open ('Where were we?', 'where was I up to?')
_LOST_PLACE = re.compile(r"\b(?:where (?:are|were) we(?: up to| at)?|where was i(?: up to| at)?|what (?:are|were) we doing)"
                         r"(?=\s*[?.!]*\s*$)", re.IGNORECASE)
# an order to set something up, opening the turn ('also set alert: ...', 'and make a reminder for ...')
_SETS_UP = re.compile(r"^\s*(?:(?:also|and|oh|ok|okay|now|then|plus|please|pls|can you|could you|can u|could u|pls can u)[\s,]+)*"
                      r"(?:set|make|create|add|put|start|open)\b", re.IGNORECASE)
# the verb of a task said not to be wanted, anywhere in a turn ('..., I don't want to move it, ...')
_UNWANTED_VERB = re.compile(r"\b(?:(?:i|we) (?:don'?t|do not|no longer) (?:want|need|wish) to|(?:i|we) (?:don'?t|dont) wanna|"
                            r"don'?t|do not) (?P<verb>[a-z]+) (?:it|that|this|them)\b(?! yet\b)", re.IGNORECASE)
_NOT_DOING = re.compile(r"\b(?:not|without|no) (?P<verb>[a-z]+ing) (?:anything|it|that|them|yet|anything yet)\b", re.IGNORECASE)
# 'is my nurse review still happening?', 'are our tickets still ok?': whether one's own thing still stands
_STILL_ON = re.compile(r"^\W*(?:(?:hi|hey|hello|so|and|oh|um+|hmm+)[\s,]+)*(?:is|are|r) (?:my|our|his|her|their)\b[^?]{1,50}?"
                       r"\bstill\b", re.IGNORECASE)
# going on with a task offered back, or insisting on the yes ('yes, finish the booking', 'YES OBVIOUSLY')
_GOING_ON = frozenset(lx.stem(w) for w in "finish continue carry go proceed resume complete get back obviously course definitely "
                      "absolutely duh please already".split())
_SERVICE_HOURS = re.compile(r"\b(?:what time|when|how late|how early) (?:do|does|are|r) (?:you|u|ya|you guys|the \w+)"
                            r"(?: \w+)? (?:open|close|shut|finish|start|open up)\b", re.IGNORECASE)
# a wh-word, an order to set something up, or a task's verb taken back: more than a pause before an answer
_ASKS_OR_ORDERS = re.compile(r"\b(?:what|whats|what's|where|when|which|who|how|set|make|create|show|don'?t|dont)\b",
                             re.IGNORECASE)
_PAUSE_WORDS = frozenset({"wait", "hang on", "hold on", "let me", "one sec", "one second", "just a sec", "just a second"})
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=\S)")
_DOUBT = re.compile(r"^\W*(?:but|though|although|except|unless)\b|\b(?:but|though|unless)\s*[,.!?]*$", re.IGNORECASE)
_CLAUSES = re.compile(r"(?<=[.!?,;])\s+(?=\S)")
_CHANGING = re.compile(r"\b(?:update|change|add|modify|amend)\b", re.IGNORECASE)
_SEATS_WANTED = re.compile(r"\b(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:seats|tickets|tix|places)\b",
                           re.IGNORECASE)
_PARTY_SIZE = re.compile(r"\b(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:of us|people|persons|adults|"
                         r"passengers|travell?ers|seats|tickets|tix|guests|places|spots|spaces)\b|\b(?:party|group|family) of\s+\w+"
                         r"|\b(?:just|only) (?:me|myself|the two of us|us two)\b|\bme and my \w+|\bthe \w+ of us\b",
                         re.IGNORECASE)
# wanting to get somewhere says no more than wanting the thing ('i want to go to chicago'), nor does
# taking a value back on the way ('... from Miami, no actually from Orlando')
_GETTING_THERE = frozenset(lx.stem(w) for w in ("go", "get", "be", "head", "gotta", "asap", "urgently",
                                                 "actually", "sorry", "meant", "mean", "wait", "instead"))
_DONT_WORRY = re.compile(r"^\W*(?:(?:no|nah|oh|actually|ok|okay)[\s,]+)*don'?t worry(?: about (?:it|that))?[\s.!,]*$", re.IGNORECASE)
# the yes a read-back's answer opens with ('ok fine, yes', 'sure', 'alright'), before the task's verb
_YES_FIRST = re.compile(r"^\s*(?:(?:oh|well|um+|hmm+|ah)[\s,]+)?(?:(?:yes|yeah|yep|yup|yea|aye|ok|okay|sure|alright|all right|great|very well|"
                        r"fine|perfect|correct|lovely|brilliant|cool|right|exactly|spot on|"
                        # ('yep thats the one, cancel it')
                        r"that'?s (?:the one|the right one|it|right|correct)|that is (?:the one|it|right|correct))\b[\s,.!-]*)+",
                        re.IGNORECASE)
# 'yes cancel it, i'll book another one later': a task put off for later, said beside the answer
_LATER_ASIDE = re.compile(r"[,;.]?\s*\b(?:i'?ll|ill|i will|we'?ll|we will|i'?m going to|i might|i may|gonna)\b[^.;!?]*", re.IGNORECASE)
_ASKED_THEN_TOLD = re.compile(r"^(?P<asked>[^?.!]+\?)\s+(?P<told>[^?]+)$")
# 'what time do u shut', 'are you open on sundays': a question about the service itself
_ASKS_THE_SERVICE = re.compile(r"\b(?:do|does|are|r) (?:you|u|ya|you guys|y'all)\b(?! (?:want|need|think|mind)\b)",
                               re.IGNORECASE)
_NOT_FIRST = re.compile(r"^\W*(?:[\w']+\W+){0,3}?(?:don'?t|dont|do not|never|not)\s", re.IGNORECASE)
_LATER_WISH = re.compile(r"[,;.]\s*(?:but|so|and)?\s*(?=" + lx.WE + r"\s*(?:'d like|would like|'ll need|will need|need|want|"
                         r"have to|'ve got to|gotta)\b)", re.IGNORECASE)
_DONE_TO_ONES_OWN = re.compile(r"\b(?:cancel|move|change|reschedule|rearrange|check|amend|modify|postpone)\s+(?:my|our|his|her|their)\b",
                               re.IGNORECASE)
_ANY_CHANCE_OF = re.compile(r"(?:^|[.!?;,]\s*)(?:any chance of|is there any chance of|could i have|can i have)\b", re.IGNORECASE)
_LET_ME = re.compile(r"\blet me (?:just )?(?P<rest>[a-z]+[^,.;!?]*)", re.IGNORECASE)
_AND_LEAD = re.compile(r"^\s*(?:(?:and|also|oh|wait|but|so|then|plus)[\s,]+)+", re.IGNORECASE)
_A_THING = re.compile(r"\b(?:my|our|the|a|an|this|that|your)\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)", re.IGNORECASE)
_FIRST_THIS = re.compile(r"\s*(?:before (?:this|that)|first(?:ly)?|but first)\b", re.IGNORECASE)
_THEIR_PREFERENCE = re.compile(r"^\W*(?:she|he|they|my (?:boss|manager|client|husband|wife|partner))(?:'d| would)?\s+"
                               r"(?:prefer|prefers|like|likes|want|wants|rather)\b", re.IGNORECASE)
# a reference as most are written: capitals, a dash maybe, digits ('BK-12345', 'LK-2043', 'HP2041')
_REFERENCE_LIKE = re.compile(r"\b[A-Z]{2,4}-?\d{3,}\b")
_MINE = re.compile(r"\b(?:my|our|mine)\b", re.IGNORECASE)  # ('ok, do you have my booking?' asks about one's own)
# 'nope, try again', 'no, something else': a no that asks for more (not 'no, I don't need anything else')
_ASKS_MORE = re.compile(r"\b(?:again|another|else|other|different|more)\b", re.IGNORECASE)


def _asks_more(text: str) -> bool:
    m = _ASKS_MORE.search(text)
    return m is not None and not ({*lx.tokens(text[:m.start()])} & ((lx.NEGATORS - {"not"}) | {"nothing"}))
_GO_AHEAD_AND = re.compile(r"^[\s,.!-]*(?:(?:please|pls|just|go ahead and|go on and|and)[\s,.!-]+)*", re.IGNORECASE)
_TELL_ME_WH = re.compile(r"\b(?:(?:can|could|would|will) (?:you|u) (?:please |pls |kindly )?)?tell (?:me|us)(?= (?:when|what|whats|where|which|who"
                         r"|how|if|whether)\b)", re.IGNORECASE)
_POSSIBLE_TO = re.compile(r"\b(?:is|would)\s+(?:it\s+)?(?:be\s+)?possible\s+(?:for\s+(?:me|us)\s+)?to\s+[a-z]+", re.IGNORECASE)
_NAME_ALONE = 4  # words a turn that is only a name in capitals may have ('Little Acorns Day Nursery')
_MAY_I_DO = re.compile(r"\b(?:can|could|may)\s+(?:i|we)\s+(?:just\s+|please\s+|instead\s+)?(?P<verb>[a-z]+)\b", re.IGNORECASE)
# ('FIVE of us need to get from New York to Los Angeles', 'my mum has to fly to Boston'): getting somewhere, wanted
_NEEDS_TO_GET = re.compile(r"\b(?:need|needs|want|wants|have to|has to|gotta|got to)\s+(?:to\s+)?(?:get|go|fly|travel|be)\b"
                           # ('me and 3 of the squad need flights out of chicago': a thing wanted from or to a place)
                           r"|\b(?:need|needs)\s+(?:a |an |some |\w+ )?\w+\s+(?:out of|from|to)\b", re.IGNORECASE)
# the plain verbs of looking a thing up ('look up JOB-4421', 'can I see BK-31337', 'pull up ...')
_LOOK_AT = re.compile(r"\b(?:look (?:up|at|into)|check (?:on|up on)|pull up|bring up|see|view|show me|find|status (?:of|on))\b",
                      re.IGNORECASE)
_READING_VERBS = frozenset({"see", "view", "look", "look up", "check", "check on", "show", "find", "pull", "pull up", "bring",
                            "bring up", "get", "know", "have", "tell"})
_LOOKING_WORDS = frozenset(lx.stem(w) for w in ("see", "view", "look", "show", "actual", "current", "existing", "want",
                                                 "like", "please", "my", "the"))
_COURTESY = frozenset(lx.stem(w) for w in ("please", "pls", "plz", *lx.THANKS, "today", "soon", "possible", "hi", "hey", "hello",
                                            "already", "lah", "leh", "lor", "liao"))  # ('Yes send already': Singapore English)


def _stray_approval(text: str, view: NLUView) -> Understanding | None:
    """'/approve' with nothing waiting for approval."""
    if lx.APPROVE_COMMAND.match(text) or lx.DENY_COMMAND.match(text):
        return Understanding("unknown", text, confident=True, digression_type="no_approval")
    return None


PRE_RULES: tuple[tuple[str, Any], ...] = (("approval_answer", _approval_answer), ("stray_approval", _stray_approval))
RULES: tuple[tuple[str, Any], ...] = tuple((rule.__name__, rule) for rule in (
    Understander.answers_yes_no_slot, Understander.accepts_offer, Understander.answers_resume_offer,
    Understander.takes_the_next_step,
    Understander.declines_offer, Understander.stops, Understander.stops_everything, Understander.cancels_paused_by_name,
    Understander.stops_then_says_more, Understander.gives_up, Understander.goes_back, Understander.asks_for_help,
    Understander.asks_status, Understander.chats, Understander.splits_into_parts, Understander.asks_for_more,
    Understander.asks_a_side_question,
    Understander.asks_the_same_again, Understander.names_a_day_before, Understander.starts_another,
    Understander.fills_or_corrects, Understander.says_goodbye, Understander.makes_small_talk, Understander.answers_free_text,
    Understander.asks_what_a_digression_answers, Understander.answers_the_question, Understander.starts_a_task,
    Understander.means_to_stop, Understander.shows_what_it_names, Understander.does_not_know,
))


def _agrees_only(r: Reading) -> bool:
    """'That should work.', 'Nice.', 'Yes, that will do just fine.': agreeing with nothing asked asks
    for no task (not 'yes for 2 at 17:45', which gives values)."""
    return lx.agrees_only(r.text) and not r.own_labels and not any(c.isdigit() for c in r.text)


def _normal(text: str) -> str:
    return " ".join(lx.tokens(text))
