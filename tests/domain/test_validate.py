from __future__ import annotations

import copy
from pathlib import Path

import pytest

from dialstack.cli import main
from dialstack.domain import PackError, inspect_domain, load_domain

from .conftest import FLOWS, MANIFEST, write_pack


def errors_of(root: Path) -> list[str]:
    _, problems = inspect_domain("mini", root)
    return [str(p) for p in problems if p.severity == "error"]


def mutated_flows(change) -> dict:
    flows = copy.deepcopy(FLOWS)
    change(flows)
    return flows


def test_a_well_formed_pack_loads_without_errors(pack: Path) -> None:
    domain = load_domain("mini", pack)
    assert list(domain.flows) == ["paint"]
    assert domain.tool("paint_tool").timeout_ms == 1000
    assert errors_of(pack) == []


def test_an_unknown_key_names_the_file_the_key_path_and_the_line(tmp_path: Path) -> None:
    root = write_pack(tmp_path, mutated_flows(lambda f: f["flows"][0].__setitem__("colour", "red")))
    [error] = errors_of(root)
    assert error.startswith("flows/mini.yaml:")
    assert "flows[0].colour" in error and "unknown key 'colour'" in error
    line = int(error.split(":")[1])
    text = (root / "flows" / "mini.yaml").read_text().splitlines()
    assert "colour" in text[line - 1]


def test_a_flow_naming_a_tool_missing_from_the_manifest_is_reported(tmp_path: Path) -> None:
    root = write_pack(tmp_path, mutated_flows(lambda f: f["flows"][0]["tools"].append("ghost")))
    assert any("unknown tool 'ghost'" in e for e in errors_of(root))


def test_a_flow_without_its_skill_is_reported(tmp_path: Path) -> None:
    root = write_pack(tmp_path, skill=None)
    assert any("SKILL.md is missing" in e for e in errors_of(root))
    assert any("has no usable skill 'paint'" in e for e in errors_of(root))


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("Paint", "lowercase"), ("-paint", "lowercase"), ("pa--int", "lowercase"), ("painting", "differs from its folder")],
)
def test_skill_names_follow_the_agent_skills_specification(tmp_path: Path, name: str, fragment: str) -> None:
    skill = f"---\nname: {name}\ndescription: Paint things.\n---\nDo it.\n"
    root = write_pack(tmp_path, skill=skill)
    assert any(fragment in e for e in errors_of(root))


def test_unknown_frontmatter_keys_and_long_descriptions_are_reported(tmp_path: Path) -> None:
    skill = "---\nname: paint\ndescription: " + "x" * 1025 + "\nauthor: me\n---\nDo it.\n"
    errors = errors_of(write_pack(tmp_path, skill=skill))
    assert any("unknown frontmatter key 'author'" in e for e in errors)
    assert any("1025 characters" in e for e in errors)


def test_an_invalid_json_schema_is_reported(tmp_path: Path) -> None:
    manifest = copy.deepcopy(MANIFEST)
    manifest["tools"][0]["input_schema"] = {"type": "objekt"}
    errors = errors_of(write_pack(tmp_path, manifest=manifest))
    assert any("tools[0].input_schema" in e and "JSON Schema 2020-12" in e for e in errors)


def test_a_single_elective_slot_is_an_error(tmp_path: Path) -> None:
    root = write_pack(tmp_path, mutated_flows(lambda f: f["flows"][0]["slots"].pop()))
    assert any("1 elective slot" in e for e in errors_of(root))


def test_more_than_64_flows_are_refused(tmp_path: Path) -> None:
    def many(f: dict) -> None:
        f["flows"] = [dict(f["flows"][0], name=f"paint_{i}") for i in range(65)]

    assert any("flows" in e and "64" in e for e in errors_of(write_pack(tmp_path, mutated_flows(many))))


