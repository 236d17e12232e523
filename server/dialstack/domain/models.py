"""Typed models of a domain pack: the ontology (flows YAML), the tool manifest and the skills.

These are the edge types (pydantic, ``extra="forbid"`` so an unknown key is an error); the
rest of the package reads them but never mutates them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

UNIVERSAL_INTENTS: tuple[str, ...] = ("Plan", "Converse", "Internal")
DOMAIN_INTENT_ROLES: tuple[str, ...] = ("read", "prepare", "transform", "schedule")
CAPABILITIES: tuple[str, ...] = (
    "accesses_private_data",
    "receives_untrusted_input",
    "communicates_externally",
    "changes_state",
)
TRIFECTA: frozenset[str] = frozenset(CAPABILITIES[:3])
COMPONENT_TOOLS: tuple[str, ...] = ("context_coordinator", "memory_manager", "flow_stack")
UNIVERSAL_SLOT_TYPES: tuple[str, ...] = (
    "BaseSlot",
    "GroupSlot",
    "SourceSlot",
    "TargetSlot",
    "RemovalSlot",
    "FreeTextSlot",
    "LevelSlot",
    "RangeSlot",
    "ExactSlot",
    "DictionarySlot",
    "CategorySlot",
    "ChecklistSlot",
    "DateTimeSlot",
)
MAX_DOMAIN_SLOT_TYPES = 4  # a domain declares 0-4 slot types of its own beside the universal ones

HANDLER_PATTERN = r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$"  # module:function

Priority = Literal["required", "elective", "optional"]
LimitStrategy = Literal["cancel_oldest", "reject_new", "ask_user"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IntentSpec(_Model):
    description: str = ""
    role: Literal["read", "prepare", "transform", "schedule"] | None = None


class SlotTypeSpec(_Model):
    """A domain slot type: a universal base with parameters, optionally a Python class."""

    base: str = "BaseSlot"
    description: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    python: str | None = Field(default=None, description="module:Class of a BaseSlot subclass")


class FlowManagement(_Model):
    max_stack_depth: int = Field(default=4, ge=1, le=64)
    on_limit_reached: LimitStrategy = "cancel_oldest"
    abandon_timeout: float = Field(default=3600, gt=0)


class MemoryManagement(_Model):
    max_history_messages: int = Field(default=50, ge=1)
    max_trace_events: int = Field(default=100, ge=1)
    archive_completed_flows_after: int = Field(default=10, ge=1)
    snapshot_every: int = Field(default=50, ge=1)


class Settings(_Model):
    flow_management: FlowManagement = FlowManagement()
    memory_management: MemoryManagement = MemoryManagement()
    resume_margin: float = Field(default=2.0, ge=0)
    confidence_threshold: float = Field(default=0.35, ge=0, le=1)


class SlotSpec(_Model):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    type: str
    priority: Priority = "required"
    prompt: str = ""
    description: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    default: Any = None


class FlowMetadata(_Model):
    can_be_paused: bool = True
    can_be_resumed: bool = True
    max_pause_duration: float | None = Field(default=None, gt=0)
    category: str = ""
    digression: bool = False


# A step argument that refers to a value instead of being a literal: ``$slots.origin``.
STEP_REFERENCE = re.compile(r"^\$(slots|outputs|inputs|prefs|flow)\.([A-Za-z_]\w*)$")


class StepSpec(_Model):
    """One deterministic tool call of a flow's plan.

    ``args`` values are literals or references: ``$slots.NAME``, ``$outputs.NAME``,
    ``$inputs.NAME``, ``$prefs.NAME``, ``$flow.NAME`` (``flow_id``, ``name``).
    ``map_outputs`` maps an output name to a dotted path in the tool's result
    (``flights.0.flight_id``).
    """

    call: str
    args: dict[str, Any] = Field(default_factory=dict)
    map_outputs: dict[str, str] = Field(default_factory=dict)
    when: str | None = None


class FlowSpec(_Model):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    intent: str
    description: str
    examples: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    slots: list[SlotSpec] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    inputs: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list, max_length=3)
    skill: str
    metadata: FlowMetadata = FlowMetadata()
    fallback: str | None = None
    reflection: bool = False
    steps: list[StepSpec] = Field(default_factory=list)
    depends_on: list[str] = Field(default_factory=list)
    responses: dict[str, str] = Field(default_factory=dict)
    reask: dict[str, list[str]] = Field(
        default_factory=dict, description="error category -> slots to clear and ask again (no_results: [date])"
    )
    python: str | None = Field(default=None, description="module:Class of a flow subclass with hooks")
    label: str = Field(default="", description="short phrase for replies: 'booking a new flight'")
    confirm: Literal["auto", "always", "never"] = Field(
        default="auto",
        description="ask for a yes before the tools run: auto = when a tool changes state and is not idempotent",
    )

    @property
    def phrase(self) -> str:
        return self.label or self.name.replace("_", " ")

    def slot(self, name: str) -> SlotSpec | None:
        return next((s for s in self.slots if s.name == name), None)


class VocabularySpec(_Model):
    """Known values for slot parsing, read once per session through a (read-only) tool."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    items: str = Field(description="dotted path of the list in the tool's result")
    value: str = Field(description="field of an item holding its canonical value")
    synonyms: list[str] = Field(default_factory=list, description="fields of an item that also name it")


