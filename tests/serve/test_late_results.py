"""A sync handler past its timeout cannot be killed: its late result is audited and recorded.

The handler here blocks on an event the test sets, so nothing waits on the clock: the
call's own ``timeout_ms`` expires, the test releases the thread, and
``runtime.wait_abandoned`` returns once the late result is recorded.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

from dialstack.domain.models import Capabilities, DomainPack, ToolSpec
from dialstack.serve.server import build_server

from .conftest import audit_log

RUNS: Counter[str] = Counter()
GATES: dict[str, threading.Event] = {}
STARTED: dict[str, threading.Event] = {}


def book(ref: str, fail: bool = False) -> dict[str, Any]:
    """A non-idempotent side effect that blocks until the test releases it."""
    RUNS[ref] += 1
    STARTED[ref].set()
    GATES[ref].wait(30)
    if fail:
        raise RuntimeError("the booking backend refused")
    return {"ref": ref, "runs": RUNS[ref]}


BOOK = ToolSpec(
    tool_id="book",
    name="Book",
    description="Book something (blocks until released by the test). Not idempotent.",
    input_schema={"type": "object", "properties": {"ref": {"type": "string"}, "fail": {"type": "boolean"}}, "required": ["ref"]},
    output_schema={"type": "object", "properties": {"ref": {"type": "string"}, "runs": {"type": "integer"}}, "required": ["ref", "runs"]},
    idempotent=False,
    timeout_ms=100,
    capabilities=Capabilities(changes_state=True),
    handler=f"{__name__}:book",
)
BOOK_SLOW = BOOK.model_copy(update={"tool_id": "book_slow", "timeout_ms": 600_000})  # cancelled long before its timeout


@pytest.fixture
def late_server(demo: DomainPack, store) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    pack = demo.model_copy(update={"manifest": demo.manifest.model_copy(update={"tools": [*demo.manifest.tools, BOOK, BOOK_SLOW]})})
    server = build_server(pack, store, default_session="default")
    yield server
    for gate in GATES.values():
        gate.set()
    server.dialstack.runtime.wait_abandoned(10)
    server.dialstack.runtime.close()


def _gate(ref: str) -> threading.Event:
    GATES[ref] = threading.Event()
    STARTED[ref] = threading.Event()
    RUNS[ref] = 0
    return GATES[ref]


async def _finish(server: Any, gate: threading.Event) -> None:
    gate.set()
    assert await asyncio.to_thread(server.dialstack.runtime.wait_abandoned, 10)


def _late_entries(server: Any, store: Any, session: str) -> list[dict[str, Any]]:
    return [e for e in audit_log(server, store, session) if e["kind"] == "late_result"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_late_finishing_sync_handler_gets_its_audit_row(late_server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    ref = f"late-{mode}"
    gate = _gate(ref)
    async with Client(late_server, mode=mode) as client:
        result = await client.call_tool("book", {"ref": ref}, meta={"dialstack/session": "s1"})
    assert result.is_error and result.meta["dialstack/error"] == "timeout"
    text = result.content[0].text
    assert "did not finish within its timeout of 100 ms" in text
    assert "may still complete" in text and "Check whether it took effect before retrying" in text
    assert "was cancelled" not in text
    assert late_server.dialstack.runtime.abandoned_calls == 1
    assert _late_entries(late_server, store, "s1") == []  # still running: nothing to record yet

    await _finish(late_server, gate)
    [late] = _late_entries(late_server, store, "s1")
    assert late["tool"] == "book" and late["ok"] is True and late["finished_after_timeout"] is True
    assert late["abandoned"] == "timeout"
    assert late["receipt_recorded"] is False and late["idempotency_key"] is None
    assert RUNS[ref] == 1


async def test_late_failure_is_audited_as_an_error_and_records_no_receipt(late_server, store) -> None:  # type: ignore[no-untyped-def]
    gate = _gate("late-fail")
    meta = {"dialstack/session": "s1", "dialstack/idempotency_key": "k-fail"}
    async with Client(late_server) as client:
        first = await client.call_tool("book", {"ref": "late-fail", "fail": True}, meta=meta)
        assert first.is_error
        await _finish(late_server, gate)
        [late] = _late_entries(late_server, store, "s1")
        assert late["ok"] is False and late["error"] == "handler_error" and "backend refused" in late["message"]
        assert late["receipt_recorded"] is False
        # no result was recorded for the key, so the key is free again: the call runs anew
        GATES["late-fail"].set()
        again = await client.call_tool("book", {"ref": "late-fail", "fail": True}, meta=meta)
    assert again.is_error and "backend refused" in again.content[0].text
    assert RUNS["late-fail"] == 2


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_retry_with_the_same_key_after_the_late_finish_returns_the_recorded_result(late_server, store, mode: str) -> None:  # type: ignore[no-untyped-def]
    ref = f"retry-after-{mode}"
    gate = _gate(ref)
    meta = {"dialstack/session": "s1", "dialstack/idempotency_key": f"k-{mode}"}
    async with Client(late_server, mode=mode) as client:
        first = await client.call_tool("book", {"ref": ref}, meta=meta)
        assert first.is_error and "recorded under this call's idempotency key" in first.content[0].text
        await _finish(late_server, gate)
        retry = await client.call_tool("book", {"ref": ref}, meta=meta)
    assert not retry.is_error
    assert retry.structured_content == {"ref": ref, "runs": 1}
    assert retry.meta["dialstack/replayed"] is True
    assert RUNS[ref] == 1  # the handler ran once
    [late] = _late_entries(late_server, store, "s1")
    assert late["ok"] is True and late["receipt_recorded"] is True and late["idempotency_key"] == f"k-{mode}"


async def test_retry_while_the_keyed_call_is_still_running_does_not_start_it_again(late_server, store) -> None:  # type: ignore[no-untyped-def]
    gate = _gate("busy")
    meta = {"dialstack/session": "s1", "dialstack/idempotency_key": "k-busy"}
    async with Client(late_server) as client:
        first = await client.call_tool("book", {"ref": "busy"}, meta=meta)
        assert first.is_error and first.meta["dialstack/error"] == "timeout"
        retries = await asyncio.gather(*(client.call_tool("book", {"ref": "busy"}, meta=meta) for _ in range(3)))
        other_args = await client.call_tool("book", {"ref": "other"}, meta=meta)
        assert RUNS["busy"] == 1 and RUNS["other"] == 0
        for retry in retries:
            assert retry.is_error and retry.meta["dialstack/error"] == "still_running"
            assert "still running" in retry.content[0].text and "not started again" in retry.content[0].text
        assert other_args.is_error and other_args.meta["dialstack/error"] == "idempotency_conflict"

        await _finish(late_server, gate)
        done = await client.call_tool("book", {"ref": "busy"}, meta=meta)
    assert done.structured_content == {"ref": "busy", "runs": 1} and done.meta["dialstack/replayed"] is True
    assert RUNS["busy"] == 1
    calls = [e for e in audit_log(late_server, store, "s1") if e["kind"] == "tool_call"]
    assert [e["error"] for e in calls] == ["timeout", "still_running", "still_running", "still_running", "idempotency_conflict", None]


async def test_async_handler_past_its_timeout_is_really_cancelled(late_server, store) -> None:  # type: ignore[no-untyped-def]
    async with Client(late_server) as client:
        result = await client.call_tool("slow_async", {}, meta={"dialstack/session": "s1"})
    assert result.is_error and "was cancelled" in result.content[0].text
    assert "stopped at its next await" in result.content[0].text
    assert late_server.dialstack.runtime.abandoned_calls == 0
    assert _late_entries(late_server, store, "s1") == []


async def test_cancelled_request_with_a_running_sync_handler_is_recorded_too(late_server, store) -> None:  # type: ignore[no-untyped-def]
    """A cancelled request (client cancel, dropped connection) abandons the thread like a timeout does."""
    runtime = late_server.dialstack.runtime
    spec = runtime.tools["book_slow"]
    gate = _gate("cancelled")
    call = asyncio.create_task(runtime.run(spec, {"ref": "cancelled"}, session_id="s1", idempotency_key="k-cancel"))
    assert await asyncio.to_thread(STARTED["cancelled"].wait, 10)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    busy = runtime.replay(spec, {"ref": "cancelled"}, session_id="s1", idempotency_key="k-cancel")
    assert busy is not None and busy.error == "still_running"

    await _finish(late_server, gate)
    replayed = runtime.replay(spec, {"ref": "cancelled"}, session_id="s1", idempotency_key="k-cancel")
    assert replayed is not None and replayed.ok and replayed.data == {"ref": "cancelled", "runs": 1}
    [late] = _late_entries(late_server, store, "s1")
    assert late["tool"] == "book_slow" and late["ok"] is True and late["receipt_recorded"] is True
    assert late["abandoned"] == "cancelled" and late["finished_after_timeout"] is False
