"""``dialstack pack skills|mcpb``: build the distribution artefacts of a domain pack.

- ``pack skills``: one ``.zip`` per skill (a top-level folder named after the skill with
  ``SKILL.md`` inside), each checked before it is written: what Claude apps accept for upload.
- ``pack mcpb``: an MCP Bundle serving one domain, with dialstack and its dependencies inside.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..domain import DomainPack


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pack",
        help="build skill zips or an MCP Bundle (.mcpb) from a domain pack",
        description="Build distribution artefacts: 'pack skills' (one .zip per skill) or 'pack mcpb' (an MCP Bundle).",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    skills = kinds.add_parser("skills", help="one uploadable .zip per skill", description="Write one .zip per skill into --out.")
    skills.add_argument("--domain", help="only this domain (default: every domain in the pack)")
    _pack_argument(skills)
    skills.add_argument("--out", type=Path, default=Path("dist/skills"), help="output folder (default: dist/skills)")
    skills.set_defaults(func=run_skills)

    mcpb = kinds.add_parser("mcpb", help="an MCP Bundle serving one domain", description="Write an MCP Bundle (.mcpb) into --out.")
    mcpb.add_argument("--domain", help="the domain to serve (default: travel, or the only one in the pack)")
    _pack_argument(mcpb)
    mcpb.add_argument("--out", type=Path, default=Path("dist"), help="output folder (default: dist)")
    mcpb.set_defaults(func=run_mcpb)


def _pack_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pack", type=Path, help="a pack folder holding flows/, manifests/ and skills/ (default: the bundled packs)")


def _load(args: argparse.Namespace, names: list[str | None]) -> list[DomainPack] | None:
    from ..domain import PackError, load_domain

    if args.pack is not None and not args.pack.is_dir():
        print(f"dialstack pack: --pack {args.pack} is not a folder (expected a folder with flows/, manifests/, skills/)", file=sys.stderr)
        return None
    loaded = []
    for name in names:
        try:
            loaded.append(load_domain(name, args.pack, check_handlers=False))
        except PackError as exc:
            print(f"dialstack pack: the domain pack has errors (run 'dialstack validate'):\n{exc}", file=sys.stderr)
            return None
    return loaded


def run_skills(args: argparse.Namespace) -> int:
    from ..distribution.archive import ArchiveError
    from ..distribution.skillzip import SkillPackError, pack_domain_skills
    from ..domain import available_domains, bundled_root

    names: list[str | None] = [args.domain] if args.domain else list(available_domains(args.pack or bundled_root()))
    domains = _load(args, names or [None])
    if domains is None:
        return 1
    try:
        packed = pack_domain_skills(domains, args.out)
    except (SkillPackError, ArchiveError) as exc:
        print(f"dialstack pack skills: nothing written:\n{exc}", file=sys.stderr)
        return 1
    for skill in packed:
        print(f"{skill.path}  ({skill.domain}/{skill.name}, {skill.files} file(s))")
    print(f"{len(packed)} skill zip(s) in {args.out}", file=sys.stderr)
    return 0


def run_mcpb(args: argparse.Namespace) -> int:
    from ..distribution.archive import ArchiveError
    from ..distribution.mcpb import BundleError, build_bundle

    domains = _load(args, [args.domain])
    if domains is None:
        return 1
    try:
        bundle = build_bundle(domains[0], args.out)
    except (ArchiveError, BundleError) as exc:
        print(f"dialstack pack mcpb: {exc}", file=sys.stderr)
        return 1
    size = bundle.path.stat().st_size / 1e6
    print(bundle.path)
    print(f"{bundle.manifest['name']} {bundle.manifest['version']}: {bundle.files} files, {size:.1f} MB, "
          f"{len(bundle.manifest['tools'])} tools, {len(bundle.manifest['prompts'])} prompts "
          f"(runs on {_runs_on(bundle.manifest)})", file=sys.stderr)
    return 0


def _runs_on(manifest: dict[str, Any]) -> str:
    compat = manifest.get("compatibility", {})
    platforms = ", ".join(compat.get("platforms", [])) or "any platform"
    return f"{platforms}, Python {compat.get('runtimes', {}).get('python', '3')}"
