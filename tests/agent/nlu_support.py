"""Shared set-up for the understanding tests: the travel domain, its cities, views of a flow."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from dialstack.agent import Agent
from dialstack.agent.nlu import ActiveView, NLUView, Understander
from dialstack.clock import AdjustableClock
from dialstack.domain import load_domain
from dialstack.domains.travel.slots import _static_items
from dialstack.state.factory import FlowFactory
from dialstack.state.slots import SlotContext
from dialstack.store.memory import InMemoryStore

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
