"""Values read from a sentence for one flow's slots: which span feeds which slot.

Each slot type's parser proposes candidates (``extract``); the rules of understanding add what
only the slot's name can tell (free text by role cues, yes/no and count options, group sizes);
cue words around a value decide between slots that could take it ('from Boston' is an origin),
self-repairs decide between values ('I meant Rome, not Paris'), and each span feeds one slot.
"""

from __future__ import annotations

import difflib
import re

from collections.abc import Mapping, Sequence, Set as AbstractSet
from typing import Any

from ..domain.models import FlowSpec, SlotSpec
from ..state.dates import REPAIR, find_dates
from ..state.slots import BaseSlot, Candidate, CategorySlot, FreeTextSlot, LevelSlot, SlotContext
from ..state.slot_datetime import DateTimeSlot
from ..state.text import KIN, parse_number
from ..state.times import find_times
from . import lexicon as lx
from .freetext import (ROLE_CUES, YIELDING, bare_answer, could_be_a_name, cued_values, has_name, in_capitals_only, name_run,
                       names_nothing, not_a_value, only_acts, place_spans, roles_of, sentence_ends_between, without_possessive)
from .options import (COUNT_WORDS, PEOPLE_STEMS, count_units, count_value, counts_things, counts_unit, flag_value, is_count,
                      is_flag, is_yes_no)
from .scoring import FlowScorer, cue_score, duration_candidates, mask, negated, plural_candidates, value_key


