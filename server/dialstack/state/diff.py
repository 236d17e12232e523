"""State diffs as JSON Patch (RFC 6902) between consecutive ``DialogueState.serialize()`` dicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jsonpatch

Op = dict[str, Any]


def make_diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Op]:
    """The operations turning ``old`` into ``new`` (neither is modified)."""
    return list(jsonpatch.make_patch(old, new).patch)


def apply_diff(state: Mapping[str, Any], ops: Sequence[Op]) -> dict[str, Any]:
    """A new dict: ``state`` with ``ops`` applied (raises ``jsonpatch.JsonPatchException`` on a bad op)."""
    return jsonpatch.apply_patch(state, list(ops), in_place=False)
