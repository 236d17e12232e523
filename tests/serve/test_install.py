"""``dialstack install claude-desktop`` keeps every other entry and writes an absolute command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dialstack.cli import main


def test_install_adds_the_entry_and_keeps_every_other_key(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"theme": "dark", "mcpServers": {"other": {"command": "x", "args": []}}}))
    assert main(["install", "claude-desktop", "--domain", "travel", "--config", str(config)]) == 0
    written = json.loads(config.read_text())
    assert written["theme"] == "dark"
    assert written["mcpServers"]["other"] == {"command": "x", "args": []}
    entry = written["mcpServers"]["dialstack-travel"]
    assert Path(entry["command"]).is_absolute() and entry["command"] == str(Path(sys.executable).absolute())
    assert entry["args"] == ["-m", "dialstack", "serve", "--domain", "travel"]


def test_install_updates_an_existing_entry_in_place(tmp_path: Path) -> None:
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"mcpServers": {"dialstack-travel": {"command": "old", "args": []}}}))
    main(["install", "claude-desktop", "--config", str(config)])
    assert json.loads(config.read_text())["mcpServers"]["dialstack-travel"]["command"] != "old"


def test_dry_run_prints_the_json_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "missing" / "c.json"
    assert main(["install", "claude-desktop", "--domain", "demo", "--config", str(config), "--dry-run"]) == 0
    assert "dialstack-demo" in json.loads(capsys.readouterr().out)["mcpServers"]
    assert not config.exists()


def test_invalid_config_json_is_reported_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.json"
    config.write_text("{not json")
    assert main(["install", "claude-desktop", "--config", str(config)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert config.read_text() == "{not json"
