"""Free-text values found in a sentence: 'from Seattle', 'around SD', 'at Hotel Iris', '"Fight Song"'.

A free-text slot takes any text, so its value is found by what points at it, never by what it
is: a preposition whose role fits the slot's own name or description ('from' for an origin,
'in' for a city), a quoted span, or, when the assistant just asked for this very slot, what the
answer says besides its lead-in ('Hotel Iris, please' -> 'Hotel Iris'). A question, a yes or
no, thanks, a goodbye or small talk is never a free-text value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set as AbstractSet
from dataclasses import dataclass

from ..domain.models import SlotSpec
from ..state.slots import Candidate
from ..state.text import KIN, KIN_KINDS, KIN_OWNER
from . import lexicon as lx

# A role a free-text slot can play, the words in a slot's name or description that give it
# that role (stemmed), and the words that point at a value in that role.
ROLE_WORDS: dict[str, frozenset[str]] = {
    "origin": frozenset(lx.stem(w) for w in "origin source from departure depart leaving start pickup".split()),
    "destination": frozenset(lx.stem(w) for w in "destination to arrival arrive dropoff going".split()),
    # a place known by its name, where one goes: 'at CineLux Almaden', 'at Frida's'
    "venue": frozenset(lx.stem(w) for w in "theater theatre cinema restaurant hotel salon bar cafe club stadium".split()),
    "place": frozenset(lx.stem(w) for w in "location city area place address where town region locality "
                                           "neighborhood neighbourhood venue street".split()),
    "name": frozenset(lx.stem(w) for w in "name title called named".split()),
    "maker": frozenset(lx.stem(w) for w in "artist author director singer band performer writer".split()),
    # what kind of thing: 'a ramen restaurant', 'any Adventure movies', 'Pasta kind of food'
    "kind": frozenset(lx.stem(w) for w in "genre cuisine category subcategory kind type style variety sort".split()),
    "recipient": frozenset(lx.stem(w) for w in "recipient payee beneficiary receiver".split()),
    # why someone comes, or what is wrong: 'she has a cough', 'because of a rash', 'the strap's worn through'
    "reason": frozenset(lx.stem(w) for w in "reason symptom symptoms complaint ailment fault problem issue concern".split()),
    "person": frozenset(lx.stem(w) for w in "patient guest passenger traveller traveler customer person contact "
                                            "driver attendee holder owner client member recipient child pupil student "
                                            "son daughter baby kid carer resident pet animal learner trainee participant "
                                            "visitor tenant borrower".split()),
}
ROLE_CUES: dict[str, tuple[str, ...]] = {
    "origin": ("from", "leaving", "departing", "out of", "starting at", "starting in", "pick me up at",
               "pick me up from", "pickup at", "pick up at", "pick up from"),
    "destination": ("to", "into", "towards", "heading to", "going to", "get to", "arriving in", "arriving at",
                    "drop me off at", "drop off at", "dropoff at"),
    "place": ("in", "at", "near", "around", "nearby", "close to", "within", "located in", "based in", "downtown"),
    "name": ("called", "named", "titled", "the name is", "name is", "name's", "call it", "name it", "title it",
             # ('I'd like to see Missing Link', 'please play Love Me Like You': a title, capitalised)
             "see", "watch", "hear", "listen to", "play", "read"),
    "maker": ("by", "directed by", "written by", "sung by", "performed by", "produced by", "composed by", "made by",
              "featuring", "starring", "works of"),
    "venue": ("at",),
    "kind": (),  # read by its own patterns (kind_values)
    "reason": ("because of", "because of a", "because of an", "because", "due to", "due to a", "has a", "have a",
               "has an", "have an", "has got a", "'s got a", "has had a", "have had a", "'s had a", "suffering from", "complaining of", "problem with",
               "trouble with", "pain in"),
    "recipient": ("to",),
    "person": ("for", "under", "i'm", "i am", "this is", "it's for", "its for", "it is for", "name is", "name's"),
}
# 'for my daughter Emma Lee', 'it's for my mum, Rosa Delgado': who the person is, before the name
# (and a pet: 'our rabbit Clover', 'my dog Max')
_PETS = r"dog|cat|puppy|pup|kitten|rabbit|bunny|hamster|guinea pig|parrot|budgie|bird|horse|pony|tortoise|ferret"
_KIN_SAID = rf"{KIN_OWNER}\s+(?:(?:{KIN_KINDS}|old|new)\s+)?(?:{KIN}|{_PETS})s?"  # 'my son', 'our little girl'
_KIN_LEAD = re.compile(rf"{_KIN_SAID}\s*,?\s+", re.IGNORECASE)
_KIN_ONLY = re.compile(_KIN_SAID, re.IGNORECASE)
# 'for tom becker', 'under maria lopez': two or three plain words closing the sentence, read as a
# person's name in lower case, unless a word of them names a time, a count or a thing ('for two',
# 'for friday night', 'for six people', 'for lunch tomorrow')
_LOWER_NAME = re.compile(r"(?P<name>[a-z]{2,}(?:\s+[a-z]{2,}){1,2})\s*[?.!]*\s*$")
_NOT_NAMES = frozenset("""
    now later soon sure real ever next last this that these those tomorrow today tonight tmrw morning afternoon evening
    night noon midnight lunch dinner breakfast brunch week weekend month year day days hour hours minute minutes
    people person persons guests adults kids children us them him her me everyone
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    one two three four five six seven eight nine ten eleven twelve
    test tests checkup check appointment appointments booking bookings visit visits please pls plz thanks thx
    his hers their theirs our ours your yours my mine its
