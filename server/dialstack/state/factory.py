"""Build flows from an ontology: fresh (from a FlowSpec) or restored (from ``serialize()``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..domain.imports import resolve
from ..domain.models import FlowSpec, Ontology, Settings
from .flows import PARENTS, BaseFlow, DomainFlow, FlowState, uuid_ids
from .slot_base import copy_json
from .slots import SlotRegistry


class FlowSpecError(LookupError):
    """A flow that cannot be built: unknown name, bad subclass or a state that doesn't fit."""


def build_flow(
    spec: FlowSpec,
    slots: SlotRegistry,
    *,
    flow_id: str,
    now: float,
    flow_class: type[BaseFlow] | None = None,
    role: str | None = None,
    defaults: bool = True,
) -> BaseFlow:
    """A pending flow for ``spec`` with fresh slots (declared defaults applied to optional slots)."""
    cls = flow_class or PARENTS.get(spec.intent, DomainFlow)
    made = {s.name: slots.make(s) for s in spec.slots}
    if defaults:
        for slot in made.values():
            if slot.priority == "optional":
                slot.set_default()
    return cls(spec=spec, flow_id=flow_id, slots=made, created_at=now, role=role)


class FlowFactory:
    """Creates and restores the flows of one domain; ids come from ``ids`` (injectable)."""

    def __init__(
        self,
        ontology: Ontology,
        slots: SlotRegistry | None = None,
        *,
        ids: Callable[[], str] | None = None,
        classes: Mapping[str, type[BaseFlow]] | None = None,
    ) -> None:
        self.ontology = ontology
        self.slots = slots or SlotRegistry.for_domain(ontology)
        self.ids = ids or uuid_ids
        self._specs = {f.name: f for f in ontology.flows}
        self._classes: dict[str, type[BaseFlow]] = dict(classes or {})

    @classmethod
    def of(cls, source: FlowFactory | SlotRegistry | Ontology) -> FlowFactory:
        """Accept whichever of the three a caller holds."""
        if isinstance(source, FlowFactory):
            return source
        if isinstance(source, SlotRegistry):
            if source.ontology is None:
                raise FlowSpecError("this SlotRegistry has no ontology; build it with SlotRegistry.for_domain(ontology)")
            return cls(source.ontology, source)
        return cls(source)

    @property
    def settings(self) -> Settings:
        return self.ontology.settings

    def spec(self, name: str) -> FlowSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise FlowSpecError(
                f"domain {self.ontology.domain!r} has no flow {name!r}; known: {', '.join(self._specs)}"
            ) from None

    def flow_class(self, spec: FlowSpec) -> type[BaseFlow]:
        """The registered or declared (``python:``) subclass, else the intent's parent class."""
        if spec.name in self._classes:
            return self._classes[spec.name]
        if spec.python:
            try:
                found = resolve(spec.python)
            except (ImportError, AttributeError, ValueError) as exc:
                raise FlowSpecError(f"flow {spec.name!r}: cannot import python {spec.python!r} ({exc})") from exc
            if not (isinstance(found, type) and issubclass(found, BaseFlow)):
                raise FlowSpecError(f"flow {spec.name!r}: {spec.python!r} is not a BaseFlow subclass")
            self._classes[spec.name] = found
            return found
        return PARENTS.get(spec.intent, DomainFlow)

    def register(self, name: str, flow_class: type[BaseFlow]) -> None:
        if not issubclass(flow_class, BaseFlow):
            raise FlowSpecError(f"flow {name!r}: {flow_class!r} is not a BaseFlow subclass")
        self.spec(name)
        self._classes[name] = flow_class

    def _role(self, spec: FlowSpec) -> str | None:
        intent = self.ontology.intents.get(spec.intent)
        return intent.role if intent else None

    def create(
        self,
        name: str,
        *,
        now: float,
        plan_id: str | None = None,
        natural_birth: bool = True,
        flow_id: str | None = None,
    ) -> BaseFlow:
        """A new pending flow named ``name`` (push it on a FlowStack to start it)."""
        spec = self.spec(name)
        flow = build_flow(spec, self.slots, flow_id=flow_id or self.ids(), now=now,
                          flow_class=self.flow_class(spec), role=self._role(spec))
        flow.plan_id = plan_id
        flow.natural_birth = natural_birth
        return flow

    def restore(self, data: Mapping[str, Any]) -> BaseFlow:
        """Rebuild a flow from ``BaseFlow.serialize()``."""
        spec = self.spec(str(data["name"]))
        flow = build_flow(spec, self.slots, flow_id=str(data["id"]), now=float(data["created_at"]),
                          flow_class=self.flow_class(spec), role=self._role(spec), defaults=False)
        for name, value in (data.get("slots") or {}).items():
            if name not in flow.slots:
                raise FlowSpecError(
                    f"stored flow {spec.name!r} ({data['id']}) has slot {name!r}, which the ontology no longer declares"
                )
            flow.slots[name].load_value(value)
        flow.state = FlowState(data["state"])
        flow.plan_id = data.get("plan_id")
        flow.turn_ids = list(data.get("turns") or [])
        flow.outputs = copy_json(data.get("outputs") or {})
        flow.inputs = copy_json(data.get("inputs") or {})
        flow.paused_at = data.get("paused_at")
        flow.ended_at = data.get("ended_at")
        flow.reason = data.get("reason", "")
        flow.natural_birth = bool(data.get("natural", True))
        return flow
