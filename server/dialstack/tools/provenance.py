"""Where an argument's value came from: digests of values seen in untrusted output or typed by the user.

Pure functions; the store keeps the digests per session (``store.guard``), never the text.

- An **untrusted output** (a tool tagged ``receives_untrusted_input``, its result or its
  error text) is recorded as: every string leaf whole, every token (a run of
  non-space characters, stripped of surrounding punctuation, and its parts glued by
  quotes, brackets or a sentence's full stop), and every run of 2-8 words, so that an
  address or a name inside a longer text is found again. Whole values of a field
  (:data:`UNTRUSTED`) and what sat *inside* a text (:data:`INSIDE`)
  are recorded apart (:func:`untrusted_digests`): a whole field copied is data, a value
  named inside a text may be an instruction's; both are untrusted. Past
  :data:`MAX_DIGESTS` digests in one output, runs are no longer recorded, tokens still are.
  Fields the tool's ``output_schema`` marks ``x-dialstack-origin: system`` (ids, timestamps
  the system assigns, which no outsider chooses) are left out.
- **Private output** (a tool tagged ``accesses_private_data`` and not
  ``receives_untrusted_input``: a profile, a balance, a booking) is recorded the same way.
- **User-typed** text (the user's turns) is recorded the same way.
- **Named records** (:func:`named_values`): the short values of an output record one of
  whose fields the user typed, singling it out (the event titled 'Introductory meeting').
- An **argument value** is untrusted-derived when its whole value, or one of its
  identifier-like tokens (an address, a URL, an account number: tokens holding a digit,
  ``@``, ``/`` or an inner ``.``; a URL also without its query and trailing path), was
  recorded from untrusted output, and the value is neither typed by the user nor a value
  of a named record; a ``content`` argument copying a whole untrusted field never seen
  inside a text is not (:func:`untrusted_arguments`). Lists and objects count when any
  element does.

Values are compared after Unicode NFKC normalisation and case folding, so a homoglyph of
full-width letters or another case does not hide the origin, and word by word with the
punctuation around each word stripped (:func:`normalize`).
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final, NamedTuple

from ..store.guard import Origin

ORIGIN_KEY = "x-dialstack-origin"
UNTRUSTED: Final = "untrusted"
USER: Final = "user"
PRIVATE: Final = "private"  # from the output of a tool that reads private data and nothing from outside
INSIDE: Final = "untrusted_text"  # seen inside a longer untrusted text (see untrusted_digests)
NAMED: Final = "named"  # a whole value of an output record the user named (see named_values)
MAX_WORDS = 4  # a name of a record is at most this many words
FIELD_WORDS = 8  # a field's value up to this many words is a value (a name, an address), longer is a text
MAX_DIGESTS = 20_000  # per recorded output: past it, only whole strings and tokens (no runs of words) are recorded
_TOKEN = re.compile(r"\S+")
_EDGE = ".,;:!?\"'`()[]{}<>*"
_IDENTIFIER = re.compile(r"[0-9@/]|\w\.\w")
# inside one whitespace token: characters no address, URL or id contains, and a full stop that ends a sentence
# glued to the next one ("'a@b.com'.The" holds the address a@b.com)
_GLUE = re.compile(r"[\"'`()\[\]{}<>,;|]+|(?<=[a-z0-9])\.(?=[A-Z])")


@functools.lru_cache(maxsize=1 << 14)  # pure; tool outputs repeat the same values turn after turn
def normalize(text: str) -> str:
    """NFKC, case folded, each word stripped of surrounding punctuation, words joined by one space: a value
    compares equal to the same words inside a longer text ("23 Rue Lepic, 75018 Paris" in a review)."""
    words = (w.strip(_EDGE) for w in unicodedata.normalize("NFKC", text).casefold().split())
    return " ".join(w for w in words if w)


@functools.lru_cache(maxsize=1 << 14)
def digest(text: str) -> str:
    return _digest_normal(normalize(text))


def _digest_normal(text: str) -> str:
    """``digest(text)`` of a text that is already normal (``normalize(text) == text``)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _strings(value: Any, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float)):
        yield str(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, skip)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item, skip)


def _pieces(token: str) -> list[str]:
    """The parts of one whitespace token that could be an address or an id on their own (empty if it is one)."""
    parts = [p for p in _GLUE.split(token) if normalize(p)]
    return parts if len(parts) > 1 else []


def _url_prefixes(value: str) -> list[str]:
    """A URL without its query or fragment, then without each trailing path segment, down to its host.

    ``https://evil.example/collect?d=HGK137803`` -> ``https://evil.example/collect``, ``https://evil.example``:
    where a value goes, whatever private data was appended to it.
    """
    word = normalize(value)
    if not re.match(r"^([a-z][a-z0-9+.-]*://)?[^\s/@?#]+\.[a-z]{2,}([/?#]|$)", word):
        return []
    base = re.split(r"[?#]", word, maxsplit=1)[0].rstrip("/")
    host_end = base.find("/", base.find("://") + 3 if "://" in base else 0)
    found = [base] if base != word else []
    while host_end != -1 and "/" in base[host_end:]:
        base = base.rsplit("/", 1)[0]
        found.append(base)
    return found