def test_a_domain_declares_at_most_four_slot_types_of_its_own(tmp_path: Path) -> None:
    root = write_pack(tmp_path, mutated_flows(lambda f: f["slot_types"].update(MoreSlot={"base": "BaseSlot"})))
    assert any("5 domain slot types" in e and "at most 4" in e for e in errors_of(root))


def test_steps_must_reference_real_slots_and_tools(tmp_path: Path) -> None:
    def bad_steps(f: dict) -> None:
        f["flows"][0]["steps"] = [{"call": "nope", "args": {"color": "$slots.shade"}}]

    errors = errors_of(write_pack(tmp_path, mutated_flows(bad_steps)))
    assert any("unknown tool 'nope'" in e for e in errors)
    assert any("unknown slot 'shade'" in e for e in errors)


def test_a_handler_that_cannot_be_imported_is_reported(tmp_path: Path) -> None:
    manifest = copy.deepcopy(MANIFEST)
    manifest["tools"][0]["handler"] = "no_such_module_xyz:run"
    assert any("cannot import 'no_such_module_xyz'" in e for e in errors_of(write_pack(tmp_path, manifest=manifest)))


def test_a_trifecta_tool_is_forced_to_require_approval_and_validate_says_so(tmp_path: Path) -> None:
    manifest = copy.deepcopy(MANIFEST)
    manifest["tools"][0]["capabilities"] = {
        "accesses_private_data": True,
        "receives_untrusted_input": True,
        "communicates_externally": True,
    }
    root = write_pack(tmp_path, manifest=manifest)
    domain, problems = inspect_domain("mini", root)
    assert domain is not None and domain.tool("paint_tool").needs_approval
    assert any("requires_approval forced to true" in str(p) and p.severity == "warning" for p in problems)


def test_a_tool_without_capabilities_is_treated_as_having_all_four(tmp_path: Path) -> None:
    manifest = copy.deepcopy(MANIFEST)
    del manifest["tools"][0]["capabilities"]
    domain = load_domain("mini", write_pack(tmp_path, manifest=manifest))
    assert len(domain.tool("paint_tool").tags) == 4 and domain.tool("paint_tool").needs_approval


def test_malformed_yaml_reports_the_line(tmp_path: Path) -> None:
    root = write_pack(tmp_path)
    (root / "flows" / "mini.yaml").write_text("domain: mini\nflows: [\n  - a\n")
    [error] = errors_of(root)
    assert error.startswith("flows/mini.yaml:") and "invalid YAML" in error


def test_load_domain_raises_with_every_problem(tmp_path: Path) -> None:
    root = write_pack(tmp_path, mutated_flows(lambda f: f["flows"][0].update(intent="Nope", tools=["ghost"])))
    with pytest.raises(PackError) as info:
        load_domain("mini", root)
    assert "unknown intent 'Nope'" in str(info.value) and "unknown tool 'ghost'" in str(info.value)


def test_validate_command_exits_0_on_a_clean_pack_and_1_on_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write_pack(tmp_path / "good")
    assert main(["validate", "--pack", str(good)]) == 0
    assert "mini: ok" in capsys.readouterr().out
    bad = write_pack(tmp_path / "bad", mutated_flows(lambda f: f["flows"][0].update(skill="missing")))
    assert main(["validate", "--pack", str(bad)]) == 1
    assert "missing" in capsys.readouterr().out


def test_validate_command_rejects_a_pack_that_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--pack", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_response_naming_a_value_nothing_provides_is_a_warning(tmp_path: Path) -> None:
    def responses(f: dict) -> None:
        f["flows"][0]["responses"] = {"success": "Painted {color} until {due}, step said {done}."}

    _, problems = inspect_domain("mini", write_pack(tmp_path, mutated_flows(responses)))
    warnings = [str(p) for p in problems if p.severity == "warning"]
    assert any("{due}" in w and "responses.success" in w for w in warnings)
    assert not any("{color}" in w or "{done}" in w for w in warnings)
