"""``dialstack validate [DOMAIN ...] [--pack DIR]``: check packs, one line per problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check domain packs (flows, manifest, skills) and their cross-references",
        description="Check every domain pack; print one line per problem; exit 1 on any error.",
    )
    parser.add_argument("domains", nargs="*", metavar="DOMAIN", help="domains to check (default: all in the pack)")
    parser.add_argument("--pack", type=Path, help="a pack folder holding flows/, manifests/ and skills/")
    parser.add_argument("--quiet", action="store_true", help="print errors only, not warnings")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..domain import available_domains, bundled_root, inspect_domain

    root = args.pack or bundled_root()
    if args.pack and not args.pack.is_dir():
        print(f"dialstack validate: --pack {args.pack} is not a folder (expected a folder with flows/, manifests/, skills/)", file=sys.stderr)
        return 2
    names = args.domains or available_domains(root)
    if not names:
        print(f"dialstack validate: no flows/*.yaml in {root}", file=sys.stderr)
        return 1
    errors = 0
    for name in names:
        domain, problems = inspect_domain(name, args.pack, check_handlers=True)
        for problem in problems:
            if problem.severity == "error":
                errors += 1
            elif args.quiet:
                continue
            print(problem)
        if domain is not None and not any(p.severity == "error" for p in problems):
            print(f"{name}: ok ({len(domain.flows)} flows, {len(domain.tools)} tools, {len(domain.skills)} skills)")
    return 1 if errors else 0
