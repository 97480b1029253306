"""Parsed views of the objects, reused from build to build, and parsed ahead of the first.

The Store replaces objects and never mutates them, so an object that is the very same dict as
last time parses the same: parsing is most of build_view's cost, and one change touches one
object. At scale the App also parses each kind as its first list arrives (`parse_ahead`),
while the other lists are still coming in.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar, cast

from gsb_tui.dra import model
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot

T = TypeVar("T")


@dataclass(frozen=True)
class _Parsed:
    source: object
    entries: dict[ObjKey, tuple[Obj, Any]]
    keys: list[ObjKey]
    result: tuple[Any, ...]


_EMPTY = _Parsed(None, {}, [], ())


_PARSERS: tuple[tuple[Kind, Callable[[Obj], Any]], ...] = (
    (Kind.SLICES, model.parse_slice),
    (Kind.CLASSES, model.parse_class),
    (Kind.CLAIMS, model.parse_claim),
    (Kind.TEMPLATES, model.parse_template),
    (Kind.PODS, model.parse_pod),
    (Kind.EVENTS, model.parse_event),
    (Kind.TAINT_RULES, model.parse_taint_rule),
)


class Parses:
    """One watcher's last parse per kind, owned by its view builder (dra/builder.py)."""

    def __init__(self) -> None:
        # Per kind: the snapshot's mapping it was made from (the Store hands out the very
        # same mapping while a kind is unchanged), each object's raw dict and parse, the keys
        # in order, and the parses in that order. Holding the raw dict keeps it alive, so an
        # id can never be reused by another object while it is kept.
        self._memo: dict[Kind, _Parsed] = {}
        # Per kind, the last step: (parses before, parses after, the keys that changed).
        self._steps: dict[Kind, tuple[tuple[Any, ...], tuple[Any, ...], frozenset[ObjKey]]] = {}

    def changes(
        self, kind: Kind, before: tuple[Any, ...], after: tuple[Any, ...]
    ) -> frozenset[ObjKey] | None:
        """The keys of the kind that changed from the parses `before` to `after`, when those
        are the last step parse_kind took (None: unknown, compare them whole)."""
        step = self._steps.get(kind)
        if step is not None and step[0] is before and step[1] is after:
            return step[2]
        return frozenset() if before is after else None

    def keyed(self, kind: Kind, result: tuple[T, ...]) -> Mapping[ObjKey, T] | None:
        """The parses by key, in key order, when `result` is the kind's last parse (None if
        not). The key is the Store's (namespace, name), the very key a parse names itself by."""
        memo = self._memo.get(kind)
        if memo is None or memo.result is not result:
            return None
        return MappingProxyType(dict(zip(memo.keys, memo.result, strict=True)))

    def changed_since(
        self,
        kind: Kind,
        before: tuple[Any, ...],
        after: tuple[Any, ...],
        old: Mapping[ObjKey, object],
        new: Mapping[ObjKey, object],
    ) -> set[ObjKey]:
        """Keys whose object differs between `old` (made from the parses `before`) and `new`
        (from `after`): from parse_kind's last step when it is that step, else compared whole."""
        keys = self.changes(kind, before, after)
        return set(keys) if keys is not None else differing(old, new)

    def parse_kind(
        self, snapshot: Snapshot, kind: Kind, parse: Callable[[Obj], T]
    ) -> tuple[T, ...]:
        """The kind's objects parsed, in (namespace, name) order: the very same tuple while not
        one object of the kind changed, so what is derived from it can be kept by identity."""
        objs = snapshot.objects.get(kind, {})
        memo = self._memo.get(kind, _EMPTY)
        store_made = isinstance(objs, MappingProxyType)  # the Store's: nobody changes it
        if objs is memo.source and store_made:
            return cast(tuple[T, ...], memo.result)
        step = snapshot.changed.get(kind)
        if step is not None and step[0] is memo.source and store_made:
            made = _patch(memo, objs, step[1], parse)  # the Store says which keys changed
        elif len(memo.entries) == len(objs) and all(
            (hit := memo.entries.get(k)) is not None and hit[0] is raw for k, raw in objs.items()
        ):
            made = _Parsed(objs, memo.entries, memo.keys, memo.result)
        else:
            made = _whole(memo, objs, parse)
        if made.result is not memo.result:
            changed = step[1] if step is not None and step[0] is memo.source else None
            if changed is not None:
                self._steps[kind] = (memo.result, made.result, changed)
            else:
                self._steps.pop(kind, None)
        self._memo[kind] = made  # one assignment: a concurrent reader sees the old or the new
        return cast(tuple[T, ...], made.result)

    def parse_ahead(self, snapshot: Snapshot) -> None:
        """Parse what has arrived so far, so the first build only assembles.

        The App calls this while the first lists of a large cluster still come in: each kind
        is parsed as soon as it is listed, in the time spent waiting for the others."""
        for kind, parse in _PARSERS:
            if snapshot.objects.get(kind):
                self.parse_kind(snapshot, kind, parse)


def differing(old: Mapping[ObjKey, object], new: Mapping[ObjKey, object]) -> set[ObjKey]:
    """Keys whose object is not the very same one in both (added and removed ones too)."""
    out = {k for k, v in new.items() if old.get(k) is not v}
    out.update(k for k in old if k not in new)
    return out


def _whole(memo: _Parsed, objs: Mapping[ObjKey, Obj], parse: Callable[[Obj], Any]) -> _Parsed:
    entries: dict[ObjKey, tuple[Obj, Any]] = {}
    keys = sorted(objs)
    out = []
    for key in keys:
        raw = objs[key]
        hit = memo.entries.get(key)
        parsed = hit[1] if hit is not None and hit[0] is raw else parse(raw)
        entries[key] = (raw, parsed)
        out.append(parsed)
    return _Parsed(objs, entries, keys, tuple(out))


def _patch(
    memo: _Parsed,
    objs: Mapping[ObjKey, Obj],
    changed: frozenset[ObjKey],
    parse: Callable[[Obj], Any],
) -> _Parsed:
    """Only the changed keys parsed again; the rest is the last parse's."""
    entries, keys = dict(memo.entries), memo.keys
    came_or_went = False
    for key in changed:
        raw = objs.get(key)
        hit = entries.get(key)
        if raw is None:
            if hit is not None:
                del entries[key]
                came_or_went = True
        elif hit is None or hit[0] is not raw:
            entries[key] = (raw, parse(raw))
            came_or_went = came_or_went or hit is None
    # Each changed key replaced, put in or taken out at its place (keys stay sorted, as _whole's).
    result = list(memo.result)
    if came_or_went:
        keys = list(keys)  # the last parse's list is shared with it
    for key in sorted(changed):
        i = bisect_left(keys, key)
        present = i < len(keys) and keys[i] == key
        if key in entries:
            if present:
                result[i] = entries[key][1]
            else:
                keys.insert(i, key)
                result.insert(i, entries[key][1])
        elif present:
            del keys[i]
            del result[i]
    return _Parsed(objs, entries, keys, tuple(result))
