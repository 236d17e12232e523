"""``PolicyRegistry``: finds a flow's policy, the domain's override or its intent's default.

It sits above the policies it hands out (``policies`` and ``planning``), so neither of them
imports it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from typing import Any

from ..domain.loader import bundled_root
from ..domain.models import UNIVERSAL_INTENTS, DomainPack, FlowSpec
from .planning import PlanPolicy
from .policies import ConversePolicy, InternalPolicy, Policy


DEFAULTS: dict[str, type[Policy]] = {"Plan": PlanPolicy, "Converse": ConversePolicy, "Internal": InternalPolicy}


class PolicyRegistry:
    """Finds the policy of a flow: the domain's override, else the intent's default.

    Overrides live in one module per intent: ``dialstack.domains.<domain>.policies.<intent>``
    for a bundled domain, ``<domain>_policies/<intent>.py`` in a pack folder (``--pack``).
    """

    def __init__(self, domain: DomainPack) -> None:
        self.domain = domain
        self._overrides: dict[str, Policy] = {}
        self._defaults: dict[str, Policy] = {}
        for intent in domain.ontology.intents:
            module = _policy_module(domain, intent.lower())
            for flow_name, cls in getattr(module, "POLICIES", {}).items():
                self._overrides[flow_name] = cls()

    def get(self, spec: FlowSpec) -> Policy | None:
        if spec.name in self._overrides:
            return self._overrides[spec.name]
        cls = DEFAULTS.get(spec.intent, Policy)
        return self._defaults.setdefault(spec.intent if spec.intent in UNIVERSAL_INTENTS else "domain", cls())


def _policy_module(domain: DomainPack, intent: str) -> Any:
    """The domain's policy module for ``intent``, or None when it has none (defaults apply)."""
    if domain.root == bundled_root():
        name = f"dialstack.domains.{domain.name}.policies.{intent}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                return None
            raise
    path = domain.root / f"{domain.name}_policies" / f"{intent}.py"
    if not path.is_file():
        return None
    # A name unique to the pack folder: two packs may both call their domain "shop".
    unique = f"_dialstack_pack_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}_{intent}"
    if unique in sys.modules:
        return sys.modules[unique]
    spec = importlib.util.spec_from_file_location(unique, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load policies from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    spec.loader.exec_module(module)
    return module