class SlotReader:
    """Reads the values of a flow's slots from a sentence (the pack's scorer gives trigger words)."""

    def __init__(self, scorer: FlowScorer, make_slot: Any) -> None:
        self.scorer = scorer
        self.make_slot = make_slot  # SlotSpec -> BaseSlot

    def read(
        self,
        spec: FlowSpec,
        slots: Mapping[str, BaseSlot],
        text: str,
        ctx: SlotContext,
        waiting: str | None,
        last_filled: str | None = None,
    ) -> tuple[dict[str, Candidate], dict[str, str]]:
        """Assign values found in ``text`` to the flow's slots; one span feeds one slot."""
        correcting = last_filled if last_filled and lx.CORRECTION.search(text) else None
        found: list[tuple[float, str, Candidate]] = []
        ruled_out: set[str] = set()
        denied: set[object] = set()  # values ruled out in this very turn ('..., sorry I meant Denver not Chicago')
        property_questions = asking_spans(text)
        references = self.scorer.reference_spans(text, ctx)
        # ('what about Denver', 'hmm madrid then' change a place too)
        changing = bool(lx.CORRECTION.search(text) or lx.proposes(text) or lx.SETTLES_ON.search(text))
        named = _slot_named(spec, text)  # 'the number of passengers, it should be 3 now': as if asked
        for position, slot_spec in enumerate(spec.slots):
            slot = slots.get(slot_spec.name)
            if slot is None:
                continue
            if slot_spec.params.get("confirmation") and waiting != slot_spec.name:
                continue
            if isinstance(slot, FreeTextSlot):
                if not holds_whole_request(spec, slot_spec):  # pointed at: 'from Seattle', 'at Hotel Iris'
                    for cue, cand in cued_values(slot_spec, text, references, asked=slot_spec.name == waiting):
                        # ('do they cook Taiwanese food?': a kind asked about is not one chosen)
                        asked_about = cand.score == YIELDING and any(a <= cand.start and cand.end <= b
                                                                     for a, b in property_questions)
                        if not negated(text, cand) and not asked_about:
                            found.append((cue + (1.0 if slot_spec.name == waiting else 0.0), slot_spec.name, cand))
                continue
            options = slot_spec.params.get("options") or []
            # ('no wait, ...', 'ok good, thank u' say nothing of a yes/no slot not asked: only its own words do)
            yes_no = isinstance(slot, CategorySlot) and is_yes_no(options)
            if isinstance(slot, CategorySlot) and (is_flag(options) or yes_no and slot_spec.name != waiting):
                flag = flag_value(slot_spec, options, text)  # 'a shared ride' -> True, 'she uses a wheelchair' -> yes
                # 'does it have wifi?', 'is it furnished?': a property asked about is not one chosen
                cands = [flag] if flag and not any(a <= flag.start and flag.end <= b for a, b in property_questions) else []
                if not cands and yes_no and slot_spec.name == named:
                    cands = slot.extract(text, ctx)  # 'wheelchair: no
            elif isinstance(slot, CategorySlot) and is_count(options):
                count = count_value(slot_spec, options, text, slot_spec.name == waiting, slot_spec.name == named)  # 'for two people'
                cands = [count] if count else []
            else:
                cands = slot.extract(text, ctx)
                if not cands and yes_no:  # 'she uses a wheelchair' to 'does the patient use a wheelchair?'
                    cands = [flag] if (flag := flag_value(slot_spec, options, text)) else []
                # a plain number slot reads any number (a slot type of its own knows its units)
                counting = slot.criteria == "numeric" and type(slot).extract is LevelSlot.extract and counts_things(slot_spec)
                if slot.criteria == "numeric" and (counting or count_units(slot_spec) & PEOPLE_STEMS):
                    group = count_value(slot_spec, (), text, False, slot_spec.name == named)  # 'we're a group of 15'
                    if group is not None:  # ('the tuesday evening one for three ppl': the group, not 'one')
                        cands = [Candidate(int(group.value), group.display, group.start, group.end, group.score)]
                    elif counting and slot_spec.name not in (waiting, named):
                        # a number that counts nothing ('27 Green Lane', 'no wait make it 11') is no count, but
                        # an age is said as one ("I'm 68", 'he's 63', '70 years old')
                        cands = [c for c in cands if _says_an_age(text, c)] if _of_age(slot_spec) else []
                    # 'add a passenger to my booking', 'adding 2 guests' to a change of a thing held: the number
                    # added, not the total (a new booking 'for me and add 2 passengers' counts them)
                    if self.works_on_a_held_thing(spec):
                        cands = [c for c in cands if not _ADDED.search(text, 0, c.start)]
                elif slot.criteria == "numeric" and type(slot).extract is LevelSlot.extract:
                    # ('one room for study', 'just me so a small one', 'can we do 9:30 instead' to a length in hours)
                    timed = any(isinstance(o, DateTimeSlot) for o in slots.values() if o is not slot)
                    cands = [c for c in cands if not _not_its_number(text, c, slot_spec, ctx, timed)]
            if not cands and slot.criteria in ("category", "multiple") and not (yes_no and slot_spec.name not in (waiting, named)):
                cands = plural_candidates(slot, text, ctx)  # (a 'no' of its own is not the answer to a yes/no not asked)
            cands = [*cands, *duration_candidates(slot, text, ctx)]
            # ('Gosh, it snowed here yesterday': a day told of the past is no value asked for, unless the slot asks when
            # something happened: 'cutting out since yesterday' of when a fault started)
            if slot_spec.name != waiting and not (isinstance(slot, DateTimeSlot) and slot.of_an_event):
                # ('Good morning. ... my bathroom cabinet has come loose': a greeting, no time of day asked for)
                cands = [c for c in cands if not any(g.start() <= c.start and c.end <= g.end() for g in _GREETS.finditer(text))]
                cands = [c for c in cands if not _TOLD_OF_THE_PAST.search(text, c.start, c.end)
                         and not (_MOMENT_VALUE.match(str(c.value)) and (_HAPPENED.search(text, 0, c.start)
                                                                          or _MOVED_ELSEWHERE.search(text, 0, c.start)
                                                                          or _HELD_FOR.search(text, 0, c.start)))]
            if isinstance(slot, DateTimeSlot) and slot.time_mode == "none" and slot_spec.name != waiting and any(
                    isinstance(other, DateTimeSlot) and other.time_mode != "none" for other in slots.values()):
                # ('no, make it thursday at 2pm' is no date of birth: a day said with its time of day
                # is for the moment beside it that takes one)
                cands = [c for c in cands if not find_times(text[c.start:c.end + 12])]
            for cand in cands:
                if negated(text, cand):
                    if slot.filled and cand.value == slot.value:
                        ruled_out.add(slot_spec.name)  # 'I meant Rome, not Paris': Paris's slot changes
                    denied.add(_hashable(cand.value))
                    continue
                score = cue_score(text, cand, slot_spec, slot_spec.name if slot_spec.name == named else waiting, slot.label)
                if isinstance(slot, CategorySlot) and _ASKED_FOR.search(text, 0, cand.start):
                    score += ASKED_FOR  # 'my GP asked me to get bloods done, so I'd like to book a blood test'
                if changing and slot.filled and slot.source != "default":
                    # 'lets do washington instead' of 'boston to miami': of the filled slots that could
                    # take it alike, the one asked later (the destination), as a flow asks what it needs
                    score += LATER_SLOT * position
                if slot_spec.name == correcting and slot_spec.name != waiting:
                    score += CORRECTING  # "actually make it Boston": the value just given, not the question asked
                found.append((score, slot_spec.name, cand))
        # 'book me in for sports massage', 'any Music events': plain words another slot knows as a value
        # are neither a name in lower case nor a kind of thing
        typed = [(c.start, c.end) for _, n, c in found if not isinstance(slots.get(n), FreeTextSlot)]
        found = [f for f in found if f[2].score != YIELDING or not any(f[2].start < e and s < f[2].end for s, e in typed)]
        found = repaired(found, ruled_out, text, denied, correcting if correcting != waiting else None)
        # ('for the weekend' to 'a day, the weekend or a week?'; '... on Saturday 12th December for the weekend'): words
        # that are one of an option slot's own options, said whole, are that option, not a day
        worded = [(c.start, c.end) for _, n, c in found if isinstance(slots.get(n), CategorySlot) and c.score >= _WORDED]
        found = [f for f in found if not (isinstance(slots.get(f[1]), DateTimeSlot)
                                          and any(a <= f[2].start and f[2].end <= b for a, b in worded))]
        if changing:  # ('Naw hang on, no the 10th, the 11th' of the 10th held: the value held, said again, is taken back;
            # only of a kind one slot alone holds: 'from boston to chicago' names both cities of a route again)
            kinds = [value_key(s) for s in spec.slots]
            found = [f for f in found if not (slots[f[1]].filled and _hashable(f[2].value) == _hashable(slots[f[1]].value)
                                              and (own := spec.slot(f[1])) is not None and kinds.count(value_key(own)) == 1
                                              and any(o[1] == f[1] and _hashable(o[2].value) != _hashable(f[2].value)
                                                      for o in found))]
        # best (cue score, span length, parser score) first; each span and each slot used once
        # best cue first; among equally cued values the one said first ("Rome London": Rome is the
        # origin), and at one position the longer reading ("New York" over "York")
        # (a value the parser doubts, like an unknown place, after the sure ones: 'to Disney ... to Orlando')
        found = _repairs_kept(found, text, spec)
        # ('to see Dr Patel': one of a slot's options, named, is no free-text value of another slot)
        options = [(c.start, c.end) for _, n, c in found if isinstance(slots.get(n), CategorySlot)]
        found = [f for f in found if not (isinstance(slots.get(f[1]), FreeTextSlot)
                                          and any(a <= f[2].start and f[2].end <= b for a, b in options))]
        # ('was it New York I said? No no, Boston is right' of a flight from Boston: a value another slot of its kind
        # holds, said again without a cue of this slot, is that slot's, kept; not a yes for another yes/no question)
        # (but 'Chicago to Boston' of Boston to Chicago swaps them: the other slot is given a new value in the same turn)
        held_values = {_hashable(s.value) for s in slots.values() if s.filled and s.source != "default"}
        kind_of_slot = {s.name: value_key(s) for s in spec.slots if not is_yes_no(s.params.get("options") or [])} \
            if any(_hashable(f[2].value) in held_values for f in found) else {}
        found = [f for f in found if not (f[1] in kind_of_slot and any(
            n != f[1] and kind_of_slot.get(n) == kind_of_slot[f[1]] and s.filled and s.source != "default"
            and _hashable(s.value) == _hashable(f[2].value)
            and not any(g[1] == n and _hashable(g[2].value) != _hashable(s.value) and cue_score(text, g[2], spec.slot(n), None) > 0
                        for g in found) for n, s in slots.items()) and cue_score(text, f[2], spec.slot(f[1]), None) <= 0)]
        found.sort(key=lambda f: (-f[0], f[2].score < DOUBTED, f[2].start, -(f[2].end - f[2].start), -f[2].score))
        labels: dict[str, Candidate] = {}
        taken: list[tuple[int, int]] = []
        told: list[tuple[int, int]] = []  # the spans of stories ('a rash on her tummy'), which typed values may share
        # spans read by an option slot, with its kind: an option slot of another kind may read them too
        # ('can i see dr okafor': the doctor, and the service the pack lists him under)
        chosen: list[tuple[int, int, str]] = []
        stories = {s.name for s in spec.slots if isinstance(slots.get(s.name), FreeTextSlot) and "reason" in roles_of(s).roles}
        kinds = {s.name: f"{s.type}:{value_key(s)}" for s in spec.slots
                 if isinstance(slots.get(s.name), CategorySlot) and slots[s.name].params.get("options")}
        guessing = {s.name for s in spec.slots if s.priority == "optional" and s.name != waiting}

        # the day and time words of a moment read across other words: an option said between them is free
        # ('on Friday morning with Jade, around ten')
        moments: dict[tuple[int, int], list[tuple[int, int]]] = {}

        def free(c: Candidate, name: str = "") -> bool:
            if name in kinds:
                spans = [*(part for span in taken for part in moments.get(span, [span])),
                         *((a, b) for a, b, k in chosen if k == kinds[name])]
            elif name and not isinstance(slots.get(name), FreeTextSlot):
                spans = [*taken, *((a, b) for a, b, _ in chosen)]
            else:
                spans = [*taken, *told, *((a, b) for a, b, _ in chosen)]
            return not any(c.start < e and s < c.end for s, e in spans)

        for score, name, cand in found:
            if name in labels or not free(cand, name):
                continue
            if score <= _CUED_AWAY and slots[name].filled and slots[name].source != "default":
                continue  # ('my daughter works in chicago ...' after 'from boston': a value cued away changes nothing)
            if slots[name].criteria != "numeric" and any(
                    _hashable(c.value) == _hashable(cand.value) and type(slots.get(n)) is type(slots.get(name))
                    for n, c in labels.items()):
                continue  # 'to lisboa... lisbon': one place said twice is one value (not '2 adults and 2 children')
            if name in guessing and score <= 0 and len({_hashable(c.value) for _, n, c in found if n == name and free(c, n)}) > 1:
                continue  # several un-cued values left: an optional slot must not guess among them
            labels[name] = cand
            if name in kinds:
                chosen.append((cand.start, cand.end, kinds[name]))
            else:
                if isinstance(slots.get(name), DateTimeSlot):
                    moments[(cand.start, cand.end)] = _moment_words(text, cand, ctx)
                (told if name in stories else taken).append((cand.start, cand.end))
        labels.update(self._counted_before(spec, slots, labels, text, ctx))
        for slot_spec in spec.slots:
            if slot_spec.params.get("confirmation") and slot_spec.name in labels and len(labels) > 1 \
                    and not lx.YES_NO_LEAD.match(text):
                del labels[slot_spec.name]  # 'make that Main Street, not Oak Park' changes a value, it answers nothing
        # a free-text question about why ('the reason for the visit?') is answered with a story
        asks_why = bool(waiting) and isinstance(slots.get(waiting), FreeTextSlot) \
            and "reason" in roles_of(spec.slot(waiting) or slots[waiting]).roles
        if asks_why and not lx.CORRECTION.search(text):
            # 'flu symptoms since the weekend' to 'the reason?': a day in the story moves no day given
            labels = {n: c for n, c in labels.items() if n == waiting or not slots[n].filled}
        if _FOR_SOMEONE_COMING.search(text):
            labels.update({k: c for k, c in count_repairs(slots, text).items() if k not in labels})  # 'make it 3, my daughter is coming too': a count, not 3 o'clock
        for name, cand in hour_repairs(slots, text, ctx).items():
            if name not in labels and not any(c.start == cand.start for c in labels.values()):
                labels[name] = cand  # 'sorry I meant 11, not 10': the hour of the time already given
        labels.update({k: c for k, c in hour_repaired_in_turn(slots, labels, text, ctx).items()
                       if not any(c.start == held.start for n, held in labels.items() if n != k)})
        if not labels and waiting is None:
            labels.update(count_repairs(slots, text))  # 'my sister's coming too so make that 3'
        said = [(c.start, c.end) for c in labels.values()]
        for name, cand in name_repairs(spec, slots, mask(text, said)).items():
            labels.setdefault(name, cand)  # 'oops i meant Tom Okafor' after 'Tom Okafer': the name given, spelt again
        taken = [(c.start, c.end) for c in labels.values()] + references  # 'KB-4823' is no patient's name
        named = self._name_said(spec, slots, labels, text, taken, waiting)
        if named is not None:
            labels[named[0]] = named[1]
            taken.append((named[1].start, named[1].end))
        if waiting and waiting not in labels and isinstance(slots.get(waiting), FreeTextSlot) \
                and not not_a_value(text, remark_ok=asks_why):
            # the answer to the question asked: what it says besides other values and its lead-in
            # ('Dune, at Harbor'; 'I'd like Hotel Iris please' -> 'Hotel Iris')
            waited = spec.slot(waiting) or slots[waiting]
            # ('My tenancy reference is TN-40217' to 'What's the address, or your tenancy reference?')
            by_reference = bool(references) and bool(_TAKES_A_REFERENCE.search(
                f"{getattr(waited, 'description', '')} {getattr(waited, 'prompt', '')}"))
            if by_reference:
                taken = [span for span in taken if span not in references]
            # ('aisle seats, one of us has a dodgy knee' to 'Any seating wishes?': a preference is answered in a phrase,
            # with its reasons, kept whole when asked)
            whole = holds_whole_request(spec, waited) or bool(set(waited.name.lower().split("_")) & _ANSWERED_WHOLE)
            roles = set(roles_of(waited).roles)
            # 'Something in San Francisco' to 'which cuisine?': what a place cue points at is a place
            places = [] if whole or roles & PLACE_ROLES else place_spans(text)
            if asks_why and not lx.SELF_REPAIR.search(text) and not lx.YES_NO_LEAD.match(text):
                # 'mole on my back i want checked', 'his ears again, the follow up': the story is the answer
                said = text.strip().rstrip(".!")
                # ('a slipped disc', 'an ear infection': a short thing named, without its article; 'a dog bit me' is a story)
                short = _A_THING_NAMED.match(said)
                if short is not None and len(said.split()) <= 3:
                    said = said[short.end():]
                at = text.find(said)
                answer = Candidate(said, said, at, at + len(said), 0.5) if said else None
            elif not whole and (cued := _sole_place(text, roles, taken)) is not None:
                answer = cued  # 'I need a hotel in San Francisco' to 'where?': the place, not the hotel
            else:
                answer = Candidate(text, text, 0, len(text), 0.5) if whole and not taken \
                    else bare_answer(remainder(text, [*taken, *places, *lx.act_spans(text), *lx.denied_spans(text)],
                                               frozenset()), text, whole, [*taken, *places])
            if whole:  # ('router is flashing orange ...' to the details asked, 'in the customer's words': no one's name)
                roles -= {"person"}
            if answer is not None and "person" in roles and not could_be_a_name(str(answer.value)):
                answer = None  # 'sorry, bit of a hectic morning here' to 'the patient's name?' names no one
            elif answer is not None and "person" in roles:
                # "it's my husband who needs it, Peter Kowalski", 'the patient is my daughter, Emily Rose',
                # 'Sarah Jones, my wife': the name written with capitals, not who the person is
                run = name_run(mask(text, taken))
                if run is not None and run.value[:1].isupper() and (run.start, run.end) != (answer.start, answer.end) \
                        and (run.start > 0 or len(run.value.split()) > 1):
                    answer = Candidate(run.value, run.display, run.start, run.end, answer.score)
            if answer is not None and roles & PLACE_ROLES and not by_reference \
                    and not any(w.isalpha() and w.lower() not in lx.STOPWORDS for w in lx.tokens(str(answer.value))):
                answer = None  # 'Yes for 2 at 17:45' to 'which city?' names no place
            if answer is not None:
                labels[waiting] = answer
        for slot_spec in spec.slots:
            if slot_spec.name in labels or slot_spec.name in slots and slots[slot_spec.name].filled:
                continue
            if not isinstance(slots.get(slot_spec.name) or self.make_slot(slot_spec), FreeTextSlot) \
                    or waiting is not None and slot_spec.name != waiting:
                continue
            if holds_whole_request(spec, slot_spec):
                # ("my left eye has gone all wavy and there's a dark smudge ..." to a report with `details`: the
                # message tells more than the task's words and its values, so it is the details)
                # (what the turn says besides the task's words, its verbs and its values, read once)
                rest = remainder(text, [*taken, *lx.requested_verb_spans(text)], self.scorer.trigger_words(spec.name)) \
                    if waiting is None else None
                says = rest is not None and _says_what(rest.value)
                tells = waiting is None and (
                    says and len(lx.tokens(rest.value)) >= _TELLS_MORE and not names_nothing(rest.value)
                    or self._describes(spec, text, taken) or _states_a_fault(mask(text, taken))
                    or _tells_what_happened(text, taken))
                # ('could you give me a rough price for a repair?' to a quote that needs only what is wrong: a request that
                # says nothing of it leaves it to be asked)
                sole = _sole_required(spec, slot_spec.name) and (waiting is not None or says)
                if slot_spec.name in WHOLE_REQUEST or sole or tells:
                    labels[slot_spec.name] = Candidate(text, text, 0, len(text), 0.5)
            elif waiting is None and _sole_required(spec, slot_spec.name):
                # 'is Dune available' -> 'Dune': the words that start the flow are not its value
                rest = remainder(text, [*taken, *lx.requested_verb_spans(text)], self.scorer.trigger_words(spec.name))
                # ('Where are they located?' -> 'they', 'any other attractions?' -> 'other': nothing named;
                # but 'echo hello' echoes a greeting)
                if rest is None or not _names_something(rest, text) \
                        or names_nothing(rest.value) and not lx.GREETING.match(rest.value):
                    continue
                if lx.is_question(text) and lx.REFERS_BACK.search(text) and not has_name(text, rest.start, rest.end):
                    continue  # 'Is it free?', 'what is their number?': about what was found, naming nothing new
                inner = name_run(text, rest.start, rest.end)
                if set(roles_of(slot_spec).roles) & PLACE_ROLES:
                    # ('No way, try again', 'any good attractions nearby?': a place guessed is a name, or
                    # the one word a terse request ends on: 'show attractions portland')
                    word = str(rest.value)
                    terse = len(word.split()) == 1 and len(lx.tokens(text)) <= _SHORT_REQUEST \
                        and not lx.is_question(text) and lx.opener(text) != word.lower()
                    if inner is None and not terse:
                        continue
                    rest = inner or rest
                elif {"person", "name"} & set(roles_of(slot_spec).roles) \
                        and not (len(lx.tokens(str(rest.value))) <= 4 and could_be_a_name(str(rest.value))):
                    # ("have Bella's blood results come back yet? the vet said 2-3 days ...": a name, written as one)
                    run = name_run(mask(text, taken))
                    if run is None or not run.value[:1].isupper():
                        continue
                    rest = run
                elif inner is not None and inner.start > rest.start and inner.end == rest.end:
                    rest = inner  # 'the weather forecast for New York' -> 'New York'
                labels[slot_spec.name] = Candidate(rest.value, rest.display, rest.start, rest.end, 0.5)
        for name, cand in labels.items():
            if isinstance(slots.get(name), FreeTextSlot):
                labels[name] = without_possessive(cand, text)
        return labels, {}


    def _describes(self, spec: FlowSpec, text: str, taken: Sequence[tuple[int, int]]) -> bool:
        """Whether ``text`` tells what is the matter in words of its own, besides the words that name the
        task ('the tiles are coming off the wall in the kitchen, want to report it', though the pack's
        examples speak of tiles and walls too)."""
        rest = remainder(mask(text, [*taken, *lx.requested_verb_spans(text)]), [], frozenset())
        named = {lx.stem(w) for w in spec.name.split("_")} | self.scorer.said_verbs
        told = lx.tokens(rest.value) if rest is not None else []
        return len([w for w in told if w not in lx.STOPWORDS and lx.stem(w) not in named]) >= _TELLS_MORE \
            and _says_what(rest.value)

    def works_on_a_held_thing(self, spec: FlowSpec) -> bool:
        """Whether flow ``spec`` works on a thing held, named by its reference (a change of a booking)."""
        return any(s.priority == "required" and value_key(s) in self.scorer.reference_keys for s in spec.slots)

    @staticmethod
    def _counted_before(spec: FlowSpec, slots: Mapping[str, BaseSlot], labels: Mapping[str, Candidate], text: str,
                        ctx: SlotContext) -> dict[str, Candidate]:
        """'we need two grab rails fitted': a number said right before the option another slot took counts
        it, for the one slot of the flow that counts things (a quantity) and was not told."""
        counting = [s for s in spec.slots if s.name not in labels and counts_things(s) and s.name in slots
                    and type(slots[s.name]).extract is LevelSlot.extract
                    and not (slots[s.name].filled and slots[s.name].source != "default")]
        if len(counting) != 1:
            return {}
        for name, cand in labels.items():
            m = _NUMBER_BEFORE.search(text, 0, cand.start) if isinstance(slots.get(name), CategorySlot) else None
            n = parse_number(m["n"]) if m is not None else None
            if isinstance(n, int) and slots[counting[0].name].check(n, ctx).ok:
                return {counting[0].name: Candidate(n, str(n), m.start("n"), m.end("n"), 0.8)}
        return {}

    def _name_said(self, spec: FlowSpec, slots: Mapping[str, BaseSlot], labels: Mapping[str, Candidate], text: str,
                   taken: Sequence[tuple[int, int]], waiting: str | None) -> tuple[str, Candidate] | None:
        """'Find dates for Crystal Lake in London', 'when can I watch a Hotel Mumbai show?': a name
        written with capitals that nothing points at goes to the one free-text slot still open that
        is not a place (places are said with 'in', 'from', 'to'), when there is exactly one."""
        if not_a_value(text) and not lx.is_question(text):
            return None
        open_slots = []
        for slot_spec in spec.slots:
            slot = slots.get(slot_spec.name)
            if slot is None or not isinstance(slot, FreeTextSlot) or slot.filled or slot_spec.name in labels \
                    or holds_whole_request(spec, slot_spec):
                continue
            if set(roles_of(slot_spec).roles) & PLACE_ROLES:
                return None  # an open place: a bare name may be that place
            open_slots.append(slot_spec.name)
        if len(open_slots) != 1 or waiting is not None and isinstance(slots.get(waiting), FreeTextSlot):
            return None  # several could take it, or the question asked takes the answer
        run = name_run(mask(text, [*taken, *place_spans(text), *lx.act_spans(text)]))
        if run is None or {lx.stem(w) for w in lx.tokens(run.value)} <= self.scorer.declared_task_words(spec.name):
            return None  # 'Find Restaurants': the task's own words, written with capitals
        if "person" in roles_of(spec.slot(open_slots[0]) or slots[open_slots[0]]).roles \
                and (in_capitals_only(run.value) or any(c.isdigit() for c in run.value) or _a_thing_before(text, run.start)):
            # ('a fitting for his new AFOs', 'one of those 24hr heart monitors', 'book my Astra in' name no one)
            return None
        return open_slots[0], Candidate(run.value, run.display, run.start, run.end, 0.5)


