"""LLM backends: the protocols in :mod:`.base`; ``offline`` and ``anthropic`` implementations.

``anthropic`` is imported lazily (see :func:`load_anthropic`): importing this package never
imports the ``anthropic`` SDK.
"""

from __future__ import annotations

from .base import (
    ACTS,
    ContemplateRequest,
    ContemplateResult,
    FlowSummary,
    Phraser,
    Reasoner,
    SkillRunner,
)

__all__ = [
    "ACTS",
    "ContemplateRequest",
    "ContemplateResult",
    "FlowSummary",
    "Phraser",
    "Reasoner",
    "SkillRunner",
]
