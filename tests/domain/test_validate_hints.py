"""What `validate` allows for small domains, and how it helps when something is misspelt or misplaced."""

from __future__ import annotations

import copy
import importlib
import sys
from pathlib import Path

from dialstack.cli import main
from dialstack.domain import inspect_domain, load_domain

from .conftest import FLOWS, MANIFEST, write_pack


def problems_of(root: Path) -> list[str]:
    _, problems = inspect_domain("mini", root)
    return [str(p) for p in problems]


def errors_of(root: Path) -> list[str]:
    _, problems = inspect_domain("mini", root)
    return [str(p) for p in problems if p.severity == "error"]


def changed(change) -> dict:  # type: ignore[no-untyped-def]
    flows = copy.deepcopy(FLOWS)
    change(flows)
    return flows


# -- small domains --------------------------------------------------------------------------


def test_a_domain_with_one_intent_without_a_role_and_no_slot_types_of_its_own_loads(tmp_path: Path) -> None:
    def small(f: dict) -> None:
        f["intents"] = {"Plan": {}, "Converse": {}, "Internal": {}, "Painting": {"description": "Paints."}}
        f["slot_types"] = {}
        f["flows"][0]["intent"] = "Painting"
        f["flows"][0]["slots"] = [{"name": "color", "type": "CategorySlot", "params": {"options": ["red"]}, "prompt": "Which?"}]

    domain = load_domain("mini", write_pack(tmp_path, changed(small)))
    assert list(domain.ontology.intents) == ["Plan", "Converse", "Internal", "Painting"]


def test_slot_types_may_be_left_out_of_the_flows_file(tmp_path: Path) -> None:
    def without(f: dict) -> None:
        del f["slot_types"]
        for slot in f["flows"][0]["slots"]:
            slot["type"] = "FreeTextSlot"

    assert errors_of(write_pack(tmp_path, changed(without))) == []


def test_a_flow_may_use_the_universal_date_time_slot(tmp_path: Path) -> None:
    root = write_pack(tmp_path, changed(lambda f: f["flows"][0]["slots"][0].update(type="DateTimeSlot")))
    assert errors_of(root) == []


def test_the_universal_intents_are_still_required(tmp_path: Path) -> None:
    root = write_pack(tmp_path, changed(lambda f: f["intents"].pop("Internal")))
    assert any("universal intent 'Internal' is not declared" in e for e in errors_of(root))


# -- did you mean ---------------------------------------------------------------------------


def test_an_unknown_key_suggests_the_closest_allowed_one_and_lists_them(tmp_path: Path) -> None:
    root = write_pack(tmp_path, changed(lambda f: f["flows"][0]["slots"][0].__setitem__("promt", "Which?")))
    [error] = [e for e in errors_of(root) if "promt" in e]
    assert "unknown key 'promt'; did you mean 'prompt'?" in error
    assert "(expected one of name, type, priority, prompt" in error


def test_misspelt_names_of_intents_tools_slot_types_and_slots_get_a_suggestion(tmp_path: Path) -> None:
    def typos(f: dict) -> None:
        flow = f["flows"][0]
        flow["intent"] = "Chnage"
        flow["tools"] = ["paint_tol"]
        flow["slots"][0]["type"] = "ColourSlot"
        flow["steps"] = [{"call": "paint_tol", "args": {"color": "$slots.colr"}}]

    errors = "\n".join(errors_of(write_pack(tmp_path, changed(typos))))
    assert "unknown intent 'Chnage'; did you mean 'Change'?" in errors
    assert "unknown tool 'paint_tol'; did you mean 'paint_tool'?" in errors
    assert "unknown slot type 'ColourSlot'; did you mean 'ColorSlot'?" in errors
    assert "unknown slot 'colr'; did you mean 'color'?" in errors


def test_a_name_far_from_every_known_one_gets_no_suggestion(tmp_path: Path) -> None:
    root = write_pack(tmp_path, changed(lambda f: f["flows"][0].__setitem__("intent", "Zebra")))
    [error] = [e for e in errors_of(root) if "Zebra" in e]
    assert "did you mean" not in error


# -- map_outputs paths ----------------------------------------------------------------------


def _with_output_schema(schema: dict, path: str) -> tuple[dict, dict]:
    manifest = copy.deepcopy(MANIFEST)
    manifest["tools"][0]["output_schema"] = schema
    flows = changed(lambda f: f["flows"][0]["steps"][0].__setitem__("map_outputs", {"done": path}))
    return flows, manifest


def test_a_map_outputs_path_missing_from_a_closed_output_schema_is_an_error(tmp_path: Path) -> None:
    schema = {"type": "object", "additionalProperties": False, "properties": {"ok": {"type": "boolean"}}}
    flows, manifest = _with_output_schema(schema, "okay")
    errors = errors_of(write_pack(tmp_path, flows, manifest))
    assert any("map_outputs.done" in e and "has no property 'okay'; did you mean 'ok'?" in e for e in errors)


def test_a_map_outputs_path_the_open_schema_does_not_declare_is_a_warning(tmp_path: Path) -> None:
    flows, manifest = _with_output_schema({"type": "object", "properties": {"ok": {"type": "boolean"}}}, "done")
    root = write_pack(tmp_path, flows, manifest)
    assert errors_of(root) == []
    assert any("warning:" in p and "does not declare it" in p for p in problems_of(root))


