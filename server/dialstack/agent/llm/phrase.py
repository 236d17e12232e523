"""Optional RES rewording with a Messages-API model, checked so facts survive the rewrite."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from .messages import MessagesModel, ModelRequest

log = logging.getLogger(__name__)

_SYSTEM = (
    "You rewrite a task assistant's drafted reply so it reads naturally and warmly. Keep every "
    "fact, number, date, price, name and reference exactly as written; add nothing new; keep any "
    "question at the end. Answer with the rewritten reply only, no preamble."
)
# Tokens that carry facts: anything with a digit (prices, dates, references) or an @ (emails).
_FACT = re.compile(r"[\w.+-]*[\d@][\w.@+-]*")


def phrase_request(draft: str, context: dict[str, Any], max_tokens: int) -> ModelRequest:
    user = f"Draft reply:\n{draft}"
    if context:
        user += f"\n\nConversation context:\n{json.dumps(context, ensure_ascii=False, default=str)}"
    return ModelRequest(_SYSTEM, [{"role": "user", "content": user}], max_tokens)


def missing_facts(draft: str, phrased: str) -> list[str]:
    """The fact tokens of ``draft`` that ``phrased`` lost."""
    return [token.rstrip(".") for token in _FACT.findall(draft) if token.rstrip(".") not in phrased]


async def phrase(model: MessagesModel, draft: str, context: dict[str, Any], max_tokens: int = 512) -> str:
    """The reworded reply, or ``draft`` itself when the rewrite is empty, cut off or lost a fact."""
    reply = await model.create(phrase_request(draft, context, max_tokens))
    text = reply.text().strip()
    if reply.stop_reason != "end_turn" or not text:
        log.info("phrase: keeping the draft (stop_reason %r)", reply.stop_reason)
        return draft
    lost = missing_facts(draft, text)
    if lost:
        log.info("phrase: keeping the draft; the rewrite lost %s", lost)
        return draft
    return text
