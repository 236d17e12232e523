"""What dialstack's MCP server costs over a bare SDK server, per call and at cold start.

Both servers expose a trivial echo tool: dialstack serves the demo pack's ``echo`` (a
manifest tool: strict validation, gate, audit row in SQLite, output validation), the bare
server one ``MCPServer`` tool. Same run, same client, same machine:

    python benchmarks/mcp_overhead.py [--calls 300] [--starts 5]

Transports: in-memory (``Client(server)``, 2026-07-28), stdio (subprocess) and Streamable
HTTP (subprocess on 127.0.0.1). Cold start = process spawn to the first tool result over
stdio. Targets: dialstack / bare <= 1.25 per median call, <= 1.2 at cold start.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEMO_PACK = ROOT / "tests" / "fixtures" / "packs" / "demo"
ARGS = {"text": "hello"}


def bare_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bare", log_level="WARNING")

    @server.tool()
    def echo(text: str) -> dict[str, str]:
        """Return the text unchanged."""
        return {"text": text}

    return server


def run_bare(transport: str, port: int) -> None:
    server = bare_server()
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=port)


def dialstack_cmd(db: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "dialstack", "serve", "--domain", "demo", "--pack", str(DEMO_PACK), "--db", str(db), *extra]


def bare_cmd(transport: str, port: int = 0) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--bare-server", transport, "--port", str(port)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def time_calls(call: Callable[[], Awaitable[Any]], n: int) -> tuple[float, float]:
    for _ in range(20):
        await call()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples) * 1000, samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000


async def bench_client(target: Any, n: int, meta: dict[str, Any] | None) -> tuple[float, float]:
    from mcp import Client

    async with Client(target, cache=None) as client:
        async def call() -> None:
            result = await client.call_tool("echo", ARGS, meta=meta)
            assert not result.is_error, result

        return await time_calls(call, n)


async def bench_http(cmd: list[str], port: int, n: int, meta: dict[str, Any] | None) -> tuple[float, float]:
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"HTTP server on port {port} did not start") from None
                await asyncio.sleep(0.05)
        return await bench_client(f"http://127.0.0.1:{port}/mcp", n, meta)
    finally:
        proc.terminate()
        await proc.wait()


async def cold_start(cmd: list[str], meta: dict[str, Any] | None) -> float:
    from mcp import Client, StdioServerParameters

    start = time.perf_counter()
    async with Client(StdioServerParameters(command=cmd[0], args=cmd[1:]), cache=None) as client:
        result = await client.call_tool("echo", ARGS, meta=meta)
        elapsed = time.perf_counter() - start
    assert not result.is_error
    return elapsed * 1000


async def main(calls: int, starts: int) -> list[tuple[str, float, float, float, float]]:
    sys.path.insert(0, str(DEMO_PACK))
    from dialstack.domain.loader import load_domain
    from dialstack.serve.server import build_server
    from dialstack.store import SQLiteStore

    meta = {"dialstack/session": "bench"}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        store = SQLiteStore(Path(tmp) / "inproc.db")
        ours = build_server(load_domain("demo", DEMO_PACK), store, default_session="bench")
        d = await bench_client(ours, calls, meta)
        b = await bench_client(bare_server(), calls, None)
        rows.append(("in-memory", *d, *b))
        store.close()
        d = await bench_client(StdioServerParameters_(dialstack_cmd(db)), calls, meta)
        b = await bench_client(StdioServerParameters_(bare_cmd("stdio")), calls, None)
        rows.append(("stdio", *d, *b))
        port = free_port()
        d = await bench_http(dialstack_cmd(db, "--transport", "http", "--port", str(port)), port, calls, meta)
        port = free_port()
        b = await bench_http(bare_cmd("http", port), port, calls, None)
        rows.append(("http", *d, *b))
        ours_cold, bare_cold = [], []
        for _ in range(starts):  # interleaved so machine load hits both alike
            ours_cold.append(await cold_start(dialstack_cmd(db), meta))
            bare_cold.append(await cold_start(bare_cmd("stdio"), None))
        rows.append(("cold start (stdio)", statistics.median(ours_cold), max(ours_cold), statistics.median(bare_cold), max(bare_cold)))
    return rows


def StdioServerParameters_(cmd: list[str]) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(command=cmd[0], args=cmd[1:])


def report(rows: list[tuple[str, float, float, float, float]]) -> str:
    lines = [
        "| transport | dialstack median ms | dialstack p99 ms | bare median ms | bare p99 ms | ratio (median) | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, dm, dp, bm, bp in rows:
        target = 1.2 if name.startswith("cold") else 1.25
        ratio = dm / bm
        verdict = "ok" if ratio <= target else "over"
        p99 = "max" if name.startswith("cold") else "p99"
        lines.append(f"| {name} | {dm:.3f} | {dp:.3f} ({p99}) | {bm:.3f} | {bp:.3f} ({p99}) | {ratio:.2f} | <= {target} {verdict} |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--bare-server", choices=("stdio", "http"), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.bare_server:
        run_bare(options.bare_server, options.port)
    else:
        print(report(asyncio.run(main(options.calls, options.starts))))
