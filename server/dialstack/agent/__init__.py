"""The host-side orchestrator: turn loop, understanding, policy executor, responses.

The public API is :class:`Agent` and the :class:`TurnResult` it returns.
"""

from .agent import Agent, Clock, TurnResult

__all__ = ["Agent", "Clock", "TurnResult"]