""".split())


def _lower_name(text: str, at: int) -> tuple[int, int] | None:
    m = _LOWER_NAME.match(text, _skip_space(text, at))
    if m is None or any(w in _NOT_NAMES or w in lx.STOPWORDS for w in m["name"].split()):
        return None
    return m.span("name")
# cues that point at a person only when a name with a capital follows ('for Eva Roth', not 'for two')
_PERSON_ONLY = frozenset({"for", "under", "i'm", "i am", "this is", "it's for", "its for", "it is for", "to"})
# verbs that point at a title only when it is capitalised ('see Captain Marvel', not 'see a movie')
_TITLE_ONLY = frozenset({"see", "watch", "hear", "listen to", "play", "read"})
_CUE = re.compile(
    r"\b(?P<cue>" + "|".join(sorted({re.escape(c) for cues in ROLE_CUES.values() for c in cues},
                                    key=len, reverse=True)) + r")\s+",
    re.IGNORECASE,
)
# a quote opens after a space or the start and closes before one: the apostrophes of "that's" and
# "Akiko's" quote nothing
_QUOTED = re.compile(r"(?<![\w])[\"“”‘’']([^\"“”‘’']{2,80}?)[\"“”‘’'](?![\w])")
# inside a capitalised name: 'Bank of America', 'Barba & Co.', 'Seattle, WA'
# the small words inside a person's name ('Maria de la Cruz', 'Ludwig van Beethoven', 'Omar bin Said');
# the first of them also join capitalised words into one name
_PARTICLES = frozenset({"de", "la", "le", "del", "da", "di", "du", "van", "von"})
_NAME_PARTICLES = _PARTICLES | frozenset({"bin", "al", "el", "der", "den", "st"})
_JOINERS = _PARTICLES | frozenset({"of", "the", "and", "&", "'n", "n", "vs", "vs.", "v"})  # 'Blue Jays vs Royals'
_WORD = re.compile(r"[^\W_][\w'.&-]*|&|,")  # (letters of any alphabet: 'Tomasz Wiśniewski')
_STATE = re.compile(r"[A-Z]{2}\b")
_NOT_A_VALUE = frozenset({"there", "here", "it", "that", "this", "them", "they", "he", "she", "him", "her", "one", "home",
                          "me", "us", "you",
                          "somewhere", "anywhere", "everywhere", "which", "what", "where", "the", "a", "an",
                          "something", "anything", "nothing", "someone", "anyone",
                          "yes", "yeah", "yep", "yup", "no", "nope", "ok", "okay", "sure", "fine",
                          "least", "most", "all", "once", "first", "last", "whichever", "whatever", "either"})
_MAX_WORDS = 6
# the parser score of a free-text value read from its form alone, a name in lower case ('for tom becker')
# or a word before a thing ('a ramen restaurant'): any plain words could be one, so a typed value of
# another slot on the same words wins
YIELDING = 0.65


@dataclass(frozen=True)
class SlotRoles:
    """What a free-text slot is: its roles, and the words of its own name ('hotel' of hotel_name)."""

    roles: tuple[str, ...]
    name_words: frozenset[str]
    city: bool = False  # a town or city, not a spot in it


_CITY_WORDS = frozenset(lx.stem(w) for w in ("city", "town"))


_PICKED_UP = frozenset({lx.stem("pickup")})


def roles_of(spec: SlotSpec) -> SlotRoles:
    """The roles a slot's name gives it; its description only when the name gives none."""
    name = {lx.stem(w) for w in spec.name.split("_")}
    roles = [r for r, words in ROLE_WORDS.items() if name & words]
    if not roles:
        described = {lx.stem(w) for w in lx.tokens(spec.description) if w not in lx.STOPWORDS}
        # ('Name of the director of the movie': a maker; 'name' only when nothing else is said)
        roles = sorted((r for r, words in ROLE_WORDS.items() if described & words), key=lambda r: r == "name")[:1]
    if any(r in roles for r in ("origin", "destination")):
        roles = [r for r in roles if r != "place"]  # 'origin city': 'from' says it, 'in' does not
        if name & _PICKED_UP and "destination" not in roles:
            roles.append("place")  # ('a rental car to pick up in New York', 'rent a car in SFO': where one picks it up)
    generic = frozenset().union(*(w for r, w in ROLE_WORDS.items() if r != "venue")) | {"number", "type", "id"}
    city = bool(_CITY_WORDS & (name | {lx.stem(w) for w in lx.tokens(spec.description)}))
    return SlotRoles(tuple(roles), frozenset(name - generic - lx.STOPWORDS), city)


