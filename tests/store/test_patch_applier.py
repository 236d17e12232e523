"""The store's JSON Patch applier agrees with jsonpatch (RFC 6902) on what our differ emits and more."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.state.diff import PatchError, apply_patch, canonical, make_patch

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False, width=16) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "c", "~", "/", "a/b", "~1", "0", ""])
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4), max_leaves=20)
pointers = st.lists(st.sampled_from(["a", "b", "~0", "~1", "a~1b", "0", "1", "2", "5", "-", "01", ""]), max_size=3).map(
    lambda parts: "".join("/" + part for part in parts)
)
operations = st.fixed_dictionaries(
    {"op": st.sampled_from(["add", "remove", "replace"]), "path": pointers, "value": scalars}
)


def jsonpatch_result(doc: Any, ops: list[dict[str, Any]]) -> Any:
    try:
        return jsonpatch.apply_patch(copy.deepcopy(doc), copy.deepcopy(ops))
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException):
        return PatchError


def our_result(doc: Any, ops: list[dict[str, Any]]) -> Any:
    try:
        return apply_patch(copy.deepcopy(doc), copy.deepcopy(ops))
    except PatchError:
        return PatchError


@given(documents, documents)
@settings(max_examples=400)
def test_applying_the_differs_patch_gives_what_jsonpatch_gives(old: Any, new: Any) -> None:
    patch = make_patch(old, new)
    ours = our_result(old, patch)
    assert ours is not PatchError
    assert canonical(ours) == canonical(jsonpatch_result(old, patch)) == canonical(new)


@given(documents, st.lists(operations, min_size=1, max_size=3))
@settings(max_examples=600)
def test_any_add_remove_replace_succeeds_or_fails_as_in_jsonpatch(doc: Any, ops: list[dict[str, Any]]) -> None:
    expected = jsonpatch_result(doc, ops)
    ours = our_result(doc, ops)
    if expected is PatchError:
        assert ours is PatchError
    else:
        assert ours is not PatchError and canonical(ours) == canonical(expected)


def test_operations_the_differ_never_emits_still_apply() -> None:
    doc = {"a": [1, 2], "b": {}}
    ops = [{"op": "move", "from": "/a/0", "path": "/b/x"}, {"op": "copy", "from": "/b/x", "path": "/c"}, {"op": "test", "path": "/c", "value": 1}]
    assert apply_patch(doc, ops) == {"a": [2], "b": {"x": 1}, "c": 1}


def test_a_patch_that_does_not_fit_names_the_operation_and_path() -> None:
    with pytest.raises(PatchError, match=r"replace '/a/3': index 3 is out of a list of 2"):
        apply_patch({"a": [1, 2]}, [{"op": "replace", "path": "/a/3", "value": 0}])


def test_an_escaped_pointer_never_matches_a_key_spelled_like_the_escape() -> None:
    doc = {"a~1b": {"x": 1}, "a/b": {"x": 2}}
    assert apply_patch(doc, [{"op": "replace", "path": "/a~1b/x", "value": 3}]) == {"a~1b": {"x": 1}, "a/b": {"x": 3}}
