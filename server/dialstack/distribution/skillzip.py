"""One ``.zip`` per Agent Skill, in the layout Claude apps accept for upload.

The archive holds one top-level folder named after the skill with ``SKILL.md`` inside
(plus the skill's ``references/``, ``scripts/``, ...). The skill is checked against the
Agent Skills rules (:func:`dialstack.domain.skills.load_skill`) before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..domain.models import DomainPack
from ..domain.skills import load_skill
from .archive import ArchiveError, packable_files, write_zip


class SkillPackError(Exception):
    """A skill that cannot be packed; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class PackedSkill:
    domain: str
    name: str
    path: Path
    files: int


def skill_folders(domain: DomainPack) -> list[Path]:
    """The folders of the skills the domain's flows use, and its ``dialogue-host`` skill, sorted by name."""
    from ..tools.host import host_skill

    host = host_skill(domain)
    return sorted({Path(skill.path).parent for skill in (*domain.skills.values(), *([host] if host else []))})


def check_skill(folder: Path) -> list[str]:
    """Every error that stops ``folder`` from being an uploadable skill (empty when it is one)."""
    _, problems = load_skill(folder, str(folder / "SKILL.md"))
    errors = [str(p) for p in problems if p.severity == "error"]
    try:
        list(packable_files(folder))
    except ArchiveError as exc:
        errors.append(str(exc))
    return errors


def pack_skill(folder: Path, out_dir: Path) -> Path:
    """Check ``folder`` and write ``out_dir/<skill>.zip``; raise :class:`SkillPackError` first if it is not valid."""
    errors = check_skill(folder)
    if errors:
        raise SkillPackError(errors)
    name = folder.name
    entries = [(f"{name}/{path.relative_to(folder).as_posix()}", path) for path in packable_files(folder)]
    return write_zip(out_dir / f"{name}.zip", entries)


def pack_domain_skills(domains: list[DomainPack], out_dir: Path) -> list[PackedSkill]:
    """Pack every skill of ``domains`` into ``out_dir``; nothing is written unless all are valid.

    Two domains with a skill of the same name would overwrite each other's zip: refused.
    """
    plan: dict[str, tuple[str, Path]] = {}
    errors: list[str] = []
    for domain in domains:
        for folder in skill_folders(domain):
            if folder.name in plan and plan[folder.name][0] != domain.name:
                errors.append(f"skill {folder.name!r} exists in domains {plan[folder.name][0]!r} and {domain.name!r}; "
                              "pack one domain at a time (--domain) into different --out folders")
            plan[folder.name] = (domain.name, folder)
            errors.extend(check_skill(folder))
    if errors:
        raise SkillPackError(errors)
    packed = []
    for name, (domain_name, folder) in sorted(plan.items()):
        path = pack_skill(folder, out_dir)
        packed.append(PackedSkill(domain_name, name, path, sum(1 for _ in packable_files(folder))))
    return packed

