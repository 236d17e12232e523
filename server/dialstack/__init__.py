"""dialstack: a runtime for task-oriented conversational agents built on a flow stack.

The orchestrator's public API (``dialstack.Agent``) is imported lazily so that the MCP
server, which never needs it, starts without importing it.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["Agent", "TurnResult", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("Agent", "TurnResult"):
        from .agent import Agent, TurnResult

        return {"Agent": Agent, "TurnResult": TurnResult}[name]
    raise AttributeError(f"module 'dialstack' has no attribute {name!r}")
