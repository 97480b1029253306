"""What a view builder derives from the parsed objects, each part kept (in the builder's
Memo) while its inputs are the very same objects as in the last build (dra/parsed.py hands out
the same tuple while a kind is unchanged, and the Store the same mapping): at 10,000 devices
one claim coming or going redoes the parts that read claims, not the slices' or the events'.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from gsb_tui.dra import parsed
from gsb_tui.dra.model import Claim, Device, DeviceId, Event, Pod, Slice, TaintRule
from gsb_tui.dra.model.features import DeviceTaint
from gsb_tui.dra.occupancy import Occupancy, compute_occupancy, patch_occupancy
from gsb_tui.snapshot import Kind, ObjKey

if TYPE_CHECKING:
    from gsb_tui.dra.cel import CelSession

T = TypeVar("T")
_EPOCH = datetime.min.replace(tzinfo=UTC)


def frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


def reporting(pods: Iterable[Pod]) -> tuple[Pod, ...]:
    """The pods whose status reports device health (health.compute_health reads no other)."""
    return tuple(p for p in pods if p.resource_health)


def time_of(stamp: str) -> datetime:
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return _EPOCH
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def split_generations(slices: Iterable[Slice]) -> tuple[tuple[Slice, ...], tuple[Slice, ...]]:
    """(current, stale): only slices of the highest pool.generation per (driver, pool) count."""
    all_slices = list(slices)
    newest: dict[tuple[str, str], int] = {}
    for s in all_slices:
        pool = (s.driver, s.pool)
        newest[pool] = max(newest.get(pool, s.generation), s.generation)
    order = sorted(all_slices, key=lambda s: (s.node, s.pool, s.name))
    current = tuple(s for s in order if s.generation == newest[(s.driver, s.pool)])
    stale = tuple(s for s in order if s.generation != newest[(s.driver, s.pool)])
    return current, stale


class Memo:
    """What one watcher's builds keep from the last (dra/builder.py owns one per watcher): the
    parses, each derived part with the very inputs it was made from, and the last step of the
    parts patched from build to build. A view holds the memo it was built with, so what it
    derives on demand (the ledger, pool status) is kept in the same place."""

    def __init__(self) -> None:
        self.parses = parsed.Parses()
        # name → (inputs, value): kept while the inputs are the very same objects
        self._kept: dict[str, tuple[tuple[object, ...], Any]] = {}
        # name → what an incremental part (occupancy, orphans, pods by claim, warnings) made
        # last; each part reads and replaces its own entry under `lock`
        self.last: dict[str, Any] = {}
        # one build (or one incremental part) at a time: a worker may derive from a view
        # while the App builds the next
        self.lock = threading.RLock()
        self._cel: CelSession | None = None

    @property
    def cel(self) -> CelSession:
        """The watcher's CEL session: its compiled selectors and prepared devices (made on
        first use: dra.cel is imported only once something evaluates a selector)."""
        with self.lock:
            if self._cel is None:
                from gsb_tui.dra.cel import CelSession

                self._cel = CelSession()
            return self._cel

    def kept(self, name: str, inputs: tuple[object, ...], make: Callable[[], T]) -> T:
        """make(), or what it made last time from the very same inputs."""
        found = self._kept.get(name)
        same = found is not None and len(found[0]) == len(inputs)
        if same and all(a is b for a, b in zip(found[0], inputs, strict=True)):  # type: ignore[index]
            return cast(T, found[1])  # type: ignore[index]
        value = make()
        self._kept[name] = (inputs, value)
        return value


def by_time(memo: Memo, events: tuple[Event, ...]) -> list[Event]:
    """Events oldest first; the last order again while they are the very same objects (at
    5,000 events the timestamps' parsing was a tenth of a build)."""
    return memo.kept(
        "events by time", (events,), lambda: sorted(events, key=lambda e: time_of(e.last_seen))
    )


def keyed(items: tuple[T, ...], key: Callable[[T], Any]) -> Mapping[Any, T]:
    return frozen({key(item): item for item in items})


def by_key(
    memo: Memo, kind: Kind, items: tuple[T, ...], key_of: Callable[[T], Any]
) -> Mapping[Any, T]:
    """The parses by their (namespace, name) (`key_of` says it of each), kept while they are
    the same tuple; made from the memo's parses when they hold them."""
    return memo.kept(
        f"by-key {kind}", (items,), lambda: memo.parses.keyed(kind, items) or keyed(items, key_of)
    )


def owners(claims: Mapping[ObjKey, Claim]) -> Mapping[tuple[str, str, str], tuple[Claim, ...]]:
    by_owner: dict[tuple[str, str, str], list[Claim]] = {}
    for claim in claims.values():
        if claim.owner_pod:
            owner = (claim.namespace, claim.owner_pod, claim.pod_claim_name)
            by_owner.setdefault(owner, []).append(claim)
    return frozen({k: tuple(v) for k, v in by_owner.items()})


def by_object(
    memo: Memo, events: tuple[Event, ...]
) -> Mapping[tuple[str, str, str], tuple[Event, ...]]:
    by_event_object: dict[tuple[str, str, str], list[Event]] = {}
    for event in by_time(memo, events):
        target = (event.object_kind, event.object_namespace, event.object_name)
        by_event_object.setdefault(target, []).append(event)
    return frozen({k: tuple(v) for k, v in by_event_object.items()})


# occupancy's last step: (devices, claims, occupancy, the claims' parses)
_LastOccupancy = tuple[
    tuple[Device, ...], Mapping[ObjKey, Claim], Mapping[DeviceId, Occupancy], tuple[Claim, ...]
]


def occupancy(
    memo: Memo,
    devices: tuple[Device, ...],
    claims: Mapping[ObjKey, Claim],
    claim_list: tuple[Claim, ...],
) -> Mapping[DeviceId, Occupancy]:
    """Occupancy of every device: the last one itself while no claim's change touched a device
    (a claim with no allocation coming or going), patched when a few did."""
    last: _LastOccupancy | None = memo.last.get("occupancy")
    occupancy: Mapping[DeviceId, Occupancy] | None = None
    if last is not None and last[0] is devices:  # the same device objects: patch
        changed = memo.parses.changed_since(Kind.CLAIMS, last[3], claim_list, last[1], claims)
        patched = patch_occupancy(last[2], last[1], claims, changed)
        fresh = patched is not None and patched is not last[2]
        occupancy = frozen(cast(dict[Any, Any], patched)) if fresh else patched
    if occupancy is None:
        occupancy = frozen(compute_occupancy(devices, claims.values(), last[2] if last else None))
    memo.last["occupancy"] = (devices, claims, occupancy, claim_list)
    return occupancy


def rule_taints(
    rules: tuple[TaintRule, ...], devices: tuple[Device, ...]
) -> Mapping[DeviceId, tuple[DeviceTaint, ...]]:
    rule_taints: dict[DeviceId, tuple[DeviceTaint, ...]] = {}
    for rule in rules:
        for device in devices:
            if rule.selects(device.id):
                rule_taints[device.id] = (*rule_taints.get(device.id, ()), rule.taint)
    return rule_taints


# orphans' last step: (the claims' parses, devices, what was found)
_LastOrphans = tuple[tuple[Claim, ...], tuple[Device, ...], tuple[tuple[Claim, DeviceId], ...]]


def orphans(
    memo: Memo,
    claim_list: tuple[Claim, ...],
    claims: Mapping[ObjKey, Claim],
    devices: tuple[Device, ...],
    occupancy: Mapping[DeviceId, Occupancy],
) -> tuple[tuple[Claim, DeviceId], ...]:
    """Results naming a device no current slice publishes. With the same devices, none before
    and none among the claims that changed, still none (the common case, without a pass over
    every claim)."""
    last: _LastOrphans | None = memo.last.get("orphans")
    found: tuple[tuple[Claim, DeviceId], ...] | None = None
    if last is not None and last[1] is devices and not last[2]:
        changed = memo.parses.changes(Kind.CLAIMS, last[0], claim_list)
        if changed is not None and not any(
            r.id not in occupancy for k in changed if (c := claims.get(k)) for r in c.results
        ):
            found = ()
    if found is None:
        found = _orphans(claim_list, occupancy)
    memo.last["orphans"] = (claim_list, devices, found)
    return found


def _orphans(
    claim_list: tuple[Claim, ...], occupancy: Mapping[DeviceId, Occupancy]
) -> tuple[tuple[Claim, DeviceId], ...]:
    return tuple(
        (claim, result.id)
        for claim in claim_list
        for result in claim.results
        if result.id not in occupancy
    )


def devices_of(
    slice_list: tuple[Slice, ...],
) -> tuple[tuple[Slice, ...], tuple[Slice, ...], tuple[Device, ...]]:
    slices, stale = split_generations(slice_list)
    return slices, stale, tuple(d for s in slices for d in s.devices)
