"""Policy overrides: bundled domains and pack folders."""

from __future__ import annotations

from pathlib import Path

from dialstack.agent.planning import PlanPolicy
from dialstack.agent.policies import Policy
from dialstack.agent.policy_registry import PolicyRegistry
from dialstack.domain import load_domain

from ..domain.conftest import write_pack


def test_a_bundled_domain_overrides_policies_per_flow_in_one_module_per_intent() -> None:
    travel = load_domain("travel")
    registry = PolicyRegistry(travel)
    assert type(registry.get(travel.flow("plan_trip"))).__name__ == "TripPlanPolicy"
    assert type(registry.get(travel.flow("cancel_booking"))).__name__ == "CancelBookingPolicy"
    assert type(registry.get(travel.flow("check_booking"))) is Policy


def test_a_pack_folder_overrides_policies_in_its_own_policies_package(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack")
    package = root / "mini_policies"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "change.py").write_text(
        "from dialstack.agent.policies import Policy\n\n\n"
        "class PaintPolicy(Policy):\n    hard_fallbacks = {'spilled': 'paint'}\n\n\n"
        "POLICIES = {'paint': PaintPolicy}\n"
    )
    domain = load_domain("mini", root)
    policy = PolicyRegistry(domain).get(domain.flow("paint"))
    assert type(policy).__name__ == "PaintPolicy" and policy.hard_fallbacks == {"spilled": "paint"}


def test_a_pack_without_policies_gets_the_defaults(tmp_path: Path) -> None:
    domain = load_domain("mini", write_pack(tmp_path / "plain"))
    assert type(PolicyRegistry(domain).get(domain.flow("paint"))) is Policy
    assert PlanPolicy is not None
