"""An MCP Bundle (``.mcpb``, manifest spec 0.3) that serves one domain without a pre-installed dialstack.

Layout of the zip::

    manifest.json
    server/main.py          the launcher (bundle_launcher.py): puts server/lib first on sys.path
    server/lib/dialstack/   this package's source
    server/lib/...          the installed distributions dialstack needs at run time, copied
                            from the building environment (so the bundle runs on the same
                            platform and Python minor version; the manifest says which)
    server/pack/            the domain's flows/, manifests/, skills/ (and a pack's own Python)

Dependencies follow the spec's rule for ``python`` servers: all bundled, in ``server/lib``,
except those only the orchestrator uses (:data:`ORCHESTRATOR_ONLY`): the server never
imports the agent package, and the bundle test serves through the MCP client with nothing
but the bundle on ``sys.path``.
"""

from __future__ import annotations

import importlib.metadata as metadata
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..domain.loader import bundled_root
from ..domain.models import DomainPack
from .archive import is_cache, packable_files, write_zip

MANIFEST_VERSION = "0.3"
# Requirements of dialstack.agent and `dialstack chat` only (LLM backend, understanding, line editing).
ORCHESTRATOR_ONLY = frozenset({"anthropic", "prompt-toolkit", "snowballstemmer", "wordllama"})
PACKAGE = Path(__file__).resolve().parent.parent  # server/dialstack
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?[^;]*(?:;(.*))?$")
_EXTRA_MARKER = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")
_COMPILED = (".so", ".pyd", ".dylib", ".dll")


@dataclass(frozen=True)
class Bundle:
    path: Path
    manifest: dict[str, Any]
    files: int


class BundleError(Exception):
    """The bundle cannot be built as asked; the message says why and what to do."""


def dialstack_requirements() -> list[str]:
    """dialstack's runtime requirements: from ``pyproject.toml`` in a checkout (the installed
    metadata of an editable install lags behind it), else from the installed metadata."""
    pyproject = PACKAGE.parent.parent / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "dialstack":
            return list(project.get("dependencies", []))
    return [r for r in metadata.distribution("dialstack").requires or [] if "extra ==" not in r]


def runtime_distributions(requirements: list[str] | None = None) -> list[metadata.Distribution]:
    """The installed distributions dialstack needs at run time (transitively).

    A requirement behind an extra counts only when a requirer asked for that extra
    (``pyjwt[crypto]``); one whose environment marker excluded it here is not installed,
    and so not found. A direct requirement that is not installed is an error.
    """
    direct = [parsed for r in (dialstack_requirements() if requirements is None else requirements)
              if (parsed := _parse(r)) and _normalize(parsed[0]) not in ORCHESTRATOR_ONLY]
    missing = []
    for name, _, marker in direct:
        if not marker:
            try:
                metadata.distribution(name)
            except metadata.PackageNotFoundError:
                missing.append(name)
    if missing:
        raise BundleError(f"dialstack needs {', '.join(missing)}, not installed in this Python ({sys.executable}); "
                          "install dialstack's dependencies first (pip install -e . in a checkout)")
    seen: dict[str, metadata.Distribution] = {}
    extras_done: set[tuple[str, str]] = set()
    todo = [(name, extras) for name, extras, _ in direct]
    while todo:
        raw, extras = todo.pop()
        name = _normalize(raw)
        fresh = {e for e in extras if (name, e) not in extras_done}
        if name in seen and not fresh:
            continue
        try:
            dist = seen.get(name) or metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist
        extras_done.update((name, e) for e in extras)
        for needed, wanted, marker in filter(None, map(_parse, dist.requires or [])):
            extra = _EXTRA_MARKER.search(marker)
            if extra and extra.group(1) not in fresh:
                continue
            todo.append((needed, wanted))
    return sorted(seen.values(), key=lambda d: _normalize(d.metadata["Name"]))


def _parse(requirement: str) -> tuple[str, frozenset[str], str] | None:
    """``name[extra,...]>=1; marker`` -> (name, extras, marker)."""
    match = _REQUIREMENT.match(requirement)
    if not match:
        return None
    extras = frozenset(e.strip() for e in (match.group(2) or "").split(",") if e.strip())
    return match.group(1), extras, (match.group(3) or "").strip()


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _distribution_files(dist: metadata.Distribution) -> Iterator[tuple[str, Path]]:
    for file in dist.files or []:
        relative = Path(str(file))
        if relative.parts and relative.parts[0] == ".." or relative.is_absolute() or is_cache(relative):
            continue  # console scripts and data outside site-packages; caches
        source = Path(str(dist.locate_file(file)))
        if source.is_file():
            yield relative.as_posix(), source


