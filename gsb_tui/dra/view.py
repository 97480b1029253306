"""DraView: everything dra/ derives from one Snapshot, computed once per snapshot.

Panes and lab checks read this instead of the raw dicts. Building it is linear in the number
of objects (every join goes through a dict), so it can run on every change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, TypeVar

from gsb_tui.dra import parsed
from gsb_tui.dra.availability import (
    Availability,
    BlockerGroup,
    CounterLedger,
    Reason,
    compute_availability,
    why_not,
)
from gsb_tui.dra.ledger import Ledger, compute_ledger
from gsb_tui.dra.model import (
    Claim,
    Device,
    DeviceClass,
    DeviceId,
    Event,
    Pod,
    PodClaim,
    Request,
    Slice,
    TaintRule,
    Template,
    meta,
    parse_claim,
    parse_class,
    parse_event,
    parse_pod,
    parse_slice,
    parse_taint_rule,
    parse_template,
)
from gsb_tui.dra.model.features import DeviceTaint
from gsb_tui.dra.occupancy import Occupancy, compute_occupancy, patch_occupancy
from gsb_tui.snapshot import Kind, ObjKey, Snapshot

_EPOCH = datetime.min.replace(tzinfo=UTC)
_PLAIN = Request("", "", (), "ExactCount", 1, False)  # no tolerations, no capacity asked
_EMPTY: Mapping[Any, Any] = MappingProxyType({})
T = TypeVar("T")


def _time(stamp: str) -> datetime:
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return _EPOCH
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _owner_uid(claim: Claim) -> str:
    for ref in meta(claim.raw).get("ownerReferences") or ():
        if isinstance(ref, Mapping) and ref.get("kind") == "Pod" and ref.get("controller"):
            return str(ref.get("uid") or "")
    return ""


def _frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


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


@dataclass(frozen=True)
class SchedulerWords:
    """What the scheduler said about a pod it could not place, quoted as it wrote it."""

    message: str
    reason: str  # "FailedScheduling" (an event) or "PodScheduled=False" (the condition)
    source: str  # the event's reporting component; "" for the condition
    count: int
    last_seen: str  # RFC 3339, "" for the condition


@dataclass(frozen=True)
class DraView:
    snapshot: Snapshot
    slices: tuple[Slice, ...]  # only the highest pool.generation per (driver, pool)
    stale_slices: tuple[Slice, ...]  # older generations: shown as such, never counted
    devices: tuple[Device, ...]  # ordered by (node, pool, slice name, published order)
    classes: Mapping[str, DeviceClass]
    claims: Mapping[tuple[str, str], Claim]
    templates: Mapping[tuple[str, str], Template]
    pods: Mapping[tuple[str, str], Pod]
    events: tuple[Event, ...]  # newest last
    occupancy: Mapping[DeviceId, Occupancy]
    orphan_results: tuple[tuple[Claim, DeviceId], ...]
    # DRA 1.36 features: only devices that use them have an entry (dra/availability.py)
    availability: Mapping[DeviceId, Availability] = field(default_factory=dict)
    counters: Mapping[tuple[str, str, str], CounterLedger] = field(default_factory=dict)
    taint_rules: tuple[TaintRule, ...] = ()  # DeviceTaintRules (v1beta2; () when not served)
    # Indexes built once by build_view; private so the public shape stays the one above.
    _claims_by_owner: Mapping[tuple[str, str, str], tuple[Claim, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _pods_by_claim: Mapping[ObjKey, tuple[Pod, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _events_by_object: Mapping[tuple[str, str, str], tuple[Event, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def device(self, id: DeviceId) -> Device | None:
        occ = self.occupancy.get(id)
        return occ.device if occ else None

    def state(self, id: DeviceId) -> str:
        """What the grid says of a device: free / allocated / reserved / shared, or blocked,
        tainted, full, binding, binding-failed where a 1.36 feature decides."""
        found = self.availability.get(id)
        if found is not None:
            return found.state
        occ = self.occupancy.get(id)
        return occ.status if occ is not None else "free"

    def why_not(self, id: DeviceId, request: Request | None = None) -> Reason | None:
        """Why the request (default: a plain one, no tolerations, no capacity asked) cannot be
        given this device now; None when it can (selectors aside)."""
        occ = self.occupancy.get(id)
        if occ is None:
            return None
        return why_not(occ.device, occ, self.availability.get(id), request or _PLAIN)

    def blockers(self, request: Request | None = None) -> dict[DeviceId, Reason]:
        """Every device the request could not be given now, with the reason (selectors aside:
        the CEL preview decides those)."""
        plain = request is None or not (
            request.tolerations or request.capacity or request.admin_access
        )
        if not self.availability and plain:  # capacity and adminAccess: see why_not
            return {d: "held" for d, occ in self.occupancy.items() if occ.holders}
        found = {d: self.why_not(d, request) for d in self.occupancy}
        return {d: reason for d, reason in found.items() if reason is not None}

    def blocker_groups(
        self, devices: Iterable[DeviceId], blockers: Mapping[DeviceId, Reason]
    ) -> list[BlockerGroup]:
        """The devices that cannot be given now, grouped by the 1.36 reason, with who or what
        blocks them: the devices that used the counters, the taints not tolerated. Held
        devices are left out (every view lists them as in use already)."""
        by_reason: dict[Reason, list[DeviceId]] = {}
        for device in devices:
            found = blockers.get(device)
            if found is not None and found != "held":
                by_reason.setdefault(found, []).append(device)
        out = []
        for reason in ("counters", "tainted", "capacity"):
            chosen = by_reason.get(reason, [])
            if not chosen:
                continue
            cause: set[str] = set()
            for device in chosen:
                found_availability = self.availability.get(device)
                if found_availability is None:
                    continue
                if reason == "counters":
                    cause.update(d.device for d in found_availability.blocked_by)
                elif reason == "tainted":
                    cause.update(str(t) for t in found_availability.blocking_taints)
            out.append(BlockerGroup(reason, tuple(chosen), tuple(sorted(cause))))
        return out

    def allocatable(self, request: Request | None = None) -> frozenset[DeviceId]:
        """The devices the request could be given now, selectors aside."""
        if not self.availability and request is None:  # the lab's shape: free means unheld
            return frozenset(d for d, occ in self.occupancy.items() if not occ.holders)
        return frozenset(d for d in self.occupancy if self.why_not(d, request) is None)

    def claims_of_pod(self, pod: Pod) -> tuple[Claim, ...]:
        """The claims a pod's resourceClaims entries resolve to, in entry order."""
        return _resolve_claims(pod, self.claims, self._claims_by_owner)

    def pods_of_claim(self, claim: Claim) -> tuple[Pod, ...]:
        """Pods whose resourceClaims resolve to the claim, plus reservedFor pods that exist."""
        out = {p.key: p for p in self._pods_by_claim.get(claim.key, ())}
        for consumer in claim.reserved_for:
            if consumer.resource != "pods":
                continue
            pod = self.pods.get((claim.namespace, consumer.name))
            if pod is not None and (not consumer.uid or not pod.uid or consumer.uid == pod.uid):
                out.setdefault(pod.key, pod)
        return tuple(out[k] for k in sorted(out))

    def claims_of_entry(self, pod: Pod, entry: PodClaim) -> tuple[Claim, ...]:
        """The claim one resourceClaims entry of the pod resolves to (none while a template's
        claim is not made yet)."""
        if entry.resolved_claim:
            claim = self.claims.get((pod.namespace, entry.resolved_claim))
            return (claim,) if claim is not None else ()
        return tuple(c for c in self.claims_of_pod(pod) if c.pod_claim_name == entry.name)

    def scheduler_said(self, pod: Pod) -> SchedulerWords | None:
        """The scheduler's own words on why the pod is not placed: its PodScheduled=False
        condition (the latest attempt), with the FailedScheduling event's count and time when
        the event says the same; the newest such event alone when there is no condition.
        Events about an earlier pod of the same name (another uid) do not count."""
        events = self.pod_events(pod, "FailedScheduling")
        event = events[-1] if events else None
        condition = pod.unschedulable_message
        if event is not None and (not condition or event.message == condition):
            return SchedulerWords(
                event.message, event.reason, event.source, event.count, event.last_seen
            )
        if condition:
            return SchedulerWords(condition, "PodScheduled=False", "", 1, "")
        return None

    def pod_events(self, pod: Pod, reason: str) -> tuple[Event, ...]:
        """Events with this reason about this very pod (not an earlier one of the same name),
        oldest first."""
        return tuple(
            e
            for e in self.events_for("Pod", pod.namespace, pod.name)
            if e.reason == reason and (not e.object_uid or not pod.uid or e.object_uid == pod.uid)
        )

    def drivers(self) -> tuple[str, ...]:
        """Drivers publishing devices in the current slices, sorted."""
        return tuple(sorted({s.driver for s in self.slices if s.devices and s.driver}))

    def lab_driver(self) -> str:
        """The driver the lab is about: the one publishing devices, one with a DeviceClass of
        its name first; with no slices yet, a lone DeviceClass's name (named like the driver,
        as dra-example-driver installs it)."""
        published = self.drivers()
        named = [d for d in published if d in self.classes]
        if named or published:
            return (named or published)[0]
        if len(self.classes) == 1:
            return next(iter(self.classes))
        return ""

    def events_for(self, kind: str, namespace: str, name: str) -> tuple[Event, ...]:
        """Events about one object (kind as in involvedObject: "Pod", "ResourceClaim"), newest
        last."""
        return self._events_by_object.get((kind, namespace, name), ())

    def ledger(self, driver: str | None = None, namespace: str | None = None) -> Ledger:
        return compute_ledger(self, driver, namespace)

    def nodes(self) -> tuple[str, ...]:
        """Node names from the Node objects and from the slices (Nodes may be forbidden)."""
        names = {name for _, name in self.snapshot.objects.get(Kind.NODES, {})}
        names.update(s.node for s in self.slices if s.node)
        return tuple(sorted(names))

    def node_allocatable(self, node: str) -> Mapping[str, str]:
        """status.allocatable of a Node: DRA devices never appear here (they are not numbers)."""
        obj = self.snapshot.get(Kind.NODES, "", node) or {}
        status = obj.get("status")
        alloc = status.get("allocatable") if isinstance(status, Mapping) else None
        if not isinstance(alloc, Mapping):
            return _EMPTY
        return _frozen({str(k): str(v) for k, v in alloc.items()})


