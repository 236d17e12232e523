"""``dialstack install claude-desktop`` keeps every other entry and writes an absolute command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dialstack.cli import main

from .conftest import DEMO_PACK


def test_install_adds_the_entry_and_keeps_every_other_key(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"theme": "dark", "mcpServers": {"other": {"command": "x", "args": []}}}))
    assert main(["install", "claude-desktop", "--domain", "travel", "--config", str(config)]) == 0
    written = json.loads(config.read_text())
    assert written["theme"] == "dark"
    assert written["mcpServers"]["other"] == {"command": "x", "args": []}
    entry = written["mcpServers"]["dialstack-travel"]
    assert Path(entry["command"]).is_absolute() and entry["command"] == str(Path(sys.executable).absolute())
    assert entry["args"] == ["-m", "dialstack", "serve", "--host-tools", "--domain", "travel"]


def test_install_updates_an_existing_entry_in_place(tmp_path: Path) -> None:
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"mcpServers": {"dialstack-travel": {"command": "old", "args": []}}}))
    main(["install", "claude-desktop", "--config", str(config)])
    assert json.loads(config.read_text())["mcpServers"]["dialstack-travel"]["command"] != "old"


def test_dry_run_prints_the_json_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "missing" / "c.json"
    assert main(["install", "claude-desktop", "--pack", str(DEMO_PACK), "--config", str(config), "--dry-run"]) == 0
    assert "dialstack-demo" in json.loads(capsys.readouterr().out)["mcpServers"]
    assert not config.exists()


def test_invalid_config_json_is_reported_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.json"
    config.write_text("{not json")
    assert main(["install", "claude-desktop", "--config", str(config)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert config.read_text() == "{not json"


def test_a_pack_with_one_domain_installs_that_domain_without_domain(tmp_path: Path) -> None:
    config = tmp_path / "c.json"
    assert main(["install", "claude-desktop", "--pack", str(DEMO_PACK), "--config", str(config)]) == 0
    servers = json.loads(config.read_text())["mcpServers"]
    assert list(servers) == ["dialstack-demo"]  # never a dialstack-travel entry pointing at another pack
    assert servers["dialstack-demo"]["args"][4:] == ["--domain", "demo", "--pack", str(DEMO_PACK.resolve())]


def test_an_unknown_domain_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.json"
    config.write_text('{"mcpServers": {}}')
    assert main(["install", "claude-desktop", "--domain", "nosuch", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no domain 'nosuch' in the bundled packs; expected one of: " in err and "travel" in err
    assert config.read_text() == '{"mcpServers": {}}'


def test_a_pack_with_several_domains_asks_which_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pack" / "flows").mkdir(parents=True)
    for name in ("alpha", "beta"):
        (tmp_path / "pack" / "flows" / f"{name}.yaml").write_text(f"domain: {name}\n")
    code = main(["install", "claude-desktop", "--pack", str(tmp_path / "pack"), "--config", str(tmp_path / "c.json")])
    assert code == 2
    assert "holds several domains (alpha, beta); choose one with --domain" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_a_config_path_that_is_a_folder_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude-desktop", "--config", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"dialstack install: --config {tmp_path} is a folder; give the config file, e.g. {tmp_path / 'claude_desktop_config.json'}\n"


def test_a_database_in_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "x.db"
    with pytest.raises(SystemExit) as exited:
        main(["install", "claude-desktop", "--db", str(missing), "--config", str(tmp_path / "c.json")])
    assert exited.value.code == 2
    assert f"the folder {missing.parent} does not exist" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists() and not (tmp_path / "no").exists()
