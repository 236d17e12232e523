"""Fixtures for the travel domain: one generated template database, a fresh copy per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from dialstack.domains.travel.db import fresh_copy, template_database
from dialstack.tools.context import Resources, ToolContext

START = date(2025, 11, 20)  # a Thursday
NOW = datetime(2025, 11, 20, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return template_database(tmp_path_factory.mktemp("travel-template"), START)


@pytest.fixture
def make_ctx(template: Path, tmp_path: Path) -> Iterator[Callable[..., ToolContext]]:
    """A ToolContext on a fresh copy of the database, with a fixed clock; its calls share
    one connection, as a runtime's do, closed when the test ends."""
    fresh_copy(template, tmp_path)
    resources = Resources()

    def make(now: datetime = NOW, **extra: object) -> ToolContext:
        return ToolContext(session_id="s-test", tool="test", domain="travel", now=lambda: now,
                           data_dir=tmp_path, resources=resources, **extra)  # type: ignore[arg-type]

    yield make
    resources.close()


@pytest.fixture
def ctx(make_ctx: Callable[..., ToolContext]) -> ToolContext:
    return make_ctx()