# 'my Astra', "it's the blue Micra", 'a little red Fiesta': a thing, by its make or name (not 'my son Tom': a relative,
# then the name)
_THING_LEAD = re.compile(r"\b(?i:my|our|his|her|their|the|a|an)\s+(?P<between>(?:[a-z]+\s+){0,2})$")
_KIN_WORDS = frozenset(KIN.split("|"))


def _a_thing_before(text: str, start: int) -> bool:
    """Whether the capitalised word at ``start`` follows 'my', 'the' or 'a' (and words in lower case), not a relative."""
    m = _THING_LEAD.search(text, 0, start)
    return m is not None and not any(w.lower().rstrip("s") in _KIN_WORDS or w.lower() in _KIN_WORDS
                                     for w in m["between"].split())


def _repairs_kept(found: list[tuple[float, str, Candidate]], text: str, spec: FlowSpec) -> list[tuple[float, str, Candidate]]:
    """'Make it $130. No, $120.', 'for 3, no wait 4 people': of two values read for a slot that alone holds its kind, the
    earlier gives way to one a repair puts after it, as cued for the slot (a route's two places are put right by
    their cues instead: 'boston to chicago, sorry i meant denver not chicago')."""
    slots_said = [f[1] for f in found]
    if len(set(slots_said)) == len(slots_said):
        return found  # (one value read per slot: nothing to put right)
    kinds = [value_key(s) for s in spec.slots]
    alone = {s.name for s in spec.slots if kinds.count(value_key(s)) == 1}
    return [f for f in found if f[1] not in alone or not any(
        g[1] == f[1] and g[2].start >= f[2].end and g[0] >= f[0] and _hashable(g[2].value) != _hashable(f[2].value)
        and REPAIR.search(text, f[2].end, g[2].start) for g in found)]


