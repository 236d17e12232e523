"""``dialstack pack skills`` and ``dialstack pack mcpb``: what they write, and that it works where it lands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import mcp.client.stdio  # noqa: F401 - imported at collection: stdio_client binds sys.stderr as its default errlog
import pytest
import skills_ref

from dialstack.agent.toolclient import ToolClient
from dialstack.cli import main

from .conftest import RunCli

REPO = Path(__file__).resolve().parents[2]
DEMO_PACK = REPO / "tests" / "fixtures" / "packs" / "demo"
TRAVEL_SKILLS = sorted(p.name for p in (REPO / "skills" / "travel").iterdir() if (p / "SKILL.md").is_file())


# -- skills ---------------------------------------------------------------------------------


def test_pack_skills_writes_one_zip_per_skill_holding_one_folder_named_after_it(run_cli: RunCli, tmp_path: Path) -> None:
    run = run_cli("pack", "skills", "--domain", "travel", "--out", str(tmp_path))

    assert run.code == 0, run.err
    assert sorted(p.stem for p in tmp_path.glob("*.zip")) == TRAVEL_SKILLS
    for path in tmp_path.glob("*.zip"):
        names = zipfile.ZipFile(path).namelist()
        assert {n.split("/")[0] for n in names} == {path.stem}
        assert f"{path.stem}/SKILL.md" in names


def test_every_packed_skill_passes_the_agent_skills_reference_validator_once_unzipped(run_cli: RunCli, tmp_path: Path) -> None:
    assert run_cli("pack", "skills", "--out", str(tmp_path / "zips")).code == 0

    for path in sorted((tmp_path / "zips").glob("*.zip")):
        zipfile.ZipFile(path).extractall(tmp_path / "unzipped")
        assert skills_ref.validate(tmp_path / "unzipped" / path.stem) == [], path.name


@pytest.fixture
def demo_copy(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DEMO_PACK, pack, ignore=shutil.ignore_patterns("__pycache__"))
    return pack


def test_caches_are_left_out_of_a_skill_zip_and_references_kept(run_cli: RunCli, demo_copy: Path, tmp_path: Path) -> None:
    skill = demo_copy / "skills" / "demo" / "echo"
    (skill / "references").mkdir()
    (skill / "references" / "notes.md").write_text("# notes\n")
    (skill / "scripts" / "__pycache__").mkdir(parents=True)
    (skill / "scripts" / "__pycache__" / "run.cpython-311.pyc").write_bytes(b"\0")
    (skill / ".DS_Store").write_bytes(b"\0")

    run = run_cli("pack", "skills", "--pack", str(demo_copy), "--out", str(tmp_path / "out"))

    assert run.code == 0, run.err
    assert sorted(zipfile.ZipFile(tmp_path / "out" / "echo.zip").namelist()) == ["echo/SKILL.md", "echo/references/notes.md"]


def test_a_skill_holding_an_archive_is_refused_and_nothing_is_written(run_cli: RunCli, demo_copy: Path, tmp_path: Path) -> None:
    (demo_copy / "skills" / "demo" / "relay" / "data.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)

    run = run_cli("pack", "skills", "--pack", str(demo_copy), "--out", str(tmp_path / "out"))

    assert run.code == 1
    assert "data.zip: an archive inside a packed folder" in run.err
    assert not (tmp_path / "out").exists()


def test_an_invalid_skill_is_reported_and_no_zip_is_written(run_cli: RunCli, demo_copy: Path, tmp_path: Path) -> None:
    skill_md = demo_copy / "skills" / "demo" / "echo" / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("name: echo", "name: Echo_Skill"))

    run = run_cli("pack", "skills", "--pack", str(demo_copy), "--out", str(tmp_path / "out"))

    assert run.code == 1
    assert "frontmatter.name" in run.err and "Traceback" not in run.err
    assert not (tmp_path / "out").exists()


# -- MCP Bundle -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mcpb")
    assert main(["pack", "mcpb", "--domain", "travel", "--out", str(out)]) == 0
    [path] = out.glob("*.mcpb")
    return path


@pytest.fixture(scope="module")
def unpacked(bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("unpacked")
    zipfile.ZipFile(bundle).extractall(folder)
    return folder


def test_the_bundle_manifest_has_every_field_spec_0_3_requires(unpacked: Path) -> None:
    manifest = json.loads((unpacked / "manifest.json").read_text())

    assert manifest["manifest_version"] == "0.3"
    assert manifest["name"] == "dialstack-travel" and manifest["version"] and manifest["description"]
    assert manifest["author"]["name"]
    server = manifest["server"]
    assert server["type"] == "python" and (unpacked / server["entry_point"]).is_file()
    assert server["mcp_config"]["args"][0] == "${__dirname}/server/main.py"
    assert set(manifest["user_config"]) == {"data_folder", "anthropic_api_key"}
    assert manifest["user_config"]["data_folder"]["type"] == "directory"
    assert manifest["user_config"]["anthropic_api_key"]["sensitive"] is True
    assert {"search_flights", "flow_stack"} <= {t["name"] for t in manifest["tools"]}
    assert {p["name"] for p in manifest["prompts"]} == set(TRAVEL_SKILLS)


def test_the_bundle_holds_no_caches_and_no_nested_archives(bundle: Path) -> None:
    names = zipfile.ZipFile(bundle).namelist()

    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".zip", ".mcpb"))]
    assert "server/lib/dialstack/cli.py" in names and "server/pack/flows/travel.yaml" in names
    assert "server/lib/mcp/__init__.py" in names and "server/lib/yaml/__init__.py" in names
    assert not [n for n in names if n.startswith(("server/lib/anthropic/", "server/lib/wordllama/"))]  # the orchestrator's only


def test_without_the_bundle_this_python_cannot_import_dialstack_in_isolated_mode() -> None:
    """What makes the next test meaningful: -S -I sees no installed dialstack or dependencies."""
    probe = subprocess.run([sys.executable, "-S", "-I", "-c", "import dialstack"], capture_output=True, text=True, timeout=60)
    assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr


async def test_the_unpacked_bundle_serves_the_domain_over_stdio_to_the_mcp_client(unpacked: Path, tmp_path: Path) -> None:
    manifest = json.loads((unpacked / "manifest.json").read_text())
    config = manifest["server"]["mcp_config"]
    args = [a.replace("${__dirname}", str(unpacked)) for a in config["args"]]
    env = {"DIALSTACK_DATA_DIR": str(tmp_path / "data"), "ANTHROPIC_API_KEY": "${user_config.anthropic_api_key}"}

    async with ToolClient([sys.executable, "-S", "-I", *args], env=env) as tools:
        listed = {t.name for t in await tools.list_tools()}
        stack = await tools.call("flow_stack", {}, session="bundle")

    assert listed == {t["name"] for t in manifest["tools"]}
    assert stack.ok, stack.text
    assert (tmp_path / "data" / "dialstack.db").is_file()


def _mcpb_cli() -> list[str] | None:
    if shutil.which("mcpb"):
        return ["mcpb"]
    if shutil.which("npx"):
        probe = subprocess.run(["npx", "--no-install", "@anthropic-ai/mcpb", "--version"], capture_output=True, text=True, timeout=120)
        if probe.returncode == 0:
            return ["npx", "--no-install", "@anthropic-ai/mcpb"]
    return None


def test_the_mcpb_cli_accepts_the_bundle_manifest(unpacked: Path) -> None:
    cli = _mcpb_cli()
    if cli is None:
        pytest.skip("the MCPB CLI is not installed (npm install -g @anthropic-ai/mcpb); the test does not download it")
    checked = subprocess.run([*cli, "validate", str(unpacked / "manifest.json")], capture_output=True, text=True,
                             timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "passes" in checked.stdout


async def test_a_bundle_of_a_pack_folder_carries_its_handlers_and_serves_them(tmp_path: Path) -> None:
    pack, out = tmp_path / "pack", tmp_path / "out"
    assert main(["init", str(pack), "--domain", "bundledclinic"]) == 0
    assert main(["pack", "mcpb", "--pack", str(pack), "--domain", "bundledclinic", "--out", str(out)]) == 0
    [bundle] = out.glob("*.mcpb")
    names = zipfile.ZipFile(bundle).namelist()
    assert "server/pack/bundledclinic_handlers.py" in names and "server/pack/flows/bundledclinic.yaml" in names
    assert not [n for n in names if n.startswith(("server/pack/tests/", "server/lib/dialstack/_bundled/"))]
    zipfile.ZipFile(bundle).extractall(tmp_path / "unpacked")
    data = tmp_path / "data"

    async with ToolClient([sys.executable, "-S", "-I", str(tmp_path / "unpacked" / "server" / "main.py"), "serve",
                           "--domain", "bundledclinic"], env={"DIALSTACK_DATA_DIR": str(data)}) as tools:
        listed = await tools.call("list_appointments", {}, session="bundle")

    assert listed.ok and listed.data["count"] == 1, listed.text
    assert (data / "bundledclinic_appointments.json").is_file()


def test_a_dependency_missing_from_this_python_stops_the_bundle_with_the_fix() -> None:
    from dialstack.distribution.mcpb import BundleError, runtime_distributions

    with pytest.raises(BundleError, match="no-such-dependency-xyz, not installed in this Python.*pip install -e ."):
        runtime_distributions(["pyyaml>=6", "no-such-dependency-xyz>=1"])
