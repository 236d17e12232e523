"""Conversation test files: load them, run them through an :class:`Agent`, report failures.

A file names a domain (or a pack), optional settings overrides, and conversations made of
turns (``user``, ``advance_clock``, ``approve``) each with expectations checked after the
turn and its ``keep_going`` continuations. Each conversation starts from an empty session,
the clock at a fixed start and a fresh copy of the domain's data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
import functools
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..domain.suggest import did_you_mean

DEFAULT_START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
TERMINAL_KEYS = ("completed", "cancelled", "abandoned", "invalid")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Expect(_Strict):
    stack: list[str] | None = None
    states: dict[str, str] | None = None
    slots: dict[str, dict[str, Any]] | None = None
    completed: list[str] | None = None
    cancelled: list[str] | None = None
    abandoned: list[str] | None = None
    invalid: list[str] | None = None
    reply_contains: list[str] | None = None
    reply_not_contains: list[str] | None = None
    tool_calls: list[str] | None = None
    approval_requested: str | Literal[False] | None = None
    flags: dict[str, bool] | None = None
    frame: dict[str, Any] | None = None
    digression_depth: int | None = None


class Turn(_Strict):
    user: str | None = None  # numbers are read as the text the user typed ("3" -> 3 -> "3")
    advance_clock: float | None = None
    approve: bool | None = None
    expect: Expect = Field(default_factory=Expect)

    @field_validator("user", mode="before")
    @classmethod
    def _user_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _one_action(self) -> Turn:
        given = [k for k in ("user", "advance_clock", "approve") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"a turn needs exactly one of user, advance_clock, approve (got {given or 'none'})")
        return self


class Conversation(_Strict):
    name: str
    turns: list[Turn] = Field(min_length=1)
    settings: dict[str, Any] = Field(default_factory=dict)


class ConversationFile(_Strict):
    domain: str | None = None
    pack: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    clock: datetime | None = None
    conversations: list[Conversation] = Field(min_length=1)


class ConversationFileError(Exception):
    pass


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # libyaml when built with it
    """YAML 1.2 booleans: only true/false. A user turn `yes`, `no`, `on` or `off` stays text."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load_test_file(path: Path) -> ConversationFile:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except FileNotFoundError:
        raise ConversationFileError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        raise ConversationFileError(f"{path}: invalid YAML: {exc}") from None
    try:
        return ConversationFile.model_validate(data)
    except ValidationError as exc:
        lines = [f"{path}: {'.'.join(str(p) for p in e['loc'])}: {_explain(e)}" for e in exc.errors()]
        raise ConversationFileError("\n".join(lines)) from None


_KEYS = {"expect": Expect, "turns": Turn, "conversations": Conversation}


def _explain(error: dict[str, Any]) -> str:
    """Pydantic's message, plus the keys that are allowed where an unknown one was written."""
    if error["type"] != "extra_forbidden":
        return str(error["msg"])
    loc = [p for p in error["loc"][:-1] if isinstance(p, str)]
    model = _KEYS.get(loc[-1], ConversationFile) if loc else ConversationFile
    key = error["loc"][-1]
    return f"unknown key {key!r}{did_you_mean(key, model.model_fields)} (expected one of: {', '.join(model.model_fields)})"


@dataclass
class Mismatch:
    conversation: str
    turn: int
    user: str
    expectation: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (
            f"FAIL {self.conversation} — turn {self.turn} ({self.user!r})\n"
            f"  expected {self.expectation}: {self.expected!r}\n"
            f"  got: {self.actual!r}"
        )


@dataclass(frozen=True)
class Outcome:
    """One conversation's result, as it finished: for a progress line and a JUnit test case."""

    label: str  # the test file's name
    conversation: str
    seconds: float
    failures: tuple[Mismatch, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.label}::{self.conversation}" if self.label else self.conversation

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class Report:
    passed: list[str] = field(default_factory=list)
    failures: list[Mismatch] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len({f.conversation for f in self.failures}) + len(self.errors)

    def summary(self) -> str:
        return f"{len(self.passed)} passed, {self.failed} failed"

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        if outcome.passed:
            self.passed.append(outcome.name)
        else:
            self.failures.extend(outcome.failures)


AgentFactory = Callable[[ConversationFile, Conversation], Any]
OnOutcome = Callable[[Outcome], None]


def run_file(
    test_file: ConversationFile, make_agent: AgentFactory, report: Report, label: str = "", on_outcome: OnOutcome | None = None
) -> None:
    """Run every conversation of ``test_file`` into ``report``; ``on_outcome`` hears of each as it finishes."""
    for conversation in test_file.conversations:
        name = f"{label}::{conversation.name}" if label else conversation.name
        started = time.perf_counter()
        agent = make_agent(test_file, conversation)
        try:
            failures = tuple(_run_conversation(agent, name, conversation))
        finally:
            agent.close()
        outcome = Outcome(label, conversation.name, time.perf_counter() - started, failures)
        report.add(outcome)
        if on_outcome is not None:
            on_outcome(outcome)


