"""The Messages API as the backends see it: plain request/reply values and one error.

The skill loop, ``contemplate`` and the phraser speak only these types; the adapter in
:mod:`.anthropic` turns them into SDK calls. That keeps the loop free of any HTTP or SDK
import and lets it be driven by a scripted model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

Block = dict[str, Any]
Message = dict[str, Any]  # {"role": "user" | "assistant", "content": str | list[Block]}


@dataclass(frozen=True)
class ModelRequest:
    system: str | list[Block]
    messages: list[Message]
    max_tokens: int
    tools: list[Block] = field(default_factory=list)
    tool_choice: Block | None = None

    def with_max_tokens(self, max_tokens: int) -> ModelRequest:
        return replace(self, max_tokens=max_tokens)


@dataclass(frozen=True)
class ModelReply:
    content: list[Block]
    stop_reason: str | None

    def tool_uses(self) -> list[Block]:
        return [block for block in self.content if block.get("type") == "tool_use"]

    def text(self) -> str:
        return "".join(block.get("text", "") for block in self.content if block.get("type") == "text")


class ModelUnavailable(Exception):
    """The model could not be reached or refused the request at the API level (not a refusal
    to answer: see ``stop_reason == "refusal"``)."""

    def __init__(self, operation: str, reason: str, status: int | None = None) -> None:
        self.operation = operation
        self.reason = reason
        self.status = status
        where = f" (HTTP {status})" if status is not None else ""
        super().__init__(f"{operation}: the model is unavailable{where}: {reason}")


class MessagesModel(Protocol):
    """One call to a Messages-API-shaped model. Raises :class:`ModelUnavailable` only."""

    name: str

    async def create(self, request: ModelRequest) -> ModelReply: ...


def tool_result(tool_use_id: str, content: Any, *, is_error: bool = False) -> Block:
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)
    block: Block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": text}
    if is_error:
        block["is_error"] = True
    return block


def text_block(text: str) -> Block:
    return {"type": "text", "text": text}


def forced_tool(name: str) -> Block:
    return {"type": "tool", "name": name}
