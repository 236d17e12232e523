"""``resolve("module:attr")``: how a pack names its Python (handlers, slot classes, flow subclasses).

Apart from the loader so that the state package can resolve classes without importing it (and YAML).
"""

from __future__ import annotations

import importlib
from typing import Any


def resolve(target: str) -> Any:
    """Import ``module:attr`` (handlers, slot classes, flow subclasses)."""
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)
