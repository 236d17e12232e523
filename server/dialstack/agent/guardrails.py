"""Code guardrails: clean and check code a skill generated before anything runs it.

Pure functions, no I/O. ``apply_guardrails`` strips Markdown fences, comments and disallowed
Python imports, validates the code with ``ast.parse`` (Python) or ``sqlglot`` (SQL), and
checks entity references against the names the caller knows. ``activate_guardrails`` pulls
the code out of a reply that mixes prose and code. A rejection raises
:class:`GuardrailError` naming the language and the reason.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

Language = Literal["python", "sql"]
Entities = Mapping[str, Iterable[str]] | Iterable[str] | None

DISALLOWED_IMPORTS: frozenset[str] = frozenset(
    {
        "os", "sys", "subprocess", "socket", "shutil", "importlib", "ctypes", "multiprocessing",
        "threading", "signal", "pickle", "marshal", "builtins", "pty", "pathlib", "tempfile", "glob",
        "urllib", "http", "requests", "httpx", "ftplib", "smtplib", "telnetlib", "code", "codeop",
        "inspect", "gc", "resource", "fcntl", "asyncio", "webbrowser",
    }
)
FORBIDDEN_CALLS: frozenset[str] = frozenset({"__import__", "eval", "exec", "compile", "open", "breakpoint", "input", "globals"})
FORBIDDEN_ATTRIBUTES: frozenset[str] = frozenset(
    {"__class__", "__subclasses__", "__globals__", "__builtins__", "__dict__", "__bases__", "__mro__", "__code__", "__getattribute__", "__loader__", "__spec__"}
)
_WRITE_NODES: tuple[type[exp.Expression], ...] = tuple(
    getattr(exp, name)
    for name in ("Insert", "Update", "Delete", "Merge", "Drop", "Create", "Alter", "TruncateTable", "Command", "Pragma", "Set", "Use", "Grant")
    if hasattr(exp, name)
)
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[ \t]*\n(.*?)(?:\n?[ \t]*```|\Z)", re.DOTALL)


class GuardrailError(ValueError):
    """Generated code was rejected; ``reason`` says why, in words a developer can act on."""

    def __init__(self, language: str, reason: str) -> None:
        self.language = language
        self.reason = reason
        super().__init__(f"{language} guardrail: {reason}")


@dataclass(frozen=True)
class GuardrailPolicy:
    read_only_sql: bool = True
    single_function: bool = False
    sql_dialect: str | None = None
    disallowed_imports: frozenset[str] = DISALLOWED_IMPORTS

    @classmethod
    def from_context(cls, settings: Mapping[str, Any] | None) -> GuardrailPolicy:
        """From an invocation context's ``guardrails`` mapping (unknown keys are an error)."""
        if not settings:
            return cls()
        known = {"read_only_sql", "single_function", "sql_dialect", "disallowed_imports"}
        unknown = set(settings) - known
        if unknown:
            raise GuardrailError("config", f"unknown guardrail settings {sorted(unknown)}; known: {sorted(known)}")
        values = dict(settings)
        if "disallowed_imports" in values:
            values["disallowed_imports"] = frozenset(values["disallowed_imports"])
        return cls(**values)


@dataclass(frozen=True)
class GuardedCode:
    code: str
    language: Language
    removed_imports: tuple[str, ...] = ()
    entities: frozenset[str] = field(default_factory=frozenset)  # names the code references


def apply_guardrails(raw_code: str, language: str, valid_entities: Entities = None, *, policy: GuardrailPolicy = GuardrailPolicy()) -> GuardedCode:
    """Clean ``raw_code`` and validate it; raise :class:`GuardrailError` when it is not acceptable.

    ``valid_entities``: for SQL, a mapping ``{table: [columns]}`` or a flat list of allowed
    table and column names; for Python, the names string subscripts may use (``row["fare"]``).
    ``None`` skips the entity check.
    """
    lang = language.strip().lower()
    code = strip_fences(raw_code)
    if not code.strip():
        raise GuardrailError(lang, "the code is empty")
    if lang in ("python", "py"):
        return _guard_python(code, valid_entities, policy)
    if lang in ("sql", "sqlite", "postgres", "postgresql"):
        return _guard_sql(code, valid_entities, policy)
    raise GuardrailError(lang, "unsupported language; expected 'python' or 'sql'")


