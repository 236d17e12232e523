"""``dialstack init DIR --domain NAME``: a new, valid, minimal domain pack to start from.

The template (``dialstack/templates/init``, shipped in the wheel) holds two flows, their
tools with handlers keeping seed data under ``ctx.data_dir``, one skill per flow and a
passing conversation test. ``{{domain}}`` in file names and contents becomes NAME; a
``.tmpl`` suffix is dropped (it keeps template Python out of the package's modules).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "templates" / "init"
PLACEHOLDER = "{{domain}}"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "init",
        help="create a new minimal domain pack (flows, manifest, handlers, skills, a conversation test)",
        description="Create a valid minimal domain pack in DIR (which must not exist or be empty).",
    )
    parser.add_argument("dir", type=Path, metavar="DIR", help="the pack folder to create")
    parser.add_argument("--domain", required=True, type=_domain_name, metavar="NAME",
                        help="the domain name: lowercase letters, digits and _ (it names the handler module too)")
    parser.set_defaults(func=run)


def _domain_name(text: str) -> str:
    if not _NAME.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a usable domain name (expected lowercase letters, digits and _, starting with a letter, e.g. clinic)")
    return text


def write_pack(target: Path, domain: str) -> list[Path]:
    """Copy the template into ``target`` with ``domain`` filled in; return the files written."""
    written = []
    for source in sorted(TEMPLATE.rglob("*")):
        relative = source.relative_to(TEMPLATE)
        if not source.is_file() or "__pycache__" in relative.parts:
            continue
        name = relative.as_posix().replace(PLACEHOLDER, domain).removesuffix(".tmpl")
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source.read_text(encoding="utf-8").replace(PLACEHOLDER, domain), encoding="utf-8")
        written.append(path)
    return written


def run(args: argparse.Namespace) -> int:
    from ..domain import inspect_domain

    target: Path = args.dir
    if target.exists() and not target.is_dir():
        print(f"dialstack init: {target} is a file; give a new folder name", file=sys.stderr)
        return 1
    if target.is_dir() and any(target.iterdir()):
        print(f"dialstack init: {target} is not empty; give a new folder (nothing was overwritten)", file=sys.stderr)
        return 1
    written = write_pack(target, args.domain)
    domain, problems = inspect_domain(args.domain, target, check_handlers=True)
    errors = [p for p in problems if p.severity == "error"]
    if domain is None or errors:  # the template is tested; this guards against a broken install
        print("dialstack init: the new pack does not validate:\n" + "\n".join(map(str, errors)), file=sys.stderr)
        return 1
    print(f"created the {args.domain} pack in {target} ({len(written)} files: {len(domain.flows)} flows, "
          f"{len(domain.tools)} tools, {len(domain.skills)} skills)")
    print("next:")
    print(f"  dialstack validate --pack {target}")
    print(f"  dialstack test {target / 'tests'}")
    print(f"  dialstack chat --pack {target} --domain {args.domain}")
    return 0
