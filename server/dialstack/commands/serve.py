"""``dialstack serve``: the domain's MCP server over stdio (default) or Streamable HTTP.

stdout carries JSON-RPC only (stdio); every log line goes to stderr. A ``--pack`` folder
is put on ``sys.path`` so handlers living next to its ``flows/`` (``module:function``)
import without installing anything.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from datetime import datetime, timezone
from typing import Any

from . import db_file_or_memory

log = logging.getLogger("dialstack.serve")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve a domain's tools, component tools and skills over MCP (stdio or HTTP)",
        description="Serve a domain over MCP. stdio is what Claude Desktop launches; --transport http "
        "serves Streamable HTTP at http://HOST:PORT/mcp.",
    )
    parser.add_argument("--domain", help="the domain to serve (default: travel, or the only one in the pack)")
    parser.add_argument("--pack", type=Path, help="a pack folder with flows/, manifests/, skills/ (default: the bundled packs)")
    parser.add_argument("--db", type=db_file_or_memory, help="SQLite database (default: $DIALSTACK_DB or the user data folder; ':memory:' keeps nothing)")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765; 0 picks a free one)")
    parser.add_argument(
        "--token-file", type=Path,
        help="file of bearer tokens HTTP clients must send: one a line, TOKEN (yours) or PRINCIPAL TOKEN (someone else's)",
    )
    parser.add_argument(
        "--user", help="who stdio callers (and tokens without a principal) are: sessions, preferences and bookings "
        "are per user (default: the OS user)",
    )
    parser.add_argument(
        "--allowed-host", action="append", default=[], metavar="HOST[:PORT]",
        help="a Host header value HTTP clients may send (repeatable): the name or address they use in the URL. "
        "Loopback names and a specific --host are always allowed; required for a wildcard --host (0.0.0.0, ::)",
    )
    parser.add_argument(
        "--allowed-origin", action="append", default=[], metavar="ORIGIN",
        help="an Origin (http(s)://HOST[:PORT]) browser-based clients may send (repeatable); "
        "http(s):// of every allowed host is allowed already",
    )
    parser.add_argument("--session", help="stdio only: the dialogue session of calls naming none (default: one per process)")
    parser.add_argument(
        "--host-tools", action="store_true",
        help="add the dialogue_* stack tools, for a client whose own model runs the conversation (Claude Desktop)",
    )
    parser.add_argument("--deny", action="append", default=[], metavar="TOOL", help="refuse every call to TOOL (repeatable)")
    parser.set_defaults(func=handler)


def handler(args: argparse.Namespace) -> int:
    from ..domain.loader import PackError, load_domain
    from ..serve.http import BindError, check_bind, normalize_host, normalize_origin
    from ..serve.principal import TokenFileError, check_principal, os_user, read_tokens

    token = None
    try:  # nothing heavy is imported before these checks: a refusal is immediate
        user = check_principal(args.user, "--user") if args.user else os_user()
        if args.token_file is not None:
            token = read_tokens(args.token_file, user)
        if args.transport == "http":
            check_bind(args.host, token, args.allowed_host)
            for value in args.allowed_host:  # malformed values fail here, before anything opens
                normalize_host(value)
            for value in args.allowed_origin:
                normalize_origin(value)
            if args.session:
                raise BindError(
                    "--session sets the default session of the one stdio connection; over HTTP it would put every "
                    "client naming no session into one shared session. Drop it: HTTP clients name their session in "
                    '_meta["dialstack/session"] (on the 2025-11-25 handshake a client naming none gets its own)'
                )
        elif args.allowed_host or args.allowed_origin:
            raise BindError("--allowed-host and --allowed-origin apply to --transport http only")
    except (BindError, TokenFileError) as exc:
        print(f"dialstack serve: {exc}", file=sys.stderr)
        return 2
    if args.pack is not None:
        if not args.pack.is_dir():
            print(f"dialstack serve: --pack {args.pack} is not a folder (expected flows/, manifests/, skills/)", file=sys.stderr)
            return 2
    try:
        domain = load_domain(args.domain, args.pack)
    except PackError as exc:
        print(f"dialstack serve: the domain pack has errors (run 'dialstack validate'):\n{exc}", file=sys.stderr)
        return 1
    problem = _port_problem(args.host, args.port) if args.transport == "http" else None
    if problem:
        print(f"dialstack serve: {problem}", file=sys.stderr)
        return 1
    from ..tools.prepare import PrepareError, prepare_domain

    data_dir = _data_dir(args.db)  # the domain's data (the travel database) lives beside the store, as for chat
    try:
        prepare_domain(domain, data_dir, datetime.now(timezone.utc).date())  # before the first call, not inside it
    except PrepareError as exc:
        print(f"dialstack serve: {exc}", file=sys.stderr)
        return 1
    store = _open_store(args.db)
    if store is None:
        return 1
    from ..serve.server import serve_domain

    served = serve_domain(domain, store, default_session=args.session, denied=frozenset(args.deny), data_dir=data_dir,
                          principal=user, host_tools=args.host_tools)
    server = served.server
    try:
        if args.transport == "stdio":
            import anyio

            _flush_and_exit_on_sigterm(served.runtime)
            from ..serve.stdio import run_stdio

            anyio.run(run_stdio, server)  # a JSON-RPC line check in front of the SDK's reader
        else:
            import anyio

            from ..serve.http import serve_http

            def ready(url: str) -> None:
                print(f"dialstack serve: {domain.name} at {url}", file=sys.stderr, flush=True)

            try:
                anyio.run(lambda: serve_http(
                    server, host=args.host, port=args.port, token=token, on_ready=ready,
                    allowed_hosts=args.allowed_host, allowed_origins=args.allowed_origin,
                ))
            except SystemExit:  # uvicorn gives up at startup (the port was taken after our check): it said why
                print(f"dialstack serve: could not start the HTTP server on {args.host}:{args.port}", file=sys.stderr)
                return 1
    finally:
        served.close(SHUTDOWN_GRACE_S)  # waits for late results of timed-out calls, flushes pending audit entries
        store.close()
    return 0


SHUTDOWN_GRACE_S = 10.0


def _flush_and_exit_on_sigterm(runtime: Any) -> None:
    """On SIGTERM (how a host stops a stdio server), write the pending audit entries, then exit.

    The stdio transport reads stdin in a worker thread that nothing can interrupt, so a
    normal unwinding would hang until the host closes the pipe. The flush runs in its own
    thread so that it takes the writer's locks only once the interrupted code let go of
    them; SQLite rolls back any transaction a tool thread had open. (uvicorn handles
    SIGTERM itself for the HTTP transport.)
    """

    def stop(signum: int, frame: object) -> None:
        def finish() -> None:
            try:
                runtime.close()
            finally:
                os._exit(128 + signum)

        threading.Thread(target=finish, name="dialstack-sigterm", daemon=True).start()

    signal.signal(signal.SIGTERM, stop)


def _data_dir(db: str | None) -> Path:
    """Beside ``--db``; else beside the default store (``$DIALSTACK_DB`` or the user data folder)."""
    from ..store import default_db_path

    if db and db != ":memory:":
        return Path(db).expanduser().resolve().parent
    return default_db_path().resolve().parent


def _port_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (in use, not an address here), or None."""
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"--host {host}: not an address this machine can listen on ({exc.strerror})"
    family, _, _, _, address = infos[0]
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a TIME_WAIT port is free
            probe.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (f"port {port} on {host} is already in use (another dialstack serve?); "
                    "stop that server, or pick another with --port (0 picks a free one)")
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _open_store(db: str | None):  # type: ignore[no-untyped-def]
    from ..store import InMemoryStore, StoreError, open_store

    try:
        return InMemoryStore() if db == ":memory:" else open_store(db)
    except StoreError as exc:
        print(f"dialstack serve: {exc}", file=sys.stderr)
        return None
