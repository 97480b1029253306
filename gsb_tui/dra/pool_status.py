"""ResourcePoolStatusRequests (resource.k8s.io/v1alpha3, gate DRAResourcePoolStatus): what
kube-controller-manager's resourcepoolstatusrequest-controller counted per pool, beside the
ledger's own count (dra/ledger.py), and why they differ, in named reasons.

A request is answered once (status written, then never again); gsb-tui only reads them. Three
sets of counts per reported pool (slices, total, allocated, available, unavailable):
- `reported`: the status as the controller wrote it;
- `mirrored`: what the controller of the server's release would write now, counted as it counts
  (read in k8s.io/kubernetes v1.36.5 and v1.37.2, pkg/controller/resourcepoolstatusrequest):
  every device of the pool's newest generation, duplicates too; 1.37 counts each device named
  by a non-adminAccess result once (published or not) and every device with a NoSchedule or
  NoExecute taint (its slice's, or a DeviceTaintRule's) as unavailable, allocated or not;
  1.36.5 counts every result (adminAccess, each share) and no taint; available is total minus
  both, never below 0;
- `own`: the ledger's: a device held by a claim once, free as `why_not` says for a plain request
  (so a shared device with room is allocated and free), unavailable = unheld and not free.
Counting reasons take `mirrored` to `own`; time reasons `reported` to `mirrored` (the status is
older than the slices, claims or rules). Their `moves` add up to reported minus own, field by
field. Notes name what both count alike but a reader may doubt (adminAccess, taints with
effect None, shares of one device on 1.37).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from gsb_tui.dra.alloc.features import features_for
from gsb_tui.dra.model import Device, DeviceId
from gsb_tui.dra.model.base import _d, _l, meta
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Obj

FIELDS = ("slices", "total", "allocated", "available", "unavailable")
RETRIES = 5  # the controller's maxRetries: then it drops a request it could not answer
# why_not's reason for an unheld device the ledger does not count free, as a reason code
_UNFREE = {
    "counters": "counters",
    "pool": "pool-problem",
    "capacity": "capacity",
    "tainted": "taints-uncounted",
}


@dataclass(frozen=True)
class Counts:
    slices: int | None = None
    total: int | None = None
    allocated: int | None = None
    available: int | None = None
    unavailable: int | None = None

    def known(self) -> bool:
        return self.total is not None

    def minus(self, other: Counts) -> dict[str, int]:
        """Per field, self minus other where both are known and differ."""
        out = {}
        for name in FIELDS:
            a, b = getattr(self, name), getattr(other, name)
            if a is not None and b is not None and a != b:
                out[name] = a - b
        return out

    def as_dict(self) -> dict[str, int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def slashed(self) -> str:
        """slices/total/allocated/available/unavailable, "-" where unknown."""
        return "/".join("-" if (v := getattr(self, f)) is None else str(v) for f in FIELDS)


@dataclass(frozen=True)
class Reason:
    """One cause of a difference: `n` devices (or results), and how much it puts upstream's
    count above (+) or below (-) gsb-tui's, per field. Words: poolstatus.reason.<code> (a
    note's poolstatus.note.<code>), with {n}, {devices} and {detail}."""

    code: str
    n: int = 0
    devices: tuple[str, ...] = ()
    moves: Mapping[str, int] = field(default_factory=dict)
    detail: str = ""


State = Literal["pending", "complete", "failed"]


@dataclass(frozen=True)
class PoolRequest:
    name: str
    driver: str
    pool: str  # spec.poolName; "" for every pool of the driver
    limit: int
    state: State
    written_at: str  # the Complete (or Failed) condition's lastTransitionTime
    message: str
    pool_count: int | None  # pools that matched (status.poolCount)
    listed: int  # pools in status.pools (fewer than pool_count: cut at spec.limit)
    waiting_on: tuple[str, ...] = ()  # pending: the driver's pools incomplete now


