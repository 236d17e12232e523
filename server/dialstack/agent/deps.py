"""``TurnDeps``: everything a turn uses, as one frozen value, and the Protocols of its parts.

The agent builds it once its MCP client is connected and gives it to every ``Turn``; PEX,
the acts, recovery, understanding and the policies read what they need from ``turn.deps``.

This module sits below the turn and its steps and imports none of them. A step works on
the turn it is given, so the Protocols of the steps are generic in the turn's type
(``TurnT``): ``turn.Turn`` carries a ``TurnDeps[Turn]``, and ``pex.PolicyExecutor``,
``recovery.Recovery``, ``policies.Policy`` and ``understanding.Interpreter`` fill these
Protocols with ``Turn`` in that place.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..clock import Clock
from ..domain.models import DomainPack, FlowSpec
from ..state.factory import FlowFactory
from ..state.flows import BaseFlow
from ..store.protocol import Store
from .llm.base import ContemplateRequest, Reasoner, SkillRunner
from .nlu import Understander, Understanding
from .outcomes import Execution, Failure, Success, ToolCallResult, ToolDescriptor, Uncertain
from .toolclient import Approver

TurnT = TypeVar("TurnT")  # the turn a step works on (``turn.Turn``)
TurnT_contra = TypeVar("TurnT_contra", contravariant=True)


class ToolCaller(Protocol):
    """Calls a tool in a dialogue session (the MCP client)."""

    async def call(
        self, tool: str, args: dict[str, Any], *, session: str, idempotency_key: str | None = None
    ) -> ToolCallResult: ...


class FlowPolicy(Protocol[TurnT_contra]):
    """A flow's policy (``policies.Policy``), as PEX and recovery run it."""

    def before_skill(self, turn: TurnT_contra, flow: BaseFlow) -> Execution | None: ...

    async def after_skill(self, turn: TurnT_contra, flow: BaseFlow, outcome: Success | Failure | Uncertain) -> Execution: ...

    def route_results(self, turn: TurnT_contra, flow: BaseFlow, outcome: Success) -> None: ...


class PolicySource(Protocol[TurnT_contra]):
    """Finds a flow's policy (``policies.PolicyRegistry``)."""

    def get(self, spec: FlowSpec) -> FlowPolicy[TurnT_contra] | None: ...


class SkillExecutor(Protocol[TurnT_contra]):
    """PEX (``pex.PolicyExecutor``), as the other steps use it."""

    async def invoke_skill(self, turn: TurnT_contra, flow: BaseFlow) -> Success | Failure | Uncertain: ...

    def prompt_for(self, flow: BaseFlow, slot_name: str) -> str: ...

    async def run_detached(self, turn: TurnT_contra, name: str, understanding: Understanding) -> str: ...


class Recoverer(Protocol[TurnT_contra]):
    """What to do when a skill is uncertain or a flow must fall back (``recovery.Recovery``)."""

    async def recover(self, turn: TurnT_contra, flow: BaseFlow, outcome: Uncertain) -> Execution: ...

    def fallback(self, turn: TurnT_contra, flow: BaseFlow, target: str) -> Execution | None: ...


class RequestWriter(Protocol[TurnT_contra]):
    """Writes System 2's request from a turn (``understanding.Interpreter``)."""

    def request(self, turn: TurnT_contra, purpose: str, *, failed: str | None = None, reason: str = "") -> ContemplateRequest: ...


SlotReasoner = Callable[[Any], Awaitable[dict[str, Any]]]  # ``BaseFlow.afill_slot_values``'s System 2


@dataclass(frozen=True)
class TurnDeps(Generic[TurnT]):
    domain: DomainPack
    factory: FlowFactory
    policies: PolicySource[TurnT]
    understander: Understander
    store: Store
    templates: Mapping[str, str]
    clock: Clock
    tools: ToolCaller
    tool_descriptors: Sequence[ToolDescriptor]
    tool_names: Set[str]
    skill_runner: SkillRunner
    reasoner: Reasoner | None  # System 2, or None
    slot_reasoner: SlotReasoner | None  # System 2 slot filling, or None
    approver: Approver | None  # asks the user now; None defers the question to the reply
    spinner: Callable[[str], contextlib.AbstractContextManager[None]]
    pex: SkillExecutor[TurnT]
    recovery: Recoverer[TurnT]
    interpreter: RequestWriter[TurnT]
