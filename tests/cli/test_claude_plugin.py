"""The Claude Code plugin marketplace at the repository root: its JSON, and the real CLI when installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dialstack.cli import build_parser
from dialstack.domain.skills import load_skill

REPO = Path(__file__).resolve().parents[2]
MARKETPLACE = REPO / ".claude-plugin" / "marketplace.json"
KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _plugins() -> list[tuple[dict, Path]]:
    return [(entry, (REPO / entry["source"]).resolve()) for entry in _json(MARKETPLACE)["plugins"]]


def test_the_marketplace_has_the_documented_required_fields() -> None:
    marketplace = _json(MARKETPLACE)

    assert KEBAB.match(marketplace["name"])
    assert marketplace["owner"]["name"]
    assert marketplace["plugins"]
    for entry in marketplace["plugins"]:
        assert KEBAB.match(entry["name"]) and isinstance(entry["source"], str) and entry["source"].startswith("./")


def test_each_plugin_manifest_names_itself_as_the_marketplace_does_and_its_skills_are_valid() -> None:
    for entry, root in _plugins():
        manifest = _json(root / ".claude-plugin" / "plugin.json")
        assert manifest["name"] == entry["name"]
        assert manifest.get("version", entry.get("version")) == entry.get("version")
        skills = [skill for folder in manifest["skills"] for skill in sorted((root / folder).iterdir()) if skill.is_dir()]
        assert skills
        for skill in skills:
            loaded, problems = load_skill(skill, str(skill))
            assert loaded is not None, problems


def _servers(root: Path) -> dict:
    """The MCP servers the plugin manifest points at (its mcpServers file)."""
    manifest = _json(root / ".claude-plugin" / "plugin.json")
    return _json(root / manifest["mcpServers"])["mcpServers"]


def test_the_plugins_mcp_server_launches_a_real_dialstack_command_line() -> None:
    for _, root in _plugins():
        servers = _servers(root)
        assert servers
        for server in servers.values():
            assert server["command"] == "dialstack"
            args = build_parser().parse_args(server["args"])  # exits on an unknown option
            assert args.command == "serve"


# -- the Claude Code CLI, when installed ----------------------------------------------------------


def _tracked_copy(target: Path) -> Path:
    """The repository as a git clone would have it (no .venv, no caches): what a user adds."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, timeout=60)
    if listed.returncode != 0:
        pytest.skip(f"git ls-files failed: {listed.stderr.decode().strip()}")
    names = [n for n in listed.stdout.decode().split("\0") if n]
    names += [p.relative_to(REPO).as_posix() for p in (REPO / ".claude-plugin").iterdir()] + [".mcp.json"]
    for name in names:
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def test_claude_code_validates_adds_installs_and_connects_the_plugin(tmp_path: Path) -> None:
    claude = shutil.which("claude")
    if claude is None:
        pytest.skip("the Claude Code CLI is not installed (npm install -g @anthropic-ai/claude-code)")
    repo = _tracked_copy(tmp_path / "repo")
    home = tmp_path / "home"
    home.mkdir()
    scripts = str(Path(sys.executable).parent)  # where this install's `dialstack` script is
    env = {**os.environ, "HOME": str(home), "PATH": scripts + os.pathsep + os.environ.get("PATH", ""),
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1", "NO_COLOR": "1",
           "DIALSTACK_DB": str(tmp_path / "data" / "dialstack.db")}
    env.pop("ANTHROPIC_API_KEY", None)

    def run(*args: str) -> str:
        done = subprocess.run([claude, "plugin", *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
        assert done.returncode == 0, f"claude plugin {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    run("validate", "--strict", str(repo))
    for _, root in _plugins():
        run("validate", "--strict", str(repo / root.relative_to(REPO) / ".claude-plugin" / "plugin.json"))
    marketplace = _json(MARKETPLACE)["name"]
    run("marketplace", "add", str(repo))
    for entry, root in _plugins():
        run("install", f"{entry['name']}@{marketplace}")
        details = run("details", f"{entry['name']}@{marketplace}")
        skills = sum(1 for folder in _json(root / ".claude-plugin" / "plugin.json")["skills"] for p in (root / folder).iterdir() if p.is_dir())
        servers = len(_servers(root))
        assert f"Skills ({skills})" in details and f"MCP servers ({servers})" in details, details
    if shutil.which("dialstack", path=scripts) is None:
        pytest.skip(f"no dialstack script next to {sys.executable}: cannot check that the server connects")
    listed = subprocess.run([claude, "mcp", "list"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
    assert re.search(r"plugin:dialstack-travel:dialstack-travel: .*Connected", listed.stdout), listed.stdout + listed.stderr
