"""Domain packs: the ontology, the tool manifest and the skills, loaded into typed models.

The loader (and with it YAML) is imported on first use of one of its names, so that the
models alone (what the state package needs) import nothing else.
"""

from typing import Any

from .imports import resolve
from .models import (
    CAPABILITIES,
    TRIFECTA,
    UNIVERSAL_INTENTS,
    UNIVERSAL_SLOT_TYPES,
    DomainPack,
    FlowSpec,
    Settings,
    SkillSpec,
    SlotSpec,
    StepSpec,
    ToolSpec,
)

__all__ = [
    "CAPABILITIES",
    "DEFAULT_DOMAIN",
    "TRIFECTA",
    "UNIVERSAL_INTENTS",
    "UNIVERSAL_SLOT_TYPES",
    "DomainPack",
    "FlowSpec",
    "PackError",
    "Problem",
    "Settings",
    "SkillSpec",
    "SlotSpec",
    "StepSpec",
    "ToolSpec",
    "available_domains",
    "bundled_root",
    "inspect_domain",
    "load_domain",
    "resolve",
]


_LAZY = {"DEFAULT_DOMAIN", "PackError", "available_domains", "bundled_root", "inspect_domain", "load_domain", "Problem"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'dialstack.domain' has no attribute {name!r}")
