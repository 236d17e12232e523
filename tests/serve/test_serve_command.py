"""``dialstack serve`` as a user starts it: its data folder, its data prepared first, clear refusals."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from dialstack.agent.toolclient import ToolClient
from dialstack.cli import main


def test_http_on_a_port_in_use_says_so_in_one_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["serve", "--transport", "http", "--port", str(port), "--db", str(tmp_path / "d.db")])
    err = capsys.readouterr().err
    assert code == 1
    assert err == (f"dialstack serve: port {port} on 127.0.0.1 is already in use (another dialstack serve?); "
                   "stop that server, or pick another with --port (0 picks a free one)\n")
    assert not (tmp_path / "d.db").exists()


def test_a_database_in_a_missing_folder_is_refused_and_no_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.db"
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--db", str(missing)])
    assert exited.value.code == 2
    assert f"argument --db: the folder {missing.parent} does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


async def test_serve_without_db_prepares_the_travel_data_in_the_default_data_folder(tmp_path: Path) -> None:
    """As Claude Desktop launches it (no --db): handlers get a real data folder, ready before the first call."""
    env = {**os.environ, "DIALSTACK_DB": str(tmp_path / "home" / "dialstack.db")}
    (tmp_path / "home").mkdir()
    async with ToolClient([sys.executable, "-m", "dialstack", "serve"], env=env) as tools:
        cities = await tools.call("list_cities", {}, session="desktop-1")
        booking = await tools.call("get_booking", {"booking_ref": "BK-12345"}, session="desktop-1")
    assert cities.ok, cities.text
    assert booking.ok, booking.text
    assert (tmp_path / "home" / "travel.db").is_file()
