"""Fixtures of the agent tests: the local stub of the Anthropic Messages API."""

from .stub_messages_api import messages_server, messages_stub

__all__ = ["messages_server", "messages_stub"]
