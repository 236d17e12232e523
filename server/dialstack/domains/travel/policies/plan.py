"""Plan policies of the travel domain.

``plan_trip`` turns "a round trip to Paris next month, then Rome" into one booking per
leg: home -> Paris (next month), Paris -> Rome, Rome -> home. Legs after the first start
where the previous one landed; the return leg flies back to wherever the first leg left
from, read when that leg starts (the replanning check fills it in).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from ....agent.planning import PlanPolicy, Step
from ....agent.turn import Turn
from ....state.flows import BaseFlow

_ROUND_TRIP = re.compile(r"\bround[- ]?trip\b|\b(?:and|then|fly|come|go) back\b|\breturn(?:ing)?\b|\bback home\b", re.IGNORECASE)


_FROM = re.compile(r"\b(?:from|leaving|out of)\s+$", re.IGNORECASE)
_TO_NEXT = re.compile(r"\s+(?:to|-)\s+", re.IGNORECASE)
_TO = re.compile(r"\b(?:to|into)\s+$", re.IGNORECASE)


class TripPlanPolicy(PlanPolicy):
    def decompose(self, turn: Turn, flow: BaseFlow, request: str) -> list[Step]:
        booking = turn.deps.domain.flow("book_flight")
        place = turn.deps.factory.slots.make(booking.slot("destination"))
        when = turn.deps.factory.slots.make(booking.slot("date"))
        found = [c for c in place.extract(request, turn.slot_ctx) if c.score >= 0.5]
        # where the trip starts: 'from Boston ...', or 'boston to paris ...' (the first city, flown from)
        home = next((c.value for c in found if _FROM.search(request[: c.start])), None) \
            or next((c.value for c in found[:1] if _TO_NEXT.match(request, c.end) and not _TO.search(request[: c.start])), None)
        stops: list[tuple[str, int]] = []  # each leg's destination and where it is said
        for cand in found:
            # home said again after the first stop is the way back ('..., then home to Boston on Dec 18')
            if (cand.value != home or stops) and (not stops or stops[-1][0] != cand.value):
                stops.append((cand.value, cand.start))
        if not stops:
            return super().decompose(turn, flow, request)
        dates = when.extract(request, turn.slot_ctx)
        # 'my wife and I ..., Paris on the 10th, then Rome': how many travel goes for every leg
        party = [c for c in turn.deps.factory.slots.make(booking.slot("passengers")).extract(request, turn.slot_ctx)
                 if c.score >= 0.8]
        steps: list[Step] = []
        origin = home
        previous: str | None = None  # the date of the leg before
        for index, (city, at) in enumerate(stops):
            labels = {"destination": city}
            if origin:
                labels["origin"] = origin
            # 'boston to paris on dec 19, then paris to rome on the 21st': each date goes with the
            # destination said last before it (the first leg takes the first date said before any)
            until = stops[index + 1][1] if index + 1 < len(stops) else len(request)
            said = next((d for d in dates if at < d.start < until), None)
            if said is None and index == 0 and dates and dates[0].start < at:
                said = dates[0]
            date = said.value if said is not None else None
            if date is not None and previous is not None and str(date) < previous:
                # ('Paris on January 10th, and then on to Rome on the 17th': a later leg flies after the one before)
                later = replace(turn.slot_ctx, now=datetime.fromisoformat(previous).replace(tzinfo=turn.slot_ctx.now.tzinfo))
                again = when.extract(request[said.start:said.end], later)
                date = again[0].value if again and str(again[0].value) >= previous else date
            if date is not None:
                labels["date"] = previous = str(date)
            if party:
                labels["passengers"] = party[0].value
            steps.append(Step("book_flight", labels, city))
            origin = city
        if _ROUND_TRIP.search(request) and (home is None or stops[-1][0] != home):
            back = Step("book_flight", {"origin": stops[-1][0]}, "return")
            # '... to Paris on Jan 5 and back on Jan 12': a date said after the last leg's is the way back's
            last = max((d.end for d in dates if str(d.value) == previous), default=stops[-1][1])
            coming = next((d for d in dates if d.start >= last and (previous is None or str(d.value) >= previous)), None)
            if coming is not None:
                back.labels["date"] = str(coming.value)
            if home:
                back.labels["destination"] = home
            else:
                back.refs["destination"] = (0, "origin")
            steps.append(back)
        return steps


POLICIES = {"plan_trip": TripPlanPolicy}