def cued_values(spec: SlotSpec, text: str, taken: Sequence[tuple[int, int]] = (), asked: bool = False,
                ) -> list[tuple[float, Candidate]]:
    """Values a role word points at ('from Seattle'), with how strongly (2 = its own cue)."""
    roles = roles_of(spec)
    out: list[tuple[float, Candidate]] = []
    for m in _QUOTED.finditer(text):
        if not _overlaps(m.start(1), m.end(1), taken):
            value = m.group(1).strip()
            out.append((1.0, Candidate(value, value, m.start(1), m.start(1) + len(value), 0.7)))
    for m in _CUE.finditer(text):
        if _inside_name(text, m):
            continue
        cue = m["cue"].lower()
        role = next((r for r in roles.roles if cue in ROLE_CUES[r]), None)
        if cue in _TITLE_ONLY and {"venue", "place", "person"} & set(roles.roles):
            continue  # (a theatre, a town or a patient is not what one sees or plays)
        person = role in ("person", "recipient") and cue in _PERSON_ONLY or role == "name" and cue in _TITLE_ONLY
        # a name in lower case ('from san jose') only where the cue cannot start a verb ('to fly')
        # ('directed by alfred hitchcock': a lower-case name where the cue says who made it, not bare 'by')
        lower_ok = role == "reason" or role == "maker" and cue != "by" or asked and cue != "to" and not person
        span = _span_after(text, m.end(), taken, lower_ok=lower_ok)
        lower = _lower_name(text, m.end()) if person and cue.endswith(("for", "under")) else None  # ('its for sarah khan')
        weight, parsed = 2.0, 0.7
        if lower is not None and (span is None or not text[span[0]:span[0] + 1].isupper()):
            span, weight, parsed = lower, 1.0, YIELDING  # 'whats booked for tom becker': a name to the end, in lower case
        elif span is None or person and not text[span[0]:span[0] + 1].isupper():
            continue
        if person and (in_capitals_only(text[span[0]:span[1]]) or any(c.isdigit() for c in text[span[0]:span[1]])):
            continue  # ('a fitting for his new AFOs', 'for an MRI', 'an MOT for CU57 DWE': a thing, no one's name)
        start, end = span
        if cue in _TITLE_ONLY and text[m.end():start] == "The ":
            start = m.end()  # 'watch The Man Who Knew Too Much': a title keeps its article
        value = text[start:end]
        words = {lx.stem(w) for w in lx.tokens(value)}
        score = weight if role else 0.0
        if role == "place" and cue == "at" and roles.city:
            score = 1.0  # 'at CineLux Almaden' names a venue more than the city it is in
        if roles.name_words and words & roles.name_words and words - roles.name_words:
            score += 2.5  # 'at Hotel Iris' for the hotel's name: the value says what it is (more than 'at' says a place)
        if score > 0:
            out.append((score, Candidate(value, value, start, end, parsed)))
    if {"place", "origin", "destination"} & set(roles.roles) and _ADDRESS_SLOT.search(f"{spec.name} {spec.description}"):
        for m in STREET_ADDRESS.finditer(text):  # '7 Willow Drive, Ponteland': a house, its street and its town
            if not _overlaps(m.start(), m.end(), taken):
                out.append((3.0, Candidate(m.group(), m.group(), m.start(), m.end(), 0.8)))
    if "kind" in roles.roles:
        out.extend((2.0, cand) for cand in kind_values(text, taken))
    if "person" in roles.roles:  # 'book my son Tom Becker in with ...': a relative, then the name
        for m in _KIN_LEAD.finditer(text):
            span = _span_after(text, m.end(), taken)
            if span is not None and text[span[0]:span[0] + 1].isupper():
                out.append((2.0, Candidate(text[span[0]:span[1]], text[span[0]:span[1]], span[0], span[1], 0.7)))
    for m in _own_noun(roles).finditer(text) if "name" in roles.roles and roles.name_words else ():
        span = _span_after(text, m.end(), taken)  # 'I like the restaurant Kampai Bar', 'the movie Hotel Mumbai'
        if span is not None and text[span[0]:span[0] + 1].isupper():
            out.append((2.0, Candidate(text[span[0]:span[1]], text[span[0]:span[1]], span[0], span[1], 0.7)))
    own = _own_cue(spec)
    for m in own.finditer(text) if own is not None else ():
        value = _NEXT_CLAUSE.split(m["value"], maxsplit=1)[0].strip()
        if _KIN_ONLY.fullmatch(value):
            continue  # ('the patient is my daughter, Emily Rose': who she is; her name follows)
        if value and not names_nothing(value) and not _overlaps(m.start("value"), m.end("value"), taken):
            out.append((2.5, Candidate(value, value, m.start("value"), m.start("value") + len(value), 0.7)))
    return out


# the things a kind is said of ('a ramen restaurant', 'Adventure movies'), and the words that
# point at a kind ('Pasta kind of food', 'a place that serves Lobster', 'fond of Baseball')
# (not 'place', 'spot': 'a quiet place', 'a parking spot' say where, not what kind)
_KIND_HEADS = ("food|foods|cuisine|dishes|dish|meal|restaurant|restaurants|movie|movies|film|films|"
               "flick|flicks|show|shows|event|events|game|games|match|concert|concerts|music|song|songs|tunes|tracks|album|"
               "albums|book|books|novel|novels")
_KIND_WORD = r"[A-Za-z0-9][\w&'-]*"
_KIND_BEFORE = re.compile(rf"(?P<value>{_KIND_WORD}(?:\s+{_KIND_WORD})?)(?=\s+(?:(?:kind|type|sort|style)s?\s+of\s+\w+|"
                          rf"(?:kind|type|sort|style|variety)\b|(?:{_KIND_HEADS})\b))", re.IGNORECASE)
# ('kind of' alone is a hedge: "I'm kind of hungry")
_KIND_AFTER = re.compile(rf"\b(?:serves?|serving|specializ\w* in|specialis\w* in|fond of|fan of|the likes of)"
                         rf"\s+(?P<value>{_KIND_WORD}(?:\s+{_KIND_WORD})?)", re.IGNORECASE)
