"""Option values said in other words: a yes/no option by the slot's own words ('a shared ride'
-> True), a count option by its unit ('for two people', 'a group of 12', 'three tickets').

These complement the slot types' own parsers (which match an option said as written): they
read what only the slot's name and description can tell, so they live with understanding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..domain.models import SlotSpec
from ..state.slot_choice import NOT_YET
from ..state.slots import Candidate
from ..state.text import parse_number, people_listed
from . import lexicon as lx

# words in a yes/no slot's name that say nothing about what it is ('is_unisex', 'has_live_music')
_FLAG_FILLER = frozenset(lx.stem(w) for w in (
    "is are has have allow allowed allows available serve serves offer offers include includes need needs "
    "require requires with whether can do does it the option flag enabled want wants".split()))
# how people count people: the unit words of a group size
PEOPLE = frozenset({"people", "ppl", "person", "persons", "guests", "guest", "adults", "adult", "passengers",
                    "passenger", "travelers", "travellers", "riders", "rider", "pax", "individuals", "of us"})
PEOPLE_STEMS = frozenset(lx.stem(w) for w in PEOPLE)
_GROUP_SLOT = frozenset(lx.stem(w) for w in (
    "party size people person passengers passenger adults guests riders travelers group seats".split()))
COUNT_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
               "sixteen|seventeen|eighteen|nineteen|twenty")
_COUNT = r"\d{{1,4}}|" + COUNT_WORDS + r"|a couple of|a couple|couple of|a pair of"
_NUMBER = r"(?P<{}>" + _COUNT + r")"  # a format string: the group's name goes in the braces
_GROUP = re.compile(
    r"\b(?:(?:a |our |my )?(?:group|party|family|team) of\s+" + _NUMBER.format("n1")
    + r"|(?:we are|we're)\s+" + _NUMBER.format("n2")
    # ('there are 4 of us'; not 'an aisle seat if there's one')
    + r"|(?:there are|there's|there will be|that'?s|that makes|that will be|which makes)\s+" + _NUMBER.format("n5")
    + r"(?=\s+(?:of us|of them|people|persons|adults|guests|travell?ers|passengers)\b)"  # ('so that's two of them')
    # (not 'one of us has a dodgy knee': one of the party, said of)
    + r"|(?:(?P<n3>" + _COUNT.format() + r"|a|an|one)\s+(?:of us(?!\s+(?:has|is|was|needs|uses|can'?t|cannot|gets|'s)\b)"
    + r"|(?:(?:more|extra|additional|further)\s+)?(?P<unit>[a-z]+)))"  # ('2 more days', '3 additional people')
    + r"|for\s+" + _NUMBER.format("n4") + r"(?!\s*(?:am|pm|a\.m|p\.m|o'clock|:|\d|(?:days?|nights?|hours?|weeks?|months?|years?|minutes?|dollars?"
    + r"|bucks|usd|euros?|percent|stars?|miles?|km|kilometers?)\b))"
    + r")\b|\b(?P<alone>just me|only me|(?:(?<=for )|(?<=just )|(?<=only )|(?<=by )|^\s*)myself|solo|(?:i'?m|i am|i'?ll be|i will be)\s+(?:\w+\s+)?alone)\b"
    # ('could you book us both on a flight', 'the pair of us')
    + r"|\b(?P<both>us both|both of us|the two of us|us two|the pair of us|the both of us)\b",
    re.IGNORECASE,
)
_WORD_COUNTS = {"a": 1, "an": 1, "by myself": 1, "just me": 1, "only me": 1, "myself": 1, "alone": 1, "solo": 1,
                "a couple of": 2, "a couple": 2, "couple of": 2, "a pair of": 2}


def is_flag(options: Sequence[object]) -> bool:
    """Options 'True'/'False': whether the thing the slot names is wanted (a 'yes'/'no' slot is
    the answer to a question instead, read by its own parser)."""
    return sorted(str(o).lower() for o in options) == ["false", "true"]


def is_yes_no(options: Sequence[object]) -> bool:
    """Options 'yes'/'no': the answer to the slot's question."""
    return sorted(str(o).lower() for o in options) == ["no", "yes"]


def flag_words(spec: SlotSpec) -> frozenset[str]:
    """What a yes/no slot is about, from its name: 'shared_ride' -> {share, ride}."""
    return frozenset(lx.stem(w) for w in spec.name.split("_")) - _FLAG_FILLER - lx.STOPWORDS


