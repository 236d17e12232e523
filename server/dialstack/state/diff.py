"""State diffs: JSON Patch (RFC 6902) between two JSON documents, a fast differ and a small applier.

``make_diff`` / ``apply_diff`` are the state's API (inputs left alone); the store uses
``advance`` / ``apply_patch``, which patch a document it owns in place, and ``encode`` /
``decode`` for the stored text.

``jsonpatch.make_patch`` is exact but costs ~1.5 ms on a 20 kB dialogue state; a turn
must commit in well under that. This differ walks dicts key by key, trims the common
head and tail of lists and aligns the rest with ``difflib`` so that the usual edits
(a flow pushed, the oldest archived flow dropped, a slot filled) give a patch of a few
operations. ``==`` treats ``True`` and ``1`` as equal, so ``advance`` checks its result
and falls back to replacing the whole document when the fast path was wrong: the patch
it returns is always exact.

The applier handles the operations the differ emits (``add``, ``remove``, ``replace``)
itself, ~20x faster than ``jsonpatch``; any other operation (``move``, ``copy``,
``test``, from a patch written by another tool) goes to ``jsonpatch``.
"""

from __future__ import annotations

import copy
import difflib
import json
from typing import Any

import orjson

Patch = list[dict[str, Any]]
# dataclasses, datetimes and subclasses go to the standard encoder, which refuses or handles them as before
_ENCODE = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


class PatchError(ValueError):
    """A patch that cannot be applied to the document: the message names the operation."""