# words before a thing that say how good, how dear or where it is, not what kind it is
_NOT_A_KIND = frozenset("""
    good great nice best top popular cheap fancy expensive moderate moderately pricey affordable inexpensive local nearby
    close decent online regular new other another different similar same any some more few favorite favourite fun
    interesting exciting live big small little quick late early fine kind type sort style lot lots bunch couple
    really very pretty quite most least nearest closest upcoming next first last cool awesome lovely amazing family
    dinner lunch breakfast brunch tonight tomorrow today weekend music food movie film event restaurant place show
    priced price rated star stars serves serve serving offers offer has have like costly dear reasonably reasonable
    cheaper cheapest closer closest nicer nicest better bigger biggest smaller smallest quieter newer older nearer
    fancier larger quiet short long loud cozy cosy busy large famous usual hotel
    second third fourth fifth others
    watch see find get want need love play hear listen book try enjoy catch stream
""".split())


# a street address: a house number, a street's name and its kind, and the town after a comma
STREET_ADDRESS = re.compile(r"(?:\b(?:Flat|Apartment|Apt|Unit|Suite)\s+\d{1,4}[a-zA-Z]?,?\s+(?:\d{1,4}[a-zA-Z]?\s+)?|\b\d{1,4}[a-zA-Z]?\s+"
                            # ('the Royal Mail depot on Canal Street': a place known by its name, and its street)
                            r"|\b(?:the\s+)?(?:[A-Z][\w'-]*\s+){1,3}(?:[a-z]+\s+)?(?:on|in|off)\s+)"
                            r"(?:[A-Z][\w'-]*\s+){1,3}(?:Road|Rd|Street|St|Avenue|Ave|Lane|Ln|Drive|Dr|"
                            r"Close|Way|Crescent|Court|Ct|Place|Pl|Gardens|Terrace|Grove|Hill|Row|Square|Walk|Mews|Park|View|"
                            r"Boulevard|Blvd)\b\.?(?:,?\s*(?:Apt|Apartment|Flat|Unit|Suite)\.?\s*\d+[A-Za-z]?)?"
                            r"(?:,\s*(?!(?:Apt|Apartment|Flat|Unit|Suite)\b)[A-Z][a-z][\w'-]*(?:\s+[A-Z][a-z][\w'-]*){0,2})?"
                            # (and its postcode: 'Hexham NE46 3QT', 'Leeds LS6 1AA', 'Boston 02118')
                            r"(?:,?\s+(?:[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|\d{5}(?:-\d{4})?)\b)?")
_ADDRESS_SLOT = re.compile(r"\b(?:address|street|home)\b|_address\b|\baddress_", re.IGNORECASE)


def kind_values(text: str, taken: Sequence[tuple[int, int]] = ()) -> list[Candidate]:
    """What kind of thing ``text`` asks for: the words just before 'restaurant', 'movies', 'kind of
    food' ('a ramen restaurant' -> 'ramen'), or after 'serves', 'fond of' ('fond of Baseball')."""
    out = []
    for pattern, from_end in ((_KIND_BEFORE, True), (_KIND_AFTER, False)):
        for m in pattern.finditer(text):
            words = list(re.finditer(_KIND_WORD, m["value"]))
            # keep the words nearest the thing ('a good Adventure movie' -> 'Adventure'), from the
            # first that says what kind ('3d Fantasy' -> 'Fantasy')
            kept: list[re.Match[str]] = []
            for w in reversed(words) if from_end else words:
                low = w.group().lower()
                if low in lx.STOPWORDS or low in _NOT_A_KIND or low[:1].isdigit() or _is_time_or_date_word(low) \
                        or names_nothing(low):  # (names_nothing holds the words never a value alone)
                    break
                kept.append(w)
            if not kept:
                continue
            if from_end:
                kept.reverse()
            start, end = m.start("value") + kept[0].start(), m.start("value") + kept[-1].end()
            if not _overlaps(start, end, taken) and all(c.start != start for c in out):
                out.append(Candidate(text[start:end], text[start:end], start, end, YIELDING))
    return out


# 'my name is Clara Brandt and I'd like a checkup': a new clause with its own subject ends a value
_NEXT_CLAUSE = re.compile(r"\s+(?:and|but|so|then)\s+(?=(?:i|i'd|i'm|i'll|id|im|we|we'd|we're|we'll|my|our|it|can|could|"
                          r"please|also|would|will)\b)", re.IGNORECASE)


_OWN_NOUNS: dict[frozenset[str], re.Pattern[str]] = {}


def _own_noun(roles: SlotRoles) -> re.Pattern[str]:
    """'the restaurant ', 'the movie ' (of restaurant_name, movie_name): the thing a name slot
    names, said with 'the' or 'a', just before the name."""
    pattern = _OWN_NOUNS.get(roles.name_words)
    if pattern is None:
        stems = "|".join(sorted(map(re.escape, roles.name_words), key=len, reverse=True))
        pattern = _OWN_NOUNS[roles.name_words] = re.compile(rf"\b(?:the|a|an)\s+(?:{stems})\w*\s+", re.IGNORECASE)
    return pattern