def _of_age(spec: SlotSpec) -> bool:
    """Whether a number slot holds someone's age (its name or description says 'age')."""
    return "age" in spec.name.lower().split("_") or "age" in lx.tokens(spec.description or "")


_AGE_BEFORE = re.compile(r"\b(?:i'?m|i am|he'?s|she'?s|he is|she is|they'?re|they are|aged?|turning|turned|now)\s*$",
                         re.IGNORECASE)
_AGE_AFTER = re.compile(r"^\s*(?:years? old|yrs? old|y/?o|years of age)\b", re.IGNORECASE)


# what may follow an age said as "I'm 68" (not "I'm 28 weeks pregnant", "I'm 10 minutes away", "I'm 1 of 2 carers")
_AGE_ENDS = re.compile(r"^\s*(?:$|[,.;:!?)]|(?:and|but|so|now|next|this|in|on|too|though|lol)\b)", re.IGNORECASE)


_ONE_OF_THEM = re.compile(r"\b(?:a|an|the|that|this|which|any|each|every|another|other)\s+(?:[a-z]+\s+)?$", re.IGNORECASE)
_NEXT_WORD = re.compile(r"\s*(?P<word>[a-z]+)\b", re.IGNORECASE)
_UNITS = frozenset(lx.stem(w) for w in ("hours", "minutes", "nights", "days", "weeks", "months", "years", "people",
                                          "persons", "guests", "seats", "tickets", "rooms", "bags", "passengers", "adults",
                                          "children", "kids", "sessions", "lessons", "visits", "pages", "copies"))
_ROUND_A_NUMBER = frozenset({"more", "extra", "max", "maximum", "tops", "ish", "at", "most", "or", "and", "please", "pls",
                             "thanks", "then", "instead", "total", "only", "is", "would", "should", "will", "sounds", "ok"})


