"""Parsed views of the objects, reused from build to build, and parsed ahead of the first.

The Store replaces objects and never mutates them, so an object that is the very same dict as
last time parses the same: parsing is most of build_view's cost, and one change touches one
object. At scale the App also parses each kind as its first list arrives (`parse_ahead`),
while the other lists are still coming in.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any, TypeVar

from gsb_tui.dra import model
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot

T = TypeVar("T")

# The last parse per kind: the snapshot's mapping it was made from (the Store hands out the
# very same mapping while a kind is unchanged), each object's raw dict and parse, and the
# parses in key order. Holding the raw dict keeps it alive, so an id can never be reused by
# another object while it is cached.
_MEMO: dict[Kind, tuple[object, dict[ObjKey, tuple[Obj, Any]], tuple[Any, ...]]] = {}


_PARSERS: tuple[tuple[Kind, Callable[[Obj], Any]], ...] = (
    (Kind.SLICES, model.parse_slice),
    (Kind.CLASSES, model.parse_class),
    (Kind.CLAIMS, model.parse_claim),
    (Kind.TEMPLATES, model.parse_template),
    (Kind.PODS, model.parse_pod),
    (Kind.EVENTS, model.parse_event),
    (Kind.TAINT_RULES, model.parse_taint_rule),
)


def clear() -> None:
    _MEMO.clear()


def parse_kind(snapshot: Snapshot, kind: Kind, parse: Callable[[Obj], T]) -> tuple[T, ...]:
    """The kind's objects parsed, in (namespace, name) order: the very same tuple while not one
    object of the kind changed, so what is derived from it can be kept by identity."""
    objs = snapshot.objects.get(kind, {})
    source, old, parsed_before = _MEMO.get(kind, (None, {}, ()))
    if objs is source and isinstance(objs, MappingProxyType):  # the Store's: nobody changes it
        return parsed_before
    if len(old) == len(objs) and all(
        (hit := old.get(k)) is not None and hit[0] is raw for k, raw in objs.items()
    ):
        _MEMO[kind] = (objs, old, parsed_before)
        return parsed_before
    new: dict[ObjKey, tuple[Obj, Any]] = {}
    out: list[T] = []
    for key in sorted(objs):
        raw = objs[key]
        hit = old.get(key)
        parsed: T = hit[1] if hit is not None and hit[0] is raw else parse(raw)
        new[key] = (raw, parsed)
        out.append(parsed)
    result = tuple(out)
    _MEMO[kind] = (objs, new, result)  # one assignment: a concurrent build sees old or new
    return result


def parse_all(snapshot: Snapshot, kind: Kind, parse: Callable[[Obj], T]) -> list[T]:
    """The kind's objects parsed, in (namespace, name) order (a new list each time)."""
    return list(parse_kind(snapshot, kind, parse))


def parse_ahead(snapshot: Snapshot) -> None:
    """Parse what has arrived so far into the reuse memo, so the first build only assembles.

    The App calls this while the first lists of a large cluster still come in: each kind is
    parsed as soon as it is listed, in the time spent waiting for the others."""
    for kind, parse in _PARSERS:
        if snapshot.objects.get(kind):
            parse_all(snapshot, kind, parse)
