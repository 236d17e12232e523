"""The real travel domain through the server and the real MCP client."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from dialstack.agent.toolclient import ToolClient
from dialstack.domain import DomainPack, load_domain
from dialstack.store import InMemoryStore
from dialstack.tools.prepare import prepare_domain


@pytest.fixture
def travel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DomainPack:
    domain = load_domain("travel", check_handlers=True)
    prepare_domain(domain, tmp_path, date.today())  # a copy of the suite's prepared travel database
    monkeypatch.setenv("DIALSTACK_TRAVEL_DB", str(tmp_path / "travel.db"))
    return domain


async def test_travel_server_lists_every_manifest_tool_with_capability_meta(travel: DomainPack) -> None:
    with InMemoryStore() as store:
        async with ToolClient(travel, store=store) as tools:
            listed = {t.name: t for t in await tools.list_tools()}
    assert set(travel.tools) | {"context_coordinator", "memory_manager", "flow_stack"} == set(listed)
    for tool_id, spec in travel.tools.items():
        assert listed[tool_id].meta["dialstack/capabilities"] == sorted(spec.tags)
        assert listed[tool_id].meta["dialstack/requires_approval"] == spec.needs_approval


async def test_travel_read_only_tool_answers_through_the_client(travel: DomainPack) -> None:
    with InMemoryStore() as store:
        async with ToolClient(travel, store=store) as tools:
            result = await tools.call("list_cities", {}, session="travel-1")
    assert result.ok, result.text
    assert result.data and "cities" in result.data


async def test_a_domain_error_reaches_the_client_with_its_category(travel: DomainPack) -> None:
    with InMemoryStore() as store:
        async with ToolClient(travel, store=store) as tools:
            result = await tools.call("get_booking", {"booking_ref": "BK-99999"}, session="travel-1")
    assert not result.ok
    assert result.category == "unknown_booking"
    assert "BK-99999" in result.text
