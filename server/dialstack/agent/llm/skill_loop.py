"""Running a skill as a tool-use loop against a Messages-API model.

The loop owns the generic strategies of the policy-executor spec: tool dispatch through the
invocation's ``call_tool`` (the only route to tools), one corrective re-prompt for an
invalid outcome, one retry with doubled ``max_tokens`` on truncation, the optional
generate-evaluate-revise pass, code guardrails on generated code, and the skill timeout.
It imports no SDK: the model arrives as a :class:`~.messages.MessagesModel`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from .. import guardrails
from ..outcomes import OUTCOME, Failure, SkillInvocation, Success, Uncertain
from . import prompts
from .messages import Block, Message, MessagesModel, ModelReply, ModelRequest, ModelUnavailable, text_block, tool_result

log = logging.getLogger(__name__)

Outcome = Success | Failure | Uncertain
CODE_KEYS: dict[str, str | None] = {"sql": "sql", "python": "python", "code": None}
_VARIANT_KEYS = {
    "success": {"outcome", "data", "scratchpad_entries"},
    "failure": {"outcome", "error_category", "message", "partial_data"},
    "uncertain": {"outcome", "reason", "context"},
}
_FENCED_JSON = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class LoopSettings:
    max_tokens: int = 4096
    max_iterations: int = 12


class _Stop(Exception):
    """Ends the run early with a failure outcome (truncation twice, refusal)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


async def run_skill(invocation: SkillInvocation, model: MessagesModel, settings: LoopSettings = LoopSettings()) -> Outcome:
    """Run ``invocation`` to exactly one outcome; never raises for model or timeout trouble."""
    run = _SkillRun(invocation, model, settings)
    try:
        async with asyncio.timeout(invocation.timeout_s) as deadline:
            outcome = await run.execute()
    except TimeoutError:
        if not deadline.expired():
            raise
        return Failure(
            error_category="timeout",
            message=f"skill {invocation.flow.name} did not finish within {invocation.timeout_s:g}s "
            f"({len(invocation.calls)} tool call(s) made)",
            partial_data=_calls_made(invocation),
        )
    except ModelUnavailable as exc:
        log.warning("skill %s: %s", invocation.flow.name, exc)
        return Failure(error_category="llm_unavailable", message=str(exc), partial_data=_calls_made(invocation))
    except _Stop as stop:
        return stop.failure
    return guard_outcome(outcome, invocation)


