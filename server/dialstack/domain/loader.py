"""Load a domain pack from disk and cross-check its three parts.

A pack folder holds ``flows/<domain>.yaml``, ``manifests/<domain>.yaml`` and
``skills/<domain>/<skill>/SKILL.md``. Every problem is reported at once, one line each.
"""

from __future__ import annotations

import importlib
import inspect
import string
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .imports import resolve
from .models import (
    STEP_REFERENCE,
    COMPONENT_TOOLS,
    MAX_DOMAIN_SLOT_TYPES,
    UNIVERSAL_INTENTS,
    UNIVERSAL_SLOT_TYPES,
    DomainPack,
    FlowSpec,
    Manifest,
    Ontology,
    SkillSpec,
    StepSpec,
    ToolSpec,
)
from .schemacheck import schema_certainly_valid
from .schemapath import output_path_problem
from .skills import load_skill
from .suggest import did_you_mean, model_at
from .yamlfile import Problem, YamlDocument, YamlError, format_loc, load_yaml

DEFAULT_DOMAIN = "travel"


class PackError(Exception):
    """A pack that cannot be used; ``problems`` lists every reason, one per line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        super().__init__("\n".join(str(p) for p in errors) or "invalid domain pack")


def bundled_root() -> Path:
    """Where the bundled ``flows/``, ``manifests/`` and ``skills/`` live (wheel or checkout)."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_bundled"
    if (packaged / "flows").is_dir():
        return packaged
    return here.parent.parent


def available_domains(pack: Path | None = None) -> list[str]:
    root = pack or bundled_root()
    return sorted(p.stem for p in (root / "flows").glob("*.yaml"))


def load_domain(name: str | None = None, pack: Path | str | None = None, *, check_handlers: bool = False) -> DomainPack:
    """Load and validate a domain; raise :class:`PackError` if it has any error."""
    domain, problems = inspect_domain(name, pack, check_handlers=check_handlers)
    if domain is None or any(p.severity == "error" for p in problems):
        raise PackError(problems)
    return domain


def inspect_domain(
    name: str | None = None, pack: Path | str | None = None, *, check_handlers: bool = True
) -> tuple[DomainPack | None, list[Problem]]:
    """Load a domain and return it (None when unusable) with every problem and warning found.

    A pack folder is made importable (put on ``sys.path``) so that handlers, slot classes and
    policies living next to its ``flows/`` resolve as ``module:attr``.
    """
    root = Path(pack).resolve() if pack else bundled_root()
    if pack and root.is_dir() and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if name is None:
        found = available_domains(root)
        name = DEFAULT_DOMAIN if DEFAULT_DOMAIN in found or not found else found[0]
    flows_file = root / "flows" / f"{name}.yaml"
    manifest_file = root / "manifests" / f"{name}.yaml"
    if flows_file.is_dir():
        return None, [Problem(_show(flows_file, root), "", "is a folder, not a file", f"the YAML file flows/{name}.yaml")]
    if not flows_file.is_file():
        return None, [_no_such_domain(name, root, bundled=not pack)]

    problems: list[Problem] = _shadowed_modules(root) if pack else []
    ontology, flows_doc = _parse(flows_file, root, Ontology, problems)
    manifest, manifest_doc = _parse(manifest_file, root, Manifest, problems)
    if ontology is None or manifest is None or flows_doc is None or manifest_doc is None:
        return None, problems

    skills: dict[str, SkillSpec] = {}
    skills_dir = root / "skills" / name
    for flow in ontology.flows:
        if flow.skill in skills:
            continue
        skill, skill_problems = load_skill(skills_dir / flow.skill, _show(skills_dir / flow.skill / "SKILL.md", root))
        problems.extend(skill_problems)
        if skill is not None:
            skills[flow.skill] = skill

    domain = DomainPack(name=name, root=root, ontology=ontology, manifest=manifest, skills=skills)
    docs = {"flows": flows_doc, "manifest": manifest_doc}
    problems.extend(_cross_check(domain, docs, check_handlers))
    return domain, problems


