"""What dialstack's MCP server costs over a bare SDK server, per call and at cold start.

Both servers expose a trivial echo tool: dialstack serves the demo pack's ``echo`` (a
manifest tool: strict validation, gate, audit row in SQLite, output validation), the bare
server one ``MCPServer`` tool. Same run, same client, same machine:

    python benchmarks/mcp_overhead.py [--calls 1000] [--starts 10]

Transports: in-memory (``Client(server)``, 2026-07-28), stdio (subprocess) and Streamable
HTTP (subprocess on 127.0.0.1). Per transport both servers are connected at once through
the same client code, warmed up, and called in alternating blocks of 50 (order swapped
each round), so machine-load drift hits both alike. Cold start = process spawn to the
first tool result over stdio, alternating which server starts first. Targets: dialstack /
bare <= 1.25 per median call, <= 1.2 at cold start. On a shared machine run it several
times and compare the medians of the runs.
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


Call = Callable[[], Awaitable[Any]]


async def time_interleaved(
    ours: Call, bare: Call, n: int, block: int = 50, settle: Callable[[], None] | None = None
) -> tuple[list[float], list[float], float]:
    """``n`` timed calls of each, in alternating blocks (order swapped every round) after a warm-up.

    Interleaving spreads machine-load drift (other processes, CPU frequency) over both alike.
    ``settle()`` runs after each block of ``ours`` (in process: flush dialstack's background
    audit writer, so its work never lands in the bare server's timings); its time is returned
    separately, per call.
    """
    settled = 0.0
    for _ in range(50):
        await ours()
        await bare()
    samples: dict[Call, list[float]] = {ours: [], bare: []}
    for round_no in range(max(1, n // block)):
        for call in (ours, bare) if round_no % 2 == 0 else (bare, ours):
            for _ in range(block):
                start = time.perf_counter()
                await call()
                samples[call].append(time.perf_counter() - start)
            if call is ours and settle is not None:
                start = time.perf_counter()
                settle()
                settled += time.perf_counter() - start
    return samples[ours], samples[bare], settled / max(1, len(samples[ours]))


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


async def bench_pair(
    ours_target: Any, bare_target: Any, n: int, meta: dict[str, Any], settle: Callable[[], None] | None = None
) -> tuple[float, float, float, float]:
    """The same client code against both servers, connected at once, calls interleaved."""
    from mcp import Client

    async with Client(ours_target, cache=None) as ours_client, Client(bare_target, cache=None) as bare_client:
        async def ours() -> None:
            result = await ours_client.call_tool("echo", ARGS, meta=meta)
            assert not result.is_error, result

        async def bare() -> None:
            result = await bare_client.call_tool("echo", ARGS)
            assert not result.is_error, result

        ours_samples, bare_samples, settled = await time_interleaved(ours, bare, n, settle=settle)
    if settle is not None:
        print(f"in-memory: dialstack's batched audit writes cost {settled * 1e6:.1f} us per call, off the call path", file=sys.stderr)
    return (*summary(ours_samples), *summary(bare_samples))


async def wait_for_port(port: int, proc: asyncio.subprocess.Process) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if time.monotonic() > deadline or proc.returncode is not None:
                raise RuntimeError(f"HTTP server on port {port} did not start") from None
            await asyncio.sleep(0.05)


async def bench_http(db: Path, n: int, meta: dict[str, Any]) -> tuple[float, float, float, float]:
    ours_port, bare_port = free_port(), free_port()
    procs = [
        await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        for cmd in (dialstack_cmd(db, "--transport", "http", "--port", str(ours_port)), bare_cmd("http", bare_port))
    ]
    try:
        await wait_for_port(ours_port, procs[0])
        await wait_for_port(bare_port, procs[1])
        return await bench_pair(f"http://127.0.0.1:{ours_port}/mcp", f"http://127.0.0.1:{bare_port}/mcp", n, meta)
    finally:
        for proc in procs:
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
        flush = ours.dialstack.runtime.flush  # type: ignore[attr-defined]
        rows.append(("in-memory", *await bench_pair(ours, bare_server(), calls, meta, settle=flush)))
        ours.dialstack.runtime.close()  # type: ignore[attr-defined]
        store.close()
        rows.append(("stdio", *await bench_pair(StdioServerParameters_(dialstack_cmd(db)), StdioServerParameters_(bare_cmd("stdio")), calls, meta)))
        rows.append(("http", *await bench_http(db, calls, meta)))
        ours_cold, bare_cold = [], []
        for i in range(starts):  # interleaved, order swapped each time, so machine load hits both alike
            if i % 2 == 0:
                ours_cold.append(await cold_start(dialstack_cmd(db), meta))
                bare_cold.append(await cold_start(bare_cmd("stdio"), None))
            else:
                bare_cold.append(await cold_start(bare_cmd("stdio"), None))
                ours_cold.append(await cold_start(dialstack_cmd(db), meta))
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
    parser.add_argument("--calls", type=int, default=1000, help="timed calls per server and transport (default 1000)")
    parser.add_argument("--starts", type=int, default=10, help="cold starts per server (default 10)")
    parser.add_argument("--bare-server", choices=("stdio", "http"), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.bare_server:
        run_bare(options.bare_server, options.port)
    else:
        print(report(asyncio.run(main(options.calls, options.starts))))
