from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

FLOWS = {
    "domain": "mini",
    "intents": {
        "Plan": {}, "Converse": {}, "Internal": {},
        "Lookup": {"role": "read"}, "Tidy": {"role": "prepare"},
        "Change": {"role": "transform"}, "Later": {"role": "schedule"},
    },
    "slot_types": {
        "ColorSlot": {"base": "CategorySlot", "params": {"options": ["red", "blue"]}},
        "SizeSlot": {"base": "LevelSlot", "params": {"min": 1, "max": 10}},
        "CodeSlot": {"base": "ExactSlot", "params": {"pattern": "C-\\d{3}"}},
        "NoteSlot": {"base": "FreeTextSlot"},
    },
    "flows": [
        {
            "name": "paint",
            "intent": "Change",
            "description": "Paint a thing.",
            "examples": ["paint it red"],
            "keywords": ["paint"],
            "slots": [
                {"name": "color", "type": "ColorSlot", "prompt": "Which color?"},
                {"name": "size", "type": "SizeSlot", "priority": "elective", "prompt": "How big?"},
                {"name": "code", "type": "CodeSlot", "priority": "elective", "prompt": "Which code?"},
            ],
            "tools": ["paint_tool"],
            "skill": "paint",
            "steps": [{"call": "paint_tool", "args": {"color": "$slots.color"}, "map_outputs": {"done": "ok"}}],
        }
    ],
}

MANIFEST = {
    "domain": "mini",
    "tools": [
        {
            "tool_id": "paint_tool",
            "name": "Paint",
            "description": "Paint.",
            "input_schema": {"type": "object", "properties": {"color": {"type": "string"}}, "additionalProperties": False},
            "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
            "idempotent": False,
            "timeout_ms": 1000,
            "capabilities": {"changes_state": True},
            "handler": "json:dumps",
        }
    ],
}

SKILL = """\
---
name: paint
description: Paint a thing in a color. Use when the user asks to paint.
---
1. Call `paint_tool` with the color slot.
2. Return {"outcome": "success", "data": {"done": true}}.
"""


def write_pack(root: Path, flows: dict | None = None, manifest: dict | None = None, skill: str | None = SKILL) -> Path:
    (root / "flows").mkdir(parents=True, exist_ok=True)
    (root / "manifests").mkdir(exist_ok=True)
    (root / "flows" / "mini.yaml").write_text(yaml.safe_dump(flows or FLOWS, sort_keys=False))
    (root / "manifests" / "mini.yaml").write_text(yaml.safe_dump(manifest or MANIFEST, sort_keys=False))
    if skill is not None:
        (root / "skills" / "mini" / "paint").mkdir(parents=True, exist_ok=True)
        (root / "skills" / "mini" / "paint" / "SKILL.md").write_text(textwrap.dedent(skill))
    return root


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return write_pack(tmp_path)
