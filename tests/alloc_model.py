"""The generator's own model of kube-scheduler 1.36.3's DRA decision, used only to check what
tests/alloc_shapes.py builds (a shape built to fit must fit here, one built to be refused must
be refused here, for the reason it was built for).

It follows k8s.io/dynamic-resource-allocation v0.36.3 structured/internal/incubating (the
allocator the scheduler picks with partitionable devices, consumable capacity and device taints
on): pools gathered per node (counter-only slices are relevant on every node, only the newest
generation counts, incomplete and invalid pools are skipped, and make an `All` request an
error), the same depth-first search in the same order (pools by driver/pool, slices by name,
devices as published), counters, shared capacity with request policies, taints, the
constraints as upstream implements them (distinctAttribute remembers one value per request
name), adminAccess looking past holders but not past counters, and the scheduler's rule that
an error on any node ends the attempt (SchedulerError). The node filters before it:
NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector only).

`Lift` switches one kind of blocker off, so a test can ask "would it fit without that?".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Attr = tuple[str, Any]  # ("int" | "string" | "bool" | "version", value)


class CelError(Exception):
    """A selector that fails at run time (a missing key)."""


class Fatal(Exception):
    """What the scheduler reports as SchedulerError for the whole pod."""


@dataclass
class Cap:
    value: int
    unit: str = ""  # "Gi" or ""
    default: int | None = None
    range: tuple[int, int, int | None] | None = None  # (min, step, max)
    values: list[int] | None = None

    @property
    def has_policy(self) -> bool:
        return self.default is not None or self.range is not None or self.values is not None


@dataclass
class Dev:
    name: str
    attrs: dict[str, Attr]
    caps: dict[str, Cap]
    shared: bool = False
    consumes: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    taints: list[tuple[str, str, str]] = field(default_factory=list)  # key, value, effect
    where: tuple[Any, ...] | None = None  # per-device: ("node", n) | ("all",) | ("sel", k, [v])


@dataclass
class Slice:
    name: str
    driver: str
    pool: str
    generation: int
    count: int  # resourceSliceCount
    where: tuple[Any, ...]  # ("node", n) | ("all",) | ("sel", key, [values]) | ("per-device",)
    devices: list[Dev] = field(default_factory=list)
    counters: dict[str, dict[str, int]] | None = None  # counter set -> counter -> value


@dataclass
class Sel:
    """One CEL selector and what it means here (may raise CelError, like CEL)."""

    cel: str
    fn: Callable[[str, Dev], bool]  # (driver of the device, device)


@dataclass
class Req:
    name: str
    cls: str = ""
    sels: list[Sel] = field(default_factory=list)
    mode: str = "ExactCount"
    count: int = 1
    tolerations: list[dict[str, Any]] = field(default_factory=list)
    cap: dict[str, int] | None = None  # capacity requests, in the capacity's unit
    units: dict[str, str] = field(default_factory=dict)  # capacity name -> "Gi" | ""
    admin: bool = False
    subs: list[Req] | None = None  # firstAvailable


@dataclass
class Claim:
    ns: str
    name: str
    reqs: list[Req]
    constraints: list[tuple[str, str, list[str]]] = field(default_factory=list)
    # (kind "match" | "distinct", fully qualified attribute, request names)


@dataclass
class Node:
    name: str
    labels: dict[str, str]
    taints: list[dict[str, str]] = field(default_factory=list)
    unschedulable: bool = False


@dataclass
class Pod:
    ns: str
    name: str
    claims: list[str]  # claim names (in ns); a name not in the model is a missing claim
    node_selector: dict[str, str] = field(default_factory=dict)
    tolerations: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Lift:
    held: bool = False
    taints: bool = False
    counters: bool = False
    capacity: bool = False
    constraints: bool = False
    incomplete: bool = False
    invalid: bool = False
    unschedulable: bool = False
    node_taints: bool = False
    node_selector: bool = False


@dataclass
class Verdict:
    status: str  # "fit" | "unschedulable" | "error"
    nodes: list[str]
    reason: str = ""


DevId = tuple[str, str, str]


@dataclass
class World:
    """Everything the scheduler would see: nodes, slices, classes, rules, claims."""

    nodes: list[Node] = field(default_factory=list)
    slices: list[Slice] = field(default_factory=list)
    classes: dict[str, list[Sel]] = field(default_factory=dict)
    rules: list[tuple[str | None, str | None, str | None, tuple[str, str, str]]] = field(
        default_factory=list
    )  # (driver, pool, device, taint)
    claims: dict[tuple[str, str], Claim] = field(default_factory=dict)
    held: set[DevId] = field(default_factory=set)  # exclusively allocated
    shares: dict[DevId, dict[str, int]] = field(default_factory=dict)  # summed share use

    # ---- what a device is ----------------------------------------------------------------

    def taints_of(self, s: Slice, d: Dev) -> list[tuple[str, str, str]]:
        out = list(d.taints)
        for driver, pool, device, taint in self.rules:
            if driver is not None and driver != s.driver:
                continue
            if pool is not None and pool != s.pool:
                continue
            if device is not None and device != d.name:
                continue
            out.append(taint)
        return out

    def allocated(self, dev: DevId) -> bool:
        return dev in self.held or dev in self.shares


def node_matches(node: Node, where: tuple[Any, ...]) -> bool:
    kind = where[0]
    if kind == "node":
        return bool(node.name == where[1])
    if kind == "all":
        return True
    if kind == "sel":
        return node.labels.get(where[1]) in where[2]
    return False


@dataclass
class Pool:
    driver: str
    name: str
    incomplete: bool = False
    invalid: bool = False
    slices: list[Slice] = field(default_factory=list)  # device slices targeting the node
    all_slices: list[Slice] = field(default_factory=list)  # every slice of its generation
    counters: dict[str, dict[str, int]] = field(default_factory=dict)


def gather(world: World, node: Node, lift: Lift) -> list[Pool]:
    """GatherPools for one node (pools_incubating.go)."""
    by_pool: dict[tuple[str, str], list[Slice]] = {}
    for s in world.slices:
        if s.counters:
            relevant = True
        elif s.where[0] == "per-device":
            relevant = any(d.where is not None and node_matches(node, d.where) for d in s.devices)
        else:
            relevant = node_matches(node, s.where)
        if not relevant:
            continue
        key = (s.driver, s.pool)
        have = by_pool.get(key)
        if not have or s.generation > have[0].generation:
            by_pool[key] = [s]
        elif s.generation == have[0].generation:
            have.append(s)
    pools: list[Pool] = []
    for (driver, name), slices in by_pool.items():
        generation, count = slices[0].generation, slices[0].count
        every = [
            s
            for s in world.slices
            if s.driver == driver and s.pool == name and s.generation == generation
        ]
        if len(slices) != count:
            if any(
                s.driver == driver and s.pool == name and s.generation > generation
                for s in world.slices
            ):
                continue  # obsolete
            if len(every) != count and not lift.incomplete:
                pools.append(Pool(driver, name, incomplete=True))
                continue
        device_slices = sorted((s for s in slices if not s.counters), key=lambda s: s.name)
        names = [d.name for s in device_slices for d in s.devices]
        invalid = len(names) != len(set(names)) and not lift.invalid
        counters: dict[str, dict[str, int]] = {}
        for s in every:
            for set_name, values in (s.counters or {}).items():
                counters[set_name] = dict(values)
        pools.append(
            Pool(
                driver,
                name,
                invalid=invalid,
                slices=device_slices,
                all_slices=every,
                counters=counters,
            )
        )
    pools.sort(key=lambda p: (p.driver, p.name))
    return pools


# ---- the search -----------------------------------------------------------------------------


@dataclass
class Cand:
    pool: Pool
    slice: Slice
    dev: Dev

    @property
    def id(self) -> DevId:
        return (self.slice.driver, self.slice.pool, self.dev.name)


class Constraint:
    def __init__(self, kind: str, attr: str, requests: list[str]) -> None:
        self.kind, self.attr, self.requests = kind, attr, set(requests)
        self.value: Attr | None = None
        self.n = 0
        self.seen: dict[str, Attr] = {}

    def applies(self, req: str, sub: str) -> bool:
        if not self.requests:
            return True
        return req in self.requests or (bool(sub) and f"{req}/{sub}" in self.requests)

    def add(self, req: str, sub: str, c: Cand) -> bool:
        if not self.applies(req, sub):
            return True
        value = lookup(c, self.attr)
        if value is None:
            return False
        if self.kind == "match":
            if self.n == 0:
                self.value, self.n = value, 1
                return True
            if value != self.value:
                return False
            self.n += 1
            return True
        # distinctAttribute as upstream writes it: one remembered value per request name.
        if self.n == 0:
            self.seen[req] = value
            self.n = 1
            return True
        if any(v == value for v in self.seen.values()):
            return False
        self.seen[req] = value
        self.n += 1
        return True

    def remove(self, req: str, sub: str) -> None:
        if not self.applies(req, sub):
            return
        if self.kind == "distinct":
            self.seen.pop(req, None)
        self.n -= 1


def lookup(c: Cand, qualified: str) -> Attr | None:
    if qualified in c.dev.attrs:
        return c.dev.attrs[qualified]
    domain, _, name = qualified.partition("/")
    if domain != c.slice.driver:
        return None
    return c.dev.attrs.get(name)


def tolerates(tols: list[dict[str, Any]], taint: tuple[str, str, str]) -> bool:
    """core/v1 ToleratesTaint (and resourceclaim.ToleratesTaint, its copy)."""
    key, value, effect = taint
    for t in tols:
        if t.get("effect") and t["effect"] != effect:
            continue
        if t.get("key") and t["key"] != key:
            continue
        if (t.get("operator") or "Equal") == "Exists" or t.get("value", "") == value:
            return True
    return False


def consumed(cap: Cap, asked: int | None) -> int:
    """calculateConsumedCapacity."""
    if asked is None:
        return cap.default if cap.default is not None else cap.value
    if not cap.has_policy:
        return asked
    if cap.range is not None:
        low, step, _ = cap.range
        if asked < low:
            return low
        n, rest = divmod(asked - low, step)
        return low + step * (n + (1 if rest else 0))
    if cap.values is not None:
        for v in cap.values:
            if asked <= v:
                return v
    return asked


def violates(cap: Cap, value: int) -> bool:
    if cap.default is not None and value == cap.default:
        return False
    if cap.range is not None:
        low, step, high = cap.range
        if high is not None and value > high:
            return True
        return (value - low) % step != 0
    if cap.values is not None:
        return value not in cap.values
    return False


class Search:
    """One Allocate call: the pod's claims on one node."""

    def __init__(self, world: World, node: Node, claims: list[Claim], lift: Lift) -> None:
        self.w, self.node, self.claims, self.lift = world, node, claims, lift
        self.pools = gather(world, node, lift)
        self.cands: list[Cand] = [
            Cand(p, s, d)
            for p in self.pools
            if not (p.incomplete or p.invalid)
            for s in p.slices
            for d in s.devices
        ]
        self.match_cache: dict[tuple[DevId, int, int, int], bool] = {}
        self.using: dict[DevId, set[int]] = {}
        self.share_use: dict[DevId, dict[str, int]] = {}
        self.counter_use: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
        self.available: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
        self.results = [0] * len(claims)
        self.constraints = (
            [[Constraint(k, a, r) for k, a, r in c.constraints] for c in claims]
            if not lift.constraints
            else [[] for _ in claims]
        )
        self.all_devices: dict[tuple[int, int, int], list[Cand]] = {}

    # -- checks --

    def selectable(self, key: tuple[int, int, int], req: Req, c: Cand) -> bool:
        mk = (c.id, *key)
        if mk in self.match_cache:
            return self.match_cache[mk]
        for sel in [*self.w.classes[req.cls], *req.sels]:
            try:
                ok = sel.fn(c.slice.driver, c.dev)
            except CelError as exc:
                raise Fatal(f"CEL runtime error: {exc}") from exc
            if not ok:
                self.match_cache[mk] = False
                return False
        if c.slice.where[0] == "per-device" and not (
            c.dev.where is not None and node_matches(self.node, c.dev.where)
        ):
            self.match_cache[mk] = False
            return False
        self.match_cache[mk] = True
        return True

    def capacity_ok(self, req: Req, c: Cand) -> bool:
        if self.lift.capacity:
            return True
        asked = req.cap or {}
        if any(name not in c.dev.caps for name in asked):
            return False
        current = self.w.shares.get(c.id, {})
        allocating = self.share_use.get(c.id, {})
        for name, cap in c.dev.caps.items():
            value = consumed(cap, asked.get(name))
            if cap.has_policy and violates(cap, value):
                return False
            total = current.get(name, 0) + value + allocating.get(name, 0)
            if total > cap.value:
                return False
        return True

    def in_use(self, c: Cand) -> bool:
        held = (c.id in self.w.held) and not self.lift.held
        return held or bool(self.using.get(c.id))

    def counters_ok(self, c: Cand) -> bool:
        key = (c.pool.driver, c.pool.name)
        if key not in self.available:
            avail = {k: dict(v) for k, v in c.pool.counters.items()}
            for s in c.pool.all_slices:
                for d in s.devices:
                    if not self.w.allocated((s.driver, s.pool, d.name)):
                        continue
                    for set_name, values in d.consumes:
                        for name, v in values.items():
                            if name in avail.get(set_name, {}):
                                avail[set_name][name] -= v
            self.available[key] = avail
        use = self.counter_use.setdefault(key, {})
        for set_name, values in c.dev.consumes:
            for name, v in values.items():
                use.setdefault(set_name, {})
                use[set_name][name] = use[set_name].get(name, 0) + v
        for set_name, values in self.available[key].items():
            for name, v in values.items():
                if v < use.get(set_name, {}).get(name, 0):
                    self.uncount(c)
                    return False
        return True

    def uncount(self, c: Cand) -> None:
        use = self.counter_use[(c.pool.driver, c.pool.name)]
        for set_name, values in c.dev.consumes:
            for name, v in values.items():
                use[set_name][name] -= v

    # -- upstream's allocateDevice / allocateOne --

    def allocate_device(
        self, ci: int, req: Req, names: tuple[str, str], c: Cand, must: bool
    ) -> Callable[[], None] | None:
        shared = c.dev.shared
        if not shared and req.admin and ci in self.using.get(c.id, set()):
            return None
        if not req.admin and self.in_use(c):
            return None
        skip_counters = shared and (c.id in self.w.shares or c.id in self.share_use)
        counted = False
        if not skip_counters and c.dev.consumes and not self.lift.counters:
            if not self.counters_ok(c):
                return None
            counted = True
        undo: list[Callable[[], None]] = []
        if counted:
            undo.append(lambda: self.uncount(c))

        def rollback() -> None:
            for step in reversed(undo):
                step()

        if not self.lift.taints:
            for taint in self.w.taints_of(c.slice, c.dev):
                if taint[2] in ("NoSchedule", "NoExecute") and not tolerates(
                    req.tolerations, taint
                ):
                    rollback()
                    return None
        base, sub = names
        for con in self.constraints[ci]:
            if not con.add(base, sub, c):
                rollback()
                if must:
                    raise Fatal(
                        "cannot add device because a claim constraint would not be satisfied"
                    )
                return None
            undo.append(lambda con=con: con.remove(base, sub))  # type: ignore[misc]
        if not shared:
            self.using.setdefault(c.id, set()).add(ci)
            undo.append(lambda: self.using[c.id].discard(ci))
        if not self.capacity_ok(req, c):
            rollback()
            return None
        if shared:
            use = {n: consumed(cap, (req.cap or {}).get(n)) for n, cap in c.dev.caps.items()}
            had = self.share_use.get(c.id)
            mine = self.share_use.setdefault(c.id, {})
            for n, v in use.items():
                mine[n] = mine.get(n, 0) + v

            def unshare() -> None:
                for n, v in use.items():
                    mine[n] -= v
                if had is None and not any(mine.values()):
                    self.share_use.pop(c.id, None)

            undo.append(unshare)
        self.results[ci] += 1
        undo.append(lambda: self._drop_result(ci))
        return rollback

    def _drop_result(self, ci: int) -> None:
        self.results[ci] -= 1

    def validate(self) -> None:
        """The checks Allocate makes before searching: `All` requests and claim sizes."""
        for ci, claim in enumerate(self.claims):
            for ri, req in enumerate(claim.reqs):
                for si, r in enumerate(req.subs or [req]):
                    if r.mode != "All":
                        continue
                    found: list[Cand] = []
                    for p in self.pools:
                        if p.incomplete:
                            raise Fatal(f"asks for all devices, but pool {p.name} is being updated")
                        if p.invalid:
                            raise Fatal(f"asks for all devices, but pool {p.name} is invalid")
                        for s in p.slices:
                            for d in s.devices:
                                c = Cand(p, s, d)
                                if self.selectable((ci, ri, si), r, c) and self.capacity_ok(r, c):
                                    found.append(c)
                    self.all_devices[(ci, ri, si)] = found

    def run(self) -> bool:
        self.validate()
        return self.one(0, 0, 0, 0, False, 0)

    def count_of(self, ci: int, ri: int, si: int, r: Req) -> int:
        if r.mode == "All":
            return len(self.all_devices[(ci, ri, si)])
        return r.count

    def one(self, ci: int, ri: int, si: int, di: int, in_sub: bool, start: int) -> bool:
        if ci >= len(self.claims):
            return True
        claim = self.claims[ci]
        if ri >= len(claim.reqs):
            return self.one(ci + 1, 0, 0, 0, False, 0)
        req = claim.reqs[ri]
        if req.subs and not in_sub:
            return any(self.one(ci, ri, s, 0, True, 0) for s in range(len(req.subs)))
        r = req.subs[si] if req.subs else req
        names = (req.name, r.name) if req.subs else (req.name, "")
        key = (ci, ri, si)
        if r.mode == "All":
            devices = self.all_devices[key]
            if not devices:
                return False
            if di >= len(devices):
                return self.one(ci, ri + 1, 0, 0, False, 0)
            undo = self.allocate_device(ci, r, names, devices[di], True)
            if undo is None:
                return False
            if self.one(ci, ri, si, di + 1, in_sub, 0):
                return True
            undo()
            return False
        if di >= r.count:
            return self.one(ci, ri + 1, 0, 0, False, 0)
        for index in range(start, len(self.cands)):
            c = self.cands[index]
            if r.admin and ci in self.using.get(c.id, set()):
                continue
            if not r.admin and self.in_use(c):
                continue
            if not self.selectable(key, r, c):
                continue
            if not self.capacity_ok(r, c):
                continue
            undo = self.allocate_device(ci, r, names, c, False)
            if undo is None:
                continue
            if self.one(ci, ri, si, di + 1, in_sub, index + 1):
                return True
            undo()
        return False


