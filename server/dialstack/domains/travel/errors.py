"""Domain errors of the travel tools: each message is shown to the user as is."""

from __future__ import annotations

from ...tools.context import ToolInputError


class TravelError(ToolInputError):
    """A travel request that cannot be carried out; ``category`` names the kind for skills."""

    category = "invalid_request"


class UnknownCity(TravelError):
    category = "unknown_city"


class AmbiguousCity(TravelError):
    category = "ambiguous_city"


class InvalidDate(TravelError):
    category = "invalid_date"


class PastDate(TravelError):
    category = "past_date"


class UnknownFlight(TravelError):
    category = "unknown_flight"


class SoldOut(TravelError):
    category = "sold_out"


class UnknownBooking(TravelError):
    category = "unknown_booking"


class BookingNotChangeable(TravelError):
    """Cancelled or departed bookings cannot be changed, cancelled again or reminded about."""

    category = "booking_not_changeable"


class AdvisoryUnavailable(TravelError):
    category = "advisory_unavailable"


class DeliveryFailed(TravelError):
    category = "delivery_failed"


class DataNotPrepared(TravelError):
    """The travel database is missing: the pack's prepare hook did not run for this data folder."""

    category = "data_not_prepared"