def encode(doc: Any) -> bytes:
    """The compact, key-sorted UTF-8 JSON of ``doc``; equal texts mean equal documents.

    ``TypeError`` or ``ValueError`` for what is not JSON (``object()``, a NaN).
    """
    try:
        return orjson.dumps(doc, option=_ENCODE)
    except orjson.JSONEncodeError:
        # what orjson refuses but JSON allows (non-str keys, integers past 64 bits)
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def decode(text: bytes | str) -> Any:
    """The document stored as ``text`` (as written by ``encode`` or ``json.dumps``)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # NaN / Infinity written by older releases


def canonical(doc: Any) -> str:
    """``encode(doc)`` as text."""
    return encode(doc).decode()


def make_patch(old: Any, new: Any) -> Patch:
    """The JSON Patch turning ``old`` into ``new`` (neither is modified)."""
    return advance(decode(encode(old)), new)[0]


def advance(owned_old: Any, new: Any, new_text: bytes | None = None) -> tuple[Patch, Any]:
    """The patch from ``owned_old`` to ``new``, and ``owned_old`` patched into ``new``.

    ``owned_old`` must belong to the caller alone: it is patched in place (the store keeps
    the result as its cached head, saving a parse per turn). The patched document is
    checked against ``new_text`` (``encode(new)``, encoded here when not given): the
    returned patch is exact even where ``==`` conflates ``True`` and ``1``.
    """
    ops: Patch = []
    _diff("", owned_old, new, ops)
    if new_text is None:
        new_text = encode(new)
    try:
        patched = apply_patch(owned_old, ops)
    except PatchError:
        patched = None
    if patched is not None and patched == new and encode(patched) == new_text:
        return ops, patched
    return [{"op": "replace", "path": "", "value": decode(new_text)}], decode(new_text)


def make_diff(old: Any, new: Any) -> Patch:
    """The operations turning ``old`` into ``new`` (neither is modified)."""
    return make_patch(old, new)


def apply_diff(state: Any, ops: Patch) -> Any:
    """A new document: ``state`` with ``ops`` applied (``state`` and ``ops`` are left alone)."""
    return apply_patch(copy.deepcopy(state), copy.deepcopy(ops))


def apply_patch(doc: Any, patch: Patch) -> Any:
    """Apply ``patch`` to ``doc`` in place; returns the patched document.

    Values in ``patch`` become part of the result (not copied). ``PatchError`` when an
    operation does not fit the document; operations before it have been applied.
    """
    for op in patch:
        doc = _apply_op(doc, op)
    return doc


def _apply_op(doc: Any, op: dict[str, Any]) -> Any:
    kind = op.get("op")
    path = op.get("path")
    if kind not in ("add", "remove", "replace") or not isinstance(path, str):
        return _apply_other(doc, op)
    if path == "":
        if kind == "remove":
            raise PatchError("cannot remove the whole document (path '')")
        return op["value"]
    parts = path.split("/")
    if parts[0] != "":
        raise PatchError(f"{kind} {path!r}: a JSON pointer starts with '/'")
    target = doc
    last = len(parts) - 1
    for index in range(1, last):
        target = _child(target, parts[index], path)
    key = parts[last]
    if "~" in key:
        key = _unescape(key)
    if type(target) is dict:
        if kind == "add":
            target[key] = op["value"]
        elif key not in target:
            raise PatchError(f"{kind} {path!r}: no member {key!r}")
        elif kind == "replace":
            target[key] = op["value"]
        else:
            del target[key]
        return doc
    if type(target) is list:
        if kind == "add" and key == "-":
            target.append(op["value"])
            return doc
        position = _index(key, path)
        size = len(target)
        if kind == "add":
            if position > size:
                raise PatchError(f"add {path!r}: index {position} is past the end of a list of {size}")
            target.insert(position, op["value"])
        elif position >= size:
            raise PatchError(f"{kind} {path!r}: index {position} is out of a list of {size}")
        elif kind == "replace":
            target[position] = op["value"]
        else:
            del target[position]
        return doc
    raise PatchError(f"{kind} {path!r}: the parent is neither an object nor an array")


def _child(node: Any, part: str, path: str) -> Any:
    if type(node) is dict:
        if "~" in part:
            part = _unescape(part)
        try:
            return node[part]
        except KeyError:
            raise PatchError(f"{path!r}: no member {part!r}") from None
    if type(node) is list:
        position = _index(part, path)
        if position >= len(node):
            raise PatchError(f"{path!r}: index {position} is out of a list of {len(node)}")
        return node[position]
    raise PatchError(f"{path!r}: {part!r} is inside a value that is neither an object nor an array")


def _index(part: str, path: str) -> int:
    if part.isascii() and part.isdigit() and (part == "0" or part[0] != "0"):
        return int(part)
    raise PatchError(f"{path!r}: {part!r} is not an array index")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _apply_other(doc: Any, op: dict[str, Any]) -> Any:
    """``move`` / ``copy`` / ``test`` (never emitted by this differ) through ``jsonpatch``."""
    import jsonpatch  # only for patches written by other tools

    try:
        return jsonpatch.apply_patch(doc, [op], in_place=True)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
        raise PatchError(f"{op.get('op')} {op.get('path')!r}: {exc}") from exc


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _diff(path: str, old: Any, new: Any, ops: Patch) -> None:
    if type(old) is dict and type(new) is dict:
        _diff_dict(path, old, new, ops)
    elif type(old) is list and type(new) is list:
        _diff_list(path, old, new, ops)
    elif type(old) is not type(new) or old != new:
        ops.append({"op": "replace", "path": path, "value": copy.deepcopy(new)})


def _diff_dict(path: str, old: dict[str, Any], new: dict[str, Any], ops: Patch) -> None:
    for key in old.keys() - new.keys():
        ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    for key, value in new.items():
        child = f"{path}/{_escape(key)}"
        if key not in old:
            ops.append({"op": "add", "path": child, "value": copy.deepcopy(value)})
        elif old[key] is not value and old[key] != value:
            _diff(child, old[key], value, ops)
        elif type(old[key]) is not type(value):
            ops.append({"op": "replace", "path": child, "value": copy.deepcopy(value)})


def _diff_list(path: str, old: list[Any], new: list[Any], ops: Patch) -> None:
    if old == new:
        return
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid = old[head : len(old) - tail]
    new_mid = new[head : len(new) - tail]
    if len(old_mid) == len(new_mid) == 1:
        _diff(f"{path}/{head}", old_mid[0], new_mid[0], ops)
        return
    _diff_aligned(path, head, old_mid, new_mid, ops)


def _diff_aligned(path: str, base: int, old: list[Any], new: list[Any], ops: Patch) -> None:
    """Insertions and deletions inside a list, applied back to front so indices stay valid.

    Items are aligned by identity (a dict's ``"id"``, e.g. a flow) where they have one, so a
    flow that changed *and* moved yields a small nested patch instead of remove + add.
    """
    keys = _identities(old + new)
    matcher = difflib.SequenceMatcher(a=keys[: len(old)], b=keys[len(old) :], autojunk=False)
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1 - 1, -1, -1):
                _diff(f"{path}/{base + i1 + k}", old[i1 + k], new[j1 + k], ops)
            continue
        for i in range(i2 - 1, i1 - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{base + i}"})
        for j in range(j1, j2):
            ops.append({"op": "add", "path": f"{path}/{base + i1 + j - j1}", "value": copy.deepcopy(new[j])})


def _identities(items: list[Any]) -> list[tuple[str, Any]]:
    """``("id", value)`` for dicts with a scalar ``"id"``; otherwise one class per ``==`` group
    (found with C-speed compares, no hashing of nested values)."""
    reps: list[Any] = []
    keys: list[tuple[str, Any]] = []
    for item in items:
        ident = item.get("id") if type(item) is dict else None
        if isinstance(ident, (str, int)) and not isinstance(ident, bool):
            keys.append(("id", ident))
            continue
        for index, rep in enumerate(reps):
            if rep == item:
                keys.append(("eq", index))
                break
        else:
            keys.append(("eq", len(reps)))
            reps.append(item)
    return keys