def _not_its_number(text: str, cand: Candidate, spec: SlotSpec, ctx: SlotContext, moment_taken: bool) -> bool:
    """Whether the number ``cand`` of a plain number slot counts another thing ('one room', '2 people' of a length in
    hours), stands for a thing ('a small one') or is part of a moment ('9:30', 'on 9 December', 'at 11') when another
    slot of the flow takes moments (``moment_taken``)."""
    said = text[cand.start:cand.end].lower()
    if said == "one" and _ONE_OF_THEM.search(text, 0, cand.start):
        return True
    nxt = _NEXT_WORD.match(text, cand.end)
    if nxt is not None and {lx.stem(w) for w in spec.name.split("_")} & _UNITS and nxt["word"].lower() not in lx.STOPWORDS \
            and nxt["word"].lower() not in _ROUND_A_NUMBER and not counts_unit(nxt["word"], count_units(spec)):
        return True  # (a slot named by what it counts: 'hours', 'nights', 'guests')
    return moment_taken and any(s <= cand.start and cand.end <= e for s, e in _moment_spans(text, ctx))


def _moment_words(text: str, cand: Candidate, ctx: SlotContext) -> list[tuple[int, int]]:
    """The spans of the day and the time a moment read across other words is made of ('Friday morning with Jade, around
    ten'), or its whole span when they are not found in it."""
    inside = [(s, e) for s, e in _moment_spans(text, ctx) if cand.start <= s and e <= cand.end]
    return inside if inside else [(cand.start, cand.end)]


def _moment_spans(text: str, ctx: SlotContext) -> list[tuple[int, int]]:
    """Where ``text`` names a day or a time of day."""
    return [(s, e) for _, s, e in (*find_dates(text, ctx.now.date()), *find_times(text))]


def _says_an_age(text: str, cand: Candidate) -> bool:
    """"I'm 68", 'he's 63', '70 years old': a number said as someone's age."""
    return bool(_AGE_BEFORE.search(text, 0, cand.start) and _AGE_ENDS.match(text[cand.end:])
                or _AGE_AFTER.match(text[cand.end:]))


PLACE_ROLES = frozenset({"place", "origin", "destination"})
# an option said right after the verb that asks for it ('book a blood test', 'I need an eye test'): of
_CUED_AWAY = -2.0  # a value pointed away from a slot this strongly corrects nothing it holds (a cue elsewhere is -1)
_TOLD_OF_THE_PAST = re.compile(r"\b(?:yesterday|last (?:night|week|month|year|weekend|\w+day)\b(?! of)|"
                               r"(?:\w+ )?(?:days?|weeks?|months?|years?) ago|the other day)\b", re.IGNORECASE)
_STATE = (r"(?:(?:so|very|really|a bit|quite|too|that|pretty)\s+)?(?:bad|sore|poorly|unwell|ill|sick|worse|painful|swollen|"
          r"awful|terrible|rough|tired|exhausted|stiff|achy|aching|hurting|flaring|playing up|not (?:great|good|well|so good))")
# ('I had a tumble in the kitchen on Sunday and ...': the day of what happened, in the sentence that tells it)
# ... or of how things are ('my hands are bad today so typing slow': not a day asked for; 'I'm free today' is one)
_HAPPENED = re.compile(r"(?:\b(?:i|we|she|he|they|mum|dad|my \w+)\s+(?:had (?:a|an|my|her|his|their)|fell|tripped|slipped|broke"
                       r"|left|lost|dropped|forgot|mislaid|misplaced"  # ('my daughter left her water bottle ... on saturday')
                       r"|hurt|injured|went over|(?:is|are|am|feels?|feeling)\s+" + _STATE + r")"
                       r"|\b(?:i'?m|we'?re|she'?s|he'?s|they'?re)\s+" + _STATE + r")\b[^.!?;]*$", re.IGNORECASE)
# ("my husband's surgery got moved to the 18th, so please move BK-12345 to Dec 20": a day something else was moved to,
# told in a clause of its own, is no day asked for)
_MOVED_ELSEWHERE = re.compile(r"\b(?:got|was|were|has been|have been|had been|'s been)\s+(?:moved|changed|rescheduled|"
                              r"pushed(?: back)?|put back|brought forward|postponed)\b[^.!?;,]*$", re.IGNORECASE)
_GREETS = re.compile(r"\bgood\s+(?:morning|afternoon|evening|day|night)\b|^\s*(?:morning|afternoon|evening)\b(?=[\s,!.]*(?:$|[A-Za-z]))",
                     re.IGNORECASE)
_TAKES_A_REFERENCE = re.compile(r"\b(?:reference|ref)\b", re.IGNORECASE)
_MOMENT_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}")
# "I've got my MOT booked thursday but ..., can I move it?", 'my appointment is booked for the 3rd': when the thing held
# is, not a moment wanted
_HELD_FOR = re.compile(r"(?:\b(?:got|have|had|'ve)\s+(?:my|our|the|an?)\s+(?:[\w-]+\s+){0,2}?(?:booked|scheduled)(?:\s+in)?"
                       r"|\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:is|was|'s)\s+(?:booked|scheduled)(?:\s+in)?"
                       # ('I need to move my lesson next Tuesday': which lesson, not the day it moves to)
                       r"|\b(?:move|moving|change|changing|reschedule|rescheduling|rearrange|shift|push|cancel|cancelling)\s+"
                       r"(?:my|our|his|her|their)\s+(?:(?!(?:to|till|until|into|for)\b)[\w-]+\s+){0,2}?"
                       r"(?!(?:to|till|until|into|for)\b)[\w-]+)(?:\s+(?:on|at))?\s*$",
                       re.IGNORECASE)
_NUMBER_BEFORE = re.compile(r"\b(?P<n>\d{1,2}|" + COUNT_WORDS + r")\s+(?:[a-z]+\s+)?$", re.IGNORECASE)
_ADDED = re.compile(r"\b(?:add|adding|plus)\s+$", re.IGNORECASE)


# two options of one slot in a turn, the one asked for, not the one in the story around it
_ASKED_FOR = re.compile(r"\b(?:book|need|want|schedule|arrange|make|like|(?:(?:i|we|to|can i|could i)\s+)get)\s+"
                        r"(?:(?:a|an|the|some|me|us|in|for)\s+){0,2}$", re.IGNORECASE)
ASKED_FOR = 0.5
LATER_SLOT = 0.01  # a hair per slot declared later: it breaks ties only


# 'I meant 11, not 10', 'make it 3 instead of 2', 'no wait, 10:30': a bare hour said to correct a time
_REPAIRED_HOUR = (r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?"
                  r"(?:\s*(?P<half>am|pm|a\.m\.|p\.m\.))?(?:\s*,?\s*(?:not|instead of)\s+(?:at\s+)?(?P<old>\d{1,2})(?::\d{2})?)?"
                  r"(?![\w:/-])")
_REPAIR_LEAD = (r"\b(?:meant|mean|make it|change it to|actually|wait|rather|do|how about|what about|"
                r"(?:can|could) (?:it|that|we) (?:be|do)|let'?s (?:say|do))\s+")  # ('can it be 11 instead of 10')
_HOUR_REPAIR = re.compile(_REPAIR_LEAD + r"(?:at\s+)?" + _REPAIRED_HOUR, re.IGNORECASE)
# ... and right after the time it repairs, a no or a sorry is enough: 'wednesday at 4, no sorry, 5'
_HOUR_REPAIR_IN_TURN = re.compile(r"(?:" + _REPAIR_LEAD
                                  + r"|^[\s,.-]*(?:(?:no|sorry|oops|er+m*|um+)\b[\s,.!-]*)+(?=(?:at\s+)?\d{1,2}(?::\d{2})?\s*"
                                  r"(?:$|[,.!?;]|(?:am|pm|a\.m\.|p\.m\.|o'?clock|then|instead|please|pls)\b)))"
                                  r"(?:at\s+)?" + _REPAIRED_HOUR, re.IGNORECASE)
# (after a no or a sorry, the hour alone: not 'no, 2 of us are coming', 'erm 12 Rose Cottages is the address')
_ISO_TIME = re.compile(r"^(?P<day>\d{4}-\d{2}-\d{2}T)?(?P<hour>\d{2}):(?P<minute>\d{2})")


