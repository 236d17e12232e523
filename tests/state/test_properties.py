"""Property tests: random operation sequences never break the stack's invariants."""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from dialstack.state import (
    TERMINAL,
    BaseFlow,
    DialogueState,
    FlowFactory,
    FlowStack,
    FlowState,
    PlanFlow,
    SlotContext,
    SlotRegistry,
    StackError,
    apply_diff,
    counter_ids,
    make_diff,
)

from .conftest import CITIES, NOW, travel_ontology

CTX = SlotContext(now=NOW, vocabularies={"cities": CITIES}, preferences={"email": "ana@example.com"})
DOMAIN_FLOWS = ["book_flight", "check_booking", "modify_booking", "cancel_booking", "search_flights",
                "list_bookings", "faq", "help", "price_alert", "send_itinerary"]
LABELS = st.fixed_dictionaries({}, optional={
    "origin": st.sampled_from(["Boston", "LA", "Atlantis", ""]),
    "booking_ref": st.sampled_from(["BK-12345", "bk-00001", "BK-1"]),
    "seat": st.sampled_from(["aisle", "purple"]),
    "passengers": st.sampled_from([2, "three", 12]),
    "confirm": st.sampled_from(["yes", "nope", "maybe"]),
})
ONTOLOGIES = {
    (strategy, depth): travel_ontology(max_stack_depth=depth, on_limit_reached=strategy, abandon_timeout=500)
    for strategy in ("cancel_oldest", "reject_new", "ask_user")
    for depth in (2, 3, 5)
}


