"""Agent Skills (agentskills.io): parse a ``SKILL.md`` and check it against the specification."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from .models import SkillSpec
from .suggest import did_you_mean
from .yamlfile import Problem

ALLOWED_FRONTMATTER = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_FRONTMATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)(.*)\Z", re.DOTALL)


def check_skill_name(name: object) -> str | None:
    """The reason ``name`` is not a valid skill name, or None."""
    if not isinstance(name, str) or not name:
        return "name is missing or empty"
    if len(name) > 64:
        return f"name {name!r} is {len(name)} characters long"
    if not _NAME.match(name):
        return f"name {name!r} must be lowercase a-z, 0-9 and single inner hyphens"
    return None


def load_skill(skill_dir: Path, display: str) -> tuple[SkillSpec | None, list[Problem]]:
    """Parse ``skill_dir/SKILL.md``; return the skill (None if unusable) and every problem found."""
    path = skill_dir / "SKILL.md"
    if skill_dir.is_file():
        return None, [Problem(display, "", f"{skill_dir.name} is a file, not a folder", f"a folder {skill_dir.name}/ holding SKILL.md")]
    if path.is_dir():
        return None, [Problem(display, "", "SKILL.md is a folder, not a file", "a Markdown file SKILL.md with YAML frontmatter")]
    if not path.is_file():
        return None, [Problem(display, "", "SKILL.md is missing", f"a SKILL.md file in {skill_dir.name}/")]
    text = path.read_text(encoding="utf-8")
    match = _FRONTMATTER.match(text)
    if not match:
        return None, [Problem(display, "", "no YAML frontmatter", "a file starting with '---', YAML keys, '---'", 1)]
    try:
        front = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        return None, [Problem(display, "frontmatter", f"invalid YAML: {exc}", "valid YAML frontmatter", 1)]
    if not isinstance(front, dict):
        return None, [Problem(display, "frontmatter", "frontmatter is not a mapping", "name: ..., description: ...", 1)]
    problems = _check_frontmatter(front, skill_dir.name, display)
    body = match.group(2).strip()
    if not body:
        problems.append(Problem(display, "body", "the skill has no instructions", "a Markdown body after the frontmatter"))
    if any(p.severity == "error" for p in problems):
        return None, problems
    return SkillSpec(name=front["name"], description=front["description"], path=path, body=body, frontmatter=front), problems


def _check_frontmatter(front: dict[str, Any], folder: str, display: str) -> list[Problem]:
    problems: list[Problem] = []
    for key in front:
        if key not in ALLOWED_FRONTMATTER:
            problems.append(Problem(display, f"frontmatter.{key}", f"unknown frontmatter key {key!r}" + did_you_mean(key, ALLOWED_FRONTMATTER),
                                    ", ".join(sorted(ALLOWED_FRONTMATTER))))
    name = front.get("name")
    reason = check_skill_name(name)
    if reason:
        problems.append(Problem(display, "frontmatter.name", reason, "1-64 chars of a-z0-9 and '-', no leading, trailing or doubled '-'"))
    elif name != folder:
        problems.append(Problem(display, "frontmatter.name", f"name {name!r} differs from its folder {folder!r}", f"name: {folder}"))
    description = front.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append(Problem(display, "frontmatter.description", "description is missing or empty", "1-1024 characters saying what the skill does and when to use it"))
    elif len(description) > 1024:
        problems.append(Problem(display, "frontmatter.description", f"description is {len(description)} characters", "at most 1024 characters"))
    compat = front.get("compatibility")
    if compat is not None and (not isinstance(compat, str) or len(compat) > 500):
        problems.append(Problem(display, "frontmatter.compatibility", "compatibility must be a string of at most 500 characters", "a short string"))
    metadata = front.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        problems.append(Problem(display, "frontmatter.metadata", "metadata must be a mapping", "key: value pairs"))
    tools = front.get("allowed-tools")
    if tools is not None and not isinstance(tools, str):
        problems.append(Problem(display, "frontmatter.allowed-tools", "allowed-tools must be a space-separated string", "allowed-tools: tool_a tool_b"))
    return problems
