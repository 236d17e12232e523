"""ToolClient: the MCP SDK loads with a connection, and an in-process dialstack server is trusted."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from mcp.client.session import ClientSession

from dialstack.agent.toolclient import ToolClient
from dialstack.domain import load_domain
from dialstack.store import InMemoryStore


def test_importing_the_agent_does_not_import_the_mcp_sdk() -> None:
    code = (
        "import sys\n"
        "from dialstack import Agent\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types'))\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the tools whose results the SDK client validated against their output schema."""
    seen: list[str] = []
    original = ClientSession.validate_tool_result

    async def counting(self: ClientSession, name: str, result: Any) -> None:
        seen.append(name)
        await original(self, name, result)

    monkeypatch.setattr(ClientSession, "validate_tool_result", counting)
    return seen


async def test_results_of_an_in_process_dialstack_server_are_not_validated_again(validations: list[str]) -> None:
    store = InMemoryStore()
    async with ToolClient(load_domain("travel"), store=store) as tools:
        result = await tools.call("memory_manager", {"action": "read_preferences"}, session="s")
    assert result.ok and validations == []


async def test_results_of_any_other_server_are_still_validated(validations: list[str]) -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bare", log_level="WARNING")

    @server.tool()
    def echo(text: str) -> dict[str, str]:
        """Return the text unchanged."""
        return {"text": text}

    async with ToolClient(server) as tools:
        result = await tools.call("echo", {"text": "hi"}, session="s")
    assert result.ok and validations == ["echo"]