def _run_conversation(agent: Any, name: str, conversation: Conversation) -> Iterator[Mismatch]:
    session = "test"
    for number, turn in enumerate(conversation.turns, start=1):
        if turn.advance_clock is not None:
            agent.clock.advance(turn.advance_clock)
            said = f"<advance_clock {turn.advance_clock}>"
            result = None
        else:
            said = turn.user if turn.user is not None else ("/approve" if turn.approve else "/deny")
            result = agent.handle(session, said)
        failures = check(agent, session, result, turn.expect)
        for key, expected, actual in failures:
            yield Mismatch(name, number, said, key, expected, actual)
        if failures:
            return


def check(agent: Any, session: str, result: Any, expect: Expect) -> list[tuple[str, Any, Any]]:
    """Every unmet expectation as (key, expected, actual)."""
    out: list[tuple[str, Any, Any]] = []
    record = result.to_dict() if result is not None else {}
    view = agent.inspect(session)
    reply = record.get("reply", "")
    if expect.stack is not None:
        actual = [f["name"] for f in view["stack"]]
        if actual != expect.stack:
            out.append(("stack", expect.stack, actual))
    if expect.states is not None:
        for flow, state in expect.states.items():
            latest = _latest(view, flow)
            actual = latest["state"] if latest else None
            if actual != state:
                out.append((f"states.{flow}", state, actual))
    if expect.slots is not None:
        for flow, slots in expect.slots.items():
            latest = _latest(view, flow)
            for slot, wanted in slots.items():
                got = (latest or {}).get("slots", {}).get(slot)
                if not _slot_matches(got, wanted):
                    out.append((f"slots.{flow}.{slot}", wanted, got))
    for key in TERMINAL_KEYS:
        wanted = getattr(expect, key)
        if wanted is not None:
            actual = record.get("transitions", {}).get(key, [])
            if sorted(actual) != sorted(wanted):
                out.append((key, wanted, actual))
    for text in expect.reply_contains or []:
        if text.lower() not in reply.lower():
            out.append(("reply_contains", text, reply))
    for text in expect.reply_not_contains or []:
        if text.lower() in reply.lower():
            out.append(("reply_not_contains", text, reply))
    if expect.tool_calls is not None:
        actual = [c["tool"] for c in record.get("tool_calls", [])]
        if actual != expect.tool_calls:
            out.append(("tool_calls", expect.tool_calls, actual))
    if expect.approval_requested is not None:
        actual = record.get("approval_requested") or False
        if actual != expect.approval_requested:
            out.append(("approval_requested", expect.approval_requested, actual))
    for flag, wanted in (expect.flags or {}).items():
        actual = record.get("flags", {}).get(flag)
        if actual != wanted:
            out.append((f"flags.{flag}", wanted, actual))
    if expect.frame is not None:
        frame = record.get("frame") or {}
        for key, wanted in expect.frame.items():
            if frame.get(key) != wanted:
                out.append((f"frame.{key}", wanted, frame.get(key)))
    if expect.digression_depth is not None and view["digression_depth"] != expect.digression_depth:
        out.append(("digression_depth", expect.digression_depth, view["digression_depth"]))
    return out


def _latest(view: dict[str, Any], flow: str) -> dict[str, Any] | None:
    instances = [f for f in view["flows"] if f["name"] == flow]
    return instances[-1] if instances else None


def _slot_matches(got: dict[str, Any] | None, wanted: Any) -> bool:
    value = got.get("value") if got else None
    if wanted is None:
        return value is None
    if value is None:
        return False
    if isinstance(wanted, str):
        shown = {str(value).lower(), str(got.get("display", "")).lower()}
        if isinstance(value, dict):
            shown |= {str(v).lower() for v in value.values()}
        return wanted.lower() in shown
    return value == wanted


@functools.lru_cache(maxsize=64)
def _loaded_domain(name: str | None, pack: str | None) -> Any:
    from ..domain import load_domain

    return load_domain(name, pack)


def make_agent_factory(scratch: Path, base: Path | None = None) -> AgentFactory:
    """Agents for conversation tests: a fresh database and data folder each, a fixed clock.

    The domain is loaded once per process and pack (a pack is read-only while tests run).
    """
    def make(test_file: ConversationFile, conversation: Conversation) -> Any:
        from ..state.flows import counter_ids
        from ..tools.prepare import prepare_domain, template_folder
        from .agent import Agent, Clock
        from .settings import deep_merge

        scratch.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="conversation-", dir=scratch))
        pack = test_file.pack
        if pack and base is not None and not Path(pack).is_absolute():
            pack = str((base / pack).resolve())
        settings = deep_merge(test_file.settings, conversation.settings)
        start = test_file.clock or DEFAULT_START
        domain = _loaded_domain(test_file.domain, pack)  # its data: prepared once per run, then copied
        prepare_domain(domain, folder, start.date(), templates=template_folder(scratch / "prepared"))
        return Agent(
            domain, pack=pack, db=folder / "dialstack.db", data_dir=folder,
            clock=Clock(start), settings=settings, flow_ids=counter_ids(),
        )

    return make
