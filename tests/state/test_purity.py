"""The state package is pure: it imports no I/O library and never reads the clock."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import dialstack.state

PACKAGE = Path(dialstack.state.__file__).parent
FORBIDDEN_MODULES = {"sqlite3", "httpx", "mcp", "anthropic", "uvicorn", "requests", "aiohttp", "asyncio",
                     "subprocess", "socket", "time", "os", "pathlib", "io", "random"}
FORBIDDEN_CALLS = {("time", "time"), ("time", "monotonic"), ("datetime", "now"), ("datetime", "utcnow"),
                   ("date", "today"), ("datetime", "today")}


def _modules() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


def test_state_modules_import_no_io_library() -> None:
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & FORBIDDEN_MODULES, f"{path.name} imports {roots & FORBIDDEN_MODULES}"


def test_state_modules_never_read_the_clock_or_open_files() -> None:
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    assert (func.value.id, func.attr) not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"
                assert not (isinstance(func, ast.Name) and func.id in {"open", "input", "print"}), (
                    f"{path.name}:{node.lineno} calls {ast.unparse(func)}"
                )


def test_importing_the_state_package_loads_no_io_client() -> None:
    code = "import sys, json, dialstack.state; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert not loaded & {"sqlite3", "_sqlite3", "httpx", "mcp", "anthropic", "uvicorn", "asyncio", "dialstack.store"}
    assert not any(name.startswith(("dialstack.agent", "dialstack.store", "dialstack.tools"))
                   for name in json.loads(out.stdout))


def test_importing_the_state_package_loads_neither_the_pack_loader_nor_yaml() -> None:
    code = (
        "import sys\n"
        "import dialstack.state\n"
        "print(','.join(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'dialstack.domain.loader')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""