class _SkillRun:
    def __init__(self, invocation: SkillInvocation, model: MessagesModel, settings: LoopSettings) -> None:
        self.invocation = invocation
        self.model = model
        self.settings = settings
        self.finish = prompts.finish_tool_name(invocation.tools)
        self.tools = prompts.tool_definitions(invocation.tools, self.finish)
        self.known_tools = {tool.name for tool in invocation.tools}
        self.system = prompts.skill_system_prompt(invocation, self.finish)
        self.messages: list[Message] = [{"role": "user", "content": prompts.first_user_message(invocation)}]
        self.max_tokens = settings.max_tokens
        self.truncation_retried = False
        self.corrections_left = 1

    @property
    def flow_name(self) -> str:
        return self.invocation.flow.name

    async def execute(self) -> Outcome:
        for _ in range(self.settings.max_iterations):
            reply = await self._ask()
            if reply.content:
                self.messages.append({"role": "assistant", "content": reply.content})
            uses = reply.tool_uses()
            if not uses:
                outcome, problem = parse_outcome_text(reply.text())
                if outcome is not None:
                    return await self._maybe_reflect(outcome, None)
                self._correct_or_stop(problem, [])
                continue
            finishes = [use for use in uses if use["name"] == self.finish]
            others = [use for use in uses if use["name"] != self.finish]
            if finishes and not others:
                first = finishes[0]
                outcome, problem = parse_outcome(first.get("input"))
                extra = [tool_result(use["id"], "Ignored: an outcome can be returned only once.", is_error=True) for use in finishes[1:]]
                if outcome is not None:
                    return await self._maybe_reflect(outcome, first["id"], extra)
                self._correct_or_stop(problem, [tool_result(first["id"], prompts.correction(problem, self.finish), is_error=True), *extra])
                continue
            results = [await self._dispatch(use) for use in others]
            results += [tool_result(use["id"], prompts.premature_finish(self.finish), is_error=True) for use in finishes]
            self._add_user(_in_reply_order(uses, results))
        return Failure(
            error_category="max_iterations",
            message=f"skill {self.flow_name} did not finish within {self.settings.max_iterations} model turns",
            partial_data=_calls_made(self.invocation),
        )

    async def _ask(self, tools: list[Block] | None = None, tool_choice: Block | None = None) -> ModelReply:
        request = ModelRequest(self.system, list(self.messages), self.max_tokens, tools or self.tools, tool_choice)
        reply = await self.model.create(request)
        if reply.stop_reason == "max_tokens" and not self.truncation_retried:
            self.truncation_retried = True
            self.max_tokens *= 2
            log.info("skill %s: reply truncated, retrying with max_tokens=%d", self.flow_name, self.max_tokens)
            reply = await self.model.create(request.with_max_tokens(self.max_tokens))
        if reply.stop_reason == "max_tokens":
            raise _Stop(Failure(
                error_category="truncated",
                message=f"skill {self.flow_name}: the model's reply was cut off at max_tokens={self.max_tokens} even after doubling",
                partial_data=_calls_made(self.invocation),
            ))
        if reply.stop_reason == "model_context_window_exceeded":
            raise _Stop(Failure(
                error_category="context_exhausted",
                message=f"skill {self.flow_name}: the conversation with the model outgrew its context window",
                partial_data=_calls_made(self.invocation),
            ))
        if reply.stop_reason == "refusal":
            raise _Stop(Failure(
                error_category="refused",
                message=f"skill {self.flow_name}: the model declined to carry out this request (stop_reason 'refusal')",
                partial_data=_calls_made(self.invocation),
            ))
        return reply

    def _correct_or_stop(self, problem: str, results: list[Block]) -> None:
        if self.corrections_left == 0:
            raise _Stop(Failure(
                error_category="invalid_output",
                message=f"skill {self.flow_name} returned an invalid outcome twice: {problem}",
                partial_data=_calls_made(self.invocation),
            ))
        self.corrections_left -= 1
        self._add_user(results or [text_block(prompts.correction(problem, self.finish))])

    def _add_user(self, content: list[Block]) -> None:
        """Append a user turn; merge into the last one when the model sent nothing in between."""
        last = self.messages[-1]
        if last["role"] == "user":
            previous = last["content"]
            last["content"] = [*([text_block(previous)] if isinstance(previous, str) else previous), *content]
        else:
            self.messages.append({"role": "user", "content": content})

    async def _dispatch(self, use: Block) -> Block:
        name, arguments = use["name"], use.get("input") or {}
        if name not in self.known_tools:
            return tool_result(use["id"], f"There is no tool {name!r}; available: {', '.join(sorted(self.known_tools))}.", is_error=True)
        result = await self.invocation.call_tool(name, arguments)
        self.invocation.calls.append(result)
        if result.approval in ("declined", "pending"):
            return tool_result(use["id"], prompts.declined_call(name, result.text), is_error=True)
        if not result.ok:
            return tool_result(use["id"], result.text or f"{name} failed", is_error=True)
        return tool_result(use["id"], result.data if result.data is not None else result.text)

    async def _maybe_reflect(self, candidate: Outcome, finish_id: str | None, extra: list[Block] | None = None) -> Outcome:
        if not (self.invocation.flow.reflection and isinstance(candidate, Success)):
            return candidate
        ask = text_block(prompts.evaluate_request(self.flow_name))
        answer = [tool_result(finish_id, "Candidate received; not final yet."), *(extra or [])] if finish_id else []
        self._add_user([*answer, ask])
        tools = [*self.tools, prompts.evaluate_tool()]
        evaluation = await self._ask(tools, {"type": "tool", "name": prompts.EVALUATE_TOOL})
        if evaluation.content:
            self.messages.append({"role": "assistant", "content": evaluation.content})
        use = next((u for u in evaluation.tool_uses() if u["name"] == prompts.EVALUATE_TOOL), None)
        verdict = (use or {}).get("input") or {}
        if use is None or verdict.get("verdict") != "revise":
            return candidate
        issues = [str(issue) for issue in verdict.get("issues") or []]
        self._add_user([tool_result(use["id"], prompts.revise_request(issues, self.finish))])
        revision = await self._ask(tools, {"type": "tool", "name": self.finish})
        final = next((u for u in revision.tool_uses() if u["name"] == self.finish), None)
        revised, problem = parse_outcome(final.get("input") if final else None)
        if revised is None:
            log.info("skill %s: revision was invalid (%s); keeping the candidate", self.flow_name, problem)
            return candidate
        return revised