@functools.lru_cache(maxsize=1 << 14)  # pure; an output's texts repeat call after call (cities, a booking's fields)
def _parts(text: str, longest: int) -> tuple[str | None, frozenset[str]]:
    """``(the digest of text whole, the digests of what sits inside it)``: its tokens, the parts of a token glued
    to punctuation, and its runs of 2 to ``longest`` words, other than the whole itself."""
    normal = normalize(text)
    whole = _digest_normal(normal) if normal else None
    tokens = _TOKEN.findall(text)
    words = [w for w in (normalize(t) for t in tokens) if w]
    inner = {digest(piece) for token in tokens for piece in _pieces(token)}
    # normal ASCII words joined by spaces are normal already (NFKC and case folding change nothing,
    # no word holds a space or edge punctuation): hash them as they are; other words normalize again
    run_digest = _digest_normal if all(w.isascii() for w in words) else digest
    for start in range(len(words)):
        for size in range(1, longest + 1):
            if start + size > len(words):
                break
            inner.add(run_digest(" ".join(words[start:start + size])))
    if whole:
        inner.discard(whole)
    return whole, frozenset(inner)


def text_digests(values: Iterable[Any], system: frozenset[str] = frozenset()) -> set[str]:
    """Digests of everything a reader could copy out of ``values``: whole strings, tokens, runs of 2-8 words.

    Object fields named in ``system`` (see :func:`system_fields`) are skipped.
    """
    found: set[str] = set()
    for value in values:
        for text in _strings(value, system):
            whole, inner = _parts(text, FIELD_WORDS if len(found) < MAX_DIGESTS else 1)
            found |= inner | ({whole} if whole else set())
    return found


def untrusted_digests(values: Iterable[Any], system: frozenset[str] = frozenset()) -> dict[Origin, set[str]]:
    """What an untrusted output brings, by origin: ``{UNTRUSTED: whole strings of at most FIELD_WORDS words
    (a field's value), INSIDE: everything seen inside a text}``, where an instruction can name it: every
    part of a string other than the string whole (tokens, glued parts, runs up to :data:`FIELD_WORDS`
    words, so that an address of six words named in a review is found) and the whole of a longer string.
    Past :data:`MAX_DIGESTS` digests, runs of words are no longer recorded; tokens still are."""
    fields: set[str] = set()
    inside: set[str] = set()
    for value in values:
        for text in _strings(value, system):
            whole, inner = _parts(text, FIELD_WORDS if len(fields) + len(inside) < MAX_DIGESTS else 1)
            inside |= inner
            if whole:
                (fields if len(text.split()) <= FIELD_WORDS else inside).add(whole)
    return {UNTRUSTED: fields, INSIDE: inside}


def _candidates(value: Any) -> Iterator[str]:
    """The parts of an argument value that identify where it came from."""
    for text in _strings(value):
        if normalize(text):
            yield text
        tokens = _TOKEN.findall(text)
        words = [piece for token in tokens for piece in (_pieces(token) or [token])]
        for word in words if len(words) > 1 else []:
            if normalize(word) and _IDENTIFIER.search(normalize(word)):
                yield word
        for word in words:
            yield from _url_prefixes(word)


def system_fields(output_schema: Any) -> frozenset[str]:
    """Names of the output fields marked ``x-dialstack-origin: system``, anywhere in ``output_schema``."""
    found: set[str] = set()
    stack = [output_schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            props = node.get("properties")
            if isinstance(props, Mapping):
                found |= {k for k, v in props.items() if isinstance(v, Mapping) and v.get(ORIGIN_KEY) == "system"}
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)


class ArgumentString(NamedTuple):
    """One string of an argument's value, as provenance compares it."""

    whole: str  # the digest of the string whole
    digests: set[str]  # every digest to look up: the whole, its identifier-like tokens, URL prefixes
    points: bool  # it holds an address or a link (a token with "@", or a URL)


PerArgument = dict[str, list[ArgumentString]]


def _points(text: str) -> bool:
    return any("@" in word or "://" in word or _url_prefixes(word) or normalize(word).startswith("www.")
               for word in _TOKEN.findall(text))


def argument_digests(args: Mapping[str, Any]) -> PerArgument:
    """Per argument name, per string in its value: what :func:`untrusted_arguments` compares."""
    return {
        name: [ArgumentString(digest(text), {digest(c) for c in _candidates(text)}, _points(text))
               for text in _strings(value) if normalize(text)]
        for name, value in args.items()
    }


