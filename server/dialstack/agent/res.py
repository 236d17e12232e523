"""RES: the response step. Pops completed flows (the pre-hook) and composes the reply.

Replies come from the domain's templates: the next slot's prompt, a summary of the frame,
the offer to resume a paused flow, a digression's answer followed by the re-prompt of the
question still pending, clarifying questions, and limit messages.
"""

from __future__ import annotations

from ..state.flows import BaseFlow, FlowState
from ..state.pending import Approval, ChangeChoice, Confirmation, PlanReview, ResumeOffer
from . import confirmation
from .turn import Turn

# Replies a domain's YAML ``templates`` may override.
DEFAULT_TEMPLATES = {
    "greeting": "Hi! How can I help?",
    "fallback": "Sorry, I didn't understand that. Say 'help' to see what I can do.",
    "resume_offer": "Would you like to continue {phrase}?",
    "resume_accepted": "Great!",
    "resume_declined": "Okay, I've stopped {phrase}.",  # labels are gerunds: "stopped cancelling your booking"
    "limit_rejected": "You already have {depth} tasks open. Please finish or cancel one before starting a new one.",
    "ask_cancel_which": "You have too many tasks open. Which one should I cancel: {options}?",
    "ask_resume_which": "Which one would you like to go back to: {options}?",
    "invalid_value": "{reason}",
    "cancelled": "Okay, I've stopped {phrase}.",
    "nothing_to_cancel": "There's nothing in progress to cancel.",
    "approval_declined": "Okay, I didn't run {tool}.",
    "status": "I'm {phrase}. {filled} {missing}",
    "escalate": "I couldn't finish {phrase}: {reason}. Could you tell me more, or try something else?",
    "abandoned": "I dropped {phrase} since we hadn't come back to it for a while.",
    "chitchat": "Happy to help! What would you like to do?",
    "welcome": "You're welcome!",
    "wait": "Sure, take your time.",
    "goodbye": "Glad I could help. If there's anything else, just ask.",
    "later_parts": "I'm starting with {phrase}; after that: {parts}.",
    "parts_left": "One thing at a time: I'm on {phrase} now and haven't started the rest: {parts}. Ask me again once this is done.",
    "error": "Something went wrong while {phrase}: {reason}.",
    "plan_confirm": "Shall I go ahead?",
    "limit_cancelled": "(To make room, I cancelled {phrase}.)",
    "plan_started": "Let's start.",
    "plan_next": "Next: {step}.",
    "confirm": "{summary} — shall I go ahead?",
    "ask_change_which": "What would you like to change: {options}?",
    "plan_cannot": "I can't do this part: {parts}.",
}


def pre_hook(turn: Turn) -> list[BaseFlow]:
    """Pop completed flows off the stack; more than one popped asks for a snapshot."""
    popped = turn.state.stack.pop_completed(turn.now)
    if len(popped) > 1:
        turn.snapshot = True
    return popped


def reprompt(turn: Turn) -> str:
    """The question still pending, to repeat after a digression or an invalid answer."""
    state = turn.state
    active = state.active
    pending = state.pending
    if isinstance(pending, Approval):
        return turn.approval_question()
    if isinstance(pending, PlanReview):
        return turn.template("plan_confirm")
    if isinstance(pending, ResumeOffer):
        offered = state.stack.find(pending.flow_id)
        if offered is not None:
            return turn.template("resume_offer", phrase=offered.label)
    if isinstance(pending, (Confirmation, ChangeChoice)):
        asked = confirmation.question(turn, pending)
        if asked:
            return asked
    if active is not None and state.waiting_for_slot in active.slots:
        return turn.deps.pex.prompt_for(active, state.waiting_for_slot)
    return ""


def offer_resume(turn: Turn) -> str:
    """After a flow ended, offer the paused flow below it ("continue booking a new flight?")."""
    state = turn.state
    if state.active is not None or not turn.ended:
        return ""
    top = state.stack.top
    if top is None or top.state is not FlowState.PAUSED or not top.can_be_resumed:
        return ""
    state.pending = ResumeOffer(flow_id=top.flow_id)
    state.waiting_for_slot = None
    return turn.template("resume_offer", phrase=top.label)


def frame_summary(frame: dict | None) -> str:
    if not frame or frame.get("display_type") != "table":
        return ""
    count = frame.get("row_count", 0)
    shown = len(frame.get("data", []))
    more = f" (showing the first {shown})" if shown < count else ""
    return f"{count} row(s) in {frame.get('display_name', 'the results')}{more}."


def compose(parts: list[str]) -> str:
    """Join reply parts; a part starting with a newline (a re-prompt) opens a new paragraph."""
    paragraphs = any(p.startswith("\n") or "\n" in p.strip() for p in parts if p)
    parts = [p.strip() for p in parts if p and p.strip()]
    return ("\n\n" if paragraphs else " ").join(parts)
