"""Turn a stored chat into a conversation test file (``dialstack history SESSION --export-test FILE``).

Each user turn becomes a test turn expecting the flow stack the chat had after it and the
opening of the reply it got; ``/approve`` and ``/deny`` become ``approve: true|false``. The
file's clock is the chat's first turn, so "tomorrow" means the same day when it is replayed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

import yaml

from .conversation import ConversationFile

REPLY_FRAGMENT = 60  # characters of the reply kept as reply_contains
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def reply_fragment(reply: str, limit: int = REPLY_FRAGMENT) -> str:
    """The reply's first sentence (or line), cut at a word boundary within ``limit`` characters."""
    first = _SENTENCE_END.split(reply.strip().splitlines()[0] if reply.strip() else "", maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0]
    return cut or first[:limit]


def export_conversation(
    session: str, domain: str | None, turns: Sequence[tuple[str, str, float, list[str]]], *, pack: str | None = None
) -> dict[str, Any]:
    """A conversation test file (as data) from ``(user text, reply, created_at, stack names after)`` per turn."""
    if not turns:
        raise ValueError(f"session {session!r} has no turns to export")
    test_turns: list[dict[str, Any]] = []
    for text, reply, _, stack in turns:
        answer = text.strip().lower()
        turn: dict[str, Any] = {"approve": answer == "/approve"} if answer in ("/approve", "/deny") else {"user": text}
        expect: dict[str, Any] = {"stack": list(stack)}
        fragment = reply_fragment(reply)
        if fragment:
            expect["reply_contains"] = [fragment]
        turn["expect"] = expect
        test_turns.append(turn)
    data: dict[str, Any] = {}
    if pack:
        data["pack"] = pack
    if domain:
        data["domain"] = domain
    data["clock"] = datetime.fromtimestamp(turns[0][2], tz=timezone.utc).replace(microsecond=0)
    data["conversations"] = [{"name": f"replay of session {session}", "turns": test_turns}]
    ConversationFile.model_validate(data)  # what we write must load
    return data


def dump_conversation(data: dict[str, Any], *, bundled: bool = True) -> str:
    """The file's text; ``bundled=False`` adds a reminder that the domain needs its ``pack:``."""
    header = "# Exported from a chat by `dialstack history --export-test`; edit the expectations to what matters.\n"
    if not bundled and "pack" not in data:
        header += (f"# The {data.get('domain')!r} domain is not bundled: add `pack: <its pack folder, relative to this file>`.\n")
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    return header + body  # safe_dump quotes 'yes', 'no', 'on' and 'off', so they stay text
