"""Plan policies of the travel domain.

``plan_trip`` turns "a round trip to Paris next month, then Rome" into one booking per
leg: home -> Paris (next month), Paris -> Rome, Rome -> home. Legs after the first start
where the previous one landed; the return leg flies back to wherever the first leg left
from, read when that leg starts (the replanning check fills it in).
"""

from __future__ import annotations

import re

from ....agent.planning import PlanPolicy, Step
from ....agent.turn import Turn
from ....state.flows import BaseFlow

_ROUND_TRIP = re.compile(r"\bround[- ]?trip\b|\b(?:and|then|fly|come|go) back\b|\breturn(?:ing)?\b|\bback home\b", re.IGNORECASE)


_FROM = re.compile(r"\b(?:from|leaving|out of)\s+$", re.IGNORECASE)


class TripPlanPolicy(PlanPolicy):
    def decompose(self, turn: Turn, flow: BaseFlow, request: str) -> list[Step]:
        booking = turn.deps.domain.flow("book_flight")
        place = turn.deps.factory.slots.make(booking.slot("destination"))
        when = turn.deps.factory.slots.make(booking.slot("date"))
        found = place.extract(request, turn.slot_ctx)
        home = next((c.value for c in found if _FROM.search(request[: c.start])), None)
        cities: list[str] = []
        for cand in found:
            if cand.value != home and (not cities or cities[-1] != cand.value):
                cities.append(cand.value)
        if not cities:
            return super().decompose(turn, flow, request)
        dates = when.extract(request, turn.slot_ctx)
        steps: list[Step] = []
        origin = home
        for index, city in enumerate(cities):
            labels = {"destination": city}
            if origin:
                labels["origin"] = origin
            if index == 0 and dates:
                labels["date"] = dates[0].value
            steps.append(Step("book_flight", labels, city))
            origin = city
        if _ROUND_TRIP.search(request):
            back = Step("book_flight", {"origin": cities[-1]}, "return")
            if home:
                back.labels["destination"] = home
            else:
                back.refs["destination"] = (0, "origin")
            steps.append(back)
        return steps


POLICIES = {"plan_trip": TripPlanPolicy}
