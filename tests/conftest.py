"""Suite-wide guards: no test reaches the network beyond loopback."""

from __future__ import annotations

import os
import socket

import pytest
from hypothesis import settings

# CI replays a fixed set of examples (no flakiness between runs); locally each run explores anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address, *args, **kwargs):  # type: ignore[no-untyped-def]
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and self.family in (socket.AF_INET, socket.AF_INET6):
        if not (host.startswith("127.") or host in ("::1", "localhost")):
            raise RuntimeError(f"test tried to reach {host!r}: tests must stay on loopback")
    return _real_connect(self, address, *args, **kwargs)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)
