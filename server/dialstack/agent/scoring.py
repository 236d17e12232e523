"""Flow scoring and cue reading for System-1 understanding, from the domain's YAML only.

A flow is scored against an utterance from its examples, keywords, name and description,
each word weighted by how few flows use it (a word every flow shares, like 'booking' in a
booking domain, says little), plus evidence from slot values: an utterance naming a value
only one flow's slots can hold ('the printer', 'R-1234') points at that flow.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..domain.models import FlowSpec, SlotSpec
from ..state.slots import BaseSlot, Candidate, ExactSlot, FreeTextSlot, LevelSlot, RangeSlot, SlotContext
from ..state.text import parse_number, word_pattern
from . import lexicon as lx
from .embedding import Embedder

UNKNOWN_WEIGHT = 0.3  # a word no flow mentions: maybe a value, maybe filler; it dilutes a little
SHARPNESS = 1.5  # > 1 lets a word only one flow uses outweigh one that many flows share
VALUE_WEIGHT = 0.36  # a value only one flow can hold is, alone, enough to start it
EXAMPLE_WEIGHT = 1.0  # examples and keywords on top of the flow's own text
IMPUTED_EXAMPLES = 2.0  # what examples would add, for a flow that has none (measured on the SGD kit)
SEMANTIC_WEIGHT = 1.0  # cosine of the sentence embedding to the flow's purpose, above the floor
SEMANTIC_FLOOR = 0.1  # unrelated sentences still share some direction; below this, nothing
RARE_SHARE = 0.25  # a kind of value held by at most this share of the flows is rare
UNHELD_VALUE = 0.5  # a question naming values a flow cannot hold is hardly about that flow
VERB_BONUS = 0.3  # a request opening with the verb only this flow's name and examples open with
READ_BONUS = 0.1  # 'what flights are there?': a question asks to read, not to change
MENDED_KEPT = 4096  # spelling corrections remembered per pack
EXAMPLE_READINGS_KEPT = 65536  # values found in a pack's own examples, remembered per pack


_PARSING_PARAMS = ("options", "vocabulary", "pattern", "min", "max", "integer")


def value_key(spec: SlotSpec) -> str:
    """Slots that read the same values share a key (prompts and preferences don't matter)."""
    params = {k: v for k, v in spec.params.items() if k in _PARSING_PARAMS}
    return spec.type + json.dumps(params, sort_keys=True, default=str)


# ('AP-?\d{4}' too, and letters of either case: '[Jj][Oo][Bb]-?\d{4}')
_LETTERS_FIRST = re.compile(r"\^?\(?(?:[A-Za-z]|\[[A-Za-z]{1,2}\]){1,6}(?:[-_ #]\??)?(?:\\d|\[0-9\]|\d)")


def _is_reference(slot: BaseSlot) -> bool:
    """A slot whose values are references: an exact pattern of a few letters, then digits ('BK-\\d{5}')."""
    return slot.criteria == "exact" and bool(_LETTERS_FIRST.match(str(slot.params.get("pattern") or "")))


def scorable(spec: SlotSpec) -> bool:
    """Slots whose values say something about the flow: not free text, not a yes/no confirmation."""
    return spec.type != "FreeTextSlot" and not spec.params.get("confirmation")


def telling(slot: BaseSlot) -> bool:
    """A bare number ('12') fits any numeric slot, so it tells nothing about the flow."""
    return type(slot).extract not in (LevelSlot.extract, RangeSlot.extract, FreeTextSlot.extract)


class FlowProfile:
    """The words that speak for one flow: examples, keywords, name, description."""

    def __init__(self, spec: FlowSpec) -> None:
        self.spec = spec
        # ('that is good' among a look-up's examples, as data gathered from real talk may hold: a yes says no task)
        self.example_texts = [e for e in spec.examples if not lx.agrees_only(e)]
        self.examples = [lx.content_stems(e) for e in self.example_texts]
        self.values_masked = False  # example values ('Boston', 'Dec 20') are blanked once vocabularies load
        self.keywords: set[str] = set()
        # 'how much', 'running out': a keyword that needs its function words counts only as a phrase
        self.phrases: list[tuple[re.Pattern[str], frozenset[str]]] = []
        for keyword in spec.keywords:
            if _phrase(keyword):
                self.phrases.append((word_pattern(keyword), lx.content_stems(keyword)))
                # ('is my nurse review still happening?' says the keyword 'still on' in other words)
                self.phrases += [(word_pattern(said), lx.content_stems(keyword))
                                 for said in lx.PHRASE_VARIANTS.get(keyword.lower(), ())]
            else:
                self.keywords |= {lx.stem(w) for w in lx.tokens(keyword)} - lx.STOPWORDS
        # 'make' listed beside "can't" where the examples only say "I can't make my appointment": the
        # keyword means the negated word ('I'd like to make an appointment' is no cancelling)
        said = set().union(*self.examples)
        negated_only = frozenset(k for k in self.keywords if f"not-{k}" in said and k not in said)
        self.keywords = {f"not-{k}" if k in negated_only else k for k in self.keywords}
        self.name = {lx.stem(t) for t in spec.name.split("_")} - lx.STOPWORDS
        self.description = lx.content_stems(spec.description) - DESCRIBING
        self.value_keys = {value_key(s) for s in spec.slots if scorable(s)}
        # 'book ... with a max price of $500': words naming the flow's own slots, not its topic
        self.slot_words = {lx.stem(t) for s in spec.slots for t in s.name.split("_")} - lx.STOPWORDS \
            - self.keywords - self.name
        self.text = flow_text(spec, negated_only)
        # 'my bookings' (a list) against 'my booking' (one): how the flow's keywords and examples count
        # things (its name and description do not tell: 'find_restaurants' finds one as well)
        self.numbers = lx.grammatical_numbers(" ".join([*spec.keywords, *self.example_texts]))
        openers = {lx.opener(e) for e in self.example_texts}
        self.openers = openers - {None}
        first = spec.name.split("_")[0].lower()
        self.verb = first if first in openers and first not in lx.STOPWORDS else None
        # 'Can I reschedule my appointment ...' of move_donation: an example opens with one of its keywords
        declared = {k.lower() for k in spec.keywords}
        self.keyword_verbs = {o for o in openers if o and o in declared and o not in lx.STOPWORDS} - {self.verb}

    @property
    def vocabulary(self) -> set[str]:
        return set().union(*self.examples, self.keywords, self.name, self.description, *(p for _, p in self.phrases))


# How much each part of a flow's YAML says about what the flow is for: its own name and label
# most, then its description and keywords, then its slots' names and descriptions, least the
# options and prompts (they mostly name values, not the task).
TEXT_FIELDS = (("name", 3.0), ("label", 3.0), ("description", 2.0), ("keywords", 2.0),
               ("slot_names", 1.0), ("slot_descriptions", 1.0), ("prompts", 0.5), ("options", 0.5))
TEXT_SATURATION = 1.0  # a word said once in the name is nearly as good as said thrice (BM25's k)


def _phrase(keyword: str) -> bool:
    """'how much', 'running out': a keyword that needs its function words to mean anything."""
    words = lx.tokens(keyword.replace("-", " "))  # ('one-to-one': said 'one to one' too)
    return len(words) > 1 and any(w in lx.STOPWORDS for w in words)


# the words a description uses of the conversation itself ('Use when the user asks whether ...'), not of the task:
# 'might I ask whether you fly to Edinburgh?' asks nothing of a flow described so
DESCRIBING = frozenset(lx.stem(w) for w in "use used user users ask asks asked say says said".split())


def flow_text(spec: FlowSpec, negated_keywords: frozenset[str] = frozenset()) -> dict[str, float]:
    """The flow's words (stemmed) with how prominently its YAML uses them; ``negated_keywords``
    count as their negation ('not-make') where the keywords list them."""
    fields = {
        "name": [spec.name.replace("_", " ")],
        "label": [spec.label],
        "description": [spec.description],
        "keywords": [k for k in spec.keywords if not _phrase(k)],  # phrases count only when said whole
        "slot_names": [s.name.replace("_", " ") for s in spec.slots],
        "slot_descriptions": [s.description for s in spec.slots],
        "prompts": [s.prompt for s in spec.slots],
        "options": [str(o) for s in spec.slots for o in s.params.get("options") or ()
                    if isinstance(o, (str, int, float))],
    }
    weights: dict[str, float] = {}
    for field, factor in TEXT_FIELDS:
        for text in fields[field]:
            for word in lx.content_stems(text) - (DESCRIBING if field.endswith("description") else frozenset()):
                word = f"not-{word}" if field == "keywords" and word in negated_keywords else word
                weights[word] = weights.get(word, 0.0) + factor
    return weights


# a word after an article or a possessive names a thing, not an action ('the tickets', 'my change')
_THING = re.compile(r"\b(?:a|an|the|my|your|our|this|that)\s+([a-z]+)\b", re.IGNORECASE)


def semantic_text(spec: FlowSpec) -> str:
    """What a flow is for, in words, for the sentence embedding."""
    return " ".join(lx.tokens(f"{spec.label or spec.name.replace('_', ' ')}. {spec.description}"))


class FlowScorer:
    """Scores every flow of a domain for an utterance; weights come from the whole domain."""

    def __init__(self, flows: Sequence[FlowSpec], make_slot: Any, readers: frozenset[str] = frozenset(),
                 embedder: Embedder | None = None, example_readings: dict[Any, Any] | None = None) -> None:
        self.profiles = {f.name: FlowProfile(f) for f in flows}
        # the things some flow counts only in the plural ('bookings') and another in the singular
        # ('booking'): said in the singular, they speak against the first ('is my booking still on?')
        singular = {s for p in self.profiles.values() for s, n in p.numbers.items() if "one" in n}
        plural = {s for p in self.profiles.values() for s, n in p.numbers.items() if "many" in n}
        self.plural_only = {name: frozenset(s for s, n in p.numbers.items() if n == MANY and s in singular)
                            for name, p in self.profiles.items()}
        # ... and of two look-ups, several said in the plural speak against the one about one thing
        # ('which flights have i already booked?'; not against booking: 'book flights for 3 of us')
        self.singular_only = {name: frozenset(s for s, n in p.numbers.items() if n == ONE and s in plural)
                              if name in readers else frozenset() for name, p in self.profiles.items()}
        self.embedder = embedder
        self.flow_vectors = embedder.embed([semantic_text(f) for f in flows]) if embedder and flows else None
        self.readers = readers  # flows whose intent's role is 'read' 
        count = max(len(self.profiles), 1)
        top = math.log(1 + count)
        self.weights = _rarity([p.vocabulary for p in self.profiles.values()], count)
        self.text_weights = _rarity([p.text.keys() for p in self.profiles.values()], count)
        self.keywords = set().union(*(p.keywords for p in self.profiles.values()),
                                    *(w for p in self.profiles.values() for _, w in p.phrases))
        holders: dict[str, int] = {}
        self.value_slots: dict[str, BaseSlot] = {}
        for profile in self.profiles.values():
            for spec in profile.spec.slots:
                if scorable(spec) and value_key(spec) not in self.value_slots:
                    self.value_slots[value_key(spec)] = make_slot(spec)
            for key in profile.value_keys:
                holders[key] = holders.get(key, 0) + 1
        self.value_weights = {k: math.log(1 + count / n) / top for k, n in holders.items()}
        # kinds of value few flows hold (a booking reference): naming one points away from the rest
        self.rare_keys = frozenset(k for k, n in holders.items() if n <= RARE_SHARE * count)
        # values that name one thing (a reference matched by its own pattern): which look-up they are for
        # (an identifier matched by its own pattern: an ExactSlot, or a pack's slot type built on one)
        self.rare_or_identifying_keys = self.rare_keys | frozenset(
            k for k in holders if k.startswith("ExactSlot{") or isinstance(self.value_slots.get(k), ExactSlot))
        # references ('BK-20481', 'HV-2041'): a pattern that opens with letters of its own
        self.reference_keys = frozenset(k for k in holders if k in self.value_slots and _is_reference(self.value_slots[k]))
        verbs: dict[str, list[str]] = {}
        for name, profile in self.profiles.items():
            if profile.verb:
                verbs.setdefault(profile.verb, []).append(name)
        # a flow's strong verb: the first word of its name, which its own examples open with, no other flow's
        self.verbs = {verb: names[0] for verb, names in verbs.items() if len(names) == 1}
        # ... and, for a request ('need to reschedule my plasma appt'), a keyword of one flow only that its
        # examples open with, no other flow's examples do, and no text uses as a thing ('the tickets')
        taken: dict[str, set[str]] = {}  # a word -> the flows whose keywords hold it or whose examples open with it
        for name, profile in self.profiles.items():
            for word in {*(k.lower() for k in profile.spec.keywords), *profile.openers}:
                taken.setdefault(word, set()).add(name)
        things = {m.group(1).lower() for p in self.profiles.values()
                  for m in _THING.finditer(" ".join([p.spec.label or "", p.spec.description, *p.spec.examples]))}
        # (and a verb with its particle that one flow alone lists as a keyword: 'call off')
        phrasal = {k.lower(): name for name, p in self.profiles.items() for k in p.spec.keywords
                   if len(k.split()) == 2 and k.split()[1].lower() in lx.PARTICLES and taken.get(k.lower(), set()) <= {name}}
        self.request_verbs = {**phrasal, **{verb: name for name, p in self.profiles.items() for verb in p.keyword_verbs
                                            if taken.get(verb, set()) <= {name} and verb not in things and not verb.endswith("s")},
                              **self.verbs}
        # ... and a verb the pack never uses for the same task in everyday words ('postpone it', 'prepone my
        # flight' of a flow whose verb is 'reschedule'), when no flow's words hold it
        said = {word for words in taken for word in words.split()} | things
        for verb, names in taken.items():
            for other in lx.VERB_SYNONYMS.get(verb, ()) if len(names) == 1 else ():
                if other not in said:
                    self.request_verbs.setdefault(other, next(iter(names)))
        # every flow's verb, shared or not ('reserve' of two reservations), and its request verbs, as said
        self.said_verbs = frozenset(verbs) | self.request_verbs.keys()
        self._last_values: tuple[Any, Any] = (None, None)
        # where the values are in each example, for every scorer of the same pack (each agent reads
        # them once its vocabularies load: the same examples, read the same way)
        self.example_readings = example_readings if example_readings is not None else {}
        self._vocabularies_read: tuple[Any, int, str] = (None, 0, "")  # (the object, its size, its digest)
        self._triggers: dict[str, frozenset[str]] = {}
        self._declared: dict[str, frozenset[str]] = {}
        self._mended: dict[tuple[str, bool], str] = {}
        # every word the pack uses for its flows, as written and as its stem: typos are mended to them
        self.spelled: dict[str, str] = {}
        for profile in self.profiles.values():
            spec = profile.spec
            for text in [spec.name.replace("_", " "), spec.label, spec.description, *spec.keywords, *spec.examples,
                         *(s.name.replace("_", " ") for s in spec.slots), *(s.description for s in spec.slots)]:
                for token in lx.tokens(text):
                    if len(token) >= 4 and token not in lx.STOPWORDS:
                        self.spelled.setdefault(token, lx.stem(token))
                        self.spelled.setdefault(lx.stem(token), lx.stem(token))

    def weight(self, word: str) -> float:
        return self.weights.get(word, UNKNOWN_WEIGHT)

    def values_in(self, text: str, ctx: SlotContext | None) -> tuple[set[str], list[tuple[int, int]]]:
        """Which slot types have a value in ``text``, and where those values are."""
        if ctx is None:
            return set(), []
        keys, spans, _ = self._values_found(text, ctx)
        return keys, spans

    def reference_spans(self, text: str, ctx: SlotContext) -> list[tuple[int, int]]:
        """Where ``text`` names a reference ('BK-31337', 'KB-4823'): never a name or a free-text value."""
        by_key = self._values_found(text, ctx)[2]
        return [span for key in self.reference_keys for span in by_key.get(key, ())]

    def _values_found(self, text: str, ctx: SlotContext) -> tuple[set[str], list[tuple[int, int]], dict[str, list[tuple[int, int]]]]:
        """The values in ``text`` by kind (read once per turn: every flow's reading asks again)."""
        key = (text, id(ctx))
        last = self._last_values
        if last[0] != key:
            by_key: dict[str, list[tuple[int, int]]] = {}
            for kind, slot in self.value_slots.items():
                if telling(slot):
                    found = [(c.start, c.end) for c in slot.extract(text, ctx) if c.score >= 0.5]
                    if found:
                        by_key[kind] = found
            last = self._last_values = (key, (set(by_key), [span for spans in by_key.values() for span in spans], by_key))
        return last[1]

    def example_spans(self, text: str, ctx: SlotContext) -> list[tuple[int, int]]:
        """Where the values are in ``text``, one of the pack's own examples (read once per pack,
        vocabularies and day)."""
        key = (text, self._vocabularies_digest(ctx), ctx.now.date())
        spans = self.example_readings.get(key)
        if spans is None:
            if len(self.example_readings) >= EXAMPLE_READINGS_KEPT:
                self.example_readings.clear()
            spans = self.example_readings[key] = self.values_in(text, ctx)[1]
        return spans

    def _vocabularies_digest(self, ctx: SlotContext) -> str:
        """What ``ctx``'s vocabularies hold, as a digest (worked out again only when they change)."""
        vocabularies, size, digest = self._vocabularies_read
        if vocabularies is not ctx.vocabularies or size != len(ctx.vocabularies):
            text = json.dumps(ctx.vocabularies, sort_keys=True, default=str)
            digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
            self._vocabularies_read = (ctx.vocabularies, len(ctx.vocabularies), digest)
        return digest

    def mask_example_values(self, ctx: SlotContext) -> None:
        """Blank the slot values inside examples: 'flights from Boston' speaks for 'flights', not 'Boston'."""
        for profile in self.profiles.values():
            if not profile.values_masked:
                profile.examples = [self._masked_stems(e, ctx) for e in profile.example_texts]
                profile.values_masked = bool(ctx.vocabularies) or not self.needs_vocabulary
        return None

    def _masked_stems(self, text: str, ctx: SlotContext) -> set[str]:
        spans = [(a, b) for a, b in self.example_spans(text, ctx) if not lx.content_stems(text[a:b]) <= self.keywords]
        return lx.content_stems(mask(text, spans))

    @property
    def needs_vocabulary(self) -> bool:
        return any(s.params.get("vocabulary") for s in self.value_slots.values())

    def rank(
        self, text: str, ignore: Sequence[tuple[int, int]] = (), ctx: SlotContext | None = None, values_alone: bool = True,
        question: bool = False,
    ) -> list[tuple[str, float]]:
        """Scores for every flow, best first; ``values_alone``: a value with no words may start a flow.

        A ``question`` ('where am I flying on BK-12345?', 'do you fly to Honolulu?') asks to read,
        never to change anything: flows that change state score nothing, and a value said (the
        booking asked about) counts double."""
        if ctx is not None:
            self.mask_example_values(ctx)
        text = lx.free_of_charge(text)  # ('is the flu jab free for over 65s?' asks the cost, not a free time)
        keys, spans = self.values_in(text, ctx)
        # ('... so two people. window seats if possible': the wish's words are a detail, not the task)
        ignore = [*ignore, *self.own_slot_words(text), *lx.when_clause_spans(text), *lx.wish_spans(text)]
        done = {lx.stem(m["done"]) for m in lx.ALREADY_DONE.finditer(text)}  # 'have I got anything booked?'
        shown = bool(_SHOW_ME.search(text))  # ('can you show me everything I've got booked?')
        asks_what_was_done = bool(done) and (lx.is_question(text) and not lx.REQUEST_ANYWHERE.search(text)
                                             and not lx.ORDER.search(text) or shown)
        # the look-ups whose own words say what was done ('What flights have I booked?' of list_bookings)
        done_readers = {n for n in self.readers if asks_what_was_done and n in self.profiles
                        and done & (self.profiles[n].name | self.profiles[n].keywords | set().union(*self.profiles[n].examples)
                                    | {w for k in self.profiles[n].spec.keywords for w in lx.tokens(k)})}  # ('had', a stopword)
        plain = self.stems(mask(text, ignore))
        # values are not words for a flow, unless a flow lists the whole value as a keyword ('vegetarian')
        spans = [(a, b) for a, b in spans if not lx.content_stems(text[a:b]) <= self.keywords]
        spans = [*spans, *lx.value_lead_spans(text, [*spans, *ignore])]  # 'leaving from' of 'leaving from Boston'
        words_left = self.stems(mask(text, [*ignore, *spans])) if spans else plain
        reading = bool(lx.READ_QUESTION.match(text))
        left_text = mask(text, [*ignore, *spans])
        semantic = self.semantic(left_text)
        numbers = lx.grammatical_numbers(left_text, definite=True)
        verb_of = self.verb_flow(text)
        # the things the turn's verbs are done to ('I want to move my appointment': not an infusion)
        things = {lx.stem(thing) for _, thing in lx.requested_things(text, heads=True)} - lx.STOPWORDS
        asked_for = self.requested_flows(text)
        named = keys if question else keys & self.rare_keys  # values that say which flows a turn is about
        referenced = keys & self.reference_keys  # a reference said: the turn is about what it names
        scores = []
        for index, (name, profile) in enumerate(self.profiles.items()):
            if question and not (name in self.readers or profile.spec.metadata.digression):
                scores.append((name, 0.0))
                continue
            said = [stems for pattern, stems in profile.phrases if pattern.search(left_text)]
            # 'is my reservation still on?' is about one booking, not the list a flow of 'my reservations'
            # gives (the other way round tells nothing: 'book flights for 3 of us' books)
            counted = {s for s, n in numbers.items() if n == ONE and s in self.plural_only[name]
                       or n == MANY and s in self.singular_only[name]}
            phrased = frozenset().union(*said)  # (a phrase said counts though its words are small: 'one to one')
            words = self._words(profile, words_left | phrased, phrased, frozenset(counted))
            if reading and name in self.readers and words > 0:
                words += READ_BONUS
            values = sum(self.value_weights[k] for k in profile.value_keys & keys)
            evidence = VALUE_WEIGHT * min(values, 1.5) * (2.0 if question else 1.0)
            if named and not profile.value_keys & named and name not in asked_for:
                # 'when does my BK-20481 flight leave?' asks about what it names (but 'I can't make
                # my physio appointment on friday, can you cancel it' asks for its own task)
                words *= UNHELD_VALUE
            if semantic is not None and words > 0:
                words += SEMANTIC_WEIGHT * max(0.0, float(semantic[index]) - SEMANTIC_FLOOR)
            # 'can i switch to an aisle seat on BK-31337?': about that booking, whatever else it names
            unheld = UNHELD_VALUE if referenced and not question and not profile.value_keys & referenced \
                and name not in asked_for else 1.0  # (a question weighs every value it names already)
            if name not in self.readers and (done & profile.name or done_readers and shown):
                # what was already booked is looked up, not booked again ('can u check what jabs my daughter has had?')
                words *= UNHELD_VALUE
            elif name in self.readers and done_readers and name not in done_readers:
                words *= UNHELD_VALUE  # ... by a look-up of what was booked, not a search for new flights
            if things and self._done_to_another(things, name):
                words *= UNHELD_VALUE  # (a thing another flow's name holds, and this flow never mentions)
            elif name == verb_of:
                words += VERB_BONUS  # 'i need to bok a flite': the verb alone, mended, names the task
            # 'did BK-12345 go through ok?': a question about the one thing it names needs no other word
            about = question and bool(profile.value_keys & named & self.rare_or_identifying_keys)
            scores.append((name, unheld * (words + evidence) if words > 0 or values_alone or about else 0.0))
        scores.sort(key=lambda pair: pair[1], reverse=True)
        return scores

    def _done_to_another(self, things: set[str], name: str) -> bool:
        """Whether ``things``, what the turn's verbs are done to, hold one another flow's name holds and
        flow ``name`` never mentions ('move my appointment' of move_infusion, beside reschedule_appointment)."""
        # (not 'check' of 'my bp check'; the names first: the flow's whole vocabulary is built only when one is named)
        elsewhere = {t for t in things - self.said_verbs if any(t in p.name for other, p in self.profiles.items() if other != name)}
        return bool(elsewhere - self.profiles[name].vocabulary) if elsewhere else False

    def requested_flows(self, text: str) -> set[str]:
        """The flows a request anywhere in ``text`` names by their own verb ('can you cancel it', 'can u
        cancle it', '... could you please cancel my reservation?')."""
        return {self.flow_of_verb(v) for v in lx.requested_verbs(text)} - {None}

    def flow_of_verb(self, verb: str) -> str | None:
        """The flow whose request verb ``verb`` is, as said or mended ('cancle'); a verb with its particle
        ('call off') only as the pack says it."""
        return self.request_verbs.get(verb) or (None if " " in verb else self.request_verbs.get(self.mend(verb)))

    def verb_flow(self, text: str) -> str | None:
        """The flow whose own verb the request opens with ('can you refill ...', 'before that, can
        you check ...')."""
        verb = lx.opener(mask(text, [*lx.act_spans(text), *lx.shift_spans(text)])) or ""
        return self.verbs.get(verb) or (self.verbs.get(self.mend(verb)) if len(verb) >= 3 else None)  # 'bok'

    def stems(self, text: str) -> frozenset[str]:
        """``lx.content_stems`` with typos mended: a word the pack never uses, close to one it
        does ('reservaton', 'bookng'), counts as that word."""
        joined, parted = self._word_pairs(text)
        found = (lx.content_stems(text) | joined) - parted
        unknown = [w for w in found if w not in self.weights and w not in self.text_weights
                   and not w.startswith("not-") and (len(w) >= 4 or w in lx.SYNONYMS or _texted(w))]
        if not unknown:
            return found
        written = {lx.stem(t) for t in lx.tokens(text) if self.is_word(t)}  # 'chance' is no typo of 'change'
        raw = {lx.stem(t): t for t in lx.tokens(text)}  # ('stauts' is mended as typed: its stem 'staut' is nearer 'state')
        mended = {m for w in unknown if (m := self._mend_said(w, raw.get(w, w), w in written)) == w or m not in lx.STOPWORDS}
        return frozenset((found - set(unknown)) | mended)  # ('wnt' mended is 'want', no task word)

    def _mend_said(self, stem: str, said: str, spelled_right: bool) -> str:
        """The pack's word for a word the pack does not use: the word as typed mended first, then its stem."""
        if said != stem and not spelled_right:
            mended = self.mend(said)
            if mended != said and mended in self.text_weights:
                return mended
        return self.mend(stem, spelled_right=spelled_right)

    def _word_pairs(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """What two words said side by side make of the pack's words written whole: the pack's words they
        make the other way round ('coming up' -> 'upcoming'; said in order, 'round trip', 'show times',
        they are the pack's own words already), and the stems of words said as part of a pack's word
        that are no words of the pack themselves ('drop in' of 'drop-in': no 'drop' that cancels)."""
        said = lx.tokens(text)
        joined: set[str] = set()
        parted: set[str] = set()
        for a, b in zip(said, said[1:]):
            if not (a.isalpha() and b.isalpha()):
                continue
            if b + a in self.spelled:
                joined.add(self.spelled[b + a])
            if a + b in self.spelled:
                parted |= {lx.stem(w) for w in (a, b) if w not in lx.STOPWORDS and lx.stem(w) not in self.text_weights}
        return frozenset(joined), frozenset(parted)

    def mend(self, word: str, spelled_right: bool = False) -> str:
        """The pack's own word for ``word``: a synonym it uses ('drop' -> 'cancel'), else the word
        closest in spelling (one or two letters off) unless ``word`` is a word as written
        ('chance', 'found'), else ``word``."""
        spelled_right = spelled_right or self.is_word(word)
        cached = self._mended.get((word, spelled_right))
        if cached is None:
            same = [s for s in lx.SYNONYMS.get(word, ()) if s in self.weights or s in self.text_weights]
            # written as it sounds ('flite', 'nite'): the pack's word spelt the usual way
            sounded = [word[:-len(said)] + spelt for said, spelt in _SOUNDED if word.endswith(said)]
            same = same or [self.spelled[w] for w in sounded if w in self.spelled]
            # (the one pack word a word shortens first: 'resched' is 'reschedule', not 'reach' two letters off)
            close = [] if same or spelled_right else _shortened(word, self.spelled) \
                or difflib.get_close_matches(word, self.spelled, n=1, cutoff=0.8) \
                or [w for w in self.spelled if _swapped(word, w)][:1] \
                or [w for w in self.spelled if lx.fat_finger(word, w)][:1] \
                or _unvowelled(word, self.spelled)  # 'mvoe' -> 'move', 'resched' -> 'reschedule', 'bkng' -> 'booking'
            # a typo keeps its first letter ('bokking'); 'found' is no 'round'
            close = [c for c in close if c[:1] == word[:1]]
            cached = same[0] if same else self.spelled[close[0]] if close else word
            if len(self._mended) >= MENDED_KEPT:  # a long-running server meets endless new words
                self._mended.clear()
            self._mended[(word, spelled_right)] = cached
        return cached

    def is_word(self, word: str) -> bool:
        """A word written right ('chance', 'found'), mended into no other; without the embedder's
        vocabulary every word may be a typo."""
        return self.embedder is not None and self.embedder.is_word(word)

    def semantic(self, text: str) -> Any:
        """Cosine similarity of ``text`` to every flow's purpose, or None without an embedder."""
        if self.embedder is None or self.flow_vectors is None or not lx.tokens(text):
            return None
        # case and punctuation say nothing about the task, and a typo is read as the word it mends to
        said = " ".join(self._as_meant(t) for t in lx.tokens(text))
        return self.flow_vectors @ self.embedder.embed([said])[0]

    def _as_meant(self, token: str) -> str:
        """``token``, or the pack's word it misspells ('flite' -> 'flight')."""
        stem = lx.stem(token)
        if len(token) < 4 or stem in self.weights or stem in self.text_weights or self.is_word(token):
            return token
        mended = self.mend(stem)
        return token if mended == stem else mended

    def trigger_words(self, name: str) -> frozenset[str]:
        """The words that ask for flow ``name`` (stemmed): its keywords, name, description and the
        words of its examples except the sample values in them ('Is Dune available?': not 'Dune')."""
        cached = self._triggers.get(name)
        if cached is not None:
            return cached
        profile = self.profiles.get(name)
        words: set[str] = set()
        if profile is not None:
            words |= profile.keywords | profile.name | profile.description
            words |= set().union(*(p for _, p in profile.phrases))
            # an example's opening word asks for the flow; its other words only when several examples
            # share them ('echo hello': 'hello' is the sample value, not a word that asks)
            seen: dict[str, int] = {}
            for example in profile.example_texts:
                for i, m in enumerate(lx.TOKEN.finditer(example)):
                    word = lx.stem(m.group().lower())
                    if i == 0:
                        words.add(word)
                    elif not m.group()[:1].isupper():
                        seen[word] = seen.get(word, 0) + 1
            words |= {w for w, n in seen.items() if n > 1 or len(profile.example_texts) < 2 and w in profile.description}
        self._triggers[name] = frozenset(words - lx.STOPWORDS)
        return self._triggers[name]

    def task_words(self, name: str) -> set[str]:
        """The words that name flow ``name``'s task ('flight', 'book'), not one of its details
        ('date', 'seat'): its examples, keywords and name, less its slots' words."""
        profile = self.profiles.get(name)
        if profile is None:
            return set()
        slots = {lx.stem(t) for s in profile.spec.slots for t in s.name.split("_")}
        return set().union(*profile.examples, profile.keywords, profile.name) - slots

    def declared_task_words(self, name: str) -> frozenset[str]:
        """The words the pack itself uses for flow ``name``'s task: its name, label, description
        and keywords, less the words of its slots' names ('a one way flight', not 'date')."""
        cached = self._declared.get(name)
        if cached is None:
            profile = self.profiles.get(name)
            cached = frozenset()
            if profile is not None:
                spec = profile.spec
                slots = {lx.stem(t) for s in spec.slots for t in s.name.split("_")}
                named = profile.name | lx.content_stems(spec.label)  # 'buy event tickets': its own name is its task
                said = named | profile.keywords | profile.description
                words = (said - (slots - named)) | self.task_words(name)
                cached = frozenset(w for w in words if parse_number(w) is None)  # 'between two cities': no task
            self._declared[name] = cached
        return cached

    def names_flow(self, text: str, name: str, other: str) -> bool:
        """Whether ``text`` says a word of flow ``name``'s own name that flow ``other``'s name lacks
        ('a price alert', 'an advisory' while booking), not merely a word its keywords hold ('moved')."""
        return bool(self.stems(text) & (self.profiles[name].name - self.profiles[other].name))

    def names_task(self, text: str, ignore: Sequence[tuple[int, int]], name: str) -> bool:
        """Whether ``text``, besides its values and act phrases, says a word of flow ``name``'s task."""
        return bool(self.stems(mask(text, ignore)) & self.declared_task_words(name))

    def names_task_beyond(self, text: str, ignore: Sequence[tuple[int, int]], name: str, other: str) -> bool:
        """Whether ``text`` says a word of flow ``name``'s task that flow ``other``'s task lacks
        ('flights' names booking and searching alike; 'how much' only searching)."""
        return bool(self.stems(mask(text, ignore)) & (self.declared_task_words(name) - self.declared_task_words(other)))

    def own_slot_words(self, text: str) -> list[tuple[int, int]]:
        """'book a flight ... with a max price of $500': a request opening with one flow's strong
        verb names that flow's slots ('max price') as its details; they speak for no other flow."""
        if not self.verbs:
            return []
        owner = self.verbs.get(lx.opener(text) or "")
        if owner is None:
            return []
        words = self.profiles[owner].slot_words
        return [(m.start(), m.end()) for m in lx.TOKEN.finditer(text) if lx.stem(m.group().lower()) in words]

    def _words(self, profile: FlowProfile, stems: set[str], phrased: frozenset[str] = frozenset(),
               miscounted: frozenset[str] = frozenset()) -> float:
        """How well what was said matches the flow's words; ``miscounted`` words (one thing said
        where the flow speaks of many, or many where it speaks of one) are said but match nothing."""
        if not stems:
            return 0.0
        matching = stems - miscounted if miscounted else stems
        # the flow's own text decides; examples and keywords only add to it, so a flow that has
        # none (a new service) is not outvoted by one that has many
        text = self._text(profile, stems, matching)
        if not profile.example_texts and not profile.spec.keywords:
            return text + EXAMPLE_WEIGHT * IMPUTED_EXAMPLES * text  # its own text stands in for examples
        total = sum(self.weight(s) for s in stems)
        example = 0.0
        for words in profile.examples:
            if words:
                shared = sum(self.weight(s) for s in matching & words)
                example = max(example, 2 * shared / (total + sum(self.weight(s) for s in words)))
        keywords = sum(self.weight(s) for s in matching & (profile.keywords | phrased))
        name = sum(self.weight(s) for s in matching & profile.name)
        description = sum(self.weight(s) for s in matching & profile.description) / total
        lexical = 0.6 * example + 0.25 * min(keywords, 2.0) + 0.1 * name + 0.1 * description
        return text + EXAMPLE_WEIGHT * lexical

    def _text(self, profile: FlowProfile, stems: set[str], matching: set[str]) -> float:
        """How much of what was said the flow's own YAML text covers, rarer words counting more."""
        said = sum(self.text_weights.get(s, UNKNOWN_WEIGHT) for s in stems)
        if not said:
            return 0.0
        covered = sum(self.text_weights[s] * tf / (tf + TEXT_SATURATION)
                      for s in matching if (tf := profile.text.get(s, 0.0)) > 0)
        return covered / said


ONE, MANY = frozenset({"one"}), frozenset({"many"})


def _shortened(typed: str, spelled: Mapping[str, str]) -> list[str]:
    """The one pack word that ``typed`` (five letters or more) shortens: 'resched' -> 'reschedule',
    'appt' is a word of its own; none when several words start alike."""
    if len(typed) < 5 or not typed.isalpha():  # ('bk-12' is no 'bk-12345': a reference is said whole)
        return []
    longer = [w for w in spelled if w.startswith(typed) and len(w) > len(typed)]
    return longer[:1] if len({spelled[w] for w in longer}) == 1 else []


def _texted(typed: str) -> bool:
    """Whether ``typed`` is written as texts shorten words, without its vowels ('chk', 'bkng')."""
    return len(typed) >= 3 and typed.isalpha() and not any(v in typed for v in "aeiou")


def _unvowelled(typed: str, spelled: Mapping[str, str]) -> list[str]:
    """The one pack word that ``typed``, written without vowels, spells: the same consonants ('chk' ->
    'check', 'bkng' -> 'booking', 'cncl' -> 'cancel'); none when several words fit."""
    if not _texted(typed) or typed in _TEXTED_NOT_WORDS or typed in lx.OPENING_FILLERS or _consonants(typed) in _SOUNDS:
        return []  # ('hmm' is no 'home')
    fits = [w for w in spelled if w.isalpha() and any(v in w for v in "aeiou") and _consonants(w) == _consonants(typed)]
    return fits[:1] if len({spelled[w] for w in fits}) == 1 else []


def _consonants(word: str) -> str:
    """A word's letters without vowels, 'ck' as 'k' and a doubled letter once ('booking' -> 'bkng',
    'check' -> 'chk'): how texting shortens it."""
    bare = re.sub(r"[aeiou]", "", word.lower()).replace("ck", "k")
    return re.sub(r"(.)\1+", r"\1", bare)


# sounds written without vowels ('hmm', 'mmm', 'shh', 'grr'), as their consonants
_SOUNDS = frozenset({"hm", "m", "mh", "sh", "gr", "br", "pft", "pst", "tsk", "z", "x", "h", "hmph", "ph"})
# texting that shortens words of courtesy or function, never a pack's word ('pls' is no 'plus')
_TEXTED_NOT_WORDS = frozenset({"pls", "plz", "plzz", "thx", "thnx", "thnks", "tnx", "txt", "msg", "rly", "cld", "shd",
                               "wld", "shld", "wd", "cnt", "dnt", "wnt", "bc", "bcs", "cs", "hw", "wht", "whn", "whr"})


_SOUNDED = (("ite", "ight"), ("ites", "ights"))  # endings written as they sound, and how they are spelt


def _swapped(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with two neighbouring letters swapped ('mvoe', 'flgiht')."""
    if len(typed) != len(word) or len(typed) < 4 or typed == word:
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, word)) if a != b]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]] and typed[diff[1]] == word[diff[0]]


def _rarity(documents: Sequence[Iterable[str]], count: int) -> dict[str, float]:
    """Each word's weight by how few of the flows' documents use it (an idf, sharpened)."""
    df: dict[str, int] = {}
    for words in documents:
        for word in words:
            df[word] = df.get(word, 0) + 1
    top = math.log(1 + count)
    return {w: (math.log(1 + count / n) / top) ** SHARPNESS for w, n in df.items()}


def mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """Blank out ``spans`` (values already read) so they don't count as words for a flow."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def strip_cues(text: str) -> str:
    """'I want to fly from Atlantis' -> 'Atlantis': drop the lead-in before a bare value."""
    words = text.strip().rstrip(".!").split()
    while len(words) > 1 and (words[0].lower().strip(",") in lx.STOPWORDS or words[0].lower() in lx.CUE_SYNONYMS
                              or words[0].lower() in lx.LEAD_VERBS):
        words = words[1:]
    while len(words) > 1 and words[-1].lower().strip(",.!") in _SAID_AFTER_A_VALUE:
        words = words[:-1]  # ('chicgao pls', 'denver thanks')
    return " ".join(words)


_SAID_AFTER_A_VALUE = frozenset({"please", "pls", "plz", "thanks", "thx", "ta", "cheers", "then", "mate"})


def negated(text: str, cand: Candidate) -> bool:
    """'not Chicago', 'instead of the printer', 'i cant make my scan on monday': a value the user
    rules out (a moment given up; not the appointment named: 'i cant make NC-1002, cancel it')."""
    before = text[: cand.start]
    ruled_out = lx.NEGATED_BEFORE.search(before)
    if ruled_out is not None and lx.CANCEL_VERB.search(ruled_out.group()) and _REFERENCE.fullmatch(str(cand.value)) \
            and not _REFERENCE.search(text, cand.end):
        ruled_out = None  # ('Scrub BK-31337, the trip's off', 'scrap BK-31337': the thing held, to be stopped)
    return bool(ruled_out
                or _MOMENT.match(str(cand.value)) and (lx.GIVEN_UP_BEFORE.search(before)
                                                        or lx.GIVEN_UP_AFTER.match(text, cand.end)))


_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}")
_REFERENCE = re.compile(r"\b[A-Z]{1,6}-?\d{3,}\b", re.IGNORECASE)


def cue_score(text: str, cand: Candidate, slot_spec: SlotSpec, waiting: str | None, label: str = "") -> float:
    """How strongly the words around a value point at this slot (0 = no cue)."""
    before = lx.tokens(text[: cand.start])[-2:]
    if before == ["out", "of"]:
        before = ["from"]  # ('a flight out of Boston')
    after = lx.tokens(text[cand.end:])[:1]
    units = {lx.stem(t) for t in [*slot_spec.name.split("_"), *lx.tokens(label)]} - lx.STOPWORDS
    names = set(slot_spec.name.split("_")) | {lx.stem(t) for t in lx.tokens(slot_spec.description)}
    prompt = lx.tokens(slot_spec.prompt)
    score = 1.0 if slot_spec.name == waiting else 0.0
    if _WHERE_I_AM.search(text, 0, cand.start) and names & lx.CUE_SYNONYMS["from"]:
        score += 3.0  # "i'm in seattle, could you book me something": where one is, one leaves from
    someone = _WHERE_SOMEONE_IS.search(text, 0, cand.start)
    if someone is not None and someone["lives"] and names & lx.CUE_SYNONYMS["to"]:
        score += 2.0  # 'my sister ... lives in Chicago now': where the one visited is, one goes to (a 'to' says more)
    if someone is not None and names & lx.CUE_SYNONYMS["from"]:
        score -= 3.0  # ('my daughter works in chicago but I want to go to miami': no place to leave from)
    if after and lx.stem(after[0]) in units and not isinstance(cand.value, str):
        score += 3.0  # '6 days' names its slot: the unit after a number is the slot's own word
    for i, cue in enumerate(before):
        if any(w not in lx.STOPWORDS and w not in lx.CUE_SYNONYMS for w in before[i + 1:]):
            continue  # 'to fly Denver to Seattle': a word between the cue and the value cuts them apart
        synonyms = lx.CUE_SYNONYMS.get(cue)
        if cue == "for" and after and after[0] in ("to", "2"):
            continue  # ('a price alert for boston to chicago': a route follows, its first city is where it starts)
        if synonyms and names & synonyms:
            # (a change's 'to' outweighs the 'on' of the moment changed: 'move my session on friday to monday')
            score += 4.0 if cue == "to" and "new" in names else 3.0
        elif prompt and cue == prompt[-1] and cue in lx.CUE_SYNONYMS:
            score += 2.0
        elif synonyms:
            score -= 1.0  # a cue that points elsewhere
    return score + _range_cue(text, cand, slot_spec.name)


_WHERE_I_AM = re.compile(r"\b(?:i'?m|i am|we'?re|we are|i live|we live)(?:\s+(?:currently|now|based|staying))?\s+(?:in|at)\s+$",
                         re.IGNORECASE)
_WHERE_SOMEONE_IS = re.compile(r"\b(?:she|he|they|(?:my|our) [a-z]+)(?:'s| is| are)? (?:now )?(?:(?P<lives>lives?|living|"
                               r"stays?|staying|based|moved)|works?|working|studies|studying)(?: now)? (?:in|to|at)\s+$",
                               re.IGNORECASE)
_SHOW_ME = re.compile(r"\b(?:show|list|tell|give|send) (?:me|us)\b|\b(?:check|see|find out|look up) (?:what|which)\b",
                      re.IGNORECASE)  # ('can u check what jabs my daughter has actually had?')
_CLAUSE_BREAK = re.compile(r"[.,;!?]|\b(?:and|but|then)\b", re.IGNORECASE)
_UP_TO = re.compile(r"\bup to\b", re.IGNORECASE)
_KIND_WORDS = frozenset({"date", "time", "day", "city", "location", "place"})


def _range_cue(text: str, cand: Candidate, name: str) -> float:
    """'leaving this Saturday ... fly back on the 7th', 'check-out on the 9th': words of the same
    clause before a value put it at one end of a range, for a slot that is such an end."""
    end = lx.range_end(name)
    if end is None:
        return 0.0
    head = _UP_TO.sub("until", text[: cand.start])
    breaks = list(_CLAUSE_BREAK.finditer(head))
    clause = [w for t in lx.tokens(head[breaks[-1].end():] if breaks else head)[-5:] for w in t.split("-")]
    words = name.lower().split("_")
    own = "".join(lx.stem(w) for w in words if w not in _KIND_WORDS)
    if len(own) >= 5 and own in "".join(lx.stem(w) for w in clause):
        return 3.0  # the slot's own name said right before it: 'check-out on March 9th', 'pickup date'
    said = lx.said_end(clause, stay="in" in words or "out" in words)
    if said is None:
        return 0.0
    return 2.0 if said == end else -2.0


_PLURAL = re.compile(r"\b([A-Za-z]{3,}?)(ies|es|s)\b")


def singular_text(text: str) -> str:
    """'two monitors' -> 'two monitor ': plural words made singular, offsets unchanged."""
    def repl(m: re.Match[str]) -> str:
        stem, suffix = m.group(1), m.group(2)
        if suffix == "ies":
            return stem + "y  "
        if suffix == "es" and stem[-1:] not in "sxz" and not stem.endswith(("ch", "sh")):
            return stem + "e" + " "  # 'licenses' -> 'license '
        return stem + " " * len(suffix)
    return _PLURAL.sub(repl, text)


def plural_candidates(slot: BaseSlot, text: str, ctx: SlotContext) -> list[Candidate]:
    """Values named in the plural ('monitors') for slots whose options are singular."""
    variant = singular_text(text)
    if variant == text:
        return []
    return [Candidate(c.value, c.display, c.start, c.end, c.score * 0.9) for c in slot.extract(variant, ctx)]


_DURATION = re.compile(
    r"(?<![\w-])(?:(?P<count>a|an|one|two|three|four|\d+)|the)\s+(?P<unit>weeks?|fortnights?)(?![\w-])", re.IGNORECASE
)
_DAYS_IN = {"week": 7, "fortnight": 14}


def duration_candidates(slot: BaseSlot, text: str, ctx: SlotContext) -> list[Candidate]:
    """'a week', 'two weeks' for a number of days: the slot's own unit word says what to count."""
    units = {lx.stem(t) for t in [*slot.name.split("_"), *lx.tokens(slot.label)]}
    if slot.criteria != "numeric" or "day" not in units:
        return []
    out = []
    for m in _DURATION.finditer(text):
        count = m["count"]
        weeks = 1 if count is None or count.lower() in ("a", "an") else parse_number(count)
        if weeks is None:
            continue
        days = weeks * _DAYS_IN[m["unit"].lower().rstrip("s")]
        check = slot.check(days, ctx)
        if check.ok:
            out.append(Candidate(check.value, check.display, m.start(), m.end(), 0.8))
    return out
