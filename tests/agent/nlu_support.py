"""Shared set-up for the understanding tests: the travel domain, its cities, views of a flow."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from dialstack.agent import Agent
from dialstack.agent.nlu import ActiveView, NLUView, Understander
from dialstack.clock import AdjustableClock
from dialstack.domain import load_domain
from dialstack.domains.travel.slots import _static_items
from dialstack.state.factory import FlowFactory
from dialstack.state.slots import SlotContext
from dialstack.store.memory import InMemoryStore

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"  # the packs other writers made, as test data
DOMAIN = load_domain("travel")
FACTORY = FlowFactory(DOMAIN.ontology)
NLU = Understander(DOMAIN, FACTORY.slots.make)
CITIES = [{"value": i["city"], "synonyms": [i["code"], *i["aliases"]]} for i in _static_items()]
CTX = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc), vocabularies={"cities": CITIES})
IDLE = NLUView(active=None, waiting_for_slot=None, paused=[])


def view_of(factory: FlowFactory, flow: str, slot: str | None, **filled: object) -> NLUView:
    """The view of ``flow`` active, asking for ``slot``, with ``filled`` values (the last one just given)."""
    instance = factory.create(flow, now=0)
    instance.fill_slots_by_label(dict(filled), CTX)
    last = next(reversed(filled), None)
    return NLUView(ActiveView(flow, instance.spec, instance.slots, last), slot, paused=[])


@contextmanager
def talking(domain: str, pack: Path | None = None) -> Iterator[Agent]:
    """An agent on ``domain`` with its state in memory and its clock at 2026-12-01 09:00 UTC (a
    Tuesday, as in the conversation tests), closed after the conversation."""
    agent = Agent(domain, pack=pack, store=InMemoryStore(), clock=AdjustableClock(CTX.now))  # (the conversations' clock)
    try:
        yield agent
    finally:
        agent.close()


def write_mini_pack(root: Path, flows: dict[str, Any], changes: dict[str, bool]) -> Path:
    """A pack in ``root`` from a flows document: one tool per name in ``changes`` (True: it changes
    state) answering ``{"ok": true}`` from ``<domain>_handlers``, and a skill per flow calling its tool."""
    domain = flows["domain"]
    (root / "flows").mkdir(parents=True)
    (root / "manifests").mkdir()
    (root / "flows" / f"{domain}.yaml").write_text(yaml.safe_dump(flows, sort_keys=False))
    tools = [{"tool_id": tool, "name": tool, "description": f"The {tool.replace('_', ' ')} tool.",
              "input_schema": {"type": "object", "additionalProperties": {"type": "string"}},
              "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
              "idempotent": not changing, "timeout_ms": 1000, "capabilities": {"changes_state": changing},
              "handler": f"{domain}_handlers:ok"} for tool, changing in changes.items()]
    (root / "manifests" / f"{domain}.yaml").write_text(yaml.safe_dump({"domain": domain, "tools": tools}, sort_keys=False))
    (root / f"{domain}_handlers.py").write_text("def ok(**_):\n    return {'ok': True}\n")
    for flow in flows["flows"]:
        skill, tool = flow["skill"], flow["steps"][0]["call"]
        (root / "skills" / domain / skill).mkdir(parents=True)
        (root / "skills" / domain / skill / "SKILL.md").write_text(
            f"---\nname: {skill}\ndescription: The {skill.replace('-', ' ')} task. Use when asked.\n---\n1. Call `{tool}`.\n")
    return root


def stack_names(agent: Agent, session: str = "s") -> list[str]:
    """The names of the flows on ``session``'s stack, bottom first."""
    return [f.name for f in agent.load(session).stack.flows]


def slots_of(agent: Agent, flow: str, session: str = "s") -> dict[str, object]:
    """The values held by the flow named ``flow`` on ``session``'s stack (empty slots left out)."""
    found = next(f for f in agent.load(session).stack.flows if f.name == flow)
    return {k: s.value for k, s in found.slots.items() if s.value is not None}


def tools_of(result: Any) -> list[str]:
    """The tools a turn called, in order."""
    return [c["tool"] for c in result.tool_calls]