def looked_up(per_arg: PerArgument) -> set[str]:
    """Every digest :func:`untrusted_arguments` reads for ``per_arg``."""
    return {d for strings in per_arg.values() for string in strings for d in string.digests}


def untrusted_arguments(per_arg: PerArgument, origins: Mapping[str, frozenset[str]],
                        origin: str = UNTRUSTED, content: frozenset[str] = frozenset()) -> frozenset[str]:
    """The argument names one of whose strings has a digest seen with ``origin`` and never typed by the user.

    A string the user typed whole, or (for untrusted origin) a whole value of a record the user
    named (:func:`named_values`), is theirs, whatever its parts were also seen in. For the
    arguments named in ``content`` (what is written, not where it goes or what it changes), a
    string that is a whole field of untrusted output (a hotel's address, an amount) and was
    never seen inside a text (:data:`INSIDE`) is data copied, not a value an instruction named,
    unless it holds an address or a link: copied into a message, those point somewhere.
    """
    own = frozenset({USER}) if origin != UNTRUSTED else frozenset({USER, NAMED})

    wanted = {origin, INSIDE} if origin == UNTRUSTED else {origin}  # inside an untrusted text is untrusted too

    def seen(d: str) -> bool:
        found = origins.get(d, frozenset())
        return bool(wanted & found) and not own & found

    def copied(name: str, string: ArgumentString) -> bool:
        found = origins.get(string.whole, frozenset())
        return (origin == UNTRUSTED and name in content and not string.points
                and UNTRUSTED in found and INSIDE not in found)

    return frozenset(
        name for name, strings in per_arg.items()
        if any(not own & origins.get(string.whole, frozenset()) and not copied(name, string)
               and any(seen(d) for d in string.digests) for string in strings)
    )


def _scalars(value: Any) -> list[str] | None:
    """A field's value as strings when it is a scalar or a list of scalars (a participant list), else None."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                                          for v in value):
        return [str(v) for v in value]
    return None


@functools.lru_cache(maxsize=1 << 14)
def _a_name(text: str) -> bool:
    """A short text that can name one thing: a title of 2-4 words, or one word that is a file name, an address or
    an account number (a letter and a digit or ``.@-_``). Not a bare number, and not one plain word ("Alice",
    "please", "general"): users type those everywhere, and an outsider may title their own record with one."""
    words = normalize(text).split()
    if not 0 < len(words) <= MAX_WORDS or not any(ch.isalpha() for ch in text):
        return False
    return len(words) > 1 or any(ch.isdigit() or ch in ".@-_" for ch in words[0])


_FIELD_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def named_values(values: Iterable[Any], typed: Callable[[set[str]], set[str]]) -> set[str]:
    """Digests of the whole values of every output record the user named.

    A record (an object in the output) is *named* when one of its short fields (:func:`_a_name`)
    is something the user typed (``typed`` returns which of the digests it is given were):
    the event titled 'Introductory meeting', the file 'notes.docx', the transaction from the
    account the user gave. Its fields' whole values of at most :data:`FIELD_WORDS` words (a
    participant list, an id, an amount, an address) are then the user's choice: "the same
    participants as the Introductory meeting" names them. An object keyed by names (``{"City
    Hub": "1-1-1 Nishi-Shinjuku"}``; a key that is not a lower-case field name) names each value
    by its key. Long texts in a named record (a description, an email's body) are not vouched
    for: an instruction hidden there is still someone else's. A value names a record only when
    it singles it out: one that several records of the output share in the same field (the
    sender "me" of every payment, the channel of every message in it) names none of them.
    """
    records: list[tuple[set[tuple[str, str]], set[str]]] = []  # ((field, digest) pairs that name it, its values)
    stack: list[Any] = list(values)
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, Mapping):
            names: set[tuple[str, str]] = set()
            held: set[str] = set()
            for key, item in node.items():
                scalars = _scalars(item)
                if scalars is None:
                    stack.append(item)
                    continue
                whole = {digest(x) for x in scalars if normalize(x) and len(x.split()) <= FIELD_WORDS}
                held |= whole
                if isinstance(item, str) and _a_name(item):  # a record is named by a field, not by a list's element
                    names.add((str(key), digest(item)))
                if isinstance(key, str) and _a_name(key) and not _FIELD_NAME.fullmatch(key):
                    records.append(({("", digest(key))}, whole))
            records.append((names, held))
    shared = Counter(name for names, _ in records for name in names)
    records = [({n for n in names if shared[n] == 1}, held) for names, held in records]  # it must single one out
    wanted = {d for names, _ in records for _, d in names}
    hit = typed(wanted) if wanted else set()
    records = [({d for _, d in names}, held) for names, held in records]
    return set().union(*(held for digests, held in records if digests & hit)) if hit else set()
