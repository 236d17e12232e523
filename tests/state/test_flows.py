"""Flows: built from the ontology, slot filling (System 1 and 2), readiness, serialization."""

from __future__ import annotations

from typing import Any

import pytest

from dialstack.domain.models import Ontology
from dialstack.state import (
    BaseFlow,
    ConverseFlow,
    DomainFlow,
    FlowFactory,
    FlowSpecError,
    FlowState,
    InternalFlow,
    PlanFlow,
    SlotContext,
    SlotRegistry,
    SlotRequest,
)


def test_factory_picks_the_parent_class_by_intent(factory: FlowFactory) -> None:
    assert isinstance(factory.create("plan_trip", now=0), PlanFlow)
    assert isinstance(factory.create("faq", now=0), ConverseFlow)
    assert isinstance(factory.create("summarize_session", now=0), InternalFlow)
    flow = factory.create("book_flight", now=0)
    assert type(flow) is DomainFlow and flow.role == "transform"


def test_new_flow_is_pending_with_deterministic_ids(factory: FlowFactory) -> None:
    first, second = factory.create("book_flight", now=5), factory.create("faq", now=6)
    assert (first.flow_id, second.flow_id) == ("f1", "f2")
    assert first.state is FlowState.PENDING and first.created_at == 5


def test_ids_are_unique_without_an_id_factory(ontology: Ontology) -> None:
    factory = FlowFactory(ontology)
    ids = {factory.create("faq", now=0).flow_id for _ in range(200)}
    assert len(ids) == 200


def test_optional_slot_defaults_are_applied(factory: FlowFactory) -> None:
    flow = factory.create("book_flight", now=0)
    assert flow.slots["passengers"].value == 1
    assert flow.slots["passengers"].source == "default"
    assert not flow.slots["origin"].filled


def test_unknown_flow_name_lists_known_flows(factory: FlowFactory) -> None:
    with pytest.raises(FlowSpecError, match="no flow 'fly_to_moon'; known: search_flights"):
        factory.create("fly_to_moon", now=0)


def test_fill_slots_by_label_reports_a_check_per_label(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("book_flight", now=0)
    checks = flow.fill_slots_by_label({"origin": "bos", "destination": "Atlantis", "bogus": 1, "date": None}, ctx)
    assert set(checks) == {"origin", "destination"}
    assert checks["origin"].ok and flow.slots["origin"].value == "Boston"
    assert not checks["destination"].ok and not flow.slots["destination"].filled


def test_is_filled_needs_every_required_slot(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("book_flight", now=0)
    flow.fill_slots_by_label({"origin": "Boston", "destination": "Paris"}, ctx)
    assert flow.missing_slots() == ["date"] and not flow.is_filled()
    flow.fill_slots_by_label({"date": "2026-03-10"}, ctx)
    assert flow.is_filled() and flow.missing_slots() == []


def test_is_filled_needs_one_elective(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("modify_booking", now=0)
    flow.fill_slots_by_label({"booking_ref": "BK-12345"}, ctx)
    assert flow.missing_slots() == ["new_date", "passengers", "seat"]
    flow.fill_slots_by_label({"seat": "window"}, ctx)
    assert flow.is_filled()


def test_optional_slots_never_block(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("faq", now=0)
    assert flow.is_filled()


def test_needs_to_think_when_a_missing_slot_can_come_from_preferences(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("send_itinerary", now=0)
    assert flow.needs_to_think()  # email has from_preference
    flow.prefill(ctx)
    assert flow.slots["email"].value == "ana@example.com"
    flow.fill_slots_by_label({"booking_ref": "BK-12345"}, ctx)
    assert not flow.needs_to_think()


def test_needs_to_think_is_false_when_only_the_user_can_answer(factory: FlowFactory) -> None:
    assert not factory.create("check_booking", now=0).needs_to_think()


def test_fill_slot_values_asks_the_reasoner_for_missing_slots_only(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("book_flight", now=0)
    flow.fill_slots_by_label({"origin": "Boston"}, ctx)
    seen: list[SlotRequest] = []

    def reasoner(request: SlotRequest) -> dict[str, Any]:
        seen.append(request)
        return {"origin": "Paris", "destination": "nyc", "date": "2026-04-01"}

    checks = flow.fill_slot_values(["turn 1"], {"scratch": 1}, reasoner, ctx)
    assert set(seen[0].missing) == {"destination", "date"}
    assert seen[0].context == ["turn 1"] and seen[0].filled["origin"] == "Boston"
    assert flow.slots["origin"].value == "Boston"  # the user's value is kept
    assert checks["destination"].ok and flow.slots["destination"].source == "reasoner"


async def test_afill_slot_values_awaits_an_async_reasoner(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("check_booking", now=0)

    async def reasoner(request: SlotRequest) -> dict[str, Any]:
        return {"booking_ref": "bk-11111"}

    await flow.afill_slot_values(None, None, reasoner, ctx)
    assert flow.slots["booking_ref"].value == "BK-11111"


def test_fill_slot_values_refuses_an_async_reasoner(factory: FlowFactory, ctx: SlotContext) -> None:
    async def reasoner(request: SlotRequest) -> dict[str, Any]:
        return {}

    with pytest.raises(TypeError, match="afill_slot_values"):
        factory.create("check_booking", now=0).fill_slot_values(None, None, reasoner, ctx)


def test_record_turn_keeps_one_pointer_per_turn(factory: FlowFactory) -> None:
    flow = factory.create("faq", now=0)
    for turn in (1, 1, 2, 4):
        flow.record_turn(turn)
    assert flow.turn_ids == [1, 2, 4]


def test_flow_round_trips_exactly(factory: FlowFactory, ctx: SlotContext) -> None:
    flow = factory.create("book_flight", now=3.5)
    flow.fill_slots_by_label({"origin": "LA", "seat": "aisle"}, ctx)
    flow.outputs["booking_ref"] = "BK-12345"
    flow.record_turn(7)
    data = flow.serialize()
    restored = factory.restore(data)
    assert restored.serialize() == data
    assert type(restored) is type(flow)


def test_restore_rejects_a_slot_the_ontology_no_longer_has(factory: FlowFactory) -> None:
    data = factory.create("faq", now=0).serialize()
    data["slots"]["colour"] = {"value": "red", "display": "red"}
    with pytest.raises(FlowSpecError, match="slot 'colour'"):
        factory.restore(data)


class HookedFlow(DomainFlow):
    def needs_to_think(self) -> bool:
        return True


def test_domain_can_register_a_flow_subclass(ontology: Ontology, registry: SlotRegistry) -> None:
    factory = FlowFactory(ontology, registry)
    factory.register("check_booking", HookedFlow)
    flow = factory.create("check_booking", now=0)
    assert isinstance(flow, HookedFlow) and flow.needs_to_think()
    assert isinstance(factory.restore(flow.serialize()), HookedFlow)


def test_flow_python_path_is_resolved(ontology: Ontology) -> None:
    flows = [f.model_copy(update={"python": "tests.state.test_flows:HookedFlow"}) if f.name == "help" else f
             for f in ontology.flows]
    factory = FlowFactory(ontology.model_copy(update={"flows": flows}))
    assert isinstance(factory.create("help", now=0), HookedFlow)


def test_base_flow_is_the_root_of_every_flow_class() -> None:
    for cls in (PlanFlow, ConverseFlow, InternalFlow, DomainFlow):
        assert issubclass(cls, BaseFlow)
