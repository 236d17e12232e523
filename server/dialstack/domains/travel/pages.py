"""Turn fetched HTML into plain text, and spot text that tries to instruct an assistant."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIP = frozenset({"script", "style", "noscript", "template", "head", "svg"})
_BLOCK = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "article"})
_INSTRUCTION = re.compile(
    r"\b(ignore (all |any )?(previous|prior|above) instructions|disregard (the |all )?(previous|prior|above)"
    r"|you are now|system prompt|(send|email|forward|upload) (the |all )?(user'?s?|their|all) (bookings?|data|details|itinerar))",
    re.IGNORECASE)


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skipping += 1
        elif tag in _BLOCK:
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and self._skipping:
            self._skipping -= 1
        elif tag in _BLOCK:
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.chunks.append(data)


def page_text(body: str, content_type: str = "") -> str:
    """Visible text of an HTML page (or the text itself), whitespace collapsed to single spaces."""
    if "html" in content_type.lower() or re.search(r"<(html|body|p|div)\b", body, re.IGNORECASE):
        parser = _TextExtractor()
        parser.feed(body)
        parser.close()
        body = "".join(parser.chunks)
    return " ".join(body.split())


def suspicious_instructions(text: str) -> bool:
    """Whether the text contains phrases aimed at steering an assistant (prompt injection)."""
    return _INSTRUCTION.search(text) is not None
