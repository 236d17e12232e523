"""What the assistant is waiting for: the question its last reply asked, as typed data.

One definition per question, a tagged union on ``kind`` (``Pending``), stored inside the
dialogue state. The slot being asked for is kept apart (``DialogueState.waiting_for_slot``):
a choice can be asked while a slot question stays open beneath it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Question(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ResumeOffer(_Question):
    """'Would you like to continue booking a new flight?'"""

    kind: Literal["resume_offer"] = "resume_offer"
    flow_id: str


class ResumeChoice(_Question):
    """'Which one would you like to go back to: A or B?'"""

    kind: Literal["resume_choice"] = "resume_choice"
    flow_ids: tuple[str, ...]


class CancelChoice(_Question):
    """'Which one should I cancel?' to make room for ``flow`` (started with ``labels``)."""

    kind: Literal["cancel_choice"] = "cancel_choice"
    flow_ids: tuple[str, ...]
    flow: str
    labels: dict[str, Any] = Field(default_factory=dict)


class PlanReview(_Question):
    """'Here's the plan: ... Shall I go ahead?'"""

    kind: Literal["plan_review"] = "plan_review"
    plan_id: str


class RetryOffer(_Question):
    """A flow failed and may be tried again: yes retries it, no cancels it."""

    kind: Literal["retry_offer"] = "retry_offer"
    flow_id: str


class Approval(_Question):
    """A tool call the gate held back until the user says yes."""

    kind: Literal["approval"] = "approval"
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    flow_id: str = ""


class Confirmation(_Question):
    """'Book a flight from Boston to Paris on Dec 12 — shall I go ahead?' before an irreversible tool."""

    kind: Literal["confirmation"] = "confirmation"
    flow_id: str
    digest: str  # of the values shown; a yes confirms exactly these


class ChangeChoice(_Question):
    """After a 'no' to a confirmation: 'What would you like to change: origin, date or ...?'"""

    kind: Literal["change_choice"] = "change_choice"
    flow_id: str


Pending = Annotated[
    Union[ResumeOffer, ResumeChoice, CancelChoice, PlanReview, RetryOffer, Approval, Confirmation, ChangeChoice],
    Field(discriminator="kind"),
]
PENDING: TypeAdapter[Any] = TypeAdapter(Pending)

Q = TypeVar("Q", bound=_Question)


def load_pending(data: Any) -> Pending | None:
    return None if data is None else PENDING.validate_python(data)


def dump_pending(pending: Pending | None) -> dict[str, Any] | None:
    return None if pending is None else PENDING.dump_python(pending, mode="json")