def _resolve_claims(
    pod: Pod,
    claims: Mapping[ObjKey, Claim],
    by_owner: Mapping[tuple[str, str, str], tuple[Claim, ...]],
) -> tuple[Claim, ...]:
    # status.resourceClaimStatuses names a template's generated claim; until the controller
    # has written it, fall back to the claim it made for this pod: controlled by the pod and
    # annotated with the entry's name (resource.kubernetes.io/pod-claim-name).
    out: dict[ObjKey, Claim] = {}
    for entry in pod.claims:
        name = entry.resolved_claim
        if name:
            claim = claims.get((pod.namespace, name))
            if claim is not None:
                out.setdefault(claim.key, claim)
        elif entry.template_name:
            for claim in by_owner.get((pod.namespace, pod.name, entry.name), ()):
                uid = _owner_uid(claim)
                if not uid or not pod.uid or uid == pod.uid:
                    out.setdefault(claim.key, claim)
    return tuple(out.values())


# The last build's devices, claims and occupancy: the next build patches it for the claims
# that changed (patch_occupancy), or lends it its unchanged entries (compute_occupancy).
_OCCUPANCY: list[tuple[tuple[Device, ...], Mapping[ObjKey, Claim], dict[DeviceId, Occupancy]]] = []


_EVENTS: list[tuple[list[Event], list[Event]]] = []  # the last events, and in time order


