"""``TurnDeps``: everything a turn uses, as one frozen value (nothing reaches back through the Agent).

The agent builds it once its MCP client is connected and gives it to every ``Turn``; PEX,
the acts, recovery, understanding and the policies read what they need from ``turn.deps``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..clock import Clock
from ..domain.models import DomainPack
from ..state.factory import FlowFactory
from ..store.protocol import Store
from .outcomes import ToolCallResult, ToolDescriptor
from .toolclient import Approver

if TYPE_CHECKING:  # the steps and policies take a Turn, and a Turn carries these: annotations only
    from .acts import ActHandler
    from .nlu import Understander
    from .pex import PolicyExecutor
    from .policies import PolicyRegistry
    from .recovery import Recovery
    from .understanding import Interpreter


class ToolCaller(Protocol):
    """Calls a tool in a dialogue session (the MCP client)."""

    async def call(
        self, tool: str, args: dict[str, Any], *, session: str, idempotency_key: str | None = None
    ) -> ToolCallResult: ...


@dataclass(frozen=True)
class TurnDeps:
    domain: DomainPack
    factory: FlowFactory
    policies: PolicyRegistry
    understander: Understander
    store: Store
    templates: Mapping[str, str]
    clock: Clock
    tools: ToolCaller
    tool_descriptors: Sequence[ToolDescriptor]
    tool_names: Set[str]
    skill_runner: Any
    reasoner: Any  # System 2, or None
    slot_reasoner: Any  # System 2 slot filling, or None
    approver: Approver | None  # asks the user now; None defers the question to the reply
    spinner: Callable[[str], contextlib.AbstractContextManager[None]]
    pex: PolicyExecutor
    acts: ActHandler
    recovery: Recovery
    interpreter: Interpreter