def hour_repairs(slots: Mapping[str, BaseSlot], text: str, ctx: SlotContext) -> dict[str, Candidate]:
    """'sorry I meant 11 not 10': the one filled slot holding a time of day (at the hour ruled out,
    when one is) takes the new hour, on the same day and in the same half of the day."""
    m = _HOUR_REPAIR.search(text)
    if m is None:
        return {}
    timed = []
    for name, slot in slots.items():
        held = _ISO_TIME.match(str(slot.value)) if slot.filled else None
        if held is not None and (m["old"] is None or int(m["old"]) % 12 == int(held["hour"]) % 12):
            timed.append((name, slot, held))
    if len(timed) != 1:
        return {}
    name, slot, held = timed[0]
    moved = _at_hour(slot, held, m, ctx)
    return {} if moved is None else {name: moved}


# 'make that 3', 'sorry, I meant four': a bare number that repairs a count already given
_COUNT_REPAIR = re.compile(
    r"\b(?:make (?:it|that)|change (?:it|that) to|(?:i )?meant|(?:i )?mean|(?:it'?s )?back to|(?:go|going) back to)\s+"
    r"(?P<n>\d{1,3}|" + COUNT_WORDS + r")"  # ('No, she just texted, she can't. Back to two.')
    r"(?:\s+(?:then|instead|now|please|of us|actually|sorry|thanks))*"
    # ('make that 3, my son is coming too': a reason after it, with no number of its own)
    r"(?:(?:\s*[,;-]\s*|\s+(?:as|because|since|cos|coz|cause)\s+)[^\d,;]*)?[\s.!]*$", re.IGNORECASE)


# ('... my son is coming too', '... two more are joining'): someone more, the reason a count changes
_FOR_SOMEONE_COMING = re.compile(r"\b(?:coming|joining|come|join|comes|joins)\b|\b(?:too|as well)\s*[.!]*\s*$", re.IGNORECASE)


def count_repairs(slots: Mapping[str, BaseSlot], text: str) -> dict[str, Candidate]:
    """'oh wait, my sister's coming too so make that 3': the one filled slot holding a whole number
    (a count of people or things) takes the number, when nothing else in the turn is a value and the
    number fits the slot ('make it 350' after a price, 'I mean 10' after a date repair no count; a day
    is said 'the 3rd')."""
    m = _COUNT_REPAIR.search(text)
    if m is None:
        return {}
    counted = [name for name, slot in slots.items()  # (a count never said is no count to repair)
               if slot.filled and slot.source != "default" and isinstance(slot.value, int) and not isinstance(slot.value, bool)]
    n = parse_number(m["n"])
    if len(counted) != 1 or not isinstance(n, int):
        return {}
    name, slot = counted[0], slots[counted[0]]
    low, high = slot.params.get("min"), slot.params.get("max")
    if low is not None and n < low or high is not None and n > high:
        return {}
    return {name: Candidate(n, str(n), m.start("n"), m.end("n"), 0.9)}


def hour_repaired_in_turn(slots: Mapping[str, BaseSlot], labels: Mapping[str, Candidate], text: str,
                          ctx: SlotContext) -> dict[str, Candidate]:
    """'wednesday at 4 no wait make it 5': a time read in this very turn, then a bare hour that
    repairs it, on the same day and in the same half of the day."""
    out = {}
    for name, cand in labels.items():
        held = _ISO_TIME.match(str(cand.value))
        m = _HOUR_REPAIR_IN_TURN.search(text[cand.end:]) if held is not None and held["day"] else None
        if m is not None and name in slots and (m["old"] is None or int(m["old"]) % 12 == int(held["hour"]) % 12):
            moved = _at_hour(slots[name], held, m, ctx)
            if moved is not None:
                out[name] = Candidate(moved.value, moved.display, cand.start, cand.end + moved.end, moved.score)
    return out


def _at_hour(slot: BaseSlot, held: re.Match[str], m: re.Match[str], ctx: SlotContext) -> Candidate | None:
    """The moment ``held`` at the hour repair ``m`` says, in the same half of the day."""
    hour, minute = int(m["hour"]), int(m["minute"] or 0)
    if hour > 23 or minute > 59:
        return None
    half = (m["half"] or "").lower()[:1]
    if half == "p" and hour < 12 or not half and hour < 12 and int(held["hour"]) >= 12:
        hour += 12  # 'meant 4, not 3' about 3 pm is 4 pm
    if half == "a" and hour == 12:
        hour = 0
    check = slot.check(f"{held['day'] or ''}{hour:02d}:{minute:02d}", ctx)
    return Candidate(check.value, check.display, m.start("hour"), m.end(), 0.9) if check.ok else None


_SPELT_AGAIN = 0.75  # how alike a name said again must be to the one it corrects


def name_repairs(spec: FlowSpec, slots: Mapping[str, BaseSlot], text: str) -> dict[str, Candidate]:
    """'oops i meant Tom Okafor': a correction naming a name close in spelling to the one a
    name slot holds ('Tom Okafer') replaces it."""
    if not lx.SELF_REPAIR.search(text) and not _SPELT.search(text):
        return {}
    run = name_run(text)
    if run is None or len(lx.tokens(run.value)) < 2:
        return {}
    named = {s.name for s in spec.slots if {"name", "person"} & set(roles_of(s).roles)}
    alike = [(difflib.SequenceMatcher(None, str(slot.value).lower(), run.value.lower()).ratio(), name)
             for name, slot in slots.items() if name in named and slot.filled and slot.value != run.value]
    best = max(alike, default=(0.0, ""))
    return {best[1]: run} if best[0] >= _SPELT_AGAIN else {}


# ('oh wait its Alfie Dunne with an e', 'Smyth, spelt with a y'): how a name is written, said again
_SPELT = re.compile(r"\bwith (?:an?|two|double|one) [a-z]{1,2}'?s?\b|\bspel(?:t|led)\b|\bwait,? it'?s\b", re.IGNORECASE)
_TRAILING = re.compile(r"\s*(?:[,;.!?]|$)")


def _hashable(value: object) -> object:
    return value if isinstance(value, (str, int, float, bool)) or value is None else repr(value)


CORRECTING = 1.5  # what a correction weighs for the slot filled last
DOUBTED = 0.5  # a parser score below this is a guess ('to Disney': no city we know)
_A_THING_NAMED = re.compile(r"(?:a|an)\s+(?=[a-z])(?!(?:bit|lot|little|few|couple|while)\b)")
_WORDED = 0.8  # an option slot's value read at least this surely is said in the option's own words
STRONG_CUE = 3.0  # a value's own cue ('from Boston') at least this strong says its slot


def repaired(found: list[tuple[float, str, Candidate]], ruled_out: set[str],
              text: str, denied: AbstractSet[object] = frozenset(), correcting: str | None = None,
              ) -> list[tuple[float, str, Candidate]]:
    """Self-repairs: the slot whose value the user rules out ('Rome, not Paris') takes the new
    value; after 'no wait' / 'I mean' the value said last replaces the one said before it
    ('from Chicago - no wait, from Boston'), or the one it names as ``denied`` ('boston to chicago
    on the 14th, sorry I meant denver not chicago')."""
    marker = None
    for m in lx.SELF_REPAIR.finditer(text):
        if _SENTENCE_ENDS.match(text, m.end()):
            continue  # '... sort out travel until now, oops. I'll be leaving from New York': a remark
        if not _TRAILING.match(text, m.end()) or not m.group().lower().startswith("i mean"):
            marker = m  # 'to Rome I mean,': an 'I mean' after the value looks back, it opens nothing
    repair = marker.end() if marker else None
    if marker and correcting and any(c.end <= marker.start() for _, _, c in found):
        # 'vancouver.. oh wait no i meant montreal' to 'where to?': the repair takes back what this
        # turn said, not the slot filled last
        found = [(score - CORRECTING if name == correcting else score, name, c) for score, name, c in found]
    # 'to Miami, wait, make that Atlanta': the value said just before the repair is the one replaced,
    # of those the repair could stand for ('chicago to houston on the 2nd, no wait, dallas': not the day)
    after = {n for _, n, c in found if repair is not None and c.start >= repair}
    before = [(c.end, score, n) for score, n, c in found if marker and c.end <= marker.start() and n in after]
    replaced = max(before)[2] if before else None
    taken_back = [(score, n) for score, n, c in found
                  if marker and c.end <= marker.start() and _hashable(c.value) in denied]
    # '... to Paris - no wait, from Boston': the repair's own cue says which slot it changes
    first = min((c.start for _, _, c in found if repair is not None and c.start >= repair), default=None)
    cued = [(score, n) for score, n, c in found if c.start == first and score >= STRONG_CUE]
    if cued:
        replaced = max(cued)[1]
    if taken_back:
        replaced = max(taken_back)[1]  # the slot the denied value was read into, by its cue
    # said, then taken back (what the slot would have taken before the repair): it goes to no slot at all
    earlier = [(score, c.start, c.end) for score, n, c in found if repair is not None and c.start < repair and n == replaced]
    again = any(n == replaced and c.start >= repair for _, n, c in found)
    retracted = {max(earlier)[1:]} if earlier and again else set()
    out = []
    for score, name, cand in found:
        if name in ruled_out:
            score += 4.0
        if repair is not None:
            if cand.start >= repair:
                score += 4.0 if name == replaced else 0.75
            elif (cand.start, cand.end) in retracted:
                continue
        out.append((score, name, cand))
    return out


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
# a repair word that closes its sentence, a new one opening with its own subject after it
_SENTENCE_ENDS = re.compile(r"[.!]+\s+(?:i|i'?m|i'?ll|i'?d|we|we'?ll|my|it'?s)\b", re.IGNORECASE)
_YES_NO_QUESTION = re.compile(
    r"\s*(?:and |also |so |but )?(?:do|does|did|is|are|was|were|can|could|will|would|has|have|should)\b", re.IGNORECASE)


