"""``ServedDomain``: closing a served domain keeps the audit row of a call that finishes late.

The tool blocks on an event the test sets, so nothing depends on the clock but the
call's own ``timeout_ms`` (100 ms, set on purpose) and the grace given to ``close``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

from dialstack.domain.models import Capabilities, DomainPack, ToolSpec
from dialstack.serve.server import ServedDomain, serve_domain

RELEASE = threading.Event()


def hold(ref: str) -> dict[str, Any]:
    """A booking that finishes only once the test releases it."""
    RELEASE.wait(30)
    return {"ref": ref}


HOLD = ToolSpec(
    tool_id="hold",
    name="Hold",
    description="Hold a booking (blocks until released by the test).",
    input_schema={"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]},
    output_schema={"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]},
    idempotent=False,
    timeout_ms=100,
    capabilities=Capabilities(changes_state=True),
    handler=f"{__name__}:hold",
)


@pytest.fixture
def served(demo: DomainPack, store: Any) -> Iterator[ServedDomain]:
    RELEASE.clear()
    pack = demo.model_copy(update={"manifest": demo.manifest.model_copy(update={"tools": [*demo.manifest.tools, HOLD]})})
    handle = serve_domain(pack, store, default_session="default")
    yield handle
    RELEASE.set()
    handle.close(30)


async def _time_out(served: ServedDomain) -> None:
    async with Client(served.server) as client:
        result = await client.call_tool("hold", {"ref": "H-1"}, meta={"dialstack/session": "s1"})
    assert result.is_error and result.meta["dialstack/error"] == "timeout"
    assert served.runtime.abandoned_calls == 1


async def test_aclose_waits_for_a_late_result_and_its_audit_row_is_kept(
    served: ServedDomain, store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _time_out(served)
    wait = served.runtime.wait_abandoned

    def release_then_wait(timeout: float | None = None) -> bool:
        RELEASE.set()  # the call finishes only once aclose is waiting for it
        return wait(timeout)

    monkeypatch.setattr(served.runtime, "wait_abandoned", release_then_wait)
    assert await served.aclose(30) is True
    late = [e for e in store.audit_log("s1") if e["kind"] == "late_result"]
    assert [(e["tool"], e["ok"], e["abandoned"]) for e in late] == [("hold", True, "timeout")]


async def test_a_call_still_running_after_the_grace_is_reported_not_waited_for(
    served: ServedDomain, store: Any, caplog: pytest.LogCaptureFixture
) -> None:
    await _time_out(served)
    assert await served.aclose(0.0) is False
    assert any("still running after 0 s; their late results are not recorded" in r.getMessage() for r in caplog.records)
    RELEASE.set()
    assert await asyncio.to_thread(served.runtime.wait_abandoned, 30)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert [e for e in store.audit_log("s1") if e["kind"] == "late_result"] == []
