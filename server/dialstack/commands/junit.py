"""JUnit XML for ``dialstack test --junit-xml``: one testsuite per test file, one testcase per conversation."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the cli imports every commands module at start: keep this one light
    from ..agent.conversation import Report


def junit_tree(report: Report) -> ET.ElementTree:
    root = ET.Element("testsuites", name="dialstack", tests=str(len(report.outcomes) + len(report.errors)),
                      failures=str(sum(not o.passed for o in report.outcomes)), errors=str(len(report.errors)))
    for label, group in groupby(report.outcomes, key=lambda o: o.label):
        outcomes = list(group)
        suite = ET.SubElement(root, "testsuite", name=label or "conversations", tests=str(len(outcomes)),
                              failures=str(sum(not o.passed for o in outcomes)), errors="0",
                              time=f"{sum(o.seconds for o in outcomes):.3f}")
        for outcome in outcomes:
            case = ET.SubElement(suite, "testcase", classname=label or "conversations", name=outcome.conversation,
                                 time=f"{outcome.seconds:.3f}")
            if outcome.failures:
                first = outcome.failures[0]
                failure = ET.SubElement(case, "failure", message=f"turn {first.turn}: expected {first.expectation}")
                failure.text = "\n\n".join(str(f) for f in outcome.failures)
    if report.errors:
        suite = ET.SubElement(root, "testsuite", name="errors", tests=str(len(report.errors)), failures="0",
                              errors=str(len(report.errors)), time="0")
        for number, message in enumerate(report.errors, start=1):
            case = ET.SubElement(suite, "testcase", classname="errors", name=f"error {number}", time="0")
            error = ET.SubElement(case, "error", message=message.splitlines()[0] if message else "error")
            error.text = message
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(report: Report, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit_tree(report).write(path, encoding="utf-8", xml_declaration=True)