def _by_time(events: list[Event]) -> list[Event]:
    """Events oldest first; the last order again while they are the very same objects (at
    5,000 events the timestamps' parsing was a tenth of a build)."""
    last = _EVENTS[0] if _EVENTS else None
    if last is not None and last[0] == events:  # identity first, element by element
        return list(last[1])
    ordered = sorted(events, key=lambda e: _time(e.last_seen))
    _EVENTS[:] = [(events, ordered)]
    return list(ordered)


def clear_parse_cache() -> None:
    """Forget the reused parses (benchmarks measure a cold build with it)."""
    parsed.clear()
    _OCCUPANCY.clear()
    _EVENTS.clear()


def build_view(snapshot: Snapshot) -> DraView:
    slices, stale = split_generations(parsed.parse_all(snapshot, Kind.SLICES, parse_slice))
    devices = tuple(d for s in slices for d in s.devices)
    classes = {c.name: c for c in parsed.parse_all(snapshot, Kind.CLASSES, parse_class)}
    claims = {c.key: c for c in parsed.parse_all(snapshot, Kind.CLAIMS, parse_claim)}
    templates = {
        (t.namespace, t.name): t for t in parsed.parse_all(snapshot, Kind.TEMPLATES, parse_template)
    }
    pods = {p.key: p for p in parsed.parse_all(snapshot, Kind.PODS, parse_pod)}
    events = _by_time(parsed.parse_all(snapshot, Kind.EVENTS, parse_event))
    last = _OCCUPANCY[0] if _OCCUPANCY else None
    occupancy = None
    if last is not None and last[0] == devices:  # the same device objects: identity checks
        occupancy = patch_occupancy(last[2], last[1], claims)
    if occupancy is None:
        occupancy = compute_occupancy(devices, claims.values(), last[2] if last else None)
    _OCCUPANCY[:] = [(devices, claims, occupancy)]  # one assignment, as _MEMO
    rules = tuple(parsed.parse_all(snapshot, Kind.TAINT_RULES, parse_taint_rule))
    rule_taints: dict[DeviceId, tuple[DeviceTaint, ...]] = {}
    for rule in rules:
        for device in devices:
            if rule.selects(device.id):
                rule_taints[device.id] = (*rule_taints.get(device.id, ()), rule.taint)
    availability, counters = compute_availability(slices, devices, occupancy, rule_taints)
    orphans = tuple(
        (claim, result.id)
        for claim in claims.values()
        for result in claim.results
        if result.id not in occupancy
    )

    by_owner: dict[tuple[str, str, str], list[Claim]] = {}
    for claim in claims.values():
        if claim.owner_pod:
            owner = (claim.namespace, claim.owner_pod, claim.pod_claim_name)
            by_owner.setdefault(owner, []).append(claim)
    by_event_object: dict[tuple[str, str, str], list[Event]] = {}
    for event in events:
        target = (event.object_kind, event.object_namespace, event.object_name)
        by_event_object.setdefault(target, []).append(event)

    owner_index = {k: tuple(v) for k, v in by_owner.items()}
    by_claim: dict[ObjKey, list[Pod]] = {}
    for pod in pods.values():
        for claim in _resolve_claims(pod, claims, owner_index):
            by_claim.setdefault(claim.key, []).append(pod)

    return DraView(
        snapshot=snapshot,
        slices=slices,
        stale_slices=stale,
        devices=devices,
        classes=_frozen(classes),
        claims=_frozen(claims),
        templates=_frozen(templates),
        pods=_frozen(pods),
        events=tuple(events),
        occupancy=_frozen(occupancy),
        orphan_results=orphans,
        availability=_frozen(availability),
        counters=_frozen(counters),
        taint_rules=rules,
        _claims_by_owner=_frozen(owner_index),
        _pods_by_claim=_frozen({k: tuple(v) for k, v in by_claim.items()}),
        _events_by_object=_frozen({k: tuple(v) for k, v in by_event_object.items()}),
    )
