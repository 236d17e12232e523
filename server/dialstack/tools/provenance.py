"""Where an argument's value came from: digests of values seen in untrusted output or typed by the user.

Pure functions; the store keeps the digests per session (``store.guard``), never the text.

- An **untrusted output** (a tool tagged ``receives_untrusted_input``, its result or its
  error text) is recorded as: every string leaf whole, every token (a run of
  non-space characters, stripped of surrounding punctuation), and every run of 2-4
  words, so that an address or a name inside a longer text is found again.
  Fields the tool's ``output_schema`` marks ``x-dialstack-origin: system`` (ids, timestamps
  the system assigns, which no outsider chooses) are left out.
- **Private output** (a tool tagged ``accesses_private_data`` and not
  ``receives_untrusted_input``: a profile, a balance, a booking) is recorded the same way.
- **User-typed** text (the user's turns) is recorded the same way.
- An **argument value** is untrusted-derived when its whole value, or one of its
  identifier-like tokens (an address, a URL, an account number: tokens holding a digit,
  ``@``, ``/`` or an inner ``.``), was recorded from untrusted output and never typed by
  the user. Lists and objects count when any element does.

Values are compared after Unicode NFKC normalisation and case folding, so a homoglyph of
full-width letters or another case does not hide the origin.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

ORIGIN_KEY = "x-dialstack-origin"
UNTRUSTED = "untrusted"
USER = "user"
PRIVATE = "private"  # from the output of a tool that reads private data and nothing from outside
MAX_WORDS = 4
MAX_DIGESTS = 20_000  # per recorded output: a bound on what one huge result can cost
_TOKEN = re.compile(r"\S+")
_EDGE = ".,;:!?\"'`()[]{}<>*"
_IDENTIFIER = re.compile(r"[0-9@/]|\w\.\w")
# inside one whitespace token: characters no address, URL or id contains, and a full stop that ends a sentence
# glued to the next one ("'a@b.com'.The" holds the address a@b.com)
_GLUE = re.compile(r"[\"'`()\[\]{}<>,;|]+|(?<=[a-z0-9])\.(?=[A-Z])")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip().strip(_EDGE).strip()


def digest(text: str) -> str:
    return hashlib.sha256(normalize(text).encode("utf-8", "surrogatepass")).hexdigest()[:32]


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


def text_digests(values: Iterable[Any], system: frozenset[str] = frozenset()) -> set[str]:
    """Digests of everything a reader could copy out of ``values``: whole strings, tokens, 2-4 word runs.

    Object fields named in ``system`` (see :func:`system_fields`) are skipped.
    """
    found: set[str] = set()
    for value in values:
        for text in _strings(value, system):
            if len(found) >= MAX_DIGESTS:
                return found
            if normalize(text):
                found.add(digest(text))
            tokens = _TOKEN.findall(text)
            words = [w for w in (normalize(t) for t in tokens) if w]
            found.update(digest(piece) for token in tokens for piece in _pieces(token))
            for start in range(len(words)):
                for size in range(1, MAX_WORDS + 1):
                    if start + size > len(words):
                        break
                    found.add(digest(" ".join(words[start:start + size])))
    return found


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


def argument_digests(args: Mapping[str, Any]) -> dict[str, set[str]]:
    """Per argument name, the digests to look up (see :func:`untrusted_arguments`)."""
    return {name: {digest(c) for c in _candidates(value)} for name, value in args.items()}


def untrusted_arguments(per_arg: Mapping[str, set[str]], origins: Mapping[str, frozenset[str]],
                        origin: str = UNTRUSTED) -> frozenset[str]:
    """The argument names one of whose digests was seen with ``origin`` (untrusted output) and never typed by the user."""
    return frozenset(
        name for name, digests in per_arg.items()
        if any(origin in origins.get(d, ()) and USER not in origins.get(d, ()) for d in digests)
    )