def _own_cue(spec: SlotSpec) -> re.Pattern[str] | None:
    """'reason: flu shot', ', reason annual physical', 'the reason is a cough', 'the patient is called
    Grace Kim': the slot's own name (or label) opening a clause, then its value up to the end of the clause."""
    label = str(spec.params.get("label") or "")
    names = {spec.name.replace("_", " "), label, *(w for w in spec.name.split("_") if len(w) > 3)}
    names = {n.strip().lower() for n in names if n.strip() and n.strip().lower() not in lx.STOPWORDS}
    if not names:
        return None
    said = "|".join(sorted((re.escape(n).replace(r"\ ", r"\s+") for n in names), key=len, reverse=True))
    return re.compile(
        r"(?:^|[,;.:!?]\s*|\band\s+)(?:the\s+|my\s+|(?:it'?s|its)\s+)?(?:" + said + r")(?:\s*(?:(?:is|was|'s)\s+(?:called|named)|called|named|is|was|would be|:|-|=))?\s+"
        r"(?P<value>[^,;.!?]{2,80})", re.IGNORECASE)


_PLACE_CUES = frozenset(c for role in ("origin", "destination", "place") for c in ROLE_CUES[role])


def place_spans(text: str, cues: AbstractSet[str] = _PLACE_CUES) -> list[tuple[int, int]]:
    """Where ``text`` names a place by a cue ('in half moon bay', 'from Seattle', 'at The Grill'):
    what is said there is no value for a slot that is not a place."""
    out = []
    for m in _CUE.finditer(text):
        cue = m["cue"].lower()
        if cue in cues and not _inside_name(text, m):
            span = _span_after(text, m.end(), (), lower_ok=cue != "to")  # 'to borrow Dune': 'to' opens a verb
            if span is not None:
                out.append(span)
    return out


def _inside_name(text: str, cue: re.Match[str]) -> bool:
    """'the Girl In Red', 'Sleeping With Sirens': a cue word written with a capital between two
    capitalised words of a title is part of the name, not a pointer to a place or a person."""
    if not cue["cue"][:1].isupper():
        return False
    before = list(_WORD.finditer(text, 0, cue.start()))
    after = _WORD.match(text, cue.end())
    return bool(before) and after is not None and _capitalised(before[-1].group()) and _capitalised(after.group()) \
        and not _ends_sentence(before[-1]) and not _opens_sentence(text, before[-1].start())


def _span_after(text: str, at: int, taken: Sequence[tuple[int, int]], lower_ok: bool = False) -> tuple[int, int] | None:
    """The name that starts at ``at``: a run of capitalised words (with 'of', '&', ', WA'),
    or up to three plain words when written in lower case ('from san jose')."""
    words = list(_WORD.finditer(text, at))
    if not words or words[0].start() != _skip_space(text, at):
        return None
    first = words[0].group()
    if (first.lower() in _NOT_A_VALUE or first.lower() in lx.STOPWORDS or first == ",") \
            and not _first_name(words[:2], text):  # 'for Will Turner'
        if first.lower() != "the" or len(words) < 2 or not words[1].group()[:1].isupper():
            return None
        words = words[1:]  # 'at The Grand': keep 'Grand', leave the article
    start = words[0].start()
    end = None
    capital = words[0].group()[:1].isupper() or words[0].group()[:1].isdigit()
    count = 0
    for i, w in enumerate(words):
        token = w.group()
        if _overlaps(w.start(), w.end(), taken) or count >= _MAX_WORDS:
            break
        if capital:
            if _capitalised(token):
                end, count = w.end(), count + 1
                if _ends_sentence(w):
                    break  # 'to LA. I need ...'
                continue
            nxt = words[i + 1].group() if i + 1 < len(words) else ""
            if token.lower() in _JOINERS and nxt[:1].isupper() and _capitalised(nxt):
                continue
            if token == "," and i + 1 < len(words) and _STATE.fullmatch(nxt.rstrip(".!?")):
                end = words[i + 1].end()  # 'Seattle, WA'
            elif token == "," and _region_follows(words, i):
                end = words[i + 1].end()  # 'Toronto, Ontario', 'Paris, France.'
            break
        bare = token.lower().rstrip(".!?")  # ('look in los gatos please.')
        if token == "," or bare in lx.STOPWORDS or bare in _NOT_A_VALUE or count >= 3:
            break
        end, count = w.end(), count + 1
        if _ends_sentence(w):
            break  # 'in atlanta. do they ...'
    if end is not None and not capital and not lower_ok:
        return None
    if end is None:
        return None
    value = text[start:end].rstrip(".,")
    if not value or value.lower() in _NOT_A_VALUE or _is_time_or_date_word(value):
        return None
    return start, start + len(value)


def _region_follows(words: list[re.Match[str]], comma: int) -> bool:
    """After 'Toronto,': one capitalised word that ends the name, not the next item of a list
    ('Paris, London and Rome', 'Paris, Rome, Oslo')."""
    if comma + 1 >= len(words):
        return False
    region_word = words[comma + 1]
    region = region_word.group()
    after = words[comma + 2].group() if comma + 2 < len(words) else ""
    # ('Paris, France. And ...': the next sentence's capital is no next item)
    return region[:1].isupper() and region.lower() not in lx.I_FORMS | lx.STOPWORDS \
        and not _is_time_or_date_word(region) and (_ends_sentence(region_word) or after.lower() not in (",", "and", "or", "&")
                                                   and not after[:1].isupper())


def _capitalised(token: str) -> bool:
    """A word written as a name could be: a capital or a digit first, and not 'I'."""
    return (token[:1].isupper() or token[:1].isdigit()) and token.lower() not in lx.I_FORMS