def _pack_files(domain: DomainPack) -> Iterator[tuple[str, Path]]:
    """The domain's pack: its three parts, plus a pack folder's own Python and data."""
    root = domain.root
    own = [root / "flows" / f"{domain.name}.yaml", root / "manifests" / f"{domain.name}.yaml"]
    for path in own:
        yield path.relative_to(root).as_posix(), path
    skills = root / "skills" / domain.name
    for path in packable_files(skills):
        yield path.relative_to(root).as_posix(), path
    if root.resolve() == bundled_root().resolve():
        return  # the bundled domains' Python is part of the dialstack package
    for path in packable_files(root):
        relative = path.relative_to(root)
        if relative.parts[0] in ("flows", "manifests", "skills", "tests", "dist"):
            continue
        yield relative.as_posix(), path


def build_manifest(domain: DomainPack, *, compiled: bool) -> dict[str, Any]:
    from ..tools.components import COMPONENT_SPECS
    from ..tools.host import host_skill, host_specs

    name = f"dialstack-{domain.name}"
    python = sys.version_info
    executable = "python" if sys.platform.startswith("win") else "python3"
    manifest: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "name": name,
        "display_name": f"dialstack: {domain.name}",
        "version": __version__,
        "description": _one_line(domain.ontology.description) or f"The {domain.name} domain of dialstack over MCP.",
        "long_description": (
            f"dialstack serves the **{domain.name}** domain: its tools (validated, with timeouts, idempotency "
            "keys and capability tags), the component tools over the conversation state, and one skill per "
            "flow as a prompt, and the dialogue_* tools with which the client's model runs the flow stack "
            "(see the dialogue-host prompt). Every call goes through the gate, which asks before a risky combination of "
            "private data, untrusted input and external communication."
        ),
        "author": {"name": "dialstack"},
        "license": "Apache-2.0",
        "keywords": ["dialogue", "flows", "skills", domain.name],
        "server": {
            "type": "python",
            "entry_point": "server/main.py",
            "mcp_config": {
                "command": executable,
                "args": ["${__dirname}/server/main.py", "serve", "--host-tools", "--domain", domain.name],
                "env": {
                    "DIALSTACK_DATA_DIR": "${user_config.data_folder}",
                    "ANTHROPIC_API_KEY": "${user_config.anthropic_api_key}",
                },
            },
        },
        "user_config": {
            "data_folder": {
                "type": "directory",
                "title": "Data folder",
                "description": "Where the conversation store (dialstack.db) and the domain's data are kept.",
                "required": False,
                "default": "${HOME}/.dialstack",
            },
            "anthropic_api_key": {
                "type": "string",
                "title": "Anthropic API key (optional)",
                "description": "Passed to the server as ANTHROPIC_API_KEY, for a pack's tools that call Claude.",
                "sensitive": True,
                "required": False,
            },
        },
        "tools": [{"name": t.tool_id, "description": _one_line(t.description)} for t in (*domain.manifest.tools, *COMPONENT_SPECS, *host_specs(domain))],
        "prompts": [
            {"name": skill.name, "description": _one_line(skill.description), "text": skill.body}
            for skill in [*(s for _, s in sorted(domain.skills.items())), *filter(None, [host_skill(domain)])]
        ],
        "compatibility": {"runtimes": {"python": f">={python.major}.{python.minor}"}},
    }
    if compiled:  # compiled extensions (pydantic-core, ...) bind the bundle to this platform and Python
        manifest["compatibility"] = {
            "platforms": [sys.platform if not sys.platform.startswith("linux") else "linux"],
            "runtimes": {"python": f">={python.major}.{python.minor},<{python.major}.{python.minor + 1}"},
        }
    return manifest


def _one_line(text: str) -> str:
    return " ".join(text.split())


def build_bundle(domain: DomainPack, out_dir: Path) -> Bundle:
    """Write ``out_dir/dialstack-<domain>-<version>.mcpb`` and return it with its manifest."""
    entries: list[tuple[str, Path | bytes]] = []
    for path in packable_files(PACKAGE):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "_bundled":
            continue  # the bundle serves server/pack
        entries.append((f"server/lib/dialstack/{relative.as_posix()}", path))
    compiled = False
    for dist in runtime_distributions():
        for name, path in _distribution_files(dist):
            compiled = compiled or name.endswith(_COMPILED)
            entries.append((f"server/lib/{name}", path))
    entries += [(f"server/pack/{name}", path) for name, path in _pack_files(domain)]
    entries.append(("server/main.py", Path(__file__).with_name("bundle_launcher.py")))
    manifest = build_manifest(domain, compiled=compiled)
    entries.insert(0, ("manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()))
    path = write_zip(out_dir / f"{manifest['name']}-{manifest['version']}.mcpb", _unique(entries))
    return Bundle(path, manifest, len(entries))


def _unique(entries: list[tuple[str, Path | bytes]]) -> list[tuple[str, Path | bytes]]:
    seen: set[str] = set()
    out = []
    for name, source in entries:
        if name not in seen:
            seen.add(name)
            out.append((name, source))
    return out