def activate_guardrails(raw_output: str, trigger_phrase: str) -> str | None:
    """The code in a reply that mixes prose and code, or None when there is none.

    The code starts after ``trigger_phrase`` (case-insensitive; e.g. ``"```sql"`` or
    ``"Query:"``) and ends at the next closing fence or the end of the reply. Without the
    trigger phrase, the first fenced block is taken.
    """
    at = raw_output.lower().find(trigger_phrase.lower()) if trigger_phrase else -1
    if at < 0:
        match = _FENCE.search(raw_output)
        code = match.group(2) if match else None
    else:
        rest = raw_output[at + len(trigger_phrase) :]
        if rest.lstrip().startswith("```"):
            match = _FENCE.search(rest)
            code = match.group(2) if match else None
        else:
            code = rest.split("```", 1)[0]
    if code is None or not code.strip():
        return None
    return textwrap.dedent(code).strip()


def strip_fences(raw: str) -> str:
    """The inside of the first Markdown code fence, or the text itself when it has none."""
    match = _FENCE.search(raw)
    return match.group(2) if match else raw.strip()


def _entity_names(valid_entities: Entities) -> frozenset[str] | None:
    if valid_entities is None:
        return None
    if isinstance(valid_entities, Mapping):
        names = set(valid_entities)
        for columns in valid_entities.values():
            names.update(columns)
        return frozenset(n.lower() for n in names)
    return frozenset(str(n).lower() for n in valid_entities)


# Python ---------------------------------------------------------------------------------


class _ImportStripper(ast.NodeTransformer):
    def __init__(self, disallowed: frozenset[str]) -> None:
        self.disallowed = disallowed
        self.removed: list[str] = []
        self.bound: set[str] = set()

    def _is_disallowed(self, module: str) -> bool:
        return module.split(".")[0] in self.disallowed

    def visit_Import(self, node: ast.Import) -> ast.AST | None:
        kept = []
        for alias in node.names:
            if self._is_disallowed(alias.name):
                self.removed.append(alias.name)
                self.bound.add(alias.asname or alias.name.split(".")[0])
            else:
                kept.append(alias)
        if not kept:
            return None
        node.names = kept
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | None:
        if node.module and node.level == 0 and self._is_disallowed(node.module):
            self.removed.append(node.module)
            self.bound.update(alias.asname or alias.name for alias in node.names)
            return None
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(body, list) and not body and not isinstance(node, ast.Module):
            body.append(ast.Pass())  # a block whose only statement was a stripped import
        return node


def _guard_python(code: str, valid_entities: Entities, policy: GuardrailPolicy) -> GuardedCode:
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise GuardrailError("python", f"does not parse: {exc.msg} (line {exc.lineno})") from exc
    stripper = _ImportStripper(policy.disallowed_imports)
    tree = ast.fix_missing_locations(stripper.visit(tree))
    referenced: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in stripper.bound:
            raise GuardrailError("python", f"uses {node.id!r}, whose import is not allowed")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            raise GuardrailError("python", f"calls {node.func.id}(), which is not allowed")
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            raise GuardrailError("python", f"accesses {node.attr}, which is not allowed")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            referenced.add(node.slice.value)
    if policy.single_function:
        _require_single_function(tree)
    known = _entity_names(valid_entities)
    if known is not None:
        unknown = sorted(name for name in referenced if name.lower() not in known)
        if unknown:
            raise GuardrailError("python", f"references unknown entities {unknown}; known: {sorted(known)}")
    return GuardedCode(ast.unparse(tree), "python", tuple(stripper.removed), frozenset(referenced))