@dataclass(frozen=True)
class PoolComparison:
    request: str
    written_at: str
    driver: str
    pool: str
    node: str
    generation: int  # the status's
    generation_now: int | None  # the newest published now; None: no slice of the pool now
    reported: Counts
    mirrored: Counts  # unknown (None) when the controller would not count the pool now
    own: Counts
    validation_error: str
    reasons: tuple[Reason, ...]
    notes: tuple[Reason, ...]
    partition_summary: tuple[Mapping[str, Any], ...] = ()  # as written (1.37)
    shareable_summary: Mapping[str, Any] | None = None

    @property
    def differs(self) -> bool:
        return bool(self.reported.minus(self.own))


@dataclass(frozen=True)
class PoolStatus:
    requests: tuple[PoolRequest, ...] = ()
    pools: tuple[PoolComparison, ...] = ()


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _written(status: Mapping[str, Any]) -> tuple[State, str, str]:
    """(state, when, message) from the Complete / Failed condition."""
    for cond in _l(status.get("conditions")):
        cond = _d(cond)
        if cond.get("type") in ("Complete", "Failed") and cond.get("status") == "True":
            state: State = "complete" if cond.get("type") == "Complete" else "failed"
            return state, str(cond.get("lastTransitionTime") or ""), str(cond.get("message") or "")
    return "complete", "", ""


def _reported(raw: Mapping[str, Any]) -> Counts:
    return Counts(
        _int(raw.get("resourceSliceCount")),
        _int(raw.get("totalDevices")),
        _int(raw.get("allocatedDevices")),
        _int(raw.get("availableDevices")),
        _int(raw.get("unavailableDevices")),
    )


class _Pools:
    """The view indexed by pool, once per comparison."""

    def __init__(self, view: DraView) -> None:
        self.view = view
        self.release_137 = features_for(view.snapshot.server_version).since_137
        self.devices: dict[tuple[str, str], list[Device]] = {}
        for d in view.devices:
            self.devices.setdefault((d.id.driver, d.id.pool), []).append(d)
        self.slices: dict[tuple[str, str], int] = {}
        self.generation: dict[tuple[str, str], int] = {}
        for s in view.slices:
            self.slices[(s.driver, s.pool)] = self.slices.get((s.driver, s.pool), 0) + 1
            self.generation[(s.driver, s.pool)] = s.generation
        # per pool: (non-admin results' devices, admin results' devices), one entry per result
        self.results: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        for claim in view.claims.values():
            if not claim.allocated:
                continue
            for r in claim.results:
                held, admin = self.results.setdefault((r.id.driver, r.id.pool), ([], []))
                (admin if r.admin_access else held).append(r.id.device)
        ledger = view.ledger()
        self.held, self.free = ledger.allocated, ledger.allocatable

    def tainted(self, id: DeviceId) -> bool:
        found = self.view.availability.get(id)
        return found is not None and any(t.blocks for t in found.taints)

    def own(self, key: tuple[str, str]) -> Counts:
        ids = {d.id for d in self.devices.get(key, ())}
        held, free = len(ids & self.held), len(ids & self.free)
        unavailable = len(ids - self.held - self.free)
        return Counts(self.slices.get(key, 0), len(ids), held, free, unavailable)

    def count(self, key: tuple[str, str]) -> tuple[Counts, list[Reason], list[Reason]]:
        """What the controller would write now, the reasons it differs from own, the notes."""
        devices = self.devices.get(key, [])
        names = {d.name for d in devices}
        ids = {d.id for d in devices}
        held_results, admin_results = self.results.get(key, ([], []))
        per_device = Counter(held_results)  # results naming each device
        orphans = sorted(set(per_device) - names)
        marked = [d for d in devices if self.release_137 and self.tainted(d.id)]
        tainted = {d.name for d in marked}
        reasons: list[Reason] = []
        if self.release_137:  # each device named by a result once, published or not
            allocated = len(per_device)
            orphan_n = len(orphans)
        else:  # 1.36.5: every result, each share and each adminAccess one too
            allocated = len(held_results) + len(admin_results)
            orphan_n = sum(per_device[n] for n in orphans)
            shared = sorted(n for n, k in per_device.items() if k > 1 and n in names)
            extra = sum(per_device[n] - 1 for n in shared)
            reasons += [_moved("admin-results", len(admin_results), sorted(set(admin_results)))]
            reasons += [_moved("share-results", extra, shared)]
        total = len(devices)
        raw = total - allocated - len(marked)
        mirrored = Counts(self.slices.get(key, 0), total, allocated, max(0, raw), len(marked))
        held_ids = ids & self.held
        unfree: dict[str, list[str]] = {}
        for id in sorted(ids - self.held - self.free):
            if id.device in tainted:
                continue
            why = self.view.why_not(id) or "other"
            unfree.setdefault(_UNFREE.get(why, "other"), []).append(id.device)
        reasons += [
            _moved("orphan-results", orphan_n, orphans),
            _moved("tainted-held", 0, sorted(i.device for i in held_ids if i.device in tainted)),
            *(_moved(code, 0, unfree.get(code, [])) for code in _ORDER),
            _moved("shared-room", 0, sorted(i.device for i in held_ids & self.free)),
            _moved("duplicates", total - len(ids), sorted(_twice(devices))),
            _moved("clipped", -raw if raw < 0 else 0, ()),
        ]
        problem = self.view.pool_problems.get(key)
        detail = problem[1] if problem is not None else ""
        reasons = [replace(r, detail=detail) if r.code == "pool-problem" else r for r in reasons]
        return (
            mirrored,
            [r for r in reasons if r.n],
            self._notes(devices, per_device, admin_results),
        )

    def _notes(
        self, devices: list[Device], per_device: Counter[str], admin: list[str]
    ) -> list[Reason]:
        none_only = sorted(
            d.name
            for d in devices
            if (found := self.view.availability.get(d.id)) is not None
            and found.taints
            and not any(t.blocks for t in found.taints)
        )
        notes = [Reason("taint-none", len(none_only), tuple(none_only))]
        if self.release_137:
            watched = sorted(set(admin))
            shares = sorted(n for n, k in per_device.items() if k > 1)
            notes += [Reason("admin-access", len(watched), tuple(watched))]
            notes += [Reason("shares", len(shares), tuple(shares))]
        return [n for n in notes if n.n]


