"""Who may use a session, and what the gate must know about it: owner, taint, provenance.

:class:`SessionGuard` sits between the server and the store's guard tables
(:mod:`dialstack.store.guard`):

- :meth:`~SessionGuard.open` creates a session for its caller's principal, or refuses a
  caller that is not its owner (the same answer whether the session exists or not would
  hide nothing: ids are chosen by clients, and the refusal names no owner).
- :meth:`~SessionGuard.kinds` is the taint the gate reads: the session's, after the
  calling connection's taint has been copied into it.
- :meth:`~SessionGuard.delivered` records what a result (or an error text) handed to a
  client brings: its kinds on the session *and* the connection, and, for untrusted
  output, the digests of its values; the values of records the user named (a state-changing
  tool's output included).
- :meth:`~SessionGuard.untrusted_args` names the arguments whose values came from
  untrusted output (see :mod:`dialstack.tools.provenance`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..domain.models import ToolSpec
from ..store.guard import Guard, Origin
from . import gate, provenance


@dataclass(frozen=True)
class Caller:
    """Who is calling: the principal a session belongs to, and the connection the call came on.

    ``connection`` is None for a client that keeps each session's context apart (dialstack's
    own orchestrator): its taint is then kept per session only.
    """

    principal: str
    connection: str | None = None


class SessionRefused(Exception):
    """The caller's principal does not own the session it named."""


class Written:
    """Rows of the guard's grow-only tables (taint, provenance) this process has written.

    Nothing deletes those rows and every write of them is ``INSERT OR IGNORE``, so a row
    written once is there for good: sending it again changes nothing and costs a write
    transaction. Only writes are skipped; every read still goes to the store. Past ``limit``
    rows the memory starts afresh (and rows are sent again, harmlessly).
    """

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self._rows: set[tuple[str, ...]] = set()
        self._lock = threading.Lock()

    def new(self, rows: Iterable[tuple[str, ...]]) -> set[tuple[str, ...]]:
        """The rows of ``rows`` not written yet."""
        with self._lock:
            return {row for row in rows if row not in self._rows}

    def done(self, rows: set[tuple[str, ...]]) -> None:
        """``rows`` are in the store (their transaction committed)."""
        with self._lock:
            if len(self._rows) + len(rows) > self.limit:
                self._rows.clear()
            self._rows |= rows

    def record_values(self, guard: Guard, session_id: str, origin: Origin, digests: Iterable[str]) -> None:
        """``guard.record_values`` of the digests not written before."""
        rows = self.new((session_id, origin, d) for d in digests)
        if rows:
            guard.record_values(session_id, origin, [d for _, _, d in rows])
            self.done(rows)


