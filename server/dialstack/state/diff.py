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
itself, ~10x faster than ``jsonpatch`` on real turns; any other operation (``move``, ``copy``,
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
    if patched is not None and encode(patched) == new_text:
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
    for part in parts[1:-1]:
        if type(target) is dict and "~" not in part and part in target:  # the common case, without a call
            target = target[part]
        else:
            target = _child(target, part, path)
    key = parts[-1]
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
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def _copy(value: Any) -> Any:
    """A private copy of a JSON value for a patch (C-speed where orjson can encode it)."""
    if type(value) is dict or type(value) is list:
        try:
            return orjson.loads(orjson.dumps(value, option=_ENCODE))
        except orjson.JSONEncodeError:
            return copy.deepcopy(value)
    return value


SMALL = 8  # a container of at most this many scalars (or short lists of them) is replaced whole


def _diff(path: str, old: Any, new: Any, ops: Patch) -> None:
    if type(old) is dict and type(new) is dict:
        _diff_dict(path, old, new, ops)
    elif type(old) is list and type(new) is list:
        if _small(new):  # one replace says it shorter than item-by-item edits (e.g. a confidence table)
            if old != new:
                ops.append({"op": "replace", "path": path, "value": _copy(new)})
        else:
            _diff_list(path, old, new, ops)
    elif type(old) is not type(new) or old != new:
        ops.append({"op": "replace", "path": path, "value": _copy(new)})


def _small(items: list[Any]) -> bool:
    if len(items) > SMALL:
        return False
    for item in items:
        if type(item) is list:
            if len(item) > SMALL or any(type(x) in (dict, list) for x in item):
                return False
        elif type(item) is dict:
            return False
    return True


_MISSING = object()


def _diff_dict(path: str, old: dict[str, Any], new: dict[str, Any], ops: Patch) -> None:
    if len(old) > len(new) or old.keys() != new.keys():
        for key in old.keys() - new.keys():
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    # equal by ``==`` is skipped even where only ``==`` says so (True == 1): ``advance`` checks the result
    for key in [key for key, value in new.items() if old.get(key, _MISSING) != value]:
        prior = old.get(key, _MISSING)
        if prior is _MISSING:
            ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": _copy(new[key])})
        else:
            _diff(f"{path}/{_escape(key)}", prior, new[key], ops)


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
    if head == 0 and tail == 0 and _shifted(path, old, new, ops):
        return
    old_mid = old[head : len(old) - tail]
    new_mid = new[head : len(new) - tail]
    if len(old_mid) == len(new_mid) == 1:
        _diff(f"{path}/{head}", old_mid[0], new_mid[0], ops)
        return
    _diff_aligned(path, head, old_mid, new_mid, ops)


def _shifted(path: str, old: list[Any], new: list[Any], ops: Patch) -> bool:
    """A capped log: the oldest few items dropped and new ones appended (no alignment needed)."""
    for dropped in range(1, min(4, len(old) - 1) + 1):  # at least one item kept
        kept = len(old) - dropped
        if kept <= len(new) and old[dropped:] == new[:kept]:
            ops.extend({"op": "remove", "path": f"{path}/0"} for _ in range(dropped))
            ops.extend({"op": "add", "path": f"{path}/-", "value": _copy(item)} for item in new[kept:])
            return True
    return False


def _diff_aligned(path: str, base: int, old: list[Any], new: list[Any], ops: Patch) -> None:
    """Insertions and deletions inside a list.

    Items are aligned by identity (a dict's ``"id"``, e.g. a flow) where they have one, so a
    flow that changed *and* moved yields a small nested patch instead of remove + add.
    Lists whose items all carry distinct ids and keep their relative order (a stack, an
    archive) are aligned in one pass; same-length lists without ids item by item; anything
    else through ``difflib``.
    """
    old_ids, new_ids = _unique_ids(old), _unique_ids(new)
    if old_ids is not None and new_ids is not None and _aligned_by_id(path, base, old, new, old_ids, new_ids, ops):
        return
    if old_ids is None and new_ids is None and len(old) == len(new):
        for k in range(len(old)):
            _diff(f"{path}/{base + k}", old[k], new[k], ops)
        return
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
            ops.append({"op": "add", "path": f"{path}/{base + i1 + j - j1}", "value": _copy(new[j])})


def _unique_ids(items: list[Any]) -> list[Any] | None:
    """Each item's scalar ``"id"`` when every item is a dict with one and none repeats."""
    ids = []
    for item in items:
        ident = item.get("id") if type(item) is dict else None
        if type(ident) is not str and type(ident) is not int:
            return None
        ids.append(ident)
    return ids if len(set(ids)) == len(ids) else None


def _aligned_by_id(
    path: str, base: int, old: list[Any], new: list[Any], old_ids: list[Any], new_ids: list[Any], ops: Patch
) -> bool:
    """Removes (back to front), then front to back a nested diff or an add per new item;
    ``False`` (nothing emitted) when the items both lists hold are not in the same order."""
    in_new, in_old = set(new_ids), set(old_ids)
    if [i for i in old_ids if i in in_new] != [i for i in new_ids if i in in_old]:
        return False
    for index in range(len(old) - 1, -1, -1):
        if old_ids[index] not in in_new:
            ops.append({"op": "remove", "path": f"{path}/{base + index}"})
    kept = {ident: item for ident, item in zip(old_ids, old) if ident in in_new}
    for index, (ident, item) in enumerate(zip(new_ids, new)):
        if ident in kept:
            prior = kept[ident]
            if prior != item or type(prior) is not type(item):
                _diff(f"{path}/{base + index}", prior, item, ops)
        else:
            ops.append({"op": "add", "path": f"{path}/{base + index}", "value": _copy(item)})
    return True


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