# The unheld devices own counts unavailable, by why_not, in the order reasons are listed.
_ORDER = ("counters", "pool-problem", "capacity", "taints-uncounted", "other")
# How each counting reason moves upstream's count from gsb-tui's, per device (or result).
_MOVES: Mapping[str, Mapping[str, int]] = {
    "admin-results": {"allocated": 1, "available": -1},
    "share-results": {"allocated": 1, "available": -1},
    "orphan-results": {"allocated": 1, "available": -1},
    "tainted-held": {"unavailable": 1, "available": -1},
    "counters": {"unavailable": -1, "available": 1},
    "pool-problem": {"unavailable": -1, "available": 1},
    "capacity": {"unavailable": -1, "available": 1},
    "taints-uncounted": {"unavailable": -1, "available": 1},
    "other": {"unavailable": -1, "available": 1},
    "shared-room": {"available": -1},
    "duplicates": {"total": 1, "available": 1},
    "clipped": {"available": 1},
}


def _moved(code: str, n: int, devices: Iterable[str]) -> Reason:
    """A counting reason about `devices` (n: how many results or devices, when not one each)."""
    names = tuple(devices)
    count = n or len(names)
    moves = {f: v * count for f, v in _MOVES[code].items()} if count else {}
    return Reason(code, count, names, moves)


def _twice(devices: list[Device]) -> set[str]:
    seen: set[str] = set()
    again: set[str] = set()
    for d in devices:
        (again if d.name in seen else seen).add(d.name)
    return again


def _time_reasons(
    c: _Pools, key: tuple[str, str], reported: Counts, mirrored: Counts, generation: int
) -> list[Reason]:
    """Why the status is not what the controller would write now: it is older."""
    moves = reported.minus(mirrored) if mirrored.known() else reported.minus(c.own(key))
    now = c.generation.get(key)
    if now is None:
        return [Reason("gone", 0, (), moves)]
    problem = c.view.pool_problems.get(key)
    if not mirrored.known():
        detail = problem[1] if problem is not None else ""
        return [Reason("incomplete-now", 0, (), moves, detail)]
    if now != generation:
        return [Reason("generation", 0, (), moves, f"{generation} → {now}")]
    return [Reason("since", 0, (), moves)] if moves else []


