"""The Anthropic backend: Claude through the ``anthropic`` SDK.

:class:`AnthropicModel` adapts ``AsyncAnthropic.messages.create`` to the small
:class:`~.messages.MessagesModel` protocol and maps the SDK's API errors to
:class:`~.messages.ModelUnavailable`. The SDK is imported only when a model is built, so
importing this module (or the MCP server) never pulls it in.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..outcomes import Failure, SkillInvocation, Success, Uncertain
from . import contemplate as _contemplate
from . import phrase as _phrase
from .base import ContemplateRequest, ContemplateResult
from .messages import Block, ModelReply, ModelRequest, ModelUnavailable
from .skill_loop import LoopSettings, run_skill

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

log = logging.getLogger(__name__)

DEFAULT_MODEL = "claude-sonnet-5-5"
MODEL_ENV = "DIALSTACK_MODEL"
API_KEY_ENV = "ANTHROPIC_API_KEY"


class AnthropicConfigError(RuntimeError):
    """The Anthropic backend cannot be built as configured (no key, no SDK)."""


def _sdk() -> Any:
    try:
        import anthropic
    except ImportError as exc:  # pragma: no cover - anthropic is a core dependency
        raise AnthropicConfigError(
            "the Anthropic backend needs the anthropic SDK: pip install 'anthropic>=0.40'; or use --llm offline"
        ) from exc
    return anthropic


def make_client(*, api_key: str | None = None, base_url: str | None = None, max_retries: int = 2, timeout_s: float = 120.0) -> AsyncAnthropic:
    """An ``AsyncAnthropic`` client; the key comes from ``api_key`` or ``ANTHROPIC_API_KEY``."""
    key = api_key or os.environ.get(API_KEY_ENV)
    if not key:
        raise AnthropicConfigError(
            f"--llm anthropic needs an API key: set {API_KEY_ENV} (or pass api_key=...), "
            "or run with --llm offline, which needs no key and no network"
        )
    return _sdk().AsyncAnthropic(api_key=key, base_url=base_url, max_retries=max_retries, timeout=timeout_s)


class AnthropicModel:
    """One Messages API call per :meth:`create`; implements :class:`~.messages.MessagesModel`."""

    def __init__(self, client: AsyncAnthropic, model: str | None = None) -> None:
        self.client = client
        self.name = model or os.environ.get(MODEL_ENV) or DEFAULT_MODEL

    @classmethod
    def from_env(cls, *, api_key: str | None = None, base_url: str | None = None, model: str | None = None) -> AnthropicModel:
        return cls(make_client(api_key=api_key, base_url=base_url), model)

    async def create(self, request: ModelRequest) -> ModelReply:
        sdk = _sdk()
        kwargs: dict[str, Any] = {
            "model": self.name,
            "system": request.system,
            "messages": request.messages,
            "max_tokens": request.max_tokens,
        }
        if request.tools:
            kwargs["tools"] = request.tools
        if request.tool_choice is not None:
            kwargs["tool_choice"] = request.tool_choice
        try:
            message = await self.client.messages.create(**kwargs)
        except sdk.APIStatusError as exc:
            raise ModelUnavailable(f"messages.create ({self.name})", _status_reason(exc), exc.status_code) from exc
        except sdk.APIConnectionError as exc:  # includes APITimeoutError
            raise ModelUnavailable(f"messages.create ({self.name})", f"{type(exc).__name__}: {exc}") from exc
        except sdk.APIResponseValidationError as exc:
            raise ModelUnavailable(f"messages.create ({self.name})", f"unexpected response: {exc}") from exc
        return ModelReply([_block(b) for b in message.content], message.stop_reason)


def _status_reason(exc: Any) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    kind = error.get("type") or type(exc).__name__
    detail = error.get("message") or exc.message
    hint = f"; check {API_KEY_ENV}" if exc.status_code in (401, 403) else ""
    return f"{kind}: {detail}{hint}"


def _block(block: Any) -> Block:
    """A reply block as it must be sent back in the next request."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)}
    dumped: Block = block.model_dump(exclude_none=True)
    return dumped


@dataclass
class AnthropicSkillRunner:
    """Runs a flow's skill as a Claude tool-use loop (see :func:`.skill_loop.run_skill`)."""

    model: AnthropicModel
    settings: LoopSettings = LoopSettings()

    async def run(self, invocation: SkillInvocation) -> Success | Failure | Uncertain:
        return await run_skill(invocation, self.model, self.settings)


@dataclass
class AnthropicReasoner:
    """System-2 understanding: one forced ``understanding`` tool call per request."""

    model: AnthropicModel
    max_tokens: int = 1024

    async def contemplate(self, request: ContemplateRequest) -> ContemplateResult:
        try:
            return await _contemplate.contemplate(self.model, request, self.max_tokens)
        except ModelUnavailable as exc:
            log.warning("contemplate: %s", exc)
            return _contemplate.unknown(str(exc))


@dataclass
class AnthropicPhraser:
    """Rewords RES drafts with Claude; falls back to the draft when anything is off."""

    model: AnthropicModel
    max_tokens: int = 512

    async def phrase(self, draft: str, context: dict[str, Any]) -> str:
        try:
            return await _phrase.phrase(self.model, draft, context, self.max_tokens)
        except ModelUnavailable as exc:
            log.warning("phrase: keeping the draft: %s", exc)
            return draft


@dataclass(frozen=True)
class AnthropicBackend:
    runner: AnthropicSkillRunner
    reasoner: AnthropicReasoner
    phraser: AnthropicPhraser


def anthropic_backend(
    *, api_key: str | None = None, base_url: str | None = None, model: str | None = None, client: AsyncAnthropic | None = None
) -> AnthropicBackend:
    """The three capabilities sharing one client. Raises :class:`AnthropicConfigError` without a key."""
    shared = AnthropicModel(client or make_client(api_key=api_key, base_url=base_url), model)
    return AnthropicBackend(AnthropicSkillRunner(shared), AnthropicReasoner(shared), AnthropicPhraser(shared))