def flag_value(spec: SlotSpec, options: Sequence[object], text: str) -> Candidate | None:
    """'I'd like a shared ride' -> True; 'not furnished' -> False; nothing said of it -> None (or
    'yes' / 'no' for a yes/no slot: 'she uses a wheelchair' -> 'yes')."""
    words = flag_words(spec)
    if not words:
        return None
    found = [(m.start(), m.end()) for m in lx.TOKEN.finditer(text) if lx.stem(m.group().lower()) in words]
    if {lx.stem(text[a:b].lower()) for a, b in found} != set(words):
        return None
    start, end = min(a for a, _ in found), max(b for _, b in found)
    if end - start > 40 or NOT_YET.search(text[:start]):  # said together, not across the sentence; not 'before I confirm'
        return None
    # the clause the words are in ('no but she uses a wheelchair': the 'no' is of another clause)
    before = re.split(r"[.,;:!?]|\bbut\b|\band\b", text[max(0, start - 25):start].lower())[-1]
    before = _INDIFFERENT.sub(" ", before)  # ('i don't care if it's a shared ride' negates nothing)
    after = text[end:end + 20].lower()
    negative = bool(_NEGATED_BEFORE.search(before)) or after.startswith(("-free", " free")) or bool(_NEGATED_AFTER.match(after))
    if _SAID_AFTER.match(after):  # 'wheelchair: yes', 'wheelchair no'
        negative = _SAID_AFTER.match(after)[1] in ("no", "nope", "not")
    by_case = {str(o).lower(): o for o in options}
    value = by_case.get("false", by_case.get("no")) if negative else by_case.get("true", by_case.get("yes"))
    return Candidate(value, str(value), start, end, 0.8)


_NEGATED_BEFORE = re.compile(r"\b(?:not|no|non|without|never|nobody|neither|nor|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|"
                             r"won'?t|wont|hasn'?t|haven'?t|can'?t|cant|cannot|used to)\b[\w\s'-]*$")
_NEGATED_AFTER = re.compile(r"^\s*(?:is |are |will be |won'?t be )?(?:not|no longer|isn'?t|aren'?t|won'?t)\b")
_INDIFFERENT = re.compile(r"\b(?:don'?t|do not|doesn'?t|does not) (?:care|mind)\b|\bdoesn'?t matter\b")
_SAID_AFTER = re.compile(r"^\s*[:=-]?\s*(yes|yeah|yep|no|nope|not)\b")


def is_count(options: Sequence[object]) -> bool:
    """Options that are all whole numbers ('1', '2', '3')."""
    return bool(options) and all(str(o).strip().isdigit() for o in options)


def count_units(spec: SlotSpec) -> frozenset[str]:
    """The words that count for this slot: its own nouns ('tickets', 'rooms'), the things its
    description counts ('Number of seats to find event tickets for': tickets) and, for a group
    size ('party_size', 'number_of_riders'), the words for people."""
    words = {lx.stem(w) for w in [*spec.name.split("_"), *lx.tokens(spec.description)]}
    own = {w for w in (lx.stem(t) for t in spec.name.split("_")) if w not in ("number", "of", "num", "count", "total")}
    counted = {lx.stem(t) for t in lx.tokens(spec.description) if len(t) > 3 and t.endswith("s") and not t.endswith("ss")
               and t not in lx.STOPWORDS}  # (plural nouns: what the description counts)
    units = own | counted
    if words & _GROUP_SLOT:
        units |= PEOPLE_STEMS
    return frozenset(units.union(*(_SAME_UNIT.get(u, ()) for u in units)))


# words that count the same things ('my 2 kids' for 'Number of children', '3 spots' for places)
_SAME_UNIT = {lx.stem(w): frozenset(lx.stem(o) for o in group.split() if o != w)
              for group in ("children child kids kid", "places place spots spot spaces space tickets ticket tix seats seat",
                            "bikes bike bicycles bicycle cycles cycle")
              for w in group.split()}


def counts_things(spec: SlotSpec) -> bool:
    """A whole number that counts people or things ('Number of children to book in', 'people
    travelling'): its slot says 'number of' or counts people, and takes whole numbers."""
    said = lx.tokens(f"{spec.name.replace('_', ' ')} {spec.params.get('label', '')} {spec.description}")
    return bool(spec.params.get("integer")) and ("number" in said or bool(count_units(spec) & PEOPLE_STEMS))


