"""``dialstack install claude-desktop``: register ``dialstack serve`` in Claude Desktop's config.

Adds or updates one ``mcpServers`` entry (``dialstack-<domain>``) in
``claude_desktop_config.json``, keeping every other key and server as they were. The
command is the absolute path of this install's Python running ``-m dialstack``, so the
entry keeps working whatever ``PATH`` Claude Desktop starts with.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install",
        help="register dialstack's MCP server with a desktop client (claude-desktop)",
        description="Add or update the dialstack entry in a client's MCP configuration, keeping every other entry.",
    )
    parser.add_argument("client", choices=("claude-desktop",), help="the client to configure")
    parser.add_argument("--domain", default="travel", help="the domain to serve (default: travel)")
    parser.add_argument("--pack", type=Path, help="a pack folder (default: the bundled packs)")
    parser.add_argument("--db", type=Path, help="the SQLite database the server uses (default: the user data folder)")
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
    args = ["-m", "dialstack", "serve", "--domain", domain]
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


def handler(args: argparse.Namespace) -> int:
    path: Path = args.config or default_config_path()
    try:
        existing = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except json.JSONDecodeError as exc:
        print(f"dialstack install: {path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it or pass --config", file=sys.stderr)
        return 1
    if not isinstance(existing, dict):
        print(f"dialstack install: {path} does not hold a JSON object; fix it or pass --config", file=sys.stderr)
        return 1
    name = f"dialstack-{args.domain}"
    try:
        config = merged_config(existing, name, server_entry(args.domain, args.pack, args.db))
    except ValueError as exc:
        print(f"dialstack install: {path}: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(config, indent=2) + "\n"
    if args.dry_run:
        sys.stdout.write(text)
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    print(f"dialstack install: wrote mcpServers.{name} to {path}; restart Claude Desktop to load it", file=sys.stderr)
    return 0