class StackMachine(RuleBasedStateMachine):
    @initialize(strategy=st.sampled_from(["cancel_oldest", "reject_new", "ask_user"]), depth=st.sampled_from([2, 3, 5]))
    def setup(self, strategy: str, depth: int) -> None:
        ontology = ONTOLOGIES[(strategy, depth)]
        self.registry = SlotRegistry.for_domain(ontology)
        self.factory = FlowFactory(ontology, self.registry, ids=counter_ids())
        self.state = DialogueState.new(ontology.settings)
        self.stack: FlowStack = self.state.stack
        self.ever: set[str] = set()
        self.now = 0.0
        self.previous = self.state.serialize()

    # -- helpers ---------------------------------------------------------------------
    def tick(self, seconds: float) -> float:
        self.now += seconds
        return self.now

    def attempt(self, operation: Callable[[], Any]) -> Any:
        """Run an operation; an illegal one must raise StackError and change nothing."""
        before = self.stack.serialize()
        try:
            result = operation()
        except StackError as exc:
            assert self.stack.serialize() == before
            event(f"refused: {exc.op}")
            return None
        event(f"done: {getattr(operation, '__qualname__', '')}")
        self.ever |= {f.flow_id for f in self.stack.flows}
        return result

    def ref(self, data: st.DataObject) -> str:
        known = [f.flow_id for f in (*self.stack.flows, *self.stack.archive)]
        known += [f.name for f in self.stack.flows] + ["no_such_flow"]
        return data.draw(st.sampled_from(known))

    def new(self, name: str) -> BaseFlow:
        return self.factory.create(name, now=self.now)

    def plans(self) -> list[str]:
        return [f.flow_id for f in self.stack.flows if isinstance(f, PlanFlow)] or ["no_such_plan"]

    # -- operations -------------------------------------------------------------------
    @rule(name=st.sampled_from(DOMAIN_FLOWS), dt=st.floats(0, 200), with_ctx=st.booleans())
    def push(self, name: str, dt: float, with_ctx: bool) -> None:
        flow = self.new(name)
        self.attempt(lambda: self.stack.push(flow, self.tick(dt), CTX if with_ctx else None))

    @rule(name=st.sampled_from(DOMAIN_FLOWS))
    def queue(self, name: str) -> None:
        flow = self.new(name)
        queued = self.attempt(lambda: self.stack.queue(flow))
        if queued is not None:
            assert self.stack.top is flow and flow.state is FlowState.PENDING and self.stack.active is None

    @rule(with_ctx=st.booleans())
    def start_queued(self, with_ctx: bool) -> None:
        waiting = self.stack.queued
        started = self.attempt(lambda: self.stack.start_queued(CTX if with_ctx else None))
        assert started is waiting and (started is None or started.state is FlowState.ACTIVE)

    @rule(outputs=st.dictionaries(st.sampled_from(["booking_ref", "origin", "flight_id"]), st.text(max_size=3)))
    def complete(self, outputs: dict[str, str]) -> None:
        self.attempt(lambda: self.stack.complete(now=self.tick(1), outputs=outputs))

    @rule()
    def pop_completed(self) -> None:
        popped = self.attempt(lambda: self.stack.pop_completed(self.tick(1)))
        assert all(f.state is FlowState.COMPLETED for f in popped)

    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        ref = self.ref(data)
        self.attempt(lambda: self.stack.cancel(ref, now=self.tick(1)))

    @rule(data=st.data())
    def fail(self, data: st.DataObject) -> None:
        ref = self.ref(data)
        self.attempt(lambda: self.stack.fail(ref, now=self.tick(1), reason="boom"))

    @rule(data=st.data())
    def resume(self, data: st.DataObject) -> None:
        ref = self.ref(data)
        self.attempt(lambda: self.stack.resume(ref, self.tick(1), CTX))

    @rule(name=st.sampled_from(DOMAIN_FLOWS))
    def fallback(self, name: str) -> None:
        flow = self.new(name)
        self.attempt(lambda: self.stack.fallback(None, flow, self.tick(1), CTX))

    @rule(steps=st.lists(st.sampled_from(DOMAIN_FLOWS), max_size=4), fresh=st.booleans())
    def plan(self, steps: list[str], fresh: bool) -> None:
        active = self.stack.active
        plan = self.new("plan_trip") if fresh or active is None else active
        flows = [self.new(n) for n in steps]
        self.attempt(lambda: self.stack.plan(plan, flows, self.tick(1)))

    @rule(data=st.data(), action=st.sampled_from(["continue", "reorder", "expand", "prune", "shuffle"]))
    def replan(self, data: st.DataObject, action: str) -> None:
        plan_ref = data.draw(st.sampled_from(self.plans()))
        pending = [f.flow_id for f in self.stack.pending] + ["no_such_flow"]
        order = data.draw(st.permutations(pending[:-1]))
        prune = data.draw(st.lists(st.sampled_from(pending), max_size=2))
        flows = [self.new(n) for n in data.draw(st.lists(st.sampled_from(DOMAIN_FLOWS), max_size=2))]
        self.attempt(lambda: self.stack.replan(plan_ref, action, self.tick(1), order=order, flows=flows,
                                               prune=prune, ctx=CTX))

    @rule(data=st.data())
    def abandon_plan(self, data: st.DataObject) -> None:
        plan_ref = data.draw(st.sampled_from(self.plans()))
        self.attempt(lambda: self.stack.abandon_plan(plan_ref, self.tick(1)))

    @rule(dt=st.floats(0, 4000))
    def abandon_stale(self, dt: float) -> None:
        now = self.tick(dt)
        for flow in self.attempt(lambda: self.stack.abandon_stale(now)):
            assert flow.state in (FlowState.ABANDONED, FlowState.INVALID)

    @rule(text=st.sampled_from(["go back to booking", "the flight", "", "check it"]))
    def rank_paused_is_a_pure_query(self, text: str) -> None:
        before = self.stack.serialize()
        ranking = self.stack.rank_paused(text, self.now)
        assert {f.flow_id for f, _ in ranking.ranked} == {f.flow_id for f in self.stack.paused if f.can_be_resumed}
        scores = [score for _, score in ranking.ranked]
        assert scores == sorted(scores, reverse=True)
        assert self.stack.serialize() == before

    @rule(labels=LABELS)
    def fill_active(self, labels: dict[str, Any]) -> None:
        if self.stack.active is not None:
            before = {n: s.value for n, s in self.stack.active.slots.items()}
            checks = self.stack.active.fill_slots_by_label(labels, CTX)
            for name, check in checks.items():
                if not check.ok:
                    assert self.stack.active.slots[name].value == before[name]

    @rule(turn=st.integers(1, 50), keep_going=st.booleans())
    def turn(self, turn: int, keep_going: bool) -> None:
        self.state.turn, self.state.keep_going = turn, keep_going
        self.state.set_confidence([("book_flight", 0.5), ("faq", turn / 100)])
        if self.stack.active is not None:
            self.stack.active.record_turn(turn)

    # -- invariants -----------------------------------------------------------------
    @invariant()
    def at_most_one_active_flow_and_it_is_on_top(self) -> None:
        active = [f for f in self.stack.flows if f.state is FlowState.ACTIVE]
        assert len(active) <= 1
        if active:
            assert self.stack.top is active[0]

    @invariant()
    def nothing_is_lost(self) -> None:
        on_stack = {f.flow_id for f in self.stack.flows}
        archived = {f.flow_id for f in self.stack.archive}
        assert not on_stack & archived
        assert self.ever <= on_stack | archived
        assert all(f.state in TERMINAL for f in self.stack.archive)
        assert all(not f.terminal or f.state is FlowState.COMPLETED for f in self.stack.flows)

    @invariant()
    def no_two_open_flows_share_a_name(self) -> None:
        names = [f.name for f in self.stack.flows if f.state in (FlowState.ACTIVE, FlowState.PENDING)]
        assert len(names) == len(set(names))

    @invariant()
    def plan_steps_share_their_plan_id(self) -> None:
        by_id = {f.flow_id: f for f in self.stack.flows}
        for flow in self.stack.flows:
            if flow.plan_id is not None and flow.live:
                owner = by_id.get(flow.plan_id)
                assert owner is not None and isinstance(owner, PlanFlow) and owner.plan_id == owner.flow_id
                if flow is not owner:
                    assert not isinstance(flow, PlanFlow)
                    assert self.stack.flows.index(flow) > self.stack.flows.index(owner)

    @invariant()
    def depth_never_exceeds_the_limit_through_push(self) -> None:
        assert all(f.created_at <= self.now for f in self.stack.flows)

    @invariant()
    def state_round_trips_and_diffs_replay(self) -> None:
        data = self.state.serialize()
        assert DialogueState.from_dict(data, self.registry).serialize() == data
        assert apply_diff(self.previous, make_diff(self.previous, data)) == data
        self.previous = data


