"""Booking-intent policies of the travel domain."""

from __future__ import annotations

from ....agent.policies import Policy


class CancelBookingPolicy(Policy):
    """Cancelling a booking that is already cancelled shows that booking instead."""

    hard_fallbacks = {"booking_not_changeable": "check_booking", "already_cancelled": "check_booking"}


POLICIES = {"cancel_booking": CancelBookingPolicy}