def _compare_pool(c: _Pools, name: str, when: str, raw: Mapping[str, Any]) -> PoolComparison:
    key = (str(raw.get("driver") or ""), str(raw.get("poolName") or ""))
    reported = _reported(raw)
    generation = _int(raw.get("generation")) or 0
    problem = c.view.pool_problems.get(key)
    own = c.own(key)
    reasons: list[Reason] = []
    notes: list[Reason] = []
    mirrored = Counts()
    if key in c.generation and not (problem is not None and problem[0] == "incomplete-pool"):
        mirrored, reasons, notes = c.count(key)
    error = str(raw.get("validationError") or "")
    said = [Reason("validation-error", 0, (), {}, error)] if error else []
    later = _time_reasons(c, key, reported, mirrored, generation) if reported.known() else []
    reasons = said + reasons + later
    if reported.known():
        diff = reported.minus(own)
        explained: dict[str, int] = {}
        for r in reasons:
            for f, v in r.moves.items():
                explained[f] = explained.get(f, 0) + v
        left = {f: diff.get(f, 0) - explained.get(f, 0) for f in {*diff, *explained}}
        left = {f: v for f in FIELDS if (v := left.get(f, 0))}
        if left:  # never silently inconsistent: what no named reason accounts for
            reasons.append(Reason("unexplained", 0, (), left))
    return PoolComparison(
        request=name,
        written_at=when,
        driver=key[0],
        pool=key[1],
        node=str(raw.get("nodeName") or ""),
        generation=generation,
        generation_now=c.generation.get(key),
        reported=reported,
        mirrored=mirrored,
        own=own,
        validation_error=error,
        reasons=tuple(reasons),
        notes=tuple(notes),
        partition_summary=tuple(_d(p) for p in _l(raw.get("partitionSummary"))),
        shareable_summary=_d(raw["shareableSummary"]) if raw.get("shareableSummary") else None,
    )


def _request(c: _Pools, obj: Obj) -> tuple[PoolRequest, list[PoolComparison]]:
    spec, status = _d(obj.get("spec")), obj.get("status")
    name = str(meta(obj).get("name") or "")
    driver, pool = str(spec.get("driver") or ""), str(spec.get("poolName") or "")
    limit = _int(spec.get("limit")) or 100
    if not isinstance(status, Mapping):
        waiting = tuple(
            f"{d}/{p}"
            for (d, p), problem in sorted(c.view.pool_problems.items())
            if d == driver and (not pool or p == pool) and problem[0] == "incomplete-pool"
        )
        return PoolRequest(name, driver, pool, limit, "pending", "", "", None, 0, waiting), []
    state, when, message = _written(status)
    listed = [_d(p) for p in _l(status.get("pools"))]
    count = _int(status.get("poolCount"))
    request = PoolRequest(name, driver, pool, limit, state, when, message, count, len(listed))
    return request, [_compare_pool(c, name, when, p) for p in listed]


def compare(view: DraView) -> PoolStatus:
    """Every ResourcePoolStatusRequest the snapshot holds, and each pool it reports beside the
    ledger's count; empty when none (or the API is not served)."""
    raw = view.snapshot.objects.get(Kind.POOL_STATUS) or {}
    if not raw:
        return PoolStatus()

    def make() -> PoolStatus:
        c = _Pools(view)
        requests: list[PoolRequest] = []
        pools: list[PoolComparison] = []
        for key in sorted(raw):
            request, compared = _request(c, raw[key])
            requests.append(request)
            pools += compared
        pools.sort(key=lambda p: (p.driver, p.pool, p.written_at, p.request))
        return PoolStatus(tuple(requests), tuple(pools))

    inputs = (raw, view.devices, view.occupancy, view.availability, view.claims, view.slices)
    return view.memo.kept("pool-status", (*inputs, view.snapshot.server_version), make)
