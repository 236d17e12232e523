"""Argument provenance through the server: values of an output record the user named are the user's choice."""

from __future__ import annotations

from typing import Any

import pytest

import demo_handlers
from dialstack.agent.toolclient import ToolClient
from dialstack.serve.server import build_server
from dialstack.tools.sessions import record_user_text

ROLES = {"to": {"type": "string", "x-dialstack-role": "destination"}, "body": {"type": "string", "x-dialstack-role": "content"}}


@pytest.fixture
def roles_server(demo, store, monkeypatch):  # type: ignore[no-untyped-def]
    def team_page(url: str) -> dict[str, Any]:
        return {"url": url, "content": "team-desk@example.com"}

    monkeypatch.setattr(demo_handlers, "team_page", team_page, raising=False)
    changes = {"send_message": {"input_schema": {**demo.tools["send_message"].input_schema, "properties": ROLES}},
               "fetch_page": {"handler": "demo_handlers:team_page"}}
    tools = [t.model_copy(update=changes[t.tool_id]) if t.tool_id in changes else t for t in demo.manifest.tools]
    pack = demo.model_copy(update={"manifest": demo.manifest.model_copy(update={"tools": tools})})
    server = build_server(pack, store, principal="default")
    yield server
    server.dialstack.runtime.close()


async def test_an_address_from_a_page_the_user_named_goes_without_asking_and_from_another_page_asks(roles_server, store) -> None:  # type: ignore[no-untyped-def]
    seen: list = []  # type: ignore[type-arg]

    async def approver(tool: str, args: dict[str, Any], reason: str) -> bool:
        seen.append(tool)
        return False

    record_user_text(store, "named", "send the bookings to the address on https://example.com/team")
    record_user_text(store, "other", "send the bookings to the address on my team page")
    async with ToolClient(roles_server, approver=approver) as tools:
        for session in ("named", "other"):
            await tools.call("fetch_page", {"url": "https://example.com/team"}, session=session)
        named = await tools.call("send_message", {"to": "team-desk@example.com", "body": "the bookings"}, session="named")
        other = await tools.call("send_message", {"to": "team-desk@example.com", "body": "the bookings"}, session="other")
    assert named.ok and other.approval == "declined" and seen == ["send_message"]


@pytest.fixture
def address_server(demo, store, monkeypatch):  # type: ignore[no-untyped-def]
    def address_page(url: str) -> dict[str, Any]:
        return {"url": url, "content": "23 Rue Lepic, 75018 Paris"}

    monkeypatch.setattr(demo_handlers, "address_page", address_page, raising=False)
    changes = {"send_message": {"input_schema": {**demo.tools["send_message"].input_schema, "properties": ROLES}},
               "fetch_page": {"handler": "demo_handlers:address_page"}}
    tools = [t.model_copy(update=changes[t.tool_id]) if t.tool_id in changes else t for t in demo.manifest.tools]
    pack = demo.model_copy(update={"manifest": demo.manifest.model_copy(update={"tools": tools})})
    server = build_server(pack, store, principal="default")
    yield server
    server.dialstack.runtime.close()


async def test_a_whole_field_copied_into_a_message_goes_and_one_reworded_around_its_number_asks(address_server) -> None:  # type: ignore[no-untyped-def]
    seen: list = []  # type: ignore[type-arg]

    async def approver(tool: str, args: dict[str, Any], reason: str) -> bool:
        seen.append(args["body"])
        return False

    async with ToolClient(address_server, approver=approver) as tools:
        page = await tools.call("fetch_page", {"url": "https://example.com/hotel"}, session="C")
        copied = await tools.call("send_message", {"to": "bob@example.com", "body": page.data["content"]}, session="C")
        reworded = await tools.call("send_message", {"to": "bob@example.com", "body": "meet me at number 75018"}, session="C")
    assert copied.ok and reworded.approval == "declined" and seen == ["meet me at number 75018"]


async def test_a_note_the_assistant_wrote_is_not_a_record_the_user_can_name(roles_server, store) -> None:  # type: ignore[no-untyped-def]
    seen: list = []  # type: ignore[type-arg]

    async def approver(tool: str, args: dict[str, Any], reason: str) -> bool:
        seen.append(tool)
        return tool == "memory_manager"  # the user lets the note be written, not the send

    async with ToolClient(roles_server, approver=approver) as tools:
        page = await tools.call("fetch_page", {"url": "https://example.com/other"}, session="M")
        await tools.call("memory_manager", {"action": "write_scratchpad", "key": "team desk notes",
                                            "text": page.data["content"]}, session="M")
        record_user_text(store, "M", "send the bookings to the address in my team desk notes")
        await tools.call("memory_manager", {"action": "read_scratchpad"}, session="M")
        sent = await tools.call("send_message", {"to": "team-desk@example.com", "body": "the bookings"}, session="M")
    assert sent.approval == "declined" and seen == ["memory_manager", "send_message"]