def _no_such_domain(name: str, root: Path, *, bundled: bool) -> Problem:
    known = available_domains(root)
    message = f"no domain {name!r} in {root}" + did_you_mean(name, known)
    expected = f"one of: {', '.join(known) or 'none'}"
    if bundled:
        folder = Path(name)
        hint = f"--pack {name}" if (folder / "flows").is_dir() else "--pack DIR"
        message = f"{message}; {name!r} is not a bundled domain: for your own pack add {hint}"
    return Problem(_show(root / "flows" / f"{name}.yaml", root), "", message, expected)


def _show(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _parse(path: Path, root: Path, model: type[BaseModel], problems: list[Problem]) -> tuple[Any, YamlDocument | None]:
    """The validated model (None on problems) and the parsed document (kept for line numbers)."""
    shown = _show(path, root)
    if path.is_dir():
        problems.append(Problem(shown, "", "is a folder, not a file", f"a YAML file named {path.name}"))
        return None, None
    try:
        doc = load_yaml(path, shown)
    except YamlError as exc:
        problems.append(exc.problem)
        return None, None
    if not isinstance(doc.data, dict):
        problems.append(Problem(shown, "", "the file is not a YAML mapping", "top-level keys such as domain:, flows:", 1))
        return None, doc
    try:
        return model.model_validate(doc.data), doc
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(err["loc"])
            problems.append(Problem(shown, format_loc(loc), _message(err, model, loc), _expected(err, model, loc), doc.line(loc)))
        return None, doc


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    where = model_at(model, loc[:-1])
    return list(where.model_fields) if where is not None else []


def _message(err: dict[str, Any], model: type[BaseModel], loc: tuple) -> str:
    if err["type"] == "extra_forbidden":
        return f"unknown key {loc[-1]!r}" + did_you_mean(loc[-1], _allowed_keys(model, loc))
    if err["type"] == "missing":
        return f"missing key {loc[-1]!r}"
    value = err.get("input")
    shown = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return f"{err['msg'].lower()} (got {shown})"


def _expected(err: dict[str, Any], model: type[BaseModel], loc: tuple) -> str:
    ctx = err.get("ctx") or {}
    if err["type"] == "extra_forbidden" and _allowed_keys(model, loc):
        return "one of " + ", ".join(_allowed_keys(model, loc))
    if "expected" in ctx:
        return str(ctx["expected"])
    if "pattern" in ctx:
        return f"a string matching {ctx['pattern']}"
    return {
        "extra_forbidden": "only the documented keys (see docs/domain-packs.md)",
        "missing": "this key to be present",
        "bool_type": "true or false",
        "int_type": "a whole number",
        "int_parsing": "a whole number",
        "float_parsing": "a number",
        "string_type": "a string",
        "list_type": "a YAML list",
        "dict_type": "a YAML mapping",
        "too_long": "fewer items",
    }.get(err["type"], "")


def _maybe_empty_required(flow: FlowSpec, step: StepSpec, tool: ToolSpec) -> list[tuple[str, str]]:
    """Arguments the tool requires that come from an optional slot without a default (left out
    of the call when the user never says it)."""
    required = set(tool.input_schema.get("required") or ())
    slots = {s.name: s for s in flow.slots}
    out = []
    for key, value in step.args.items():
        if key in required and isinstance(value, str) and value.startswith("$slots."):
            slot = slots.get(value.removeprefix("$slots."))
            if slot is not None and slot.priority == "optional" and slot.default is None:
                out.append((key, slot.name))
    return out


def _cross_check(domain: DomainPack, docs: dict[str, YamlDocument], check_handlers: bool) -> list[Problem]:
    out: list[Problem] = []
    onto, man = domain.ontology, domain.manifest
    fdoc, mdoc = docs["flows"], docs["manifest"]
    ffile = _show(fdoc.path, domain.root)
    mfile = _show(mdoc.path, domain.root)

    def flow_problem(loc: tuple, message: str, expected: str = "", severity: str = "error") -> None:
        out.append(Problem(ffile, format_loc(loc), message, expected, fdoc.line(loc), severity))

    def tool_problem(loc: tuple, message: str, expected: str = "", severity: str = "error") -> None:
        out.append(Problem(mfile, format_loc(loc), message, expected, mdoc.line(loc), severity))

    # intents: the 3 universal ones, then any number of domain intents (each role optional)
    for universal in UNIVERSAL_INTENTS:
        if universal not in onto.intents:
            flow_problem(("intents",), f"universal intent {universal!r} is not declared", "Plan, Converse and Internal among intents")

    # slot types: at most 4 of the domain's own, none shadowing a universal one
    if len(onto.slot_types) > MAX_DOMAIN_SLOT_TYPES:
        flow_problem(("slot_types",), f"{len(onto.slot_types)} domain slot types",
                     f"at most {MAX_DOMAIN_SLOT_TYPES} (the {len(UNIVERSAL_SLOT_TYPES)} universal types are built in)")
    known_types = set(UNIVERSAL_SLOT_TYPES) | set(onto.slot_types)
    for type_name, spec in onto.slot_types.items():
        if type_name in UNIVERSAL_SLOT_TYPES:
            flow_problem(("slot_types", type_name), f"{type_name!r} is a universal slot type", "a new name for a domain slot type")
        if spec.base not in UNIVERSAL_SLOT_TYPES:
            flow_problem(("slot_types", type_name, "base"), f"unknown base {spec.base!r}" + did_you_mean(spec.base, UNIVERSAL_SLOT_TYPES),
                         f"one of {', '.join(UNIVERSAL_SLOT_TYPES)}")
        if spec.python and check_handlers:
            reason = _import_problem(spec.python)
            if reason:
                flow_problem(("slot_types", type_name, "python"), reason, "an importable module:Class")

    names = [f.name for f in onto.flows]
    tools = domain.tools
    seen: set[str] = set()
    for i, flow in enumerate(onto.flows):
        at = ("flows", i)
        if flow.name in seen:
            flow_problem(at + ("name",), f"duplicate flow name {flow.name!r}", "unique flow names")
        seen.add(flow.name)
        if flow.intent not in onto.intents:
            flow_problem(at + ("intent",), f"unknown intent {flow.intent!r}" + did_you_mean(flow.intent, onto.intents), f"one of {', '.join(onto.intents)}")
        if flow.skill not in domain.skills:
            folders = [p.name for p in (domain.root / "skills" / domain.name).glob("*") if p.is_dir()]
            flow_problem(at + ("skill",), f"flow {flow.name!r} has no usable skill {flow.skill!r}" + did_you_mean(flow.skill, folders),
                         f"skills/{domain.name}/{flow.skill}/SKILL.md")
        if not flow.tools and flow.intent not in UNIVERSAL_INTENTS:
            flow_problem(at + ("tools",), f"flow {flow.name!r} has no tools", "1-3 tool ids from the manifest")
        for j, tool_id in enumerate(flow.tools):
            if tool_id not in tools:
                flow_problem(at + ("tools", j), f"unknown tool {tool_id!r}" + did_you_mean(tool_id, tools), f"a tool_id from {mfile}")
        slot_names = [s.name for s in flow.slots]
        for j, slot in enumerate(flow.slots):
            if slot.type not in known_types:
                flow_problem(at + ("slots", j, "type"), f"unknown slot type {slot.type!r}" + did_you_mean(slot.type, known_types),
                             "a universal or declared domain slot type")
            if slot_names.count(slot.name) > 1:
                flow_problem(at + ("slots", j, "name"), f"duplicate slot {slot.name!r}", "unique slot names within a flow")
            if slot.priority == "required" and not slot.prompt:
                flow_problem(at + ("slots", j, "prompt"), f"required slot {slot.name!r} has no prompt", "prompt: the question that asks for it", "warning")
        electives = [s for s in flow.slots if s.priority == "elective"]
        if len(electives) == 1:
            flow_problem(at + ("slots",), f"flow {flow.name!r} has 1 elective slot", "none, or at least 2 elective slots")
        if flow.fallback and flow.fallback not in names:
            flow_problem(at + ("fallback",), f"unknown fallback flow {flow.fallback!r}" + did_you_mean(flow.fallback, names), "the name of a flow in this file")
        for j, dep in enumerate(flow.depends_on):
            if dep not in names:
                flow_problem(at + ("depends_on", j), f"unknown flow {dep!r}" + did_you_mean(dep, names), "the name of an Internal flow")
        if flow.depends_on and flow.intent != "Internal":
            flow_problem(at + ("depends_on",), "depends_on is only for Internal flows", "no depends_on, or intent: Internal")
        known = {*slot_names, *flow.outputs, *flow.inputs, *(o for st in flow.steps for o in st.map_outputs), *_REPLY_FIELDS}
        for key, template in flow.responses.items():
            for field in _template_fields(template):
                if field not in known:
                    flow_problem(at + ("responses", key), f"response {key!r} names {{{field}}}, which no slot, input or output provides",
                                 "a slot, an input, an output, or a name a step maps with map_outputs", "warning")
        for j, step in enumerate(flow.steps):
            sat = at + ("steps", j)
            if step.call in COMPONENT_TOOLS:
                pass
            elif step.call not in tools:
                flow_problem(sat + ("call",), f"step calls unknown tool {step.call!r}" + did_you_mean(step.call, [*tools, *COMPONENT_TOOLS]),
                             f"a tool_id from {mfile}")
            elif step.call not in flow.tools:
                flow_problem(sat + ("call",), f"step calls {step.call!r}, which is not among the flow's tools", f"one of {flow.tools}")
            earlier = {o for s in flow.steps[:j] for o in s.map_outputs}
            refs = list(step.args.items()) + ([("when", step.when)] if step.when else [])
            for key, value in refs:
                reason = _reference_problem(value, slot_names, flow.inputs, earlier)
                if reason:
                    flow_problem(sat + ("args", key) if key != "when" else sat + ("when",), reason, "$slots.<slot>, $outputs.<earlier output>, $inputs.<input>, $prefs.<key> or a literal")
            if step.call in tools:
                for key, slot_name in _maybe_empty_required(flow, step, tools[step.call]):
                    flow_problem(sat + ("args", key), f"{key!r} is required by tool {step.call!r}, but optional slot "
                                 f"{slot_name!r} has no default, so the call fails when the user does not say it",
                                 f"a default for {slot_name!r}, priority: required, or {key!r} left out of the tool's required", "warning")
                for output, path in step.map_outputs.items():
                    problem = output_path_problem(tools[step.call].output_schema, path)
                    if problem:
                        message, certain = problem
                        flow_problem(sat + ("map_outputs", output), f"{output}: {message}",
                                     f"a dotted path into {step.call!r}'s output_schema", "error" if certain else "warning")

    for name, vocab in onto.vocabularies.items():
        if vocab.tool not in tools:
            flow_problem(("vocabularies", name, "tool"), f"unknown tool {vocab.tool!r}", f"a tool_id from {mfile}")
        elif "changes_state" in tools[vocab.tool].tags:
            flow_problem(("vocabularies", name, "tool"), f"vocabulary tool {vocab.tool!r} may change state", "a read-only tool")
    for i, tool in enumerate(man.tools):
        at = ("tools", i)
        for key in ("input_schema", "output_schema"):
            schema = getattr(tool, key)
            if schema_certainly_valid(schema):
                continue  # the common case, without importing jsonschema (~60 ms) and its metaschema check
            from jsonschema import Draft202012Validator
            from jsonschema.exceptions import SchemaError

            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError as exc:
                tool_problem(at + (key,), f"not a valid JSON Schema 2020-12: {exc.message}", "a JSON Schema 2020-12 object")
        if tool.timeout_ms is None and "timeout_ms" not in man.defaults:
            tool_problem(at + ("timeout_ms",), f"tool {tool.tool_id!r} has no timeout", "timeout_ms here or under defaults")
        if tool.capabilities is None:
            tool_problem(at + ("capabilities",), f"tool {tool.tool_id!r} declares no capabilities, so it is treated as having all four", "the capability tags that are true for it", "warning")
        if tool.has_trifecta and not tool.requires_approval:
            tool_problem(at + ("requires_approval",), f"tool {tool.tool_id!r} carries all three trifecta tags: requires_approval forced to true", "requires_approval: true", "warning")
        if check_handlers:
            reason = _import_problem(tool.handler)
            if reason:
                tool_problem(at + ("handler",), reason, "an importable module:function")
    if man.prepare and check_handlers:
        reason = _prepare_problem(man.prepare)
        if reason:
            tool_problem(("prepare",), reason, "an importable module:function taking (data_dir, today)")
    ids = [t.tool_id for t in man.tools]
    for i, tool_id in enumerate(ids):
        if ids.index(tool_id) != i:
            tool_problem(("tools", i, "tool_id"), f"duplicate tool_id {tool_id!r}", "unique tool ids")
    return out


_REPLY_FIELDS = frozenset({"phrase", "message", "reason"})


def _template_fields(template: str) -> set[str]:
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return set()
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in parsed if name}


