"""DraView: everything dra/ derives from one Snapshot, computed once per snapshot.

Panes and lab checks read this instead of the raw dicts. Building it is linear in the number
of objects (every join goes through a dict), so it can run on every change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from types import MappingProxyType
from typing import Any, TypeVar

from gsb_tui.dra import derive, pod_claims
from gsb_tui.dra.availability import (
    Availability,
    BlockerGroup,
    CounterLedger,
    Reason,
    why_not,
)
from gsb_tui.dra.health import NO_HEALTH, HealthIndex
from gsb_tui.dra.ledger import Ledger, compute_ledger
from gsb_tui.dra.model import (
    Claim,
    Device,
    DeviceClass,
    DeviceId,
    Event,
    Malformed,
    Pod,
    PodClaim,
    Request,
    Slice,
    TaintRule,
    Template,
)
from gsb_tui.dra.model.malformed import collect
from gsb_tui.dra.occupancy import Occupancy
from gsb_tui.snapshot import Kind, ObjKey, Snapshot

_PLAIN = Request("", "", (), "ExactCount", 1, False)  # no tolerations, no capacity asked
_EMPTY: Mapping[Any, Any] = MappingProxyType({})
T = TypeVar("T")


def _frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


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
    # incomplete or invalid pools of the current generations: (state, reason) by (driver, pool)
    pool_problems: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    # Device health as real nodes' kubelets report it for the pods using them (dra/health.py)
    health: HealthIndex = NO_HEALTH
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
    # Each kind's parses as dra/parsed.py handed them out: parsed.changes(kind, an older
    # view's, this view's) says which keys changed between two views, when it knows.
    _parsed: Mapping[Kind, tuple[Any, ...]] = field(default_factory=dict, repr=False, compare=False)
    # The memo of the builder that built the view (dra/builder.py): what the view derives on
    # demand is kept there too, and the next view's build reuses it.
    memo: derive.Memo = field(default_factory=derive.Memo, repr=False, compare=False)
    # blockers() by what of a request it reads: each selection asks again, over every device
    _blockers: dict[Any, dict[DeviceId, Reason]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def changed_keys(self, kind: Kind, before: DraView) -> frozenset[ObjKey] | None:
        """Keys of the kind that changed since `before` (None: unknown, compare them whole)."""
        before_parses = before._parsed.get(kind, ())
        return self.memo.parses.changes(kind, before_parses, self._parsed.get(kind, ()))

    def malformed(self) -> tuple[Malformed, ...]:
        """Objects with a field of the wrong type (kept, read with it absent), by kind."""
        slices, stale, classes, claims = self.slices, self.stale_slices, self.classes, self.claims
        templates, pods, events, rules = self.templates, self.pods, self.events, self.taint_rules
        parts: tuple[tuple[Kind, Iterable[Any], tuple[object, ...]], ...] = (
            (Kind.SLICES, chain(slices, stale), (slices, stale)),  # walked only when not kept
            (Kind.CLASSES, classes.values(), (classes,)),
            (Kind.CLAIMS, claims.values(), (claims,)),
            (Kind.TEMPLATES, templates.values(), (templates,)),
            (Kind.PODS, pods.values(), (pods,)),
            (Kind.EVENTS, events, (events,)),
            (Kind.TAINT_RULES, rules, (rules,)),
        )
        # Per kind, each kept while its objects are the same: a claim's change walks no pod.
        found = tuple(self._malformed_of(kind, objs, inputs) for kind, objs, inputs in parts)
        # The same tuple while every kind's is (panes skip what is the very same object).
        return self.memo.kept("malformed", found, lambda: tuple(m for ms in found for m in ms))

    def _malformed_of(
        self, kind: Kind, objs: Iterable[Any], inputs: tuple[object, ...]
    ) -> tuple[Malformed, ...]:
        return self.memo.kept(f"malformed {kind}", inputs, lambda: collect(((kind, objs),)))

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

    def blockers(self, request: Request | None = None) -> Mapping[DeviceId, Reason]:
        """Every device the request could not be given now, with the reason (selectors aside:
        the CEL preview decides those)."""
        plain = request is None or not (
            request.tolerations or request.capacity or request.admin_access
        )
        if not self.availability and plain:  # capacity and adminAccess: see why_not
            return {d: "held" for d, occ in self.occupancy.items() if occ.holders}
        asked = request or _PLAIN
        key = (asked.tolerations, tuple(sorted(asked.capacity.items())), asked.admin_access)
        kept = self._blockers.get(key)
        if kept is None:
            found = {d: self.why_not(d, request) for d in self.occupancy}
            kept = {d: reason for d, reason in found.items() if reason is not None}
            self._blockers[key] = kept
        return kept  # the view's: read, never changed

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
        for reason in ("counters", "tainted", "capacity", "pool"):
            chosen = by_reason.get(reason, [])
            if not chosen:
                continue
            cause: set[str] = set()
            for device in chosen:
                problem = self.pool_problems.get((device.driver, device.pool))
                if reason == "pool" and problem is not None:
                    cause.add(f"{device.driver}/{device.pool}: {problem[0]}, {problem[1]}")
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
        return pod_claims.resolve_claims(pod, self.claims, self._claims_by_owner)

    def group_pods(self, namespace: str, group: str) -> tuple[Pod, ...]:
        """The pods scheduled with a PodGroup (spec.schedulingGroup), by name. A scan: claims
        held by a PodGroup are few, and its pods are its members whatever claims they list."""
        return tuple(
            sorted(
                (
                    p
                    for p in self.pods.values()
                    if p.pod_group == group and p.namespace == namespace
                ),
                key=lambda p: p.name,
            )
        )

    def pods_of_claim(self, claim: Claim) -> tuple[Pod, ...]:
        """Pods whose resourceClaims resolve to the claim, plus reservedFor pods that exist and
        the members of a PodGroup it is reserved for."""
        out = {p.key: p for p in self._pods_by_claim.get(claim.key, ())}
        for consumer in claim.reserved_for:
            if consumer.pod_group:
                for member in self.group_pods(claim.namespace, consumer.name):
                    out.setdefault(member.key, member)
                continue
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

    def several_pools(self) -> bool:
        """Devices come from more than one pool (then names say the pool too)."""
        devices = self.devices
        return self.memo.kept(
            "several-pools", (devices,), lambda: len({d.id.pool for d in devices}) > 1
        )

    def claim_namespaces(self) -> frozenset[str]:
        """The namespaces claims are in."""
        claims = self.claims
        return self.memo.kept(
            "claim-namespaces", (claims,), lambda: frozenset(map(itemgetter(0), claims))
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
