"""The entry point of an MCP Bundle (copied to ``server/main.py`` by ``dialstack pack mcpb``).

It runs with whatever Python the host starts and imports nothing outside the bundle's
``server/lib`` first: dialstack and its dependencies are bundled there. The bundle's
domain pack sits in ``server/pack``. Environment (set from the bundle's ``user_config``):

- ``DIALSTACK_DATA_DIR``: the folder holding the conversation store and the domain's data
  (default: the user data folder);
- ``ANTHROPIC_API_KEY``: passed on as is, for tools that call Claude.

This file must stay importable without side effects: it only acts when run as a script.
"""

from __future__ import annotations

import os
import sys


def _setting(name: str) -> str:
    """An environment value, or "" when unset or left as an unsubstituted ``${...}`` placeholder."""
    value = os.environ.get(name, "").strip()
    return "" if value.startswith("${") else value


def server_argv(here: str, argv: list[str]) -> list[str]:
    """The ``dialstack`` command line: the given one plus the bundled pack and the data folder."""
    args = list(argv) or ["serve"]
    if "--pack" not in args:
        args += ["--pack", os.path.join(here, "pack")]
    data_dir = _setting("DIALSTACK_DATA_DIR")
    if data_dir and "--db" not in args:
        folder = os.path.abspath(os.path.expanduser(data_dir))
        os.makedirs(folder, exist_ok=True)
        args += ["--db", os.path.join(folder, "dialstack.db")]
    if not _setting("ANTHROPIC_API_KEY"):
        os.environ.pop("ANTHROPIC_API_KEY", None)
    return args


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "lib"))
    from dialstack.cli import main as dialstack

    return dialstack(server_argv(here, sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
