"""``dialstack install claude-desktop``: register ``dialstack serve`` in Claude Desktop's config.

Adds or updates one ``mcpServers`` entry (``dialstack-<domain>``) in
``claude_desktop_config.json``, keeping every other key and server as they were. The
command is the absolute path of this install's Python running ``-m dialstack``, so the
entry keeps working whatever ``PATH`` Claude Desktop starts with. The entry turns on
``--host-tools``: Claude Desktop has no dialstack orchestrator, so its own model runs the
flow stack through the ``dialogue_*`` tools.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import db_file


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install",
        help="register dialstack's MCP server with a desktop client (claude-desktop)",
        description="Add or update the dialstack entry in a client's MCP configuration, keeping every other entry.",
    )
    parser.add_argument("client", choices=("claude-desktop",), help="the client to configure")
    parser.add_argument("--domain", help="the domain to serve (default: travel, or the only domain of --pack)")
    parser.add_argument("--pack", type=Path, help="a pack folder (default: the bundled packs)")
    parser.add_argument("--db", type=db_file, help="the SQLite database the server uses (default: the user data folder)")
    parser.add_argument("--config", type=Path, help="claude_desktop_config.json (default: the OS's standard location)")
    parser.add_argument("--dry-run", action="store_true", help="print the resulting JSON instead of writing it")
    parser.set_defaults(func=handler)


def default_config_path() -> Path:
    """Where Claude Desktop reads its config on this OS."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform.startswith("win"):
        return Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "Claude" / "claude_desktop_config.json"
    return Path(os.environ.get("XDG_CONFIG_HOME", home / ".config")) / "Claude" / "claude_desktop_config.json"


def server_entry(domain: str, pack: Path | None = None, db: Path | None = None) -> dict[str, Any]:
    args = ["-m", "dialstack", "serve", "--host-tools", "--domain", domain]  # Claude's own model runs the stack
    if pack is not None:
        args += ["--pack", str(pack.expanduser().resolve())]
    if db is not None:
        args += ["--db", str(db.expanduser().resolve())]
    return {"command": str(Path(sys.executable).absolute()), "args": args}


def merged_config(existing: dict[str, Any], name: str, entry: dict[str, Any]) -> dict[str, Any]:
    config = dict(existing)
    servers = config.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise ValueError("'mcpServers' in the config is not a JSON object; fix or remove it first")
    config["mcpServers"] = {**(servers or {}), name: entry}
    return config


def chosen_domain(domain: str | None, pack: Path | None) -> str:
    """The domain to install: ``domain`` if the pack (or the bundled one) has it, else the pack's only one.

    Raises ValueError saying what is there when the choice is missing or ambiguous.
    """
    from ..domain.loader import DEFAULT_DOMAIN, available_domains, bundled_root

    root = pack.expanduser().resolve() if pack is not None else bundled_root()
    where = f"--pack {pack}" if pack is not None else "the bundled packs"
    if pack is not None and not (root / "flows").is_dir():
        raise ValueError(f"--pack {pack} is not a pack folder (expected flows/, manifests/, skills/ inside it)")
    found = available_domains(root)
    if domain is None:
        if pack is None and DEFAULT_DOMAIN in found:
            return DEFAULT_DOMAIN
        if len(found) == 1:
            return found[0]
        if not found:
            raise ValueError(f"{where} holds no domain (no flows/<domain>.yaml)")
        raise ValueError(f"{where} holds several domains ({', '.join(found)}); choose one with --domain")
    if domain not in found:
        raise ValueError(f"no domain {domain!r} in {where}; expected one of: {', '.join(found) or 'none'}")
    return domain


def handler(args: argparse.Namespace) -> int:
    path: Path = args.config or default_config_path()
    try:
        domain = chosen_domain(args.domain, args.pack)
    except ValueError as exc:
        print(f"dialstack install: {exc}", file=sys.stderr)
        return 2
    if path.is_dir():
        print(f"dialstack install: --config {path} is a folder; give the config file, e.g. {path / 'claude_desktop_config.json'}",
              file=sys.stderr)
        return 2
    try:
        existing = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except json.JSONDecodeError as exc:
        print(f"dialstack install: {path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it or pass --config", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        print(f"dialstack install: cannot read {path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 1
    if not isinstance(existing, dict):
        print(f"dialstack install: {path} does not hold a JSON object; fix it or pass --config", file=sys.stderr)
        return 1
    name = f"dialstack-{domain}"
    try:
        config = merged_config(existing, name, server_entry(domain, args.pack, args.db))
    except ValueError as exc:
        print(f"dialstack install: {path}: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(config, indent=2) + "\n"
    if args.dry_run:
        sys.stdout.write(text)
        return 0
    tmp = path.with_suffix(".json.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        print(f"dialstack install: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"dialstack install: wrote mcpServers.{name} to {path}; restart Claude Desktop to load it", file=sys.stderr)
    return 0