def _require_single_function(tree: ast.Module) -> None:
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    others = [
        n for n in tree.body
        if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Import | ast.ImportFrom)
        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))
    ]
    if len(functions) != 1:
        raise GuardrailError("python", f"expected exactly one function definition, found {len(functions)}")
    if others:
        raise GuardrailError("python", f"only imports and one function are allowed at top level; found {type(others[0]).__name__} on line {others[0].lineno}")


# SQL ------------------------------------------------------------------------------------


def _guard_sql(code: str, valid_entities: Entities, policy: GuardrailPolicy) -> GuardedCode:
    try:
        statements = [s for s in sqlglot.parse(code, read=policy.sql_dialect) if s is not None]
    except ParseError as exc:
        first = exc.errors[0]["description"] if exc.errors else str(exc)
        raise GuardrailError("sql", f"does not parse: {first}") from exc
    if not statements:
        raise GuardrailError("sql", "no SQL statement found")
    if len(statements) > 1:
        raise GuardrailError("sql", f"expected one statement, found {len(statements)}")
    statement = statements[0]
    if not isinstance(statement, exp.Query) and not isinstance(statement, _WRITE_NODES):
        raise GuardrailError("sql", f"not a SQL statement (parsed as {type(statement).__name__})")
    if policy.read_only_sql:
        write = statement if isinstance(statement, _WRITE_NODES) else statement.find(*_WRITE_NODES)
        if write is not None or not isinstance(statement, exp.Query):
            kind = type(write or statement).__name__.upper()
            raise GuardrailError("sql", f"only a read-only SELECT is allowed, found {kind}")
    referenced = _check_sql_entities(statement, valid_entities)
    return GuardedCode(statement.sql(dialect=policy.sql_dialect, comments=False), "sql", (), referenced)


def _check_sql_entities(statement: exp.Expression, valid_entities: Entities) -> frozenset[str]:
    ctes = {cte.alias_or_name.lower() for cte in statement.find_all(exp.CTE)}
    aliases: dict[str, str] = {}
    tables: set[str] = set()
    for table in statement.find_all(exp.Table):
        name = table.name.lower()
        if name in ctes:
            continue
        tables.add(name)
        aliases[table.alias_or_name.lower()] = name
    columns: list[tuple[str | None, str]] = [
        (col.table.lower() or None, col.name.lower()) for col in statement.find_all(exp.Column) if col.name and col.name != "*"
    ]
    derived = {a.alias.lower() for a in statement.find_all(exp.Alias)} | ctes
    referenced = frozenset(tables | {name for _, name in columns} - derived)
    if valid_entities is None:
        return referenced
    if isinstance(valid_entities, Mapping):
        schema = {str(t).lower(): {str(c).lower() for c in cols} for t, cols in valid_entities.items()}
        unknown_tables = sorted(tables - set(schema))
        if unknown_tables:
            raise GuardrailError("sql", f"unknown table(s) {unknown_tables}; known: {sorted(schema)}")
        in_scope = set().union(*(schema[t] for t in tables)) if tables else set()
        for qualifier, name in columns:
            if qualifier in ctes:
                continue
            allowed = schema.get(aliases.get(qualifier, ""), set()) if qualifier else in_scope | derived
            if name not in allowed:
                where = f" in table {aliases.get(qualifier, qualifier)!r}" if qualifier else ""
                raise GuardrailError("sql", f"unknown column {name!r}{where}; known: {sorted(allowed - derived)}")
        return referenced
    known = _entity_names(valid_entities) or frozenset()
    unknown = sorted(n for n in (tables | {n for q, n in columns if q not in ctes}) - known - derived)
    if unknown:
        raise GuardrailError("sql", f"references unknown entities {unknown}; known: {sorted(known)}")
    return referenced