def _opens_sentence(text: str, at: int) -> bool:
    """Whether position ``at`` starts the text or a sentence in it."""
    before = text[:at].rstrip()
    return not before or before[-1] in ".!?"


# 'St. Louis', 'Dr. Strangelove', 'Edward J. Saub': the dot ends no sentence
# ('Dr.', 'St.', 'J.': a title, a street or an initial, no end of a sentence; 'Max.' ends one)
_ABBREVIATION = re.compile(r"(?:Dr|Mr|Mrs|Ms|Mx|St|Jr|Sr|Mt|Ft|Co|Ltd|Ave|Rd|No|Nr|Prof|Rev|Sgt|Capt|Gen|Col|Lt|[A-Z])\.")


def sentence_ends_between(text: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Whether a sentence ends between two words: a '?' or '!', or a dot that closes no
    abbreviation ('Yes.Tell me the cost', 'there. It should'; not 'Dr. Smith', 'St. Louis')."""
    gap = text[before.end():after.start()]
    if "?" in gap or "!" in gap:
        return True
    word = before.group()
    return "." in gap and not (_ABBREVIATION.fullmatch(word + ".") and word.lower() not in _SENTENCE_WORDS)


# words that end a sentence though written like an abbreviation ('No. I will be leaving ...')
_SENTENCE_WORDS = frozenset({"no", "yes", "yep", "yup", "ok", "hi", "hey", "yay", "bye", "it", "me", "us", "you",
                             "too", "now", "all", "one", "two", "six", "ten", "day", "way", "out"})


def _ends_sentence(word: re.Match[str]) -> bool:
    """Whether a sentence ends with this word: its own dot ('LA.'), or a '?' or '!' right after
    it ('a cab to Morimoto Napa? It is for 2')."""
    token = word.group()
    if token[-1:] in ".!?":
        return not _ABBREVIATION.fullmatch(token)
    return word.string[word.end():word.end() + 1] in ("?", "!") and word.end() < len(word.string)


_CALENDAR = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    r"september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|"
    r"tomorrow|tonight|noon|midnight|morning|afternoon|evening|night|next|this|\d+(?:st|nd|rd|th|am|pm)?)\b",
    re.IGNORECASE,
)


def _is_time_or_date_word(value: str) -> bool:
    return bool(_CALENDAR.match(value))


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _overlaps(start: int, end: int, taken: Sequence[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in taken)


_SHORT_ANSWER = re.compile(
    r"\s*(?:(?:ok|okay|sure|yes|yeah|um+|uh|well|hmm+|how about|what about|let'?s (?:say|do|try)|maybe|perhaps|"
    r"actually|i think|i'?m thinking|i guess|probably|"
    # 'I'm in the mood for some Chinese', 'I'm craving a burger', 'I'd like to go to Mcdonald's'
    r"(?:i'?m |i am )?(?:really )?in the mood for|i'?m craving|i crave|i feel like|i fancy|i'?d love|i'?d prefer|"
    r"i prefer|(?:i'?d like|i want|i need)(?: to (?:go|get|be taken|listen|watch|see|visit)(?: to)?)?|"
    r"i'?m going to|take me to|(?:it'?s |it is |the \w+ is )?called|"
    # ('My tenancy reference is TN-40217', 'our address is 5 Mill Lane')
    r"(?:my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}(?:reference|ref|number|id|code|postcode|address|name|email)(?:\s+is|'s)|"
    r"i'?ll take|i'?ll go with|go with|try|some|a good|(?-i:an?(?= [a-z])))[\s,]+)*"
    r"(?P<value>[^\s,.!?][^,.!?]*?)[\s,]*(?:,?\s*(?:please|thanks|thank you|then)[\s.!]*)?[\s.!]*",
    re.IGNORECASE,
)


def bare_answer(answer: Candidate | None, text: str, whole: bool,
                taken: Sequence[tuple[int, int]] = ()) -> Candidate | None:
    """What an answer to 'which hotel?' says besides its lead-in, when it names something: short
    ('Captain Marvel.', 'san jose please'), or a name written with capitals ('Pillow Talk sounds
    nice' -> 'Pillow Talk', 'I plan to visit Los Angeles' -> 'Los Angeles'); a long sentence
    without one is a request or a remark, not the value; nothing said where ``taken`` (other
    values, places) is kept."""
    if answer is None or whole:
        return answer
    short = _SHORT_ANSWER.fullmatch(text)
    if short and len(lx.tokens(short["value"])) <= _MAX_WORDS:  # 'The Hobbit', 'Captain Marvel, please'
        start, end = _trimmed(text, short.start("value"), short.end("value"))
        if _overlaps(start, end, taken):
            return answer if not _overlaps(answer.start, answer.end, taken) and not names_nothing(answer.value) \
                else None
        named = name_run(text, start, end)
        # 'I plan to visit Los Angeles'; not 'Rite Aid on Elm Street', nor the dose of 'sertraline 50mg'
        if named is not None and named.start > start and named.value[:1].isupper():
            return Candidate(named.value, named.display, named.start, named.end, answer.score)
        value = text[start:end]
        if names_nothing(value) or _no_name(value):
            return None
        return Candidate(value, value, start, end, answer.score)
    words = lx.tokens(answer.value)
    if names_nothing(answer.value) or _no_name(answer.value):
        return None  # 'Anywhere in San Francisco would be fine': 'anywhere' names nothing
    if len(words) <= _MAX_WORDS and (has_name(text, answer.start, answer.end) or len(lx.tokens(text)) <= 4) \
            or _WRITTEN_AS_NAMES.fullmatch(answer.value):
        return answer  # '42 Harbour Road, Apt 3', 'Flat 3, 22 Oak Road, Leeds LS6 1AA'
    named = name_run(text, answer.start, answer.end)  # 'sorry. I changed my mind. Please play Ramen Shop instead'
    if named is not None:
        return Candidate(named.value, named.display, named.start, named.end, answer.score)
    return None


# words each written as a name is, or numbers, in parts set off by commas ('Flat 3, 22 Oak Road, Leeds LS6 1AA')
_WRITTEN_AS_NAMES = re.compile(r"\s*(?:(?:[A-Z0-9][\w'&.-]*)(?:\s*,\s*|\s+|$))+")


# what an answer says instead of naming something: a request to the assistant ('give me the phone
# number', 'tell me the price first'), a count of things ('3 tickets'), a thing pointed at ('that plane')
_ORDERS = re.compile(r"^\s*(?:(?:please|pls|ok|okay|now|and|also|so|then|just|can you|could you)\s+)*"
                     r"(?:" + lx.ORDER_VERBS + r")\b(?:\s+(?:me|us|it|off|up|the|a|an|my|our))*\b", re.IGNORECASE)
_COUNTED = re.compile(r"^\s*(?i:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few)\s+[a-z]+s\s*$")
# ('Five Guys', 'Three Kings' are names: the thing counted is written in lower case)
_POINTED = re.compile(r"^\s*(?:that|this|those|these)(?:\s+[a-z]+)?\s*$", re.IGNORECASE)


def _no_name(value: str) -> bool:
    """Whether an answer only asks, counts or points ('tell me the price', '3 tickets', 'that one'),
    unless a name written with capitals follows its request ('find Ramen Shop')."""
    order = _ORDERS.match(value)
    if order is not None:
        return name_run(value, order.end()) is None
    return bool(_COUNTED.match(value) or _POINTED.match(value))


# what follows a value to judge it ('Pillow Talk sounds nice', 'seafood would be great') and what
# leads into it ('at Anaheim Intermodal Center'): not part of the value
_JUDGED = re.compile(r"\s+(?:sounds?|would|will|is|seems?|works?|looks?|should|could|suits?)\b.*$", re.IGNORECASE)
_LED = re.compile(r"^(?:at|in|to|from|on|for|around|near)\s+", re.IGNORECASE)
# words that open a reply without naming anything ('Great Book it', 'Perfect, Pillow Talk')
_NOT_A_NAME = frozenset({
    *_NOT_A_VALUE, "great", "perfect", "good", "fine", "sure", "yes", "yeah", "yep", "yup", "ok", "okay",
    "thanks", "thank", "please", "hi", "hello", "hey", "sounds", "no", "nope", "awesome", "cool", "nice",
    "excellent", "alright", "sorry", "actually", "oh", "well", "book", "find", "get", "play", "reserve", "search",
    "maybe", "perhaps", "probably", "possibly", "definitely", "certainly", "ideally", "preferably", "wow", "hmm",
})


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    value = text[start:end]
    judged = _JUDGED.search(value)
    if judged is not None and judged.start() > 0:
        end = start + judged.start()
    led = _LED.match(text[start:end])
    if led is not None and led.end() < end - start:
        start += led.end()
    return start, end


_POSSESSIVE = re.compile(r"(?:'s|’s|s')$")
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b")


def without_possessive(cand: Candidate, text: str) -> Candidate:
    """'Tom Becker's appointments' -> 'Tom Becker': a name that owns the next word; 'at Frida's in
    Napa' keeps its 's, which is part of the name."""
    value = str(cand.value)
    owner = _POSSESSIVE.search(value)
    after = _NEXT_WORD.match(text, cand.end)
    if owner is None or after is None or after.group(1) in lx.STOPWORDS or cand.end - cand.start != len(value):
        return cand
    kept = value[: owner.start()] + ("s" if owner.group() == "s'" else "")
    return Candidate(kept, kept, cand.start, cand.start + len(kept), cand.score)


def name_run(text: str, start: int = 0, end: int | None = None) -> Candidate | None:
    """The longest name written with capitals in ``text[start:end]`` ('Ramen Shop' in 'Please play
    Ramen Shop instead'); a single capital that only opens a sentence, 'I', a date and the words
    that open a reply ('Great', 'Please') are not names."""
    stop = len(text) if end is None else end
    runs: list[list[re.Match[str]]] = []
    run: list[re.Match[str]] = []
    words = list(_WORD.finditer(text, start, stop))
    for i, m in enumerate(words):
        token = m.group()
        if _capitalised(token):
            run.append(m)
            if _ends_sentence(m):
                runs.append(run)
                run = []
            continue
        if run and token.lower() in _JOINERS:
            # 'The Lord of the Rings', 'Bank of America': joiners between capitals belong to the name
            after = next((w.group() for w in words[i + 1:] if w.group().lower() not in _JOINERS), "")
            if after[:1].isupper() and _capitalised(after):
                run.append(m)
                continue
        if run:
            runs.append(run)
        run = []
    if run:
        runs.append(run)
    best: tuple[int, int, int] | None = None  # (words, start, end)
    for found in runs:
        while found and found[0].group().lower().rstrip(".!?") in (_NOT_A_NAME | lx.STOPWORDS) - {"the"} \
                and not _first_name(found, text):
            found = found[1:]
        while found and (found[-1].group().lower().rstrip(".!?") in _NOT_A_NAME | lx.STOPWORDS
                         or found[-1].group().lower() in _JOINERS):
            found = found[:-1]
        if not found:
            continue
        named = [m for m in found if m.group().lower() not in _JOINERS]
        if _opens_sentence(text, found[0].start()) and len(named) < 2 and not found[0].group()[:1].isdigit():
            continue  # 'Perfect.', 'Phoenix' alone: a capital that opens a sentence says nothing
        a, b = found[0].start(), found[-1].end()
        value = text[a:b].rstrip(".,!?")
        if _is_time_or_date_word(value) or value.isdigit():
            continue
        if best is None or len(named) > best[0]:
            best = (len(named), a, a + len(value))
    if best is None:
        return None
    value = text[best[1]:best[2]]
    return Candidate(value, value, best[1], best[2], 0.5)


_FIRST_NAMES = frozenset({"will", "may", "hope", "grace", "joy", "bill", "pat", "mark", "june", "april", "rose"})


def _first_name(run: list[re.Match[str]], text: str) -> bool:
    """'for Will Turner', 'Grace Lee': a word that is also a first name opens a name of two or more
    capitals ('Will You Book It' does not: a pronoun follows)."""
    return len(run) >= 2 and run[0].group().lower() in _FIRST_NAMES and _capitalised(run[0].group()) \
        and _capitalised(run[1].group()) and run[1].group().lower() not in ("you", "we", "they", "i", "he", "she", "it", "u")


_ACRONYM = re.compile(r"[A-Z]{2,}s?")


def in_capitals_only(value: str) -> bool:
    """'AFOs', 'MRI', 'INR': a thing written in capitals, which is no one's name (a short word, or one
    with a plural s; 'JOHN SMITH', 'MARY' typed in capitals are names)."""
    words = [w.strip(".,!?") for w in value.split()]
    return len(words) == 1 and bool(_ACRONYM.fullmatch(words[0])) and (len(words[0]) <= 3 or words[0].endswith("s"))


def could_be_a_name(value: str) -> bool:
    """Whether ``value`` could be a person's name: a word with a capital, or up to four plain words
    none of which is a function word ('tom becker', not 'sorry, bit of a hectic morning here')."""
    words = lx.tokens(value)
    if any(w[:1].isupper() for w in value.split()):
        return True
    return 0 < len(words) <= 4 and not any(w in lx.STOPWORDS and w not in _NAME_PARTICLES for w in words)


def names_nothing(value: str) -> bool:
    """'yes', 'it', 'anywhere', 'something': a word that is never a value on its own; and what is
    left of a turn once its values are read when it only agrees, wants or thinks ('thinking' of
    "i'm thinking next tuesday", 'leave' of 'I need to leave this Saturday')."""
    words = lx.tokens(value)
    return not words or len(words) == 1 and words[0] in _NOT_A_VALUE or not lx.names_something(value)


def has_name(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds a word written as a name: a capital or a digit that does
    not merely open a sentence ('Anywhere with seafood', '... movies. What else') and is not 'I'."""
    for m in _WORD.finditer(text, start, len(text) if end is None else end):
        word = m.group()
        if _capitalised(word) and (word[:1].isdigit() or not _opens_sentence(text, m.start())):
            return True
    return False


# laughter first, or taking back what was said before ('oops, I meant ...'): the turn is about the talk
_ABOUT_THE_TALK = re.compile(
    r"\s*(?:(?:lol|haha+|hehe+|hah|ugh|meh|yay|wow)\b|(?:(?:oops|sorry|my bad|whoops|no)[\s,.!]+)*i (?:meant|mean)\b)", re.IGNORECASE)


_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=\S)")


def only_acts(sentence: str) -> bool:
    """A yes, no, thanks, goodbye or small talk, and nothing else ('Oh, right.', "No, I don't.")."""
    return bool(lx.AFFIRM.match(sentence) or lx.DENY.match(sentence) or lx.SMALL_TALK.match(sentence)
                or lx.NO_PREFERENCE.match(sentence) or lx.is_closing(sentence))


def not_a_value(text: str, remark_ok: bool = False) -> bool:
    """A question, yes/no, thanks, goodbye or small talk: never the answer a free-text slot keeps
    (``remark_ok``: a remark about oneself is the answer, as to 'what's the reason for the visit?')."""
    stripped = text.strip()
    if not stripped:
        return True
    sentences = _SENTENCES.split(stripped)
    if len(sentences) > 1 and all(lx.is_question(one) or only_acts(one) for one in sentences):
        return True  # "No, I don't. Thanks, but that would be all.": each sentence a no, thanks or goodbye
    if lx.is_question(stripped):
        return True
    if lx.AFFIRM.match(stripped) or lx.DENY.match(stripped) or lx.SMALL_TALK.match(stripped) \
            or lx.NO_PREFERENCE.match(stripped):
        return True  # 'any doctor is fine' says any value would do; it is none
    if lx.is_closing(stripped) or lx.REMARK.match(stripped) and not remark_ok:
        return True
    if _ABOUT_THE_TALK.match(stripped):
        return True  # 'oops sorry, I meant at 10:30', 'haha I can't wait': about the talk, not a value
    rest = lx.ACT_PHRASES.sub(" ", stripped)
    # ('it's not getting better', 'fitness to fly': a story names what it tells, in any words)
    return not remark_ok and not lx.names_something(rest)
