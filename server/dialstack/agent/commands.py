"""What understanding asks the acts layer to do: one typed command per turn, a tagged union.

Understanding (System 1's rules, System 2, answers to pending questions) never changes the
stack; it returns one of these, and ``acts.ActHandler.apply`` is the only code that applies it.
Values are the candidates read from the text (``Candidate``: value, display, span).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Union

from ..state.slots import Candidate

Values = Mapping[str, Candidate]


@dataclass(frozen=True)
class Part:
    """A later part of a multi-part request: its flow, the values its own words give, and the words."""

    flow: str
    values: Values = field(default_factory=dict)
    rejected: Mapping[str, str] = field(default_factory=dict)
    words: str = ""
    queue: bool = True  # its words name its task, so it waits below the first to start in turn; else only named


@dataclass(frozen=True)
class StartFlow:
    """Start ``flow`` with ``values`` (resumes it instead when it is already live)."""

    flow: str
    values: Values = field(default_factory=dict)
    rejected: Mapping[str, str] = field(default_factory=dict)  # slot -> why its value was refused
    replaces: str | None = None  # a live flow (id) to cancel first, to make room
    refers_back: bool = False  # 'book that one': unnamed values come from the task before
    later: tuple[Part, ...] = ()  # the rest of a multi-part request: queued below it, named in the reply
    beside: Values = field(default_factory=dict)  # new values for the task in progress, said beside the request
    # the task the look-up just done prepares ('ok, book a flight' after a search): its values carry over unless the
    # turn gives other values of the same names
    follows: bool = False
    kind: Literal["start_flow"] = "start_flow"


@dataclass(frozen=True)
class SetSlots:
    """Fill slots of the active flow ('from Boston'); with no values, ask on."""

    flow: str | None
    values: Values = field(default_factory=dict)
    rejected: Mapping[str, str] = field(default_factory=dict)
    kind: Literal["set_slots"] = "set_slots"


@dataclass(frozen=True)
class CorrectSlot:
    """Replace values already given ('I meant Rome, not Paris')."""

    flow: str | None
    values: Values = field(default_factory=dict)
    rejected: Mapping[str, str] = field(default_factory=dict)
    kind: Literal["correct_slot"] = "correct_slot"


@dataclass(frozen=True)
class CancelFlow:
    """Cancel a flow: the active one, or one named (a name or a flow id); None: the active one."""

    flow: str | None = None
    kind: Literal["cancel_flow"] = "cancel_flow"


@dataclass(frozen=True)
class ResumeFlow:
    """Go back to a paused flow (``flow_id``, or the best match for the text), filling ``values``."""

    flow_id: str | None = None
    values: Values = field(default_factory=dict)
    rejected: Mapping[str, str] = field(default_factory=dict)
    kind: Literal["resume_flow"] = "resume_flow"


@dataclass(frozen=True)
class Affirm:
    """Yes to the question asked (a resume offer, a plan, a confirmation, a retry)."""

    # questions said after the yes ('Yes, that's correct. Can I bring my cat?'): answered once the yes is done
    asked: tuple[Part, ...] = ()
    kind: Literal["affirm"] = "affirm"


@dataclass(frozen=True)
class Deny:
    """No to the question asked."""

    kind: Literal["deny"] = "deny"


@dataclass(frozen=True)
class Approve:
    """Yes to a tool call waiting for the user's approval."""

    kind: Literal["approve"] = "approve"


@dataclass(frozen=True)
class Digress:
    """A side question answered without touching the task: by ``flow`` (a digression flow), or
    the assistant itself ('help', 'status': what is still needed, 'clarification': why)."""

    flow: str | None = None
    topic: str | None = None  # help | status | clarification | question
    values: Values = field(default_factory=dict)  # new values for the task in progress, said beside the question
    kind: Literal["digress"] = "digress"


@dataclass(frozen=True)
class ChitChat:
    """Small talk: answered in kind, the task re-asked; ``waits``: the user asked to wait ('one sec')."""

    waits: bool = False
    kind: Literal["chitchat"] = "chitchat"


@dataclass(frozen=True)
class Close:
    """'no thanks, that's all I needed', 'bye': the user is done; nothing is left in progress."""

    kind: Literal["close"] = "close"


@dataclass(frozen=True)
class Clarify:
    """Not understood: the assistant says what it can do (``reason``: why, when known)."""

    reason: str | None = None
    kind: Literal["clarify"] = "clarify"


Command = Union[StartFlow, SetSlots, CorrectSlot, CancelFlow, ResumeFlow, Affirm, Deny, Approve, Digress, ChitChat,
                Close, Clarify]