# ---- the scheduler around it ----------------------------------------------------------------


def node_passes(node: Node, pod: Pod, lift: Lift) -> str:
    """ "" when the node filters let the pod on, else the failing filter's code."""
    if node.unschedulable and not lift.unschedulable:
        unsched = ("node.kubernetes.io/unschedulable", "", "NoSchedule")
        if not tolerates(pod.tolerations, unsched):
            return "node-unschedulable"
    if not lift.node_taints:
        for t in node.taints:
            taint = (t["key"], t.get("value", ""), t["effect"])
            if t["effect"] in ("NoSchedule", "NoExecute") and not tolerates(pod.tolerations, taint):
                return "node-taint"
    if not lift.node_selector:
        for k, v in pod.node_selector.items():
            if node.labels.get(k) != v:
                return "node-selector"
    return ""


def pod_claims(world: World, pod: Pod) -> list[Claim] | None:
    out = []
    for name in pod.claims:
        claim = world.claims.get((pod.ns, name))
        if claim is None:
            return None
        out.append(claim)
    return out


def judge(world: World, pod: Pod, lift: Lift = Lift()) -> Verdict:
    claims = pod_claims(world, pod)
    if claims is None:
        return Verdict("unschedulable", [], "claim-missing")
    for claim in claims:
        for req in claim.reqs:
            for r in req.subs or [req]:
                if r.cls not in world.classes:
                    return Verdict("unschedulable", [], "class-missing")
    fits: list[str] = []
    error = ""
    for node in world.nodes:
        if node_passes(node, pod, lift):
            continue
        try:
            if Search(world, node, claims, lift).run():
                fits.append(node.name)
        except Fatal as exc:
            error = str(exc)
    if error:
        return Verdict("error", [], error)
    return Verdict("fit" if fits else "unschedulable", fits)


def request_alone(world: World, node: Node, claim: Claim, req: Req, lift: Lift) -> bool:
    """Whether one request could be allocated on a node by itself (its claim's constraints
    restricted to it); errors count as no."""
    alone = Claim(
        claim.ns,
        claim.name,
        [req],
        [(k, a, r) for k, a, r in claim.constraints if not r or req.name in r],
    )
    try:
        return Search(world, node, [alone], lift).run()
    except Fatal:
        return False


def iter_requests(claims: list[Claim]) -> Iterator[tuple[Claim, Req]]:
    for claim in claims:
        for req in claim.reqs:
            yield claim, req
