"""The reply templates table in docs/domain-packs.md names every template a pack may override, with
the default the agent really uses."""

from __future__ import annotations

import re
from pathlib import Path

from dialstack.agent.res import DEFAULT_TEMPLATES

DOC = Path(__file__).resolve().parents[2] / "docs" / "domain-packs.md"


def test_every_template_a_pack_may_override_is_documented_with_its_default() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### `templates`"):text.index("### `vocabularies`")]
    rows = dict(re.findall(r'^\| `(\w+)` \| .+ \| "(.*)" \|$', section, re.M))
    assert rows == DEFAULT_TEMPLATES