def _reference_problem(value: Any, slots: list[str], inputs: list[str], outputs: set[str]) -> str | None:
    if isinstance(value, dict):
        for item in value.values():
            reason = _reference_problem(item, slots, inputs, outputs)
            if reason:
                return reason
        return None
    if not isinstance(value, str) or not value.startswith("$"):
        return None
    match = STEP_REFERENCE.match(value)
    if not match:
        return f"malformed reference {value!r}"
    kind, name = match.groups()
    if kind == "slots" and name not in slots:
        return f"reference to unknown slot {name!r}" + did_you_mean(name, slots)
    if kind == "inputs" and name not in inputs:
        return f"reference to undeclared input {name!r}" + did_you_mean(name, inputs)
    if kind == "outputs" and name not in outputs:
        return f"reference to output {name!r} that no earlier step maps" + did_you_mean(name, outputs)
    return None


def _shadowed_modules(root: Path) -> list[Problem]:
    """A pack's Python module whose name another module in this process already has (another
    pack's, from the same `dialstack init` template): its ``module:attr`` targets would resolve
    to the other code. A warning: pack modules share one namespace (see docs/domain-packs.md)."""
    out = []
    for source in sorted(root.glob("*.py")):
        loaded = sys.modules.get(source.stem)
        where = getattr(loaded, "__file__", None)
        if where and Path(where).resolve() != source.resolve() and not _same_bytes(Path(where), source):
            out.append(Problem(source.name, "", f"a module named {source.stem!r} is already loaded from {where}, so "
                               f"'{source.stem}:...' targets would use that one in this process", "a module name nothing "
                               "else uses: rename this file and the module:attr targets that name it", severity="warning"))
    return out


def _same_bytes(a: Path, b: Path) -> bool:
    """Two copies of one module (generated packs share their handlers) are not a clash."""
    try:
        return a.read_bytes() == b.read_bytes()
    except OSError:
        return False


def _import_problem(target: str) -> str | None:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        return f"cannot import {module_name!r}: {exc}"
    if not hasattr(module, attr):
        return f"module {module_name!r} has no {attr!r}" + did_you_mean(attr, [n for n in dir(module) if not n.startswith("_")])
    return None


def _prepare_problem(target: str) -> str | None:
    reason = _import_problem(target)
    if reason:
        return reason
    hook = resolve(target)
    if not callable(hook):
        return f"{target} is not a function"
    try:
        inspect.signature(hook).bind(Path("data"), None)
    except TypeError as exc:
        return f"{target} cannot be called as prepare(data_dir, today): {exc}"
    except ValueError:  # a builtin without a signature: trust it
        pass
    return None
