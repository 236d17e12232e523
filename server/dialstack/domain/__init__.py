"""Domain packs: the ontology, the tool manifest and the skills, loaded into typed models."""

from .loader import DEFAULT_DOMAIN, PackError, available_domains, bundled_root, inspect_domain, load_domain, resolve
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
from .yamlfile import Problem

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
