"""Per-run settings overrides of a domain (conversation tests, the Python API)."""

from __future__ import annotations

from typing import Any

from ..domain import DomainPack


def with_settings(domain: DomainPack, overrides: dict[str, Any]) -> DomainPack:
    if not overrides:
        return domain
    merged = deep_merge(domain.ontology.settings.model_dump(), overrides)
    settings = type(domain.ontology.settings).model_validate(merged)
    ontology = domain.ontology.model_copy(update={"settings": settings})
    return domain.model_copy(update={"ontology": ontology})


def deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = deep_merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out