class SessionGuard:
    def __init__(self, guard: Guard, domain: str) -> None:
        self.guard = guard
        self.domain = domain
        self._lock = threading.Lock()
        self._opened: set[tuple[str, str]] = set()
        self._connection_kinds: dict[str, frozenset[str]] = {}
        self._copied: set[tuple[str, str, frozenset[str]]] = set()
        self.written = Written()

    def open(self, session_id: str, caller: Caller) -> None:
        """Make sure ``session_id`` exists and belongs to the caller; SessionRefused if not."""
        pair = (session_id, caller.principal)
        if pair in self._opened:
            return
        owner = self.guard.own_session(session_id, self.domain, caller.principal)
        if owner is not None:
            raise SessionRefused(
                f"session {session_id!r} belongs to another user, so this connection (user {caller.principal!r}) "
                "may not read or use it. Name a session of your own in _meta[\"dialstack/session\"]"
            )
        with self._lock:
            self._opened.add(pair)

    def _connection(self, connection: str) -> frozenset[str]:
        kinds = self._connection_kinds.get(connection)
        if kinds is None:
            kinds = self._connection_kinds[connection] = self.guard.connection_kinds(connection)
        return kinds

    def kinds(self, session_id: str, caller: Caller) -> frozenset[str]:
        """The session's taint, with the connection's copied in (and kept) first."""
        carried = self._connection(caller.connection) if caller.connection is not None else frozenset()
        if carried and (session_id, caller.connection, carried) not in self._copied:
            kinds = self.guard.taint(session_id, caller.connection)
            with self._lock:
                self._copied.add((session_id, caller.connection, carried))  # type: ignore[arg-type]
            return gate.INITIAL_KINDS | kinds
        return gate.INITIAL_KINDS | self.guard.taint(session_id, None)

    def carry(self, session_id: str, caller: Caller) -> None:
        """Copy the connection's taint into the session (every session a tainted connection uses)."""
        if caller.connection is not None and self._connection(caller.connection):
            self.kinds(session_id, caller)

    def delivered(
        self, session_id: str, caller: Caller, added: frozenset[str], values: Iterable[Any], system: frozenset[str] = frozenset(),
        *, record_private: bool = False,
    ) -> None:
        """A result or error text of a tool adding ``added`` reached the client (``system``: its system-set fields).

        ``record_private``: the output is a domain tool's, not one of the conversation's own
        component tools' (whose text came from the user or the assistant): also keep digests of
        a private-only output, and of the records in it the user named.
        """
        if record_private and (named := provenance.named_values(values, lambda ds: {d for d, o in self.guard.origins(session_id, ds).items()
                                                                   if provenance.USER in o})):
            self.record_values(session_id, provenance.NAMED, named)
        if not added:
            return
        taint = self.written.new(("taint", session_id, caller.connection or "", kind) for kind in added)
        if taint:
            self.guard.add_taint(session_id, caller.connection, added)
            self.written.done(taint)
        if caller.connection is not None:
            with self._lock:
                self._connection_kinds[caller.connection] = self._connection(caller.connection) | added
        if gate.UNTRUSTED in added:
            for origin, digests in provenance.untrusted_digests(values, system).items():
                self.record_values(session_id, origin, digests)
        elif record_private and gate.PRIVATE in added:
            self.record_values(session_id, provenance.PRIVATE, provenance.text_digests(values, system))

    def record_values(self, session_id: str, origin: Origin, digests: Iterable[str]) -> None:
        self.written.record_values(self.guard, session_id, origin, digests)


    def argument_origins(
        self, session_id: str, spec: ToolSpec, args: Mapping[str, Any],
    ) -> tuple[frozenset[str] | None, frozenset[str]]:
        """``(untrusted, private)``: arguments whose values came from untrusted output (None when no
        rule reads that for ``spec``) and, for an external tool, from private output."""
        external = "communicates_externally" in spec.tags
        reads_untrusted = bool(gate.argument_roles(spec)) or "changes_state" in spec.tags
        if not external and not reads_untrusted:
            return None, frozenset()
        per_arg = provenance.argument_digests(args)
        wanted = provenance.looked_up(per_arg)
        origins = self.guard.origins(session_id, wanted) if wanted else {}
        content = gate.content_arguments(spec)
        untrusted = provenance.untrusted_arguments(per_arg, origins, content=content) if reads_untrusted else None
        private = provenance.untrusted_arguments(per_arg, origins, provenance.PRIVATE) if external else frozenset()
        return untrusted, private


def record_user_text(store: Any, session_id: str, text: str, written: Written | None = None) -> None:
    """Record what the user typed in ``session_id`` (the orchestrator calls this with each turn's text);
    with ``written``, only the digests it has not written before."""
    digests = provenance.text_digests([text])
    if written is None:
        Guard(store).record_values(session_id, provenance.USER, digests)
    else:
        written.record_values(Guard(store), session_id, provenance.USER, digests)


def claim_session(store: Any, session_id: str, domain: str, principal: str) -> None:
    """Create ``session_id`` for ``principal`` or check it is theirs (the orchestrator, before a turn).

    SessionRefused names the owner: this caller runs on the machine that holds the database.
    """
    owner = Guard(store).own_session(session_id, domain, principal)
    if owner is not None:
        raise SessionRefused(
            f"session {session_id!r} belongs to user {owner!r}, not {principal!r}; "
            f"pick another --session, or run as its owner with --user {owner}"
        )
