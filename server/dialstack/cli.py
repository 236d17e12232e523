"""The ``dialstack`` command: one sub-command per module in :mod:`dialstack.commands`.

Each command module exposes ``register(subparsers)``; its parser sets ``func`` to a handler
``handler(args) -> int``. Modules are imported only to register their parsers, and each
handler imports what it needs when it runs, so ``dialstack serve`` stays light.
"""

from __future__ import annotations

import argparse
import importlib
import io
import logging
import os
import pkgutil
import sys

from . import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dialstack",
        description="A runtime for task-oriented conversational agents: chat, serve over MCP, validate packs.",
    )
    parser.add_argument("--version", action="version", version=f"dialstack {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    _accept_verbose_after_subcommands(parser)
    return parser


def _accept_verbose_after_subcommands(parser: argparse.ArgumentParser) -> None:
    """``dialstack chat -v`` as well as ``dialstack -v chat`` (SUPPRESS: not given leaves the top-level value)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                sub.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                                 help="log dialstack's debug details to stderr")
                _accept_verbose_after_subcommands(sub)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if args.verbose:  # our debug lines only: the MCP SDK, httpx and asyncio stay at warnings
        logging.getLogger("dialstack").setLevel(logging.DEBUG)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `dialstack history --json | head`: the reader has what it wanted
        _discard_stdout()
        return 128 + 13  # as if stopped by SIGPIPE, like other command-line tools


def _discard_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # stdout is not a real file (tests, embedding)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
