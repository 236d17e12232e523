"""What a tool handler gets besides its arguments: the session, the store, a clock, paths.

Handlers are ``module:function`` (sync or async). The runtime calls them with the
validated arguments as keyword arguments and, when the function accepts a parameter
named ``ctx`` (or ``**kwargs``), also ``ctx=ToolContext(...)``::

    def search_flights(origin: str, destination: str, *, ctx: ToolContext) -> dict:
        today = ctx.now().date()
        ...

A handler returns a JSON-compatible dict matching the tool's ``output_schema``. It may
raise :class:`TransientToolError` for a failure worth one retry (idempotent tools only);
any other exception becomes an ``isError`` result naming the tool and the reason.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from ..store.protocol import Store


log = logging.getLogger(__name__)


class Closeable(Protocol):
    def close(self) -> None: ...


R = TypeVar("R", bound=Closeable)


class Resources:
    """What handlers keep open between calls (a database connection): one set per tool
    runtime, closed when it closes (``ServedDomain.close``, ``Agent.close``).

    ``ctx.resources.get(key, opener)`` is the resource under ``key``, made by ``opener()`` on
    first use (keep ``opener`` cheap: it runs under this set's lock). Handlers run in worker
    threads, so a resource shared this way must be safe to use from several threads.
    """

    def __init__(self) -> None:
        self._items: dict[str, Closeable] = {}
        self._lock = threading.Lock()
        self._closed = False

    def get(self, key: str, opener: Callable[[], R]) -> R:
        with self._lock:
            if self._closed:
                raise RuntimeError("the tool runtime is closed; its handlers' resources were released")
            item = self._items.get(key)
            if item is None:
                item = self._items[key] = opener()
            return item  # type: ignore[return-value]

    def close(self) -> None:
        """Close every resource (last opened first); later ``get`` calls raise."""
        with self._lock:
            self._closed = True
            items, self._items = list(self._items.values()), {}
        for item in reversed(items):
            try:
                item.close()
            except Exception:  # one resource failing to close must not keep the others open
                log.exception("closing a tool handler resource failed")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class TransientToolError(Exception):
    """A failure that may succeed on a second try (a dropped connection, a busy backend).

    The runtime retries an idempotent tool once on this error (and on ``TimeoutError`` /
    ``ConnectionError`` raised by the handler); a non-idempotent tool is never retried.
    """


class ToolInputError(Exception):
    """The arguments are well-formed but unusable (an unknown airport, a past date).

    The message is shown to the caller as is: say what was wrong and the expected form.
    A subclass may set ``category`` (``"sold_out"``): it reaches the caller in the result's
    ``_meta`` as ``dialstack/error_category``, so policies can react to the kind of error.
    """

    category: str | None = None


@dataclass(frozen=True)
class ToolContext:
    """Injected into a handler as the keyword argument ``ctx``."""

    session_id: str
    tool: str
    domain: str
    store: Store | None = None
    now: Callable[[], datetime] = utc_now  # tz-aware UTC; tests inject a fixed clock
    data_dir: Path | None = None  # writable per-install data folder (e.g. the travel DB)
    pack_root: Path | None = None  # the domain pack folder (flows/, manifests/, skills/)
    user_id: str = "default"  # the calling principal (HTTP token's or the stdio user): preferences, bookings
    meta: dict[str, Any] = field(default_factory=dict)  # the request's _meta, read-only by convention
    resources: Resources | None = None  # the runtime's: what handlers keep open between calls (None: open per call)