def asking_spans(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` that ask whether something has a property ('Does it have wifi?',
    'Is it cheap?'): not a request ('can you find one with wifi?'), nor whether such things exist
    ('are there any cheap ones?'), nor a question the value is a term of ('how much is in savings?')."""
    out = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group().strip()  # ('Ok. Can you book a room with wifi?': the second one opens past the space)
        if lx.is_question(sentence) and _YES_NO_QUESTION.match(sentence) \
                and not lx.REQUEST_ANYWHERE.search(sentence) and not lx.EXISTENTIAL.search(sentence):
            out.append((m.start(), m.end()))
    return out


CUED = 0.6  # a free-text value at or above this parser score was pointed at, not guessed

WHOLE_REQUEST = ("question", "query", "request", "message")  # taken whole even when optional
_TELLS_MORE = 4  # words besides the task's own and its values: a message that describes, not one that asks
_WHOLE_NAMES = frozenset({*WHOLE_REQUEST, "description", "details", "detail", "requests", "questions", "messages",
                          "notes", "note", "comments", "instructions"})  # ('access_notes': 'gate code is 4471, flat 2')


# the work asked for and the things it is for, which say nothing of what is the matter ('some work on my other car')
_THE_WORK = frozenset({"work", "works", "job", "jobs", "stuff", "thing", "things", "something", "bit", "bits", "look",
                       "quote", "estimate", "help", "issue", "issues", "problem", "problems", "one", "done", "repair",
                       "repairs", "fix", "fixing", "fixed", "price", "prices", "cost", "costs", "rough", "ballpark", "idea",
                       "figure", "give", "get", "tell", "know"})
_OWNED_THING = re.compile(r"\b(?:my|our|his|her|their|the)\s+(?:(?:other|second|old|new|main|spare)\s+)?(?P<thing>[a-z]+)\b",
                          re.IGNORECASE)
_AS_WELL = re.compile(r"\b(?:as well|aswell|too|also|please|pls|thanks)\b", re.IGNORECASE)


def _says_what(rest: str) -> bool:
    """Whether the words a request leaves besides its task say what is the matter ('a leak under my kitchen sink',
    'a new clutch'), not only the work asked for and the thing it is for ('some work on my other car as well')."""
    rest = _AS_WELL.sub(" ", _OWNED_THING.sub(" ", lx.SHIFT.sub(" ", rest)))  # (and 'while I've got you')
    return any(w.split("'")[0] not in lx.STOPWORDS and w not in _THE_WORK and not w.isdigit() for w in lx.tokens(rest))


# 'wifi is dead', "the boiler won't fire up", "it's making a grinding noise": a thing and the state it is in
_FAULT_STATE = re.compile(
    r"\b(?P<thing>[a-z]+)(?:'s|\s+(?:is|are|was|were|has|have|keeps?|kept|won'?t|wont|isn'?t|aren'?t|doesn'?t|don'?t|"
    r"didn'?t|can'?t|cant|stopped|went|goes|just))\b(?P<state>(?:\s+[a-z]+){1,3})", re.IGNORECASE)
_NOT_A_THING = frozenset({"i", "you", "u", "we", "they", "he", "she", "there", "here", "what", "which", "who", "that",
                          "this", "name", "number", "account", "reference", "ref", "address", "postcode", "date", "time"})
_DEGREE = frozenset({"not", "just", "completely", "totally", "really", "still", "all", "been", "now", "suddenly", "again",
                     "properly", "very", "so"})


def _states_a_fault(text: str) -> bool:
    """Whether ``text`` says what state a thing is in ('wifi is dead', 'the router keeps flashing red'), a report in
    few words; not who or what the user is ('I am Ann', 'my account number is BB-1')."""
    for m in _FAULT_STATE.finditer(text):
        thing = m["thing"].lower()
        if thing in _NOT_A_THING or thing in lx.STOPWORDS and thing != "it":
            continue
        if any(w not in lx.STOPWORDS and w not in _DEGREE for w in m["state"].lower().split()):
            return True
    return False


# 'my toddler ripped some pages', 'the dog chewed the cover', 'our son spilt juice on it': who did what to what
_EVENT = re.compile(r"\b(?:my|our|his|her|their|the)\s+(?:[a-z]+\s+)?(?P<who>[a-z]+)\s+(?:has\s+|had\s+|just\s+)?"
                    r"(?P<did>[a-z]+ed|spilt|spilled|tore|broke|ate|threw|fell|dropped|bit|drew|wrote)\s+(?P<what>[a-z]+)",
                    re.IGNORECASE)


def _tells_what_happened(text: str, taken: Sequence[tuple[int, int]]) -> bool:
    """Whether ``text`` tells what someone or something did ('my toddler ripped some pages in the gruffalo'): the
    story of a report, though its verb is also the kind of problem read."""
    for m in _EVENT.finditer(text):
        if m["who"].lower() not in lx.STOPWORDS and m["what"].lower() not in ("to", "up") \
                and not any(s < m.end("who") and m.start("who") < e for s, e in taken):
            return True
    return False


_ANSWERED_WHOLE = frozenset({"preference", "preferences", "wish", "wishes", "requirement", "requirements", "needs"})


def holds_whole_request(spec: FlowSpec, slot_spec: Any) -> bool:
    """A free-text slot that is the request by nature ('request', 'question', 'description'), or the
    only slot of a Plan or Converse flow: it keeps the user's whole utterance."""
    words = set(slot_spec.name.lower().split("_"))
    return bool(words & _WHOLE_NAMES) or (spec.intent in ("Plan", "Converse") and len(spec.slots) == 1)


_SOCIAL = frozenset({"hi", "hello", "hey", "thanks", "thank", "yes", "no", "ok", "okay"})


def remainder(text: str, taken: Sequence[tuple[int, int]], triggers: frozenset[str]) -> Candidate | None:
    """What ``text`` says besides the values already read (``taken``) and the words that only ask
    for the task (stopwords and ``triggers``, stemmed), trimmed from the edges of the longest
    stretch: 'is Dune available' -> 'Dune'; None when nothing substantive is left ('find a book').
    A capitalised word inside the sentence ('The Hobbit') is a name and is kept; a first sentence
    that is only a name is the value ('Las Vegas. I'm here for a show at Caesars')."""
    best: tuple[int, int, int] | None = None  # (kept words, start, end)
    run: list[tuple[bool, int, int]] = []

    def close() -> None:
        nonlocal best
        keep = [i for i, (filler, _, _) in enumerate(run) if not filler]
        if keep:
            start, end = run[keep[0]][1], run[keep[-1]][2]
            count = keep[-1] - keep[0] + 1
            if best is None or count > best[0]:
                best = (count, start, end)
        run.clear()

    found = list(lx.TOKEN.finditer(text))
    sentence = 0  # where the sentence being read starts
    capital = [m.group()[:1].isupper() and m.group().lower() not in lx.I_FORMS for m in found]
    if len(found) > 1 and all(capital[1:]) and not _THE_AND_ONE_WORD.match(text):
        # 'Find A Book': title case says nothing about names ('The Willows, Station Road' opens with one)
        capital = [False] * len(found)
    for i, m in enumerate(found):
        if any(a < m.end() and m.start() < b for a, b in taken):
            close()
            continue
        if i and sentence_ends_between(text, found[i - 1], m):
            if best is None and run and all(capital[j] for j in range(i - len(run), i)) and len(run) <= _NAME_ALONE \
                    and any(not filler for filler, _, _ in run) and not _SOCIAL_SENTENCE.match(text, run[0][1]):
                close()
                break  # 'Las Vegas.' first, then a remark: the name alone answers
            if run and only_acts(text[sentence:found[i - 1].end()]):
                run.clear()  # 'Oh, right. Chicago.': a sentence that only says yes, no or thanks holds no value
            close()  # 'a hotel there. It should have Wi-Fi': a value stays inside one sentence
            sentence = m.start()
        word = m.group()
        low = word.lower()
        # 'The Hobbit, at Central': a capital inside the sentence, or one opening a run of capitals
        opens = i == 0 or sentence_ends_between(text, found[i - 1], m)  # ('... there. It should')
        name = capital[i] and (not opens or (low in ("the", "a", "an") and i + 1 < len(found) and capital[i + 1]))
        # 'echo hello': a greeting word is filler where it greets (first), content after a verb
        stop = (low in lx.STOPWORDS or low.split("'")[0] in lx.STOPWORDS or low in lx.UNAPOSTROPHED) \
            and not (i > 0 and low in _SOCIAL)
        filler = not name and (stop or low in lx.LEAD_INS or lx.stem(low) in triggers)
        run.append((filler, m.start(), m.end()))
    close()
    if best is None:
        return None
    value = text[best[1]:best[2]]
    return Candidate(value, value, best[1], best[2], 0.5)


_NAME_ALONE = 6  # the words of a name said as a sentence of its own ('Las Vegas.')
# 'The Willows, Station Road', 'The Shard': one word after 'The' is a name that needs its article, and
# so is a house name an address goes on from ('The Old Rectory, Church Lane, Little Snoring')
# (in 'The Ac Hotel Porte Maillot' the article is not the name's)
_THE_AND_ONE_WORD = re.compile(r"^\s*The [A-Z][\w'-]*(?:\s*(?:[,.;]|$)|(?:\s+[A-Z][\w'-]*){1,2},\s*[A-Z0-9])")
# a first sentence that greets, apologises or exclaims ('Good Morning.', 'Happy Friday!', 'Sorry.')
_SOCIAL_SENTENCE = re.compile(r"(?:hi|hello|hey|hiya|sorry|oops|thanks|thank you|great|perfect|ok|okay|oh|well|happy \w+|"
                              r"good (?:morning|afternoon|evening|day|night))\b", re.IGNORECASE)
_GUESSED_WORDS = 3  # a value guessed from what a request leaves over is short, unless it is a name
_MAX_GUESSED = 8  # ... and a longer one needs a capital inside it, not only a number
_SHORT_REQUEST = 4  # ... and in lower case only from a request this short ('is dune available')


def _names_something(rest: Candidate, text: str) -> bool:
    """'Dune', 'is the hobbit in', 'Red Joan Of Arc': a capitalised name, or the rest of a short
    request; not 'wondering if you could help' or 'looking' (what a longer request leaves over is
    its own wording, not a value)."""
    value = str(rest.value)
    words = lx.tokens(value)
    if has_name(text, rest.start, rest.end) and (len(words) <= _MAX_GUESSED or any(w[:1].isupper() for w in value.split()[1:])):
        return True  # a long stretch with only a number in it ('for like 5 days ...') is a story, not a name
    return len(words) <= _GUESSED_WORDS and len(lx.tokens(text)) <= _SHORT_REQUEST


def _slot_named(spec: FlowSpec, text: str) -> str | None:
    """The one slot whose name the text says in full ('the number of passengers' names
    ``passengers``), when the text says exactly one."""
    said = {lx.stem(w) for w in lx.tokens(text)}
    named = []
    for slot_spec in spec.slots:
        words = {lx.stem(w) for w in lx.tokens(slot_spec.name.replace("_", " "))} - lx.STOP_STEMS
        if words and words <= said:
            named.append(slot_spec.name)
    if not named and _HEAD_COUNT.search(text):  # ('Pax count is 3 actually', 'headcount is 4'): the slot counting people
        named = [s.name for s in spec.slots if {lx.stem(w) for w in s.name.split("_")} & PEOPLE_STEMS] \
            or [s.name for s in spec.slots if count_units(s) & PEOPLE_STEMS]
    return named[0] if len(named) == 1 else None


_HEAD_COUNT = re.compile(r"\b(?:(?:pax|people|passenger|guest|traveller|traveler|person)s? (?:count|number|total)|"
                         r"head ?count|number of (?:pax|people|passengers|guests|travellers|travelers|persons))\b", re.IGNORECASE)


def _sole_place(text: str, asked_roles: AbstractSet[str], taken: Sequence[tuple[int, int]]) -> Candidate | None:
    """The place a cue of the asked role points at in the answer's first sentence ('I need a hotel
    in San Francisco'), when the question asked was for a place, nothing else read from the turn
    holds it and no name comes before it ('San Diego, I'm driving down from LA' names San Diego)."""
    roles = asked_roles & PLACE_ROLES
    if not roles:
        return None
    cues = {c for role in roles | {"place"} for c in ROLE_CUES[role]}
    spans = [(a, b) for a, b in place_spans(text, cues) if not any(x < b and a < y for x, y in taken)]
    if len(spans) != 1:
        return None
    a, b = spans[0]
    start = _after_social(text, a)
    if _SENTENCE_BREAK.search(text, start, a):
        return None
    opening = name_run(text, start, a)
    if opening is not None and not text[start:opening.start].strip(" ,"):
        return None  # 'San Diego, I'm driving down from LA': the place named first answers
    if names_nothing(text[a:b]):
        return None
    within = _PLACE_WITHIN.match(text, start, a)
    if within is not None and not names_nothing(within["place"]) and not any(
            w.lower() in lx.STOPWORDS or w.lower().endswith(("ing", "ly")) for w in within["place"].split()):
        # (not 'Staying in Leeds', 'Probably in Cornwall', 'With Friends in Dublin': words, then the place)
        # 'Galway in Ireland': a place, then the larger place it is in, is one answer
        return Candidate(text[within.start("place"):b], text[within.start("place"):b], within.start("place"), b, 0.5)
    return Candidate(text[a:b], text[a:b], a, b, 0.5)


_PLACE_WITHIN = re.compile(r"\s*(?P<place>(?:[A-Z][\w'-]*\s+){1,3})(?:in|near|outside)\s+$")


_SENTENCE_BREAK = re.compile(r"[.!?]\s")


def _after_social(text: str, end: int) -> int:
    """Where the answer starts past sentences that only greet or apologise ('Hi! I need a hotel in ...')."""
    start = 0
    for m in _SENTENCE_BREAK.finditer(text, 0, end):
        if not _SOCIAL_SENTENCE.match(text[start:m.start()].strip()):
            break
        start = m.end()
    return start


def _sole_required(spec: FlowSpec, name: str) -> bool:
    """A request told in one breath ('plan a trip to ...') is the only thing its flow needs; a
    free-text slot beside other required slots is asked for, never guessed from the request."""
    return [s.name for s in spec.slots if s.priority == "required"] == [name]