def parse_outcome(raw: object) -> tuple[Outcome | None, str]:
    """Validate one outcome; ``(None, problem)`` when it is not exactly one of the three shapes."""
    if not isinstance(raw, dict):
        return None, f"expected a JSON object, got {type(raw).__name__}"
    keys = _VARIANT_KEYS.get(str(raw.get("outcome")))
    if keys is None:
        return None, f"'outcome' must be success, failure or uncertain, got {raw.get('outcome')!r}"
    # Models often send the other shapes' keys as null; those are noise, not a second outcome.
    cleaned = {k: v for k, v in raw.items() if k in keys or v is not None}
    try:
        return OUTCOME.validate_python(cleaned), ""
    except ValidationError as exc:
        details = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'outcome'}: {e['msg']}" for e in exc.errors())
        return None, details


def parse_outcome_text(text: str) -> tuple[Outcome | None, str]:
    """An outcome given as JSON text instead of a ``finish`` call (fenced or bare)."""
    stripped = text.strip()
    if not stripped:
        return None, "the reply was empty and called no tool"
    fenced = _FENCED_JSON.search(stripped)
    candidate = fenced.group(1) if fenced else stripped[stripped.find("{") :] if "{" in stripped else stripped
    try:
        raw = json.loads(candidate)
    except json.JSONDecodeError as exc:
        return None, f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    return parse_outcome(raw)


def guard_outcome(outcome: Outcome, invocation: SkillInvocation) -> Outcome:
    """Run the code guardrails on generated code in a success's data; a rejection is a failure."""
    if not isinstance(outcome, Success):
        return outcome
    data = dict(outcome.data)
    policy = guardrails.GuardrailPolicy.from_context(invocation.context.get("guardrails"))
    entities = invocation.context.get("valid_entities")
    for key, fixed_language in CODE_KEYS.items():
        raw = data.get(key)
        if not isinstance(raw, str):
            continue
        language = fixed_language or str(data.get("language", "python")).lower()
        try:
            data[key] = guardrails.apply_guardrails(raw, language, entities, policy=policy).code
        except guardrails.GuardrailError as exc:
            return Failure(error_category="guardrail", message=f"{key}: {exc}", partial_data=outcome.data)
    return outcome.model_copy(update={"data": data})


def _in_reply_order(uses: list[Block], results: list[Block]) -> list[Block]:
    by_id = {result["tool_use_id"]: result for result in results}
    return [by_id[use["id"]] for use in uses]


def _calls_made(invocation: SkillInvocation) -> dict[str, Any] | None:
    if not invocation.calls:
        return None
    return {"tool_calls": [{"tool": c.tool, "ok": c.ok, "approval": c.approval} for c in invocation.calls]}
