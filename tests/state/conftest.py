"""Fixtures for the dialogue-state tests: the travel ontology with its domain slot types built
from ``base`` + ``params`` (no Python), a deterministic flow factory and a slot context."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml

from dialstack.domain.models import Ontology
from dialstack.state import DialogueState, FlowFactory, FlowStack, SlotContext, SlotRegistry, counter_ids

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
CITIES = [
    {"value": "Boston", "synonyms": ["BOS"]},
    {"value": "Los Angeles", "synonyms": ["LA", "LAX"]},
    {"value": "New York", "synonyms": ["NYC", "JFK"]},
    {"value": "Paris", "synonyms": ["CDG"]},
]


def travel_ontology(**settings: Any) -> Ontology:
    """flows/travel.yaml, with its slot types built from base + params instead of Python."""
    data = yaml.safe_load((ROOT / "flows" / "travel.yaml").read_text())
    for spec in data["slot_types"].values():
        spec.pop("python", None)
    for key, value in settings.items():
        data["settings"]["flow_management"][key] = value
    return Ontology.model_validate(data)


@pytest.fixture
def ontology() -> Ontology:
    return travel_ontology()


@pytest.fixture
def registry(ontology: Ontology) -> SlotRegistry:
    return SlotRegistry.for_domain(ontology)


@pytest.fixture
def factory(ontology: Ontology, registry: SlotRegistry) -> FlowFactory:
    return FlowFactory(ontology, registry, ids=counter_ids())


@pytest.fixture
def stack(ontology: Ontology) -> FlowStack:
    return FlowStack(ontology.settings)


@pytest.fixture
def state(ontology: Ontology) -> DialogueState:
    return DialogueState.new(ontology.settings)


@pytest.fixture
def ctx() -> SlotContext:
    return SlotContext(now=NOW, vocabularies={"cities": CITIES}, preferences={"email": "ana@example.com"})