def counts_unit(unit: str, units: frozenset[str]) -> bool:
    """Whether the word ``unit`` said after a number counts for a slot of ``units``: one of them,
    or a word made of one ('1 bedroom' for 'Number of bed rooms')."""
    stem = lx.stem(unit)
    return stem in units or any(len(u) >= 3 and len(stem) > len(u) and (stem.startswith(u) or stem.endswith(u))
                                for u in units - PEOPLE_STEMS)


def count_value(spec: SlotSpec, options: Sequence[object], text: str, asked: bool, named: bool = False) -> Candidate | None:
    """'for two people', 'a group of 12', 'three tickets'; a bare number only when it was asked, or
    the one number of a turn that names the slot ('the number of passengers, it should be 3 now')."""
    allowed = {int(str(o)) for o in options} if options else None
    units = count_units(spec)
    parties = people_listed(text) if units & PEOPLE_STEMS else []
    # ('a place on the online course for 2 people': a number said outright before 'a' or 'one')
    own = {lx.stem(w) for w in spec.name.split("_")} - {"number", "num", "of", "count", "total"}
    for m in sorted(_GROUP.finditer(text), key=lambda m: (m["n3"] or "").lower() in ("a", "an", "one")):
        # '2 adults and 3 children': a part of a list of people, counted with it below (but the part of the slot's own
        # kind, for a slot that counts one kind: 'adults' takes the 2)
        if any(p.start <= m.start() < p.end for p in parties) and lx.stem(m["unit"] or "") not in own:
            continue
        unit = (m["unit"] or "").lower()
        said = (m["n1"] or m["n2"] or m["n3"] or m["n4"] or m["n5"] or m["alone"] or m["both"] and "2" or "").lower()
        if m["unit"] is not None and not counts_unit(unit, units):
            continue
        if m["unit"] is None and not (units & PEOPLE_STEMS):
            continue
        n = 1 if m["alone"] else _WORD_COUNTS.get(said)
        if n is None:
            n = parse_number(said)
        if n is None or (allowed is not None and int(n) not in allowed):
            continue
        return Candidate(str(int(n)), str(int(n)), m.start(), m.end(), 0.85)
    for party in parties:  # 'for me, my wife and our two kids' (a total said outright goes first)
        if allowed is None or party.value in allowed:
            return Candidate(str(party.value), str(party.value), party.start, party.end, 0.85)
    if asked:
        bare = re.fullmatch(r"\s*(?:just |only )?" + _NUMBER.format("n") + r"(?:\s+please)?[.!]?\s*", text, re.IGNORECASE)
        if bare:
            n = _WORD_COUNTS.get(bare["n"].lower()) or parse_number(bare["n"])
            if n is not None and (allowed is None or int(n) in allowed):
                return Candidate(str(int(n)), str(int(n)), bare.start("n"), bare.end("n"), 0.7)
    # 'Buy 3, please' to 'how many seats?': the one number of an answer that says no time or day,
    # and counts nothing else ('I'll also need a hotel. Two rooms.')
    if named or asked and not _CLOCK_OR_DAY.search(text):
        numbers = list(_ONE_NUMBER.finditer(text))
        n = parse_number(numbers[0]["n"]) if len(numbers) == 1 else None
        after = re.match(r"\s+([a-z]+)", text[numbers[0].end():], re.IGNORECASE) if numbers else None
        other = after is not None and after[1].lower() not in lx.STOPWORDS and not counts_unit(after[1], units)
        if isinstance(n, int) and (allowed is None or n in allowed) and not (other and not named):
            return Candidate(str(n), str(n), numbers[0].start("n"), numbers[0].end("n"), 0.7)
    return None


_CLOCK_OR_DAY = re.compile(r"\d\s*(?:am|pm|a\.m|p\.m|o'?clock|:\d)|\b(?:at|on|the)\s+\d|\d(?:st|nd|rd|th)\b|"
                           r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
_ONE_NUMBER = re.compile(r"(?<![\w:/.-])(?P<n>\d{1,3}|" + COUNT_WORDS + r")(?![\w:/-])", re.IGNORECASE)