StackMachine.TestCase.settings = settings(
    max_examples=250, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_stack_machine = StackMachine.TestCase



IDS = st.text(alphabet="f0123456789", min_size=1, max_size=4)
V1_META = st.fixed_dictionaries({}, optional={
    "resume_options": st.lists(IDS, max_size=3),
    "cancel_options": st.fixed_dictionaries({"ids": st.lists(IDS, max_size=3), "flow": st.sampled_from(DOMAIN_FLOWS),
                                             "labels": st.dictionaries(st.sampled_from(["origin", "seat"]), st.text(max_size=5))}),
    "plan_review": IDS,
    "last_filled": st.fixed_dictionaries({"flow_id": IDS, "slot": st.sampled_from(["origin", "date"])}),
    "retry_offers": st.dictionaries(IDS, st.booleans(), max_size=2),
    "reask": st.dictionaries(IDS, st.sampled_from(["origin", "date"]), max_size=2),
    "plans": st.dictionaries(IDS, st.lists(st.fixed_dictionaries({
        "flow": st.sampled_from(DOMAIN_FLOWS), "labels": st.dictionaries(st.sampled_from(["origin", "date"]), st.text(max_size=5)),
        "refs": st.dictionaries(st.sampled_from(["origin", "destination"]), st.tuples(st.integers(0, 3), st.sampled_from(["origin"]))
                                .map(list)),
        "flow_id": st.none() | IDS}), max_size=3), max_size=2),
    "plan_decisions": st.lists(st.fixed_dictionaries({"plan": IDS, "action": st.sampled_from(["proposed", "started"])}), max_size=3),
    "recovery": st.dictionaries(IDS, st.lists(st.sampled_from(["retry", "reroute"]), max_size=2), max_size=2),
    "snapshot": st.booleans(),
})


@settings(max_examples=60, deadline=None)
@given(meta=V1_META, offer=st.none() | IDS, approval=st.none() | st.fixed_dictionaries(
    {"tool": st.sampled_from(["send_itinerary"]), "args": st.dictionaries(st.sampled_from(["to"]), st.text(max_size=5)),
     "reason": st.text(max_size=5), "flow_id": IDS}))
def test_any_state_stored_in_format_v1_loads_and_then_round_trips_in_v2(
    meta: dict[str, Any], offer: str | None, approval: dict[str, Any] | None
) -> None:
    factory = FlowFactory(ONTOLOGIES[("cancel_oldest", 5)], SlotRegistry.for_domain(ONTOLOGIES[("cancel_oldest", 5)]), ids=counter_ids())
    state = DialogueState.new()
    state.stack.push(factory.create("book_flight", now=0), now=0)
    data = {k: v for k, v in state.serialize().items()
            if k not in ("pending", "last_filled", "confirmed", "plans", "proposed_steps", "plan_decisions", "recovery")}
    data.update(v=1, pending_offer=offer, pending_approval=approval, meta=meta)
    loaded = DialogueState.from_dict(data, factory)
    if approval is not None:
        assert loaded.pending is not None and loaded.pending.kind == "approval"
    again = loaded.serialize()
    assert again["v"] == 2 and "meta" not in again
    assert DialogueState.from_dict(again, factory).serialize() == again
