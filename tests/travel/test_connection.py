"""The travel database as a runtime's handlers share it: one WAL connection per file, closed
with the runtime, reopened for a rebuilt file, and other processes' bookings seen at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from dialstack import Agent
from dialstack.agent.result import Clock
from dialstack.domains.travel import handlers
from dialstack.domains.travel.db import fresh_copy, prepare
from dialstack.domains.travel.errors import UnknownBooking
from dialstack.tools.context import Resources, ToolContext

from .conftest import NOW, START

HAS_PROC_FDS = Path("/proc/self/fd").is_dir()
WAL = 2  # the file header's read/write format version bytes (offsets 18, 19) in WAL mode


def _context(data_dir: Path, resources: Resources | None) -> ToolContext:
    return ToolContext(session_id="s", tool="test", domain="travel", now=lambda: NOW, data_dir=data_dir,
                       resources=resources)


def _open_handles(path: Path) -> int:
    """How many of this process's file descriptors point at ``path`` (Linux)."""
    wanted = {str(path.resolve()), f"{path.resolve()} (deleted)"}
    count = 0
    for fd in Path("/proc/self/fd").iterdir():
        try:
            count += os.readlink(fd) in wanted
        except OSError:  # closed since the listing
            continue
    return count


def _book(ctx: ToolContext) -> str:
    flight = handlers.search_flights(origin="Boston", destination="Denver", date="2025-11-28", ctx=ctx)["flights"][0]
    return str(handlers.create_booking(flight_id=flight["flight_id"], ctx=ctx)["booking_ref"])


def _refs(ctx: ToolContext) -> list[str]:
    return [b["booking_ref"] for b in handlers.list_bookings(ctx=ctx)["bookings"]]


@pytest.fixture
def data_dir(template: Path, tmp_path: Path) -> Path:
    fresh_copy(template, tmp_path)
    return tmp_path


@pytest.fixture
def shared(data_dir: Path) -> Iterator[Callable[[], ToolContext]]:
    """Contexts whose calls share one connection, as a runtime's do."""
    resources = Resources()
    yield lambda: _context(data_dir, resources)
    resources.close()


def test_a_runtimes_calls_share_one_wal_connection_until_it_closes(data_dir: Path) -> None:
    resources = Resources()
    ctx = _context(data_dir, resources)
    handlers.list_cities(ctx=ctx)
    _book(ctx)
    assert handlers.get_booking(booking_ref="BK-12345", ctx=ctx)["status"] == "confirmed"
    header = (data_dir / "travel.db").read_bytes()[18:20]
    assert header == bytes([WAL, WAL])  # WAL with synchronous=NORMAL, as the store: no fsync per booking
    if HAS_PROC_FDS:
        assert _open_handles(data_dir / "travel.db") == 1  # kept between calls, not opened per call
    resources.close()
    if HAS_PROC_FDS:
        assert _open_handles(data_dir / "travel.db") == 0
    with pytest.raises(RuntimeError, match="closed"):
        handlers.list_cities(ctx=ctx)


def test_a_call_without_a_runtime_opens_and_closes_its_own_connection(data_dir: Path) -> None:
    ref = _book(_context(data_dir, None))
    assert ref in _refs(_context(data_dir, None))
    if HAS_PROC_FDS:
        assert _open_handles(data_dir / "travel.db") == 0


@pytest.mark.skipif(not HAS_PROC_FDS, reason="counts open files through /proc")
def test_closing_an_agent_closes_its_travel_database(tmp_path: Path) -> None:
    agent = Agent("travel", db=tmp_path / "chat.db", data_dir=tmp_path, clock=Clock(datetime(2026, 12, 1, tzinfo=timezone.utc)))
    try:
        agent.handle("s", "Look up booking BK-12345")
        assert _open_handles(tmp_path / "travel.db") == 1
    finally:
        agent.close()
    assert _open_handles(tmp_path / "travel.db") == 0
    (tmp_path / "travel.db").rename(tmp_path / "moved.db")  # nothing holds it


def test_a_failed_call_leaves_the_shared_connection_usable(shared: Callable[[], ToolContext]) -> None:
    before = _refs(shared())
    with pytest.raises(UnknownBooking):
        handlers.cancel_booking(booking_ref="BK-00000", ctx=shared())
    ref = _book(shared())
    assert set(_refs(shared())) == {*before, ref}


@pytest.mark.skipif(sys.platform == "win32", reason="Windows cannot delete a file that is open")
def test_a_database_prepared_again_after_its_file_was_deleted_is_read_from_the_new_file(
    shared: Callable[[], ToolContext], data_dir: Path
) -> None:
    ref = _book(shared())  # the shared connection is open on the first file
    (data_dir / "travel.db").unlink()
    prepare(data_dir, START)  # what the next start would do: the file is missing, so it is built again
    assert ref not in _refs(shared())
    with pytest.raises(UnknownBooking):
        handlers.get_booking(booking_ref=ref, ctx=shared())
    assert handlers.get_booking(booking_ref="BK-12345", ctx=shared())["status"] == "confirmed"


OTHER_PROCESS = """
import json, sys
from datetime import datetime, timezone
from pathlib import Path
from dialstack.domains.travel import handlers
from dialstack.tools.context import ToolContext

ctx = ToolContext(session_id="other", tool="test", domain="travel", data_dir=Path(sys.argv[1]),
                  now=lambda: datetime(2025, 11, 20, 9, 0, tzinfo=timezone.utc))
if sys.argv[2] == "book":
    print(json.dumps(handlers.create_booking(flight_id=sys.argv[3], ctx=ctx)["booking_ref"]))
else:
    print(json.dumps([b["booking_ref"] for b in handlers.list_bookings(ctx=ctx)["bookings"]]))
"""


def _other_process(data_dir: Path, *args: str) -> Any:
    done = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(data_dir), *args],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def test_bookings_of_another_process_are_seen_through_the_open_connection_and_back(
    shared: Callable[[], ToolContext], data_dir: Path
) -> None:
    ctx = shared()
    flight = handlers.search_flights(origin="Boston", destination="Denver", date="2025-11-28", ctx=ctx)["flights"][0]
    assert _refs(ctx)  # the connection is open, between calls
    theirs = _other_process(data_dir, "book", flight["flight_id"])
    assert theirs in _refs(ctx)
    seats = {f["flight_id"]: f["seats_left"] for f in handlers.search_flights(
        origin="Boston", destination="Denver", date="2025-11-28", ctx=ctx)["flights"]}
    assert seats[flight["flight_id"]] == flight["seats_left"] - 1
    ours = _book(ctx)
    assert {theirs, ours} <= set(_other_process(data_dir, "list"))
