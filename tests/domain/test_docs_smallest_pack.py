"""The smallest pack shown in docs/domain-packs.md is complete: it validates as written."""

from __future__ import annotations

import re
from pathlib import Path

from dialstack.domain import inspect_domain

DOC = Path(__file__).resolve().parents[2] / "docs" / "domain-packs.md"


def test_the_smallest_pack_in_the_docs_validates_as_written(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### The smallest pack"):text.index("### Data and tests")]
    for _, body in re.findall(r"```(\w+)\n(.*?)```", section, re.S):
        first, rest = body.split("\n", 1)
        name = re.sub(r"^(#|<!--)\s*|\s*(-->)?$|, next to flows/$", "", first)
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(rest if first.startswith("<!--") else body, encoding="utf-8")

    domain, problems = inspect_domain("hello", tmp_path)

    assert domain is not None and [str(p) for p in problems] == []
    assert list(domain.flows) == ["greet"]
