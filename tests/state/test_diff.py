from __future__ import annotations

import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.state.diff import canonical, make_patch

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False, width=16) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "c", "~", "/", "a/b", ""])
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


@given(documents, documents)
@settings(max_examples=400)
def test_patch_turns_old_into_new_exactly(old: Any, new: Any) -> None:
    before = canonical(old)
    patch = make_patch(old, new)
    assert canonical(old) == before  # old is untouched
    result = jsonpatch.apply_patch(json.loads(before), patch)  # a standard RFC 6902 applier agrees
    assert canonical(result) == canonical(new)


def test_equal_documents_give_an_empty_patch() -> None:
    assert make_patch({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) == []


def test_true_and_one_are_told_apart() -> None:
    patch = make_patch({"a": [1, True]}, {"a": [True, 1]})
    assert canonical(jsonpatch.apply_patch({"a": [1, True]}, patch)) == canonical({"a": [True, 1]})


def test_dropping_the_oldest_and_appending_gives_two_operations() -> None:
    old = {"archive": [{"id": i, "body": "x" * 50} for i in range(20)]}
    new = {"archive": old["archive"][1:] + [{"id": 20, "body": "y"}]}
    ops = make_patch(old, new)
    assert sorted(op["op"] for op in ops) == ["add", "remove"]