class Ontology(_Model):
    """``flows/<domain>.yaml``."""

    domain: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    description: str = ""
    version: str = "1"
    intents: dict[str, IntentSpec]
    slot_types: dict[str, SlotTypeSpec] = Field(default_factory=dict)
    settings: Settings = Settings()
    templates: dict[str, str] = Field(default_factory=dict)
    vocabularies: dict[str, VocabularySpec] = Field(default_factory=dict)
    flows: list[FlowSpec] = Field(max_length=64)


class Capabilities(_Model):
    accesses_private_data: bool = False
    receives_untrusted_input: bool = False
    communicates_externally: bool = False
    changes_state: bool = False

    def tags(self) -> frozenset[str]:
        return frozenset(c for c in CAPABILITIES if getattr(self, c))


class ToolSpec(_Model):
    tool_id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    idempotent: bool
    timeout_ms: int | None = Field(default=None, gt=0)
    capabilities: Capabilities | None = None
    requires_approval: bool = False
    handler: str = Field(pattern=HANDLER_PATTERN)

    @property
    def tags(self) -> frozenset[str]:
        """Capability tags; a tool without a ``capabilities`` entry is treated as carrying all four.

        An explicit ``capabilities:`` mapping with every tag false declares a tool that has none.
        """
        if self.capabilities is None:
            return frozenset(CAPABILITIES)
        return self.capabilities.tags()

    @property
    def has_trifecta(self) -> bool:
        return TRIFECTA <= self.tags

    @property
    def needs_approval(self) -> bool:
        """The seed rule: all three trifecta tags force approval whatever the manifest says."""
        return self.requires_approval or self.has_trifecta


class Manifest(_Model):
    """``manifests/<domain>.yaml``."""

    domain: str
    defaults: dict[str, int] = Field(default_factory=lambda: {"timeout_ms": 5000})
    prepare: str | None = Field(default=None, pattern=HANDLER_PATTERN,
                                description="module:function called as prepare(data_dir, today) before the first turn")
    tools: list[ToolSpec]


class SkillSpec(_Model):
    name: str
    description: str
    path: Path
    body: str
    frontmatter: dict[str, Any]


class DomainPack(_Model):
    """A loaded, validated domain: ontology + manifest + skills, and where it came from."""

    name: str
    root: Path
    ontology: Ontology
    manifest: Manifest
    skills: dict[str, SkillSpec]

    @property
    def flows(self) -> dict[str, FlowSpec]:
        return {f.name: f for f in self.ontology.flows}

    @property
    def tools(self) -> dict[str, ToolSpec]:
        return {t.tool_id: t for t in self.manifest.tools}

    @property
    def settings(self) -> Settings:
        return self.ontology.settings

    def flow(self, name: str) -> FlowSpec:
        for flow in self.ontology.flows:
            if flow.name == name:
                return flow
        raise KeyError(f"domain {self.name!r} has no flow {name!r}; known: {', '.join(self.flows)}")

    def tool(self, tool_id: str) -> ToolSpec:
        for tool in self.manifest.tools:
            if tool.tool_id == tool_id:
                return tool
        raise KeyError(f"domain {self.name!r} has no tool {tool_id!r}")

    def timeout_ms(self, tool_id: str) -> int:
        tool = self.tool(tool_id)
        return tool.timeout_ms or self.manifest.defaults.get("timeout_ms", 5000)
