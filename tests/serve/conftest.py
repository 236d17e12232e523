"""Fixtures for the MCP server tests: the demo pack, a store, a built server."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dialstack.domain.loader import load_domain
from dialstack.domain.models import DomainPack
from dialstack.store import InMemoryStore

DEMO_PACK = Path(__file__).resolve().parents[1] / "fixtures" / "packs" / "demo"
if str(DEMO_PACK) not in sys.path:
    sys.path.insert(0, str(DEMO_PACK))  # demo_handlers lives there


@pytest.fixture(scope="session")
def demo() -> DomainPack:
    return load_domain("demo", DEMO_PACK)


@pytest.fixture
def store() -> Iterator[InMemoryStore]:
    s = InMemoryStore()
    yield s
    s.close()


@pytest.fixture
def server(demo: DomainPack, store: InMemoryStore):  # type: ignore[no-untyped-def]
    from dialstack.serve.server import build_server

    server = build_server(demo, store, default_session="default", principal="default")  # the store's default owner
    yield server
    server.dialstack.runtime.close()


@pytest.fixture(autouse=True)
def _release_hung_handlers() -> Iterator[None]:
    import demo_handlers

    demo_handlers.RELEASE.clear()
    yield
    demo_handlers.RELEASE.set()


def audit_log(server, store, session: str) -> list[dict]:  # type: ignore[no-untyped-def]
    """The session's audit log once the server's background audit writer has caught up."""
    server.dialstack.runtime.flush()
    return store.audit_log(session)
