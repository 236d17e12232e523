"""The travel pack as a whole: it validates, skills pass the reference validator, schemas match handlers."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import pytest
import skills_ref
from jsonschema import Draft202012Validator

from dialstack.domain import inspect_domain, load_domain, resolve
from dialstack.domain.models import COMPONENT_TOOLS
from dialstack.tools.context import ToolContext

DOMAIN = load_domain("travel")
SKILL_DIRS = sorted(p.parent for p in (DOMAIN.root / "skills" / "travel").glob("*/SKILL.md"))


def test_inspect_domain_reports_no_errors_or_warnings() -> None:
    domain, problems = inspect_domain("travel")
    assert domain is not None
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("skill_dir", SKILL_DIRS, ids=lambda p: p.name)
def test_skill_passes_the_agent_skills_reference_validator(skill_dir: Path) -> None:
    assert skills_ref.validate(skill_dir) == []


def test_every_flow_has_its_skill_and_every_skill_a_flow() -> None:
    from dialstack.tools.host import HOST_SKILL  # the one skill that is no flow's: the host model's guide

    assert {f.skill for f in DOMAIN.ontology.flows} == {p.name for p in SKILL_DIRS} - {HOST_SKILL}


@pytest.mark.parametrize("flow", DOMAIN.ontology.flows, ids=lambda f: f.name)
def test_skill_names_the_outputs_its_flow_expects(flow: Any) -> None:
    body = DOMAIN.skills[flow.skill].body
    for output in flow.outputs:
        assert f'"{output}"' in body, f"{flow.skill} does not show output {output!r}"
    for tool in flow.tools:
        assert f"`{tool}`" in body


def test_every_tool_declares_capabilities_explicitly() -> None:
    assert all(tool.capabilities is not None for tool in DOMAIN.manifest.tools)


def test_trifecta_tags_are_as_documented() -> None:
    tags = {t.tool_id: t.tags for t in DOMAIN.manifest.tools}
    assert tags["send_itinerary"] >= {"accesses_private_data", "communicates_externally"}
    assert tags["fetch_travel_advisory"] == {"receives_untrusted_input", "communicates_externally"}
    assert tags["read_inbox"] == {"accesses_private_data", "receives_untrusted_input"}
    assert tags["search_flights"] == tags["list_cities"] == frozenset()
    assert "changes_state" in tags["create_booking"] and not DOMAIN.tool("create_booking").idempotent


def _schema_has_path(schema: dict[str, Any], path: str) -> bool:
    for part in path.split("."):
        if part.isdigit():
            schema = schema.get("items", {})
        else:
            schema = schema.get("properties", {}).get(part)
            if schema is None:
                return False
    return True


@pytest.mark.parametrize("flow", [f for f in DOMAIN.ontology.flows if f.steps], ids=lambda f: f.name)
def test_step_output_mappings_exist_in_the_tool_output_schemas(flow: Any) -> None:
    for step in flow.steps:
        if step.call in COMPONENT_TOOLS:
            continue
        schema = DOMAIN.tool(step.call).output_schema
        for source in step.map_outputs.values():
            assert _schema_has_path(schema, source), f"{flow.name}: {step.call} has no {source}"
        allowed = set(DOMAIN.tool(step.call).input_schema.get("properties", {}))
        assert set(step.args) <= allowed


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_cities", {}),
    ("search_flights", {"origin": "Boston", "destination": "Chicago", "date": "2025-12-20", "passengers": 1,
                        "max_price": None}),
    ("answer_faq", {"question": "What cities do you support?"}),
    ("get_booking", {"booking_ref": "BK-12345"}),
    ("list_bookings", {}),
    ("update_booking", {"booking_ref": "BK-12345", "seat": "window"}),
    ("save_preferences", {"seat": "aisle", "meal": None}),
    ("get_preferences", {}),
    ("create_price_alert", {"origin": "Boston", "destination": "Paris", "max_price": {"amount": 300, "currency": "EUR"}}),
    ("schedule_checkin_reminder", {"booking_ref": "BK-12345", "hours_before": None}),
    ("send_itinerary", {"booking_ref": "BK-12345", "to": "ana@example.com"}),
    ("read_inbox", {}),
    ("cancel_booking", {"booking_ref": "BK-20481"}),
]


@pytest.mark.parametrize(("tool_id", "args"), CALLS, ids=[c[0] for c in CALLS])
def test_handler_accepts_schema_valid_arguments_and_returns_its_output_schema(
        tool_id: str, args: dict[str, Any], ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIALSTACK_SMTP_URL", raising=False)
    monkeypatch.delenv("DIALSTACK_INBOX", raising=False)
    tool = DOMAIN.tool(tool_id)
    Draft202012Validator(tool.input_schema).validate(args)
    handler = resolve(tool.handler)
    result = handler(**args, ctx=ctx)
    if inspect.isawaitable(result):
        result = asyncio.run(result)
    Draft202012Validator(tool.output_schema).validate(result)


def test_input_schemas_reject_unknown_arguments() -> None:
    for tool in DOMAIN.manifest.tools:
        assert tool.input_schema.get("additionalProperties") is False, tool.tool_id