def test_a_map_outputs_path_indexing_into_a_list_and_a_wrong_index_are_told_apart(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "properties": {"id": {"type": "string"}}}},
        "count": {"type": "integer"}}}
    flows, manifest = _with_output_schema(schema, "items.0.id")
    assert errors_of(write_pack(tmp_path / "good", flows, manifest)) == []
    flows, manifest = _with_output_schema(schema, "count.0")
    assert any("count is integer, not a list" in e for e in errors_of(write_pack(tmp_path / "bad", flows, manifest)))


# -- where things are -----------------------------------------------------------------------


def test_a_folder_where_the_manifest_file_should_be_is_named_as_such(tmp_path: Path) -> None:
    root = write_pack(tmp_path)
    (root / "manifests" / "mini.yaml").unlink()
    (root / "manifests" / "mini.yaml").mkdir()
    assert errors_of(root) == ["manifests/mini.yaml: is a folder, not a file (expected a YAML file named mini.yaml)"]


def test_a_folder_where_a_skill_file_should_be_is_named_as_such(tmp_path: Path) -> None:
    root = write_pack(tmp_path)
    skill_md = root / "skills" / "mini" / "paint" / "SKILL.md"
    skill_md.unlink()
    skill_md.mkdir()
    assert any("SKILL.md is a folder, not a file" in e for e in errors_of(root))


def test_validate_of_a_domain_that_is_not_bundled_suggests_pack(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    write_pack(tmp_path / "mini")
    monkeypatch.chdir(tmp_path)

    assert main(["validate", "mini"]) == 1
    out = capsys.readouterr().out
    assert "'mini' is not a bundled domain: for your own pack add --pack mini" in out


def test_validate_suggests_the_closest_bundled_domain(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["validate", "travle"]) == 1
    out = capsys.readouterr().out
    assert "no domain 'travle'" in out and "did you mean 'travel'?" in out


def test_validate_with_a_pack_that_is_a_file_says_so(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pack.yaml").write_text("domain: x\n")
    assert main(["validate", "--pack", str(tmp_path / "pack.yaml")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_file_where_a_skill_folder_should_be_is_named_as_such(tmp_path: Path) -> None:
    root = write_pack(tmp_path, skill=None)
    (root / "skills" / "mini").mkdir(parents=True)
    (root / "skills" / "mini" / "paint").write_text("---\nname: paint\n---\n")
    assert any("paint is a file, not a folder" in e for e in errors_of(root))


def test_a_misspelt_skill_frontmatter_key_gets_a_suggestion(tmp_path: Path) -> None:
    skill = "---\nname: paint\ndescription: Paint things.\nlicence: MIT\n---\nDo it.\n"
    assert any("unknown frontmatter key 'licence'; did you mean 'license'?" in e for e in errors_of(write_pack(tmp_path, skill=skill)))


def _optional_color(default: str | None, required: list[str]) -> tuple[dict, dict]:
    flows = changed(lambda f: f["flows"][0]["slots"][0].update(priority="optional", default=default))
    manifest = copy.deepcopy(MANIFEST)
    manifest["tools"][0]["input_schema"]["required"] = required
    return flows, manifest


def test_a_required_tool_argument_from_an_optional_slot_without_a_default_is_a_warning(tmp_path: Path) -> None:
    root = write_pack(tmp_path, *_optional_color(None, ["color"]))
    [warning] = [p for p in problems_of(root) if "optional slot" in p]
    assert "steps[0].args.color" in warning and "no default" in warning and "warning" in warning


def test_an_optional_slot_with_a_default_or_an_optional_argument_is_fine(tmp_path: Path) -> None:
    assert not [p for p in problems_of(write_pack(tmp_path / "a", *_optional_color("red", ["color"]))) if "optional slot" in p]
    assert not [p for p in problems_of(write_pack(tmp_path / "b", *_optional_color(None, []))) if "optional slot" in p]


def problems_beside_a_loaded_pack(tmp_path: Path, name: str, same_code: bool) -> list[str]:
    """The problems of a pack whose module has the name of one another pack already loaded."""
    first, second = write_pack(tmp_path / "first"), write_pack(tmp_path / "second")
    for number, root in enumerate((first, second)):
        (root / f"{name}.py").write_text(f"def paint(**kw):\n    return {{'pack': {0 if same_code else number}}}\n")
    paths, loaded = list(sys.path), set(sys.modules)
    try:
        sys.path.insert(0, str(first))
        importlib.import_module(name)  # the first pack's handlers are in use in this process
        return problems_of(second)
    finally:
        sys.path[:] = paths
        for module in set(sys.modules) - loaded:
            del sys.modules[module]


def test_a_pack_module_named_like_one_another_pack_already_loaded_is_a_warning_that_says_how_to_fix_it(tmp_path: Path) -> None:
    problems = problems_beside_a_loaded_pack(tmp_path, "paint_tools_shared_name", same_code=False)
    assert any("already loaded" in p and "paint_tools_shared_name.py" in p and "rename" in p for p in problems)


def test_two_copies_of_one_module_in_two_packs_are_no_clash(tmp_path: Path) -> None:
    problems = problems_beside_a_loaded_pack(tmp_path, "paint_tools_same_copy", same_code=True)
    assert not any("already loaded" in p for p in problems)
