"""Generated DRA shapes: small clusters, each built around one or two pods held back by a
scheduling gate, for which the shape knows whether kube-scheduler 1.36.3 would place them and,
if not, what stops them.

    shape = generate(seed, index)       # deterministic: random.Random(f"{seed}/{index}")
    shape.built_for["ns/pod"]           # {} = built to fit, else the blocker codes
    snapshot(shape)                     # {"slices", "classes", "claims", "nodes", "pods", "rules"}

A shape holds plain Kubernetes JSON (what tests/alloc_apply.py creates on a practice cluster):
kwok nodes, ResourceSlices (resource.k8s.io/v1), DeviceClasses, ResourceClaims (some already
allocated, with the status the scheduler would write, reserved for a pod bound to that node),
bound pods, the judged pods (`spec.schedulingGates: [{name: gsb-tui.test/hold}]`),
DeviceTaintRules (resource.k8s.io/v1beta2) and namespaces.

How a shape is built: one "world" (its own driver, classes and pools) per judged pod, so two
judged pods in a shape never compete for a device. The judged pod's requests are written
around devices picked first on a target node (the witness), decoys are added (held devices,
taints, rules, cordoned or tainted nodes, other pools), then for a refused shape one blocker is
put in the way. tests/alloc_model.py (the allocator's search, ported) checks every shape: a
shape is kept only when the model agrees with what it was built for; else it is drawn again
(from the same random stream, so still deterministic). `built_for` holds the designed code and
every other code whose removal alone would let the pod fit ("Lift" in the model).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests import alloc_model as m

CODES = (
    "held",
    "counters",
    "capacity",
    "tainted",
    "constraint",
    "count",
    "selector",
    "cel-error",
    "incomplete-pool",
    "invalid-pool",
    "node-selector",
    "node-unschedulable",
    "node-taint",
    "class-missing",
    "claim-missing",
)
GATE = "gsb-tui.test/hold"
ADMIN_LABEL = "resource.kubernetes.io/admin-access"
KWOK_ANNOTATION = ("kwok.x-k8s.io/node", "fake")
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"
RESOURCE = "resource.k8s.io/v1"
RULES_API = "resource.k8s.io/v1beta2"
FINALIZER = "resource.kubernetes.io/delete-protection"
IMAGE = "busybox"
# A code's lift in the model: "would the pod fit without this kind of blocker?"
LIFTS: dict[str, m.Lift] = {
    "held": m.Lift(held=True),
    "counters": m.Lift(counters=True),
    "capacity": m.Lift(capacity=True),
    "tainted": m.Lift(taints=True),
    "constraint": m.Lift(constraints=True),
    "incomplete-pool": m.Lift(incomplete=True),
    "invalid-pool": m.Lift(invalid=True),
    "node-unschedulable": m.Lift(unschedulable=True),
    "node-taint": m.Lift(node_taints=True),
    "node-selector": m.Lift(node_selector=True),
}
# How often each design is drawn for a judged pod (fit the most).
DESIGNS: dict[str, int] = {
    "fit": 30,
    **{code: 5 for code in CODES},
    **{code: 8 for code in ("counters", "count", "held", "constraint")},
}
ATTEMPTS = 40
ERROR_TOO = ("incomplete-pool", "invalid-pool")  # an `All` request beside such a pool errs
PREFILTER = ("class-missing", "claim-missing")  # judged before any node
# The first request of a pod built for these is of one of these kinds.
DESIGN_KINDS: dict[str, tuple[str, ...]] = {
    "counters": ("part", "full"),
    "capacity": ("shared",),
    "held": ("plain", "net"),
    "tainted": ("plain", "net", "part"),
    "constraint": ("plain",),
}

WORDS = (
    "amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
    "juniper", "kestrel", "lumen", "maple", "nimbus", "onyx", "pepper", "quartz", "raven",
    "sable", "tundra", "umber", "vesper", "willow", "xenon", "yarrow", "zephyr",
)  # fmt: skip
PREFIXES = ("gpu", "acc", "npu", "tpu", "xpu", "dev")
MODEL_STEMS = ("h", "a", "mi", "l", "b", "x", "v")


@dataclass
class Shape:
    seed: int
    index: int
    namespaces: list[dict[str, Any]] = field(default_factory=list)
    nodes: list[dict[str, Any]] = field(default_factory=list)
    slices: list[dict[str, Any]] = field(default_factory=list)
    classes: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)  # allocated ones with status
    pods: list[dict[str, Any]] = field(default_factory=list)  # bound ones and judged ones
    rules: list[dict[str, Any]] = field(default_factory=list)
    built_for: dict[str, set[str]] = field(default_factory=dict)
    judged: list[str] = field(default_factory=list)  # "ns/name", in the order to judge
    notes: dict[str, str] = field(default_factory=dict)  # pod key -> what was built
    features: set[str] = field(default_factory=set)  # what the shape has (for coverage)

    @property
    def name(self) -> str:
        return f"{self.seed}/{self.index}"


def shapes(seed: int, count: int) -> Iterator[Shape]:
    for index in range(count):
        yield generate(seed, index)


def generate(seed: int, index: int) -> Shape:
    rng = random.Random(f"{seed}/{index}")
    for _attempt in range(ATTEMPTS):
        built = _Builder(rng, seed, index).build()
        if built is not None:
            return built
    raise AssertionError(f"shape {seed}/{index}: no consistent shape in {ATTEMPTS} draws")


def on_release(shape: Shape, release: str) -> Shape:
    """The shape as a server of `release` takes it: from 1.37 DeviceTaintRules at
    resource.k8s.io/v1 (v1beta2 is off by default; a rule without deviceSelector selects no
    device there)."""
    if release == "1.36" or not shape.rules:
        return shape
    rules = [{**r, "apiVersion": "resource.k8s.io/v1"} for r in shape.rules]
    return dataclasses.replace(shape, rules=rules)


def snapshot(shape: Shape) -> dict[str, Any]:
    """The cluster objects as the oracle reads them (judged pods without nodeName)."""
    return copy.deepcopy(
        {
            "slices": shape.slices,
            "classes": shape.classes,
            "claims": shape.claims,
            "nodes": shape.nodes,
            "pods": shape.pods,
            "rules": shape.rules,
        }
    )


# ---- building ---------------------------------------------------------------------------------


def _quantity(value: int, unit: str) -> str:
    return f"{value}{unit}"


def _attr_json(attr: m.Attr) -> dict[str, Any]:
    kind, value = attr
    return {kind: value}


class _Names:
    """Attribute and capacity names of one world, drawn from the seed."""

    def __init__(self, rng: random.Random) -> None:
        self.model = rng.choice(("model", "productName", "sku"))
        self.index = rng.choice(("index", "minor", "slot"))
        self.numa = rng.choice(("numa", "numaNode", "socket"))
        self.tier = rng.choice(("tier", "grade", "band"))
        self.part = rng.choice(("partition", "slice", "part"))
        self.whole = rng.choice(("full", "whole", "entire"))
        self.link = rng.choice(("fabric", "link", "net"))
        self.mem = rng.choice(("memory", "hbm", "vram"))
        self.compute = rng.choice(("compute", "cores", "sm"))


@dataclass
class _WDev:
    """A device of a world with where it lives."""

    slice: m.Slice
    dev: m.Dev
    kind: str  # plain | part | full | shared | net | perdev | incomplete | invalid | stale

    @property
    def id(self) -> m.DevId:
        return (self.slice.driver, self.slice.pool, self.dev.name)


class _World:
    def __init__(self, b: _Builder, w: int) -> None:
        rng = b.rng
        self.b, self.w, self.rng = b, w, rng
        self.driver = f"{rng.choice(WORDS)}-{b.tag}{w}.example.test"
        self.n = _Names(rng)
        self.prefix = rng.choice(PREFIXES)
        self.models = [
            f"{rng.choice(MODEL_STEMS)}{rng.randint(10, 999)}{rng.choice(('', 'x', 'e', 's'))}"
            for _ in range(3)
        ]
        if len(set(self.models)) < 3:
            self.models = [f"{mm}{i}" for i, mm in enumerate(self.models)]
        self.net_model = f"{rng.choice(('cx', 'bf', 'e8'))}{rng.randint(3, 9)}-{b.tag}"
        self.tiers = rng.sample(("gold", "silver", "bronze", "iron"), 2)
        self.devs: list[_WDev] = []
        self.classes: dict[str, list[m.Sel]] = {}
        self.class_all = ""
        self.witness: set[m.DevId] = set()
        self.reserved_cap: dict[m.DevId, dict[str, int]] = {}
        self.admin_witness: set[m.DevId] = set()
        self.witness_req: dict[m.DevId, m.Req] = {}
        self.pool_seq = 0

    # -- selectors (CEL text and what it means) --

    def a(self, name: str) -> str:
        q = '"' if self.rng.random() < 0.3 else "'"
        return f"device.attributes[{q}{self.driver}{q}].{name}"

    def sel_driver(self) -> m.Sel:
        driver = self.driver
        return m.Sel(f"device.driver == '{driver}'", lambda d, _dev: d == driver)

    def sel_attr_eq(self, name: str, value: m.Attr) -> m.Sel:
        lit = f"'{value[1]}'" if value[0] == "string" else str(value[1]).lower()

        def fn(_d: str, dev: m.Dev) -> bool:
            if name not in dev.attrs:
                raise m.CelError(f"no such key: {name}")
            return dev.attrs[name] == value

        return m.Sel(f"{self.a(name)} == {lit}", fn)

    def sel_has_eq(self, name: str, value: str) -> m.Sel:
        base = f"device.attributes['{self.driver}']"

        def fn(_d: str, dev: m.Dev) -> bool:
            return dev.attrs.get(name) == ("string", value)

        return m.Sel(f"'{name}' in {base} && {base}.{name} == '{value}'", fn)

    def sel_has(self, name: str, present: bool) -> m.Sel:
        base = f"device.attributes['{self.driver}']"
        text = f"'{name}' in {base}" if present else f"!('{name}' in {base})"
        return m.Sel(text, lambda _d, dev: (name in dev.attrs) == present)

    def sel_int_lt(self, name: str, bound: int) -> m.Sel:
        def fn(_d: str, dev: m.Dev) -> bool:
            if name not in dev.attrs:
                raise m.CelError(f"no such key: {name}")
            return int(dev.attrs[name][1]) < bound

        return m.Sel(f"{self.a(name)} < {bound}", fn)

    def sel_mem_ge(self, gi: int) -> m.Sel:
        mem = self.n.mem

        def fn(_d: str, dev: m.Dev) -> bool:
            if mem not in dev.caps:
                raise m.CelError(f"no such key: {mem}")
            return dev.caps[mem].value >= gi

        text = f"device.capacity['{self.driver}'].{mem}.compareTo(quantity('{gi}Gi')) >= 0"
        return m.Sel(text, fn)

    def sel_multi(self) -> m.Sel:
        return m.Sel("device.allowMultipleAllocations", lambda _d, dev: dev.shared)

    # -- devices and pools --

    def attrs(self, model: str, index: int, numa: int) -> dict[str, m.Attr]:
        out: dict[str, m.Attr] = {
            self.n.model: ("string", model),
            self.n.index: ("int", index),
            self.n.numa: ("int", numa),
            "driverVersion": ("version", f"1.{self.rng.randint(0, 9)}.{self.rng.randint(0, 9)}"),
        }
        if self.rng.random() < 0.5:
            out[self.n.tier] = ("string", self.rng.choice(self.tiers))
        return out

    def caps(self, mem: int, compute: int) -> dict[str, m.Cap]:
        return {self.n.mem: m.Cap(mem, "Gi"), self.n.compute: m.Cap(compute)}

    def pool_name(self, node: str | None, word: str) -> str:
        self.pool_seq += 1
        base = node or f"{self.b.tag}{self.w}"
        return f"{base}-{word}{self.w}{self.pool_seq}"

    def add_slices(
        self,
        pool: str,
        where: tuple[Any, ...],
        groups: list[list[m.Dev]],
        kind: str,
        *,
        declared: int | None = None,
        generation: int = 1,
        counters: dict[str, dict[str, int]] | None = None,
    ) -> list[m.Slice]:
        made = []
        total = len(groups) + (1 if counters else 0)
        if counters:
            s = m.Slice(
                f"{pool}-c-{self.b.tag}",
                self.driver,
                pool,
                generation,
                declared or total,
                where,
                [],
                counters,
            )
            made.append(s)
        for i, devices in enumerate(groups):
            s = m.Slice(
                f"{pool}-g{generation}-{i}",
                self.driver,
                pool,
                generation,
                declared or total,
                where,
                devices,
            )
            made.append(s)
            for d in devices:
                self.devs.append(_WDev(s, d, kind))
        self.b.world.slices.extend(made)
        return made

    def plain_devices(self, count: int, start: int = 0) -> list[m.Dev]:
        out = []
        for i in range(start, start + count):
            model = self.rng.choice(self.models)
            mem = self.rng.choice((16, 24, 40, 48, 80))
            out.append(
                m.Dev(
                    f"{self.prefix}-{i}",
                    self.attrs(model, i, self.rng.randint(0, 1)),
                    self.caps(mem, self.rng.choice((50, 100, 200))),
                )
            )
        return out

    def plain_pool(self, node: str, ndev: int | None = None) -> None:
        ndev = ndev or self.rng.randint(1, 5)
        nslices = self.rng.randint(1, min(3, ndev))
        devices = self.plain_devices(ndev)
        groups = [devices[i::nslices] for i in range(nslices)]
        self.add_slices(self.pool_name(node, "p"), ("node", node), groups, "plain")
        self.b.features.add(f"slices-{nslices}")

    def partition_pool(self, node: str) -> None:
        gpus = self.rng.randint(1, 2)
        mem = self.rng.choice((40, 80, 96))
        compute = self.rng.choice((60, 120))
        cmem, ccomp = (
            self.rng.choice(("mem", "memory", "hbm")),
            self.rng.choice(("cu", "compute", "sms")),
        )
        counters: dict[str, dict[str, int]] = {}
        devices: list[m.Dev] = []
        for g in range(gpus):
            cs = f"{self.prefix}-{g}-counters"
            counters[cs] = {cmem: mem, ccomp: compute}
            parts = self.rng.choice((2, 3, 4))
            model = self.rng.choice(self.models)
            numa = self.rng.randint(0, 1)
            for j in range(parts):
                attrs = self.attrs(model, g, numa)
                attrs[self.n.part] = ("int", j)
                devices.append(
                    m.Dev(
                        f"{self.prefix}-{g}-part-{j}",
                        attrs,
                        self.caps(mem // parts, compute // parts),
                        consumes=[(cs, {cmem: mem // parts, ccomp: compute // parts})],
                    )
                )
            attrs = self.attrs(model, g, numa)
            attrs[self.n.whole] = ("bool", True)
            devices.append(
                m.Dev(
                    f"{self.prefix}-{g}-full",
                    attrs,
                    self.caps(mem, compute),
                    consumes=[(cs, {cmem: mem, ccomp: compute})],
                )
            )
        nslices = self.rng.randint(1, 2)
        groups = [devices[i::nslices] for i in range(nslices)]
        pool = self.pool_name(node, "parts")
        made = self.add_slices(pool, ("node", node), groups, "part", counters=counters)
        for s in made[1:]:
            for d in s.devices:
                if self.n.part not in d.attrs:
                    self._kind(d, "full")
        self.b.features.add("partitions")

    def _kind(self, dev: m.Dev, kind: str) -> None:
        for wd in self.devs:
            if wd.dev is dev:
                wd.kind = kind

    def shared_pool(self, node: str) -> None:
        devices = []
        for i in range(self.rng.randint(1, 3)):
            value = self.rng.choice((40, 80, 96))
            low, step = self.rng.choice(((1, 1), (2, 2), (4, 4)))
            mem = m.Cap(
                value,
                "Gi",
                default=self.rng.choice((low * 2, low * 4)),
                range=(low, step, self.rng.choice((None, value // 2, value))),
            )
            cvals = sorted(self.rng.sample((10, 20, 25, 50, 100), 3))
            if cvals[-1] != 100:
                cvals.append(100)
            comp = m.Cap(100, "", default=cvals[0], values=cvals)
            caps = {self.n.mem: mem, self.n.compute: comp}
            if self.rng.random() < 0.2:
                caps["links"] = m.Cap(self.rng.choice((2, 4)))  # no policy: taken whole
                self.b.features.add("capacity-no-policy")
            devices.append(
                m.Dev(
                    f"{self.prefix}-s{i}",
                    self.attrs(self.rng.choice(self.models), i, self.rng.randint(0, 1)),
                    caps,
                    shared=True,
                )
            )
        self.add_slices(self.pool_name(node, "shared"), ("node", node), [devices], "shared")
        self.b.features.add("shared")

    def network_pool(self) -> None:
        nodes = self.b.world.nodes
        if self.rng.random() < 0.5:
            where: tuple[Any, ...] = ("all",)
            self.b.features.add("net-allnodes")
        else:
            values = sorted({n.labels[self.b.rack] for n in self.rng.sample(nodes, 1)})
            where = ("sel", self.b.rack, values)
            self.b.features.add("net-selector")
        devices = []
        for i in range(self.rng.randint(1, 2)):
            attrs = self.attrs(self.net_model, 100 + i, self.rng.randint(0, 1))
            attrs[self.n.link] = ("string", self.rng.choice(("ib", "roce")))
            devices.append(m.Dev(f"nic-{i}", attrs, self.caps(self.rng.choice((16, 32)), 10)))
        self.add_slices(self.pool_name(None, "net"), where, [devices], "net")

    def perdevice_pool(self) -> None:
        nodes = self.b.world.nodes
        devices = []
        for i in range(self.rng.randint(1, 3)):
            attrs = self.attrs(self.net_model, 200 + i, self.rng.randint(0, 1))
            attrs[self.n.link] = ("string", "port")
            r = self.rng.random()
            if r < 0.5:
                where: tuple[Any, ...] = ("node", self.rng.choice(nodes).name)
            elif r < 0.75:
                where = ("all",)
            else:
                where = ("sel", self.b.rack, [self.rng.choice(nodes).labels[self.b.rack]])
            devices.append(m.Dev(f"port-{i}", attrs, self.caps(8, 10), where=where))
        self.add_slices(self.pool_name(None, "ports"), ("per-device",), [devices], "perdev")
        self.b.features.add("per-device")

    def odd_pool(self, node: str, kind: str, model: str | None = None) -> None:
        """incomplete (a slice missing), invalid (a name twice) or stale (an older generation
        beside the current one)."""
        ndev = self.rng.randint(1, 3)
        devices = self.plain_devices(ndev, start=self.rng.randint(10, 20))
        if model:
            for d in devices:
                d.attrs[self.n.model] = ("string", model)
        pool = self.pool_name(node, kind[:3])
        if kind == "incomplete":
            self.add_slices(pool, ("node", node), [devices], kind, declared=self.rng.randint(2, 3))
            self.b.features.add("incomplete-pool")
        elif kind == "invalid":
            twin = copy.deepcopy(devices[0])
            twin.attrs = dict(twin.attrs)
            self.add_slices(pool, ("node", node), [devices, [twin]], kind)
            self.b.features.add("invalid-pool")
        else:
            old = self.plain_devices(self.rng.randint(1, 3), start=30)
            if model:
                for d in old:
                    d.attrs[self.n.model] = ("string", model)
            self.add_slices(pool, ("node", node), [old], "stale", generation=1)
            self.add_slices(pool, ("node", node), [devices], "plain", generation=2)
            self.b.features.add("stale-generation")

    def classes_setup(self) -> None:
        word = self.rng.choice(WORDS)
        self.class_all = f"{word}-{self.b.tag}{self.w}"
        self.classes[self.class_all] = [self.sel_driver()]
        for i, model in enumerate(self.models[:2]):
            name = f"{self.class_all}-m{i}"
            if self.rng.random() < 0.5:
                sel = self.sel_attr_eq(self.n.model, ("string", model))
                self.classes[name] = [
                    m.Sel(f"{self.sel_driver().cel} && {sel.cel}", _and(self.sel_driver(), sel))
                ]
            else:
                self.classes[name] = [
                    self.sel_driver(),
                    self.sel_attr_eq(self.n.model, ("string", model)),
                ]
        big = self.rng.choice((40, 48))
        self.classes[f"{self.class_all}-big"] = [self.sel_driver(), self.sel_mem_ge(big)]
        self.classes[f"{self.class_all}-shared"] = [self.sel_driver(), self.sel_multi()]
        self.b.features.add("class-selectors")

    # -- what matches --

    def visible(self, wd: _WDev, node: m.Node) -> bool:
        if wd.slice.where[0] == "per-device":
            return wd.dev.where is not None and m.node_matches(node, wd.dev.where)
        return m.node_matches(node, wd.slice.where)

    def matches(self, req: m.Req, wd: _WDev) -> bool:
        try:
            return all(s.fn(wd.slice.driver, wd.dev) for s in [*self.classes[req.cls], *req.sels])
        except m.CelError:
            return False


def _and(a: m.Sel, b: m.Sel) -> Any:
    def fn(d: str, dev: m.Dev) -> bool:
        return a.fn(d, dev) and b.fn(d, dev)

    return fn


class _Builder:
    def __init__(self, rng: random.Random, seed: int, index: int) -> None:
        self.rng, self.seed, self.index = rng, seed, index
        self.tag = f"{rng.randrange(16**5):05x}"
        self.world = m.World()
        self.features: set[str] = set()
        self.rack = f"rack.{self.tag}.test/row"
        self.zone = f"zone.{self.tag}.test/pool"
        self.namespaces: list[str] = []
        self.admin_ns: set[str] = set()
        self.holds: list[tuple[str, _World, _WDev, dict[str, int] | None]] = []
        self.pods: dict[str, m.Pod] = {}
        self.pod_extra: dict[str, dict[str, Any]] = {}
        self.judged: list[str] = []
        self.built_for: dict[str, set[str]] = {}
        self.notes: dict[str, str] = {}
        self.worlds: list[_World] = []
        self.designs: dict[str, str] = {}

    # -- nodes --

    def make_nodes(self) -> None:
        count = self.rng.randint(1, 6)
        word = self.rng.choice(WORDS)
        for i in range(count):
            name = f"{word}-{self.tag}-{i}"
            labels = {
                "kubernetes.io/hostname": name,
                self.rack: f"r{self.rng.randint(0, 2)}",
                self.zone: self.rng.choice(("east", "west")),
            }
            self.world.nodes.append(m.Node(name, labels))
        self.features.add(f"nodes-{count}")

    # -- the whole shape --

    def build(self) -> Shape | None:
        self.make_nodes()
        ns_count = self.rng.randint(1, 2)
        word = self.rng.choice(WORDS)
        self.namespaces = [f"{word}-{self.tag}-ns{i}" for i in range(ns_count)]
        judged = 1 if self.rng.random() < 0.7 else 2
        for w in range(judged):
            design = self.rng.choices(list(DESIGNS), weights=list(DESIGNS.values()))[0]
            world = _World(self, w)
            self.worlds.append(world)
            if not self.build_world(world, design):
                return None
        self.node_decoys()
        if not self.no_eviction():
            return None
        # every judged pod must still be what it was built to be after the decoys
        for key in self.judged:
            if not self.check(key, self.designs[key]):
                return None
        return self.emit()

    def no_eviction(self) -> bool:
        """No held device may carry a NoExecute taint: the device-taint-eviction-controller
        would delete its pod while the test runs. Slice taints are turned into NoSchedule."""
        busy = self.world.held | set(self.world.shares)
        for s in self.world.slices:
            for d in s.devices:
                if (s.driver, s.pool, d.name) not in busy:
                    continue
                d.taints = [(k, v, "NoSchedule" if e == "NoExecute" else e) for k, v, e in d.taints]
                if any(t[2] == "NoExecute" for t in self.world.taints_of(s, d)):
                    return False
        return True

    def build_world(self, world: _World, design: str) -> bool:
        rng = self.rng
        nodes = self.world.nodes
        target = rng.choice(nodes)
        world.classes_setup()
        for node in nodes:
            if node is target or rng.random() < 0.6:
                world.plain_pool(node.name, rng.randint(2, 5) if node is target else None)
        if design == "counters" or rng.random() < 0.4:
            on_target = design == "counters" or rng.random() < 0.7
            world.partition_pool(target.name if on_target else rng.choice(nodes).name)
        if design == "capacity" or rng.random() < 0.4:
            on_target = design == "capacity" or rng.random() < 0.7
            world.shared_pool(target.name if on_target else rng.choice(nodes).name)
        if rng.random() < 0.3:
            world.network_pool()
        if rng.random() < 0.2:
            world.perdevice_pool()
        for kind in ("incomplete", "invalid", "stale"):
            if rng.random() < 0.15:
                world.odd_pool(rng.choice(nodes).name, kind)
        self.world.classes.update(world.classes)
        ns = rng.choice(self.namespaces)
        name = f"{rng.choice(WORDS)}-{self.tag}{world.w}"
        pod = m.Pod(ns, name, [])
        key = f"{ns}/{name}"
        if not self.requests(world, pod, target, design):
            return False
        self.decoys(world, target, design)
        if not self.place_design(world, pod, target, design):
            return False
        self.pods[key] = pod
        self.judged.append(key)
        self.designs[key] = design
        return True

    # -- the judged pod's requests, written around a witness on the target node --

    def requests(self, world: _World, pod: m.Pod, target: m.Node, design: str) -> bool:
        rng = self.rng
        nclaims = rng.choices((1, 2, 3), weights=(5, 3, 1))[0]
        total = 0
        for ci in range(nclaims):
            nreq = rng.choices((1, 2, 3), weights=(5, 3, 1))[0]
            if total + nreq > 4:
                nreq = max(1, 4 - total)
            claim = m.Claim(pod.ns, f"{pod.name}-{rng.choice(WORDS)}{ci}", [])
            for ri in range(nreq):
                hint = DESIGN_KINDS.get(design, ()) if total == 0 else ()
                req = self.request(world, target, f"{rng.choice(('r', 'req', 'dev'))}{ri}", hint)
                if req is None:
                    continue
                claim.reqs.append(req)
                total += 1
            if not claim.reqs:
                continue
            self.constraints(world, claim)
            self.world.claims[(claim.ns, claim.name)] = claim
            pod.claims.append(claim.name)
        return bool(pod.claims)

    def free_on(self, world: _World, node: m.Node, kinds: tuple[str, ...]) -> list[_WDev]:
        return [
            wd
            for wd in world.devs
            if wd.kind in kinds and world.visible(wd, node) and wd.id not in world.witness
        ]

    def request(
        self, world: _World, target: m.Node, name: str, hint: tuple[str, ...] = ()
    ) -> m.Req | None:
        rng = self.rng
        kinds = ["plain"] * 4
        if self.free_on(world, target, ("part",)):
            kinds += ["part", "part"]
        if self.free_on(world, target, ("full",)):
            kinds += ["full"]
        if self.free_on(world, target, ("shared",)):
            kinds += ["shared", "shared"]
        if self.free_on(world, target, ("net", "perdev")):
            kinds += ["net"]
        kinds += ["first"]
        kind = rng.choice([k for k in kinds if k in hint] or kinds)
        if kind == "first":
            subs = []
            second = rng.random() < 0.6  # the first alternative cannot be met: the second is
            for j in range(2):
                sub = self.simple_request(
                    world,
                    target,
                    f"s{j}",
                    rng.choice(kinds[:-1]),
                    witness=(j == 1) == second,
                    admin_ok=False,
                )
                if sub is None:
                    return None
                subs.append(sub)
            if second:
                subs[0].mode, subs[0].count = "ExactCount", 8
                self.features.add("first-available-second")
            self.features.add("first-available")
            return m.Req(name, subs=subs)
        return self.simple_request(world, target, name, kind, witness=True, admin_ok=True)

    def simple_request(
        self,
        world: _World,
        target: m.Node,
        name: str,
        kind: str,
        *,
        witness: bool,
        admin_ok: bool,
    ) -> m.Req | None:
        rng = self.rng
        pool_kinds = {
            "plain": ("plain",),
            "part": ("part",),
            "full": ("full",),
            "shared": ("shared",),
            "net": ("net", "perdev"),
        }[kind]
        free = self.free_on(world, target, pool_kinds)
        if kind == "plain":
            free = [wd for wd in free if wd.kind == "plain"]
        if not free:
            return None
        req = m.Req(name, cls=world.class_all)
        if kind == "part":
            req.sels.append(world.sel_has(world.n.part, True))
            self.features.add("req-partition")
        elif kind == "full":
            req.sels.append(world.sel_has(world.n.whole, True))
        elif kind == "shared":
            req.cls = f"{world.class_all}-shared"
        elif kind == "net":
            req.sels.append(world.sel_attr_eq(world.n.model, ("string", world.net_model)))
        # the witness: devices of that kind on the target
        if kind == "shared":
            pick = [rng.choice(free)]
        elif kind == "part":
            pick = self.pick_partitions(world, free)
        else:
            pick = rng.sample(free, min(len(free), rng.choices((1, 2, 3, 4), (6, 3, 2, 1))[0]))
        # a selector the witness passes (model, index, memory, tier), sometimes
        r = rng.random()
        models = {wd.dev.attrs[world.n.model] for wd in pick}
        if kind in ("plain", "part", "full") and r < 0.25 and len(models) == 1:
            model = next(iter(models))[1]
            classes = [c for c in world.classes if c.endswith(("-m0", "-m1"))]
            for c in classes:
                if any(s.fn(world.driver, pick[0].dev) is True for s in world.classes[c][-1:]):
                    req.cls = c
                    break
            else:
                req.sels.append(world.sel_attr_eq(world.n.model, ("string", model)))
            self.features.add("sel-model")
        elif kind in ("plain", "full") and r < 0.45:
            top = max(int(wd.dev.attrs[world.n.index][1]) for wd in pick)
            req.sels.append(world.sel_int_lt(world.n.index, top + 1 + rng.randint(0, 2)))
            self.features.add("sel-index")
        elif kind in ("plain", "part", "full") and r < 0.6:
            low = min(wd.dev.caps[world.n.mem].value for wd in pick)
            req.sels.append(world.sel_mem_ge(rng.choice([v for v in (8, 16, low) if v <= low])))
            self.features.add("sel-memory")
        elif kind in ("plain", "full") and r < 0.7:
            tiers = {wd.dev.attrs.get(world.n.tier) for wd in pick}
            if len(tiers) == 1 and None not in tiers:
                tier = next(iter(tiers))
                assert tier is not None
                req.sels.append(world.sel_has_eq(world.n.tier, str(tier[1])))
                self.features.add("sel-guarded")
        if kind == "shared":
            self.shared_request(world, req, pick[0])
        elif kind == "plain" and rng.random() < 0.15:
            mem = min(wd.dev.caps[world.n.mem].value for wd in pick)
            req.cap = {world.n.mem: rng.randint(1, mem)}
            req.units = {world.n.mem: "Gi"}
            self.features.add("capacity-on-plain")
        # All: every matching device on the target, when they are few and free
        if kind == "plain" and rng.random() < 0.15:
            on_target = [
                wd for wd in self.free_on(world, target, ("plain",)) if world.matches(req, wd)
            ]
            if 0 < len(on_target) <= 4:
                req.mode, req.count = "All", 0
                pick = on_target
                self.features.add("all-mode")
        if req.mode == "ExactCount":
            req.count = len(pick)
            self.features.add(f"count-{req.count}")
        if admin_ok and kind == "plain" and rng.random() < 0.12:
            req.admin = True
            world.admin_witness.update(wd.id for wd in pick)
            self.features.add("admin-access")
        if witness:
            for wd in pick:
                world.witness.add(wd.id)
                world.witness_req[wd.id] = req
        for wd in pick:
            for taint in world.b.world.taints_of(wd.slice, wd.dev):
                if taint[2] in ("NoSchedule", "NoExecute"):
                    req.tolerations.append(self.toleration_for(taint))
        if rng.random() < 0.2:
            req.tolerations.append(
                {"key": f"{rng.choice(WORDS)}.{self.tag}.test/other", "operator": "Exists"}
            )
        return req

    def pick_partitions(self, world: _World, free: list[_WDev]) -> list[_WDev]:
        """Partitions of one or two GPUs that fit their counters."""
        by_set: dict[str, list[_WDev]] = {}
        for wd in free:
            by_set.setdefault(wd.dev.consumes[0][0], []).append(wd)
        cs = self.rng.choice(sorted(by_set))
        parts = by_set[cs]
        n = self.rng.randint(1, min(2, len(parts)))
        return parts[:n]

    def shared_request(self, world: _World, req: m.Req, wd: _WDev) -> None:
        mem = wd.dev.caps[world.n.mem]
        room = mem.value - world.reserved_cap.get(wd.id, {}).get(world.n.mem, 0)
        _low, _step, high = mem.range or (1, 1, None)
        top = min(room, high or room)
        ask = self.rng.randint(1, max(1, top // 2))
        req.cap = {world.n.mem: ask}
        req.units = {world.n.mem: "Gi"}
        if self.rng.random() < 0.4:
            req.cap[world.n.compute] = self.rng.choice((5, 15, 30))
            req.units[world.n.compute] = ""
        use = {n: m.consumed(c, (req.cap or {}).get(n)) for n, c in wd.dev.caps.items()}
        have = world.reserved_cap.setdefault(wd.id, {})
        for n, v in use.items():
            have[n] = have.get(n, 0) + v
        self.features.add("capacity-request")

    def toleration_for(self, taint: tuple[str, str, str]) -> dict[str, Any]:
        key, value, effect = taint
        if self.rng.random() < 0.5:
            self.features.add("toleration-exists")
            return {"key": key, "operator": "Exists", "effect": effect}
        self.features.add("toleration-equal")
        return {"key": key, "operator": "Equal", "value": value, "effect": effect}

    def constraints(self, world: _World, claim: m.Claim) -> None:
        rng = self.rng
        exact = [r for r in claim.reqs if not r.subs and r.mode == "ExactCount"]
        if len(exact) >= 2 and rng.random() < 0.35:
            a, b = rng.sample(exact, 2)
            ids = [wd for wd in world.devs if wd.id in world.witness]
            mine = [wd for wd in ids if any(world.matches(r, wd) for r in (a, b))]
            value = mine[0].dev.attrs[world.n.numa] if mine else ("int", 0)
            for wd in mine:
                if wd.kind in ("part", "full"):
                    return
            for wd in mine:
                wd.dev.attrs[world.n.numa] = value
            claim.constraints.append(("match", f"{world.driver}/{world.n.numa}", [a.name, b.name]))
            self.features.add("match-attribute")
        elif exact and rng.random() < 0.2:
            r = rng.choice(exact)
            if r.count >= 2:
                claim.constraints.append(("distinct", f"{world.driver}/{world.n.index}", [r.name]))
                self.features.add("distinct-attribute")

    # -- decoys: what makes the world busy without changing the answer --

    def decoys(self, world: _World, target: m.Node, design: str) -> None:
        rng = self.rng
        others = [wd for wd in world.devs if wd.id not in world.witness]
        for wd in others:
            if wd.kind in ("plain", "net", "perdev", "stale") and rng.random() < 0.3:
                self.hold(world, wd)
        for wd in world.devs:
            if wd.id in world.admin_witness and wd.kind == "plain" and rng.random() < 0.6:
                self.hold(world, wd)  # adminAccess looks past holders
                self.features.add("admin-on-held")
        if design != "counters":
            self.hold_partitions(world)
        for wd in world.devs:
            if wd.kind == "shared" and rng.random() < 0.5:
                self.hold_share(world, wd)
        # slice taints on free decoys; NoExecute only where nobody holds the device
        for wd in others:
            if (
                rng.random() < 0.15
                and wd.id not in self.world.held
                and wd.id not in self.world.shares
            ):
                effect = rng.choice(("NoSchedule", "NoExecute", "None"))
                wd.dev.taints.append(
                    (
                        f"{rng.choice(WORDS)}.{self.tag}.test/health",
                        rng.choice(("xid", "ecc", "thermal")),
                        effect,
                    )
                )
                self.features.add(f"taint-{effect}")
        if rng.random() < 0.3:
            self.rule(world, rng.choice(others) if others else None, decoy=True)
        # a witness device tainted, its request tolerating it
        for wd in world.devs:
            req = world.witness_req.get(wd.id)
            if req is None or rng.random() > 0.2 or wd.id in self.world.held:
                continue
            effect = rng.choice(("NoSchedule", "NoExecute"))
            taint = (
                f"{rng.choice(WORDS)}.{self.tag}.test/tolerated",
                rng.choice(("a", "b")),
                effect,
            )
            if rng.random() < 0.3:
                self.world.rules.append((world.driver, wd.slice.pool, wd.dev.name, taint))
                self.features.add("rule-tolerated")
            else:
                wd.dev.taints.append(taint)
                self.features.add(f"taint-{effect}")
            req.tolerations.append(self.toleration_for(taint))

    def hold(self, world: _World, wd: _WDev, share: dict[str, int] | None = None) -> None:
        if share is None:
            if wd.id in self.world.held or wd.id in self.world.shares:
                return
            self.world.held.add(wd.id)
        else:
            have = self.world.shares.setdefault(wd.id, {})
            for n, v in share.items():
                have[n] = have.get(n, 0) + v
        node = self.anchor(world, wd)
        self.holds.append((node, world, wd, share))
        self.features.add("held")

    def anchor(self, world: _World, wd: _WDev) -> str:
        """A node the held device can serve (where its bound pod runs)."""
        nodes = [n for n in self.world.nodes if world.visible(wd, n)]
        return self.rng.choice(nodes or self.world.nodes).name

    def hold_partitions(self, world: _World) -> None:
        """Hold partition-pool devices where counters allow (witness devices stay free)."""
        for wd in [d for d in world.devs if d.kind in ("part", "full")]:
            if wd.id in world.witness or self.rng.random() > 0.3:
                continue
            if self.counters_room(world, wd):
                self.hold(world, wd)

    def counters_room(self, world: _World, wd: _WDev, with_witness: bool = True) -> bool:
        """Whether wd fits its counter set beside what is held (and the witness)."""
        cs, use = wd.dev.consumes[0]
        pool = [d for d in world.devs if d.slice.pool == wd.slice.pool]
        counters = next(
            s.counters
            for s in self.world.slices
            if s.pool == wd.slice.pool and s.driver == wd.slice.driver and s.counters
        )
        assert counters is not None
        left = dict(counters[cs])
        for d in pool:
            if not d.dev.consumes or d.dev.consumes[0][0] != cs:
                continue
            busy = d.id in self.world.held or (with_witness and d.id in world.witness)
            if busy:
                for n, v in d.dev.consumes[0][1].items():
                    left[n] -= v
        return all(left[n] >= v for n, v in use.items())

    def hold_share(self, world: _World, wd: _WDev) -> None:
        caps = wd.dev.caps
        reserved = world.reserved_cap.get(wd.id, {})
        have = self.world.shares.get(wd.id, {})
        share = {}
        for n, cap in caps.items():
            share[n] = m.consumed(cap, None)
        mem = caps[world.n.mem]
        if self.rng.random() < 0.6:
            ask = self.rng.randint(1, max(1, mem.value // 3))
            share[world.n.mem] = m.consumed(mem, ask)
        for n, cap in caps.items():
            if have.get(n, 0) + reserved.get(n, 0) + share[n] > cap.value:
                return
        self.hold(world, wd, share)

    def rule(self, world: _World, wd: _WDev | None, decoy: bool) -> tuple[str, str, str] | None:
        """A DeviceTaintRule: on one device, a whole pool, or a device name in every pool."""
        rng = self.rng
        if wd is None:
            return None
        key = f"{rng.choice(WORDS)}.{self.tag}.test/rule"
        scope = rng.choice(("device", "pool", "name"))
        if decoy:
            effect = (
                "None"
                if scope != "device" or wd.id in world.witness
                else rng.choice(("NoSchedule", "None"))
            )
            if scope != "device":
                pool_devs = [
                    d
                    for d in world.devs
                    if (scope == "pool" and d.slice.pool == wd.slice.pool)
                    or (scope == "name" and d.dev.name == wd.dev.name)
                ]
                if any(d.id in world.witness for d in pool_devs) or rng.random() < 0.5:
                    effect = "None"
                else:
                    effect = "NoSchedule"
        else:
            effect = rng.choice(("NoSchedule", "NoExecute"))
            scope = "device"
        taint = (key, rng.choice(("maint", "drain", "rma")), effect)
        driver, pool, device = world.driver, wd.slice.pool, wd.dev.name
        if scope == "pool":
            self.world.rules.append((driver, pool, None, taint))
        elif scope == "name":
            self.world.rules.append((driver, None, device, taint))
        else:
            self.world.rules.append((driver, pool, device, taint))
        self.features.add(f"rule-{scope}")
        return taint

    def node_decoys(self) -> None:
        """Cordon or taint nodes no judged pod relies on; taint one it relies on but tolerates."""
        rng = self.rng
        fit = [self.pods[k] for k in self.judged if self.designs[k] == "fit"]

        def still_fit() -> bool:
            return all(m.judge(self.world, p).status == "fit" for p in fit)

        for node in self.world.nodes:
            r = rng.random()
            if r < 0.12:
                node.unschedulable = True
                if not still_fit():
                    node.unschedulable = False
                    continue
                self.features.add("node-cordoned")
            elif r < 0.25:
                effect = rng.choice(("NoSchedule", "PreferNoSchedule", "NoExecute"))
                node.taints.append(
                    {
                        "key": f"{rng.choice(WORDS)}.{self.tag}.test/node",
                        "value": "x",
                        "effect": effect,
                    }
                )
                if not still_fit():
                    node.taints.pop()
                    continue
                self.features.add(f"node-taint-{effect}")
        for key in self.judged:
            pod = self.pods[key]
            node_design = self.designs[key].startswith("node-")
            if rng.random() < 0.3:
                for node in self.world.nodes:
                    for t in node.taints:
                        if rng.random() < 0.7 and not t["key"].endswith("/keep-out"):
                            pod.tolerations.append(dict(t, operator="Equal"))
                            self.features.add("pod-toleration")
            if rng.random() < 0.06 and not node_design:
                pod.tolerations.append(
                    {"key": UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule"}
                )
                self.features.add("tolerates-cordon")
            if not pod.node_selector and rng.random() < 0.25:
                verdict = m.judge(self.world, pod)
                if verdict.nodes:
                    node = next(n for n in self.world.nodes if n.name == verdict.nodes[0])
                    pod.node_selector = {self.zone: node.labels[self.zone]}
                    self.features.add("pod-node-selector")

    # -- the blocker --

    def place_design(self, world: _World, pod: m.Pod, target: m.Node, design: str) -> bool:
        key = f"{pod.ns}/{pod.name}"
        verdict = m.judge(self.world, pod)
        if verdict.status != "fit":
            return False
        if design != "fit":
            ok = getattr(self, "design_" + design.replace("-", "_"))(world, pod, target)
            if not ok:
                return False
        self.notes[key] = f"{design}: {world.driver}"
        self.features.add(f"design-{design}")
        return True

    def check(self, key: str, design: str) -> bool:
        pod = self.pods[key]
        verdict = m.judge(self.world, pod)
        if design == "fit":
            self.built_for[key] = set()
            return verdict.status == "fit"
        if verdict.status == "fit":
            return False
        if design == "cel-error" and verdict.status != "error":
            return False
        if (
            design not in PREFILTER
            and not design.startswith("node-")
            and all(m.node_passes(n, pod, m.Lift()) for n in self.world.nodes)
        ):
            return False  # no node lets it on: the scheduler never looks at its devices
        if verdict.status == "error" and design not in ("cel-error", *ERROR_TOO):
            return False
        if design in ("class-missing", "claim-missing") and verdict.reason != design:
            return False
        codes = {design}
        for code, lift in LIFTS.items():
            if m.judge(self.world, pod, lift).status == "fit":
                codes.add(code)
        if design in LIFTS and m.judge(self.world, pod, LIFTS[design]).status != "fit":
            return False
        self.built_for[key] = codes
        return True

    def claims_of(self, pod: m.Pod) -> list[m.Claim]:
        return [
            self.world.claims[(pod.ns, c)] for c in pod.claims if (pod.ns, c) in self.world.claims
        ]

    def pick_request(self, pod: m.Pod, plain_only: bool = False) -> tuple[m.Claim, m.Req] | None:
        options = [
            (c, r)
            for c, r in m.iter_requests(self.claims_of(pod))
            if not r.subs and (not plain_only or not r.cap)
        ]
        return self.rng.choice(options) if options else None

    def matching(self, world: _World, req: m.Req) -> list[_WDev]:
        out = []
        for r in req.subs or [req]:
            out += [wd for wd in world.devs if world.matches(r, wd)]
        return out

    def design_held(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        req.admin = False
        devs = [wd for wd in self.matching(world, req) if not wd.dev.shared]
        if not devs or any(wd.dev.consumes for wd in devs):
            return False
        for wd in devs:
            self.hold(world, wd)
        return True

    def design_counters(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        """A request for partitions (or whole GPUs) whose counter sets others already use up:
        the whole GPU held beside partitions, partitions held beside the whole GPU."""
        options = [
            (c, r)
            for c, r in m.iter_requests(self.claims_of(pod))
            if not r.subs
            and self.matching(world, r)
            and all(wd.dev.consumes for wd in self.matching(world, r))
        ]
        if not options:
            return False
        _claim, req = self.rng.choice(options)
        mine = {wd.id for wd in self.matching(world, req)}
        sets = sorted({wd.dev.consumes[0][0] for wd in self.matching(world, req)})
        for cs in sets:
            others = [
                wd
                for wd in world.devs
                if wd.dev.consumes and wd.dev.consumes[0][0] == cs and wd.id not in mine
            ]
            others.sort(key=lambda wd: world.n.whole not in wd.dev.attrs)  # whole GPU first
            for wd in others:
                if wd.id not in self.world.held and self.counters_room(world, wd, False):
                    self.hold(world, wd)
        if self.rng.random() < 0.4:
            req.admin = True  # admin access looks past holders, not past counters
            self.admin_ns.add(pod.ns)
            self.features.add("admin-counters")
        return True

    def design_capacity(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        """Shares already take what a shared device has left, a request asks more than any
        device has, or a capacity no device publishes."""
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        devs = self.matching(world, req)
        if not devs:
            return False
        mem_name = world.n.mem
        if all(wd.dev.shared for wd in devs) and self.rng.random() < 0.6:
            ask = m.consumed(devs[0].dev.caps[mem_name], (req.cap or {}).get(mem_name))
            for wd in devs:
                mem = wd.dev.caps[mem_name]
                used = self.world.shares.get(wd.id, {})
                room = mem.value - used.get(mem_name, 0)
                if room < ask:
                    continue
                take = m.consumed(mem, room - ask + 1)
                share = {n: m.consumed(c, None) for n, c in wd.dev.caps.items()}
                share[mem_name] = take
                if any(used.get(n, 0) + v > wd.dev.caps[n].value for n, v in share.items()):
                    return False
                self.hold(world, wd, share)
            self.features.add("capacity-shares-full")
        elif self.rng.random() < 0.35:
            req.cap = dict(req.cap or {}, lanes=1)  # a capacity no device publishes
            req.units = dict(req.units, lanes="")
            self.features.add("capacity-unknown")
        else:
            top = max(wd.dev.caps[mem_name].value for wd in devs)
            req.cap = dict(req.cap or {})
            req.cap[mem_name] = top + self.rng.randint(1, 16)
            req.units = dict(req.units, **{mem_name: "Gi"})
            self.features.add("capacity-too-big")
        return True

    def design_tainted(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        devs = self.matching(world, req)
        free = [
            wd for wd in devs if wd.id not in self.world.held and wd.id not in self.world.shares
        ]
        if not free:
            return False
        req.tolerations = [
            t
            for t in req.tolerations
            if t.get("operator") != "Exists" or t.get("key", "").endswith("/other")
        ]
        by_rule = self.rng.random() < 0.4
        for wd in free:
            if by_rule:
                self.rule(world, wd, decoy=False)
            else:
                effect = self.rng.choice(("NoSchedule", "NoExecute"))
                wd.dev.taints.append(
                    (
                        f"{self.rng.choice(WORDS)}.{self.tag}.test/broken",
                        self.rng.choice(("xid", "ecc")),
                        effect,
                    )
                )
                self.features.add(f"taint-{effect}")
        return True

    def design_constraint(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        claims = self.claims_of(pod)
        claim = self.rng.choice(claims)
        exact = [r for r in claim.reqs if not r.subs and r.mode == "ExactCount" and not r.cap]
        if not exact:
            return False
        req = self.rng.choice(exact)
        if len(exact) >= 2 and self.rng.random() < 0.5:
            return self.match_conflict(
                world, claim, req, next(r for r in exact if r is not req), target
            )
        model = self.rng.choice(world.models)
        req.sels = [world.sel_attr_eq(world.n.model, ("string", model))]
        req.cls = world.class_all
        extra = world.plain_devices(2, start=40 + self.rng.randint(0, 9))
        for d in extra:
            d.attrs[world.n.model] = ("string", model)
        world.add_slices(world.pool_name(target.name, "x"), ("node", target.name), [extra], "plain")
        req.count = 2
        req.mode = "ExactCount"
        claim.constraints = [c for c in claim.constraints if req.name not in c[2]]
        claim.constraints.append(("distinct", f"{world.driver}/{world.n.model}", [req.name]))
        self.features.add("distinct-attribute")
        return True

    def match_conflict(
        self, world: _World, claim: m.Claim, a: m.Req, b: m.Req, target: m.Node
    ) -> bool:
        """Two requests of a claim that must share a NUMA node, of two models that never do."""
        ma, mb = self.rng.sample(world.models, 2)
        for req, model in ((a, ma), (b, mb)):
            req.sels = [world.sel_attr_eq(world.n.model, ("string", model))]
            req.cls, req.count, req.admin = world.class_all, 1, False
        numa = {ma: ("int", 0), mb: ("int", 1)}
        for wd in world.devs:
            model = wd.dev.attrs[world.n.model][1]
            if model in numa:
                wd.dev.attrs[world.n.numa] = numa[model]
        extra = world.plain_devices(2, start=50 + self.rng.randint(0, 9))
        for d, model in zip(extra, (ma, mb), strict=True):
            d.attrs[world.n.model] = ("string", model)
            d.attrs[world.n.numa] = numa[model]
        world.add_slices(world.pool_name(target.name, "y"), ("node", target.name), [extra], "plain")
        claim.constraints = [
            c for c in claim.constraints if a.name not in c[2] and b.name not in c[2]
        ]
        claim.constraints.append(("match", f"{world.driver}/{world.n.numa}", [a.name, b.name]))
        self.features.add("match-attribute")
        self.features.add("match-conflict")
        return True

    def design_count(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        per_node = max(
            sum(1 for wd in self.matching(world, req) if world.visible(wd, n))
            for n in self.world.nodes
        )
        if req.mode == "All" or per_node + 1 > 8:
            return False
        req.count = per_node + 1
        self.features.add(f"count-{req.count}")
        return True

    def design_selector(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        top = max([wd.dev.caps[world.n.mem].value for wd in world.devs] + [0])
        if self.rng.random() < 0.5:
            req.sels.append(world.sel_mem_ge(top + self.rng.choice((8, 16, 64))))
        else:
            ghost = f"{self.rng.choice(MODEL_STEMS)}{self.rng.randint(1000, 9999)}"
            req.sels.append(world.sel_attr_eq(world.n.model, ("string", ghost)))
        return True

    def design_cel_error(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        """The first request of the first claim reads the tier attribute without asking
        whether the device has it, and a node has only devices without it."""
        claim = self.claims_of(pod)[0]
        req = claim.reqs[0]
        if req.subs:
            return False
        nodes = [n for n in self.world.nodes if n is not target]
        node = self.rng.choice(nodes) if nodes else target
        devices = world.plain_devices(self.rng.randint(1, 2), start=60)
        for d in devices:
            d.attrs.pop(world.n.tier, None)
        world.add_slices(
            world.pool_name(node.name, "bare"), ("node", node.name), [devices], "plain"
        )
        tier = world.rng.choice(world.tiers)
        bad = world.sel_attr_eq(world.n.tier, ("string", tier))
        if self.rng.random() < 0.5:
            name = f"{world.class_all}-{tier}"
            self.world.classes[name] = [world.sel_driver(), bad]
            world.classes[name] = self.world.classes[name]
            req.cls = name
        else:
            req.sels.insert(0, bad)
            req.cls = world.class_all
        req.mode, req.admin = "ExactCount", False
        req.count = max(req.count, 1)
        return True

    def design_incomplete_pool(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        return self._odd_design(world, pod, target, "incomplete")

    def design_invalid_pool(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        return self._odd_design(world, pod, target, "invalid")

    def _odd_design(self, world: _World, pod: m.Pod, target: m.Node, kind: str) -> bool:
        picked = self.pick_request(pod)
        if picked is None:
            return False
        _claim, req = picked
        if req.mode != "All" and not req.cap and self.rng.random() < 0.35:
            req.mode, req.count, req.admin = "All", 0, False
        if req.mode == "All" and self.rng.random() < 0.7:
            world.odd_pool(target.name, kind)  # All sees every pool of the node: an error
            self.features.add(f"all-{kind}")
            return True
        ghost = f"{self.rng.choice(MODEL_STEMS)}{self.rng.randint(1000, 9999)}"
        world.odd_pool(target.name, kind, model=ghost)
        req.sels = [world.sel_attr_eq(world.n.model, ("string", ghost))]
        req.cls, req.cap, req.mode = world.class_all, None, "ExactCount"
        req.count = 1
        return True

    def design_node_selector(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        verdict = m.judge(self.world, pod)
        fit = set(verdict.nodes)
        values = {n.labels[self.rack] for n in self.world.nodes if n.name not in fit}
        blocked = {n.labels[self.rack] for n in self.world.nodes if n.name in fit}
        usable = sorted(values - blocked)
        pod.node_selector = {self.rack: self.rng.choice(usable) if usable else "r9"}
        return True

    def design_node_unschedulable(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        for name in m.judge(self.world, pod).nodes:
            next(n for n in self.world.nodes if n.name == name).unschedulable = True
        self.features.add("node-cordoned")
        return True

    def design_node_taint(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        key = f"{self.rng.choice(WORDS)}.{self.tag}.test/keep-out"
        for name in m.judge(self.world, pod).nodes:
            node = next(n for n in self.world.nodes if n.name == name)
            node.taints.append(
                {"key": key, "value": "yes", "effect": self.rng.choice(("NoSchedule", "NoExecute"))}
            )
        self.features.add("node-taint-NoSchedule")
        return True

    def design_class_missing(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        reqs = [r for _c, r in m.iter_requests(self.claims_of(pod))]
        req = self.rng.choice(reqs)
        ghost = f"{self.rng.choice(WORDS)}-{self.tag}-gone"
        if req.subs:
            self.rng.choice(req.subs).cls = ghost
        else:
            req.cls = ghost
        return True

    def design_claim_missing(self, world: _World, pod: m.Pod, target: m.Node) -> bool:
        ghost = f"{pod.name}-{self.rng.choice(WORDS)}-gone"
        pod.claims.insert(self.rng.randint(0, len(pod.claims)), ghost)
        return True

    # -- JSON --

    def emit(self) -> Shape:
        shape = Shape(self.seed, self.index)
        shape.features = set(self.features)
        rng = self.rng
        admin = {
            p.ns for k, p in self.pods.items() for c in self.claims_of(p) for r in c.reqs if r.admin
        }
        for ns in self.namespaces:
            meta: dict[str, Any] = {"name": ns}
            if ns in admin:
                meta["labels"] = {ADMIN_LABEL: "true"}
                shape.features.add("admin-namespace")
            shape.namespaces.append({"apiVersion": "v1", "kind": "Namespace", "metadata": meta})
        for node in self.world.nodes:
            shape.nodes.append(node_json(node))
        for s in self.world.slices:
            shape.slices.append(slice_json(s))
        for name, sels in self.world.classes.items():
            shape.classes.append(
                {
                    "apiVersion": RESOURCE,
                    "kind": "DeviceClass",
                    "metadata": {"name": name},
                    "spec": {"selectors": [{"cel": {"expression": s.cel}} for s in sels]},
                }
            )
        for i, (driver, pool, device, taint) in enumerate(self.world.rules):
            sel: dict[str, str] = {}
            if driver:
                sel["driver"] = driver
            if pool:
                sel["pool"] = pool
            if device:
                sel["device"] = device
            shape.rules.append(
                {
                    "apiVersion": RULES_API,
                    "kind": "DeviceTaintRule",
                    "metadata": {"name": f"{self.tag}-rule-{i}"},
                    "spec": {
                        "deviceSelector": sel,
                        "taint": {"key": taint[0], "value": taint[1], "effect": taint[2]},
                    },
                }
            )
        # held devices: one claim per device (or share), one bound pod per anchor node
        bound: dict[tuple[str, str], dict[str, Any]] = {}
        for i, (anchor, world, wd, share) in enumerate(self.holds):
            ns = rng.choice(self.namespaces)
            pod_key = (ns, anchor)
            if pod_key not in bound:
                name = f"{rng.choice(WORDS)}-{self.tag}-b{len(bound)}"
                bound[pod_key] = {
                    "name": name,
                    "ns": ns,
                    "node": anchor,
                    "uid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                    "claims": [],
                }
            holder = bound[pod_key]
            claim_name = f"{holder['name']}-{wd.dev.name}-{i}"
            holder["claims"].append(claim_name)
            shape.claims.append(
                held_claim_json(self, world, wd, share, ns, claim_name, holder, rng)
            )
        for holder in bound.values():
            shape.pods.append(
                pod_json(
                    holder["ns"],
                    holder["name"],
                    holder["claims"],
                    node=holder["node"],
                    uid=holder["uid"],
                )
            )
        for key in self.judged:
            pod = self.pods[key]
            for claim in self.claims_of(pod):
                shape.claims.append(claim_json(claim))
            extra: dict[str, Any] = {}
            if pod.node_selector:
                extra["nodeSelector"] = dict(pod.node_selector)
            if pod.tolerations:
                extra["tolerations"] = [dict(t) for t in pod.tolerations]
            shape.pods.append(pod_json(pod.ns, pod.name, pod.claims, gated=True, **extra))
        shape.judged = list(self.judged)
        shape.built_for = {k: set(v) for k, v in self.built_for.items()}
        shape.notes = dict(self.notes)
        return shape


# ---- JSON of the model's objects ------------------------------------------------------------


def node_json(node: m.Node) -> dict[str, Any]:
    key, value = KWOK_ANNOTATION
    spec: dict[str, Any] = {}
    if node.unschedulable:
        spec["unschedulable"] = True
    if node.taints:
        spec["taints"] = [dict(t) for t in node.taints]
    resources = {"cpu": "8", "memory": "32Gi", "pods": "110", "ephemeral-storage": "100Gi"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": node.name, "annotations": {key: value}, "labels": dict(node.labels)},
        "spec": spec,
        "status": {"allocatable": dict(resources), "capacity": dict(resources)},
    }


def _where_json(where: tuple[Any, ...]) -> dict[str, Any]:
    kind = where[0]
    if kind == "node":
        return {"nodeName": where[1]}
    if kind == "all":
        return {"allNodes": True}
    if kind == "sel":
        expr = {"key": where[1], "operator": "In", "values": list(where[2])}
        return {"nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [expr]}]}}
    return {"perDeviceNodeSelection": True}


def cap_json(cap: m.Cap) -> dict[str, Any]:
    out: dict[str, Any] = {"value": _quantity(cap.value, cap.unit)}
    policy: dict[str, Any] = {}
    if cap.default is not None:
        policy["default"] = _quantity(cap.default, cap.unit)
    if cap.range is not None:
        low, step, high = cap.range
        rng: dict[str, Any] = {"min": _quantity(low, cap.unit), "step": _quantity(step, cap.unit)}
        if high is not None:
            rng["max"] = _quantity(high, cap.unit)
        policy["validRange"] = rng
    if cap.values is not None:
        policy["validValues"] = [_quantity(v, cap.unit) for v in cap.values]
    if policy:
        out["requestPolicy"] = policy
    return out


def _counter_unit(name: str) -> str:
    return "Gi" if name in ("mem", "memory", "hbm") else ""


def device_json(d: m.Dev) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": d.name,
        "attributes": {k: _attr_json(v) for k, v in d.attrs.items()},
        "capacity": {k: cap_json(c) for k, c in d.caps.items()},
    }
    if d.shared:
        out["allowMultipleAllocations"] = True
    if d.consumes:
        out["consumesCounters"] = [
            {
                "counterSet": cs,
                "counters": {
                    n: {"value": _quantity(v, _counter_unit(n))} for n, v in values.items()
                },
            }
            for cs, values in d.consumes
        ]
    if d.taints:
        out["taints"] = [{"key": k, "value": v, "effect": e} for k, v, e in d.taints]
    if d.where is not None:
        out.update(_where_json(d.where))
    return out


def slice_json(s: m.Slice) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "driver": s.driver,
        "pool": {"name": s.pool, "generation": s.generation, "resourceSliceCount": s.count},
        **_where_json(s.where),
    }
    if s.counters:
        spec["sharedCounters"] = [
            {
                "name": cs,
                "counters": {
                    n: {"value": _quantity(v, _counter_unit(n))} for n, v in values.items()
                },
            }
            for cs, values in s.counters.items()
        ]
    else:
        spec["devices"] = [device_json(d) for d in s.devices]
    return {
        "apiVersion": RESOURCE,
        "kind": "ResourceSlice",
        "metadata": {"name": s.name},
        "spec": spec,
    }


def _req_body(r: m.Req, exact: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"deviceClassName": r.cls, "allocationMode": r.mode}
    if r.mode == "ExactCount":
        body["count"] = r.count
    if r.sels:
        body["selectors"] = [{"cel": {"expression": s.cel}} for s in r.sels]
    if r.tolerations:
        body["tolerations"] = [dict(t) for t in r.tolerations]
    if r.cap:
        body["capacity"] = {
            "requests": {n: _quantity(v, r.units.get(n, "")) for n, v in r.cap.items()}
        }
    if exact and r.admin:
        body["adminAccess"] = True
    return body


def request_json(r: m.Req) -> dict[str, Any]:
    if r.subs:
        return {
            "name": r.name,
            "firstAvailable": [{"name": s.name, **_req_body(s, exact=False)} for s in r.subs],
        }
    return {"name": r.name, "exactly": _req_body(r, exact=True)}


def claim_json(c: m.Claim) -> dict[str, Any]:
    devices: dict[str, Any] = {"requests": [request_json(r) for r in c.reqs]}
    if c.constraints:
        devices["constraints"] = [
            {
                "requests": list(reqs),
                ("matchAttribute" if kind == "match" else "distinctAttribute"): attr,
            }
            for kind, attr, reqs in c.constraints
        ]
    return {
        "apiVersion": RESOURCE,
        "kind": "ResourceClaim",
        "metadata": {"name": c.name, "namespace": c.ns},
        "spec": {"devices": devices},
    }


def held_claim_json(
    b: _Builder,
    world: _World,
    wd: _WDev,
    share: dict[str, int] | None,
    ns: str,
    name: str,
    holder: dict[str, Any],
    rng: random.Random,
) -> dict[str, Any]:
    exact: dict[str, Any] = {
        "deviceClassName": world.class_all,
        "allocationMode": "ExactCount",
        "count": 1,
    }
    result: dict[str, Any] = {
        "request": "r0",
        "driver": wd.slice.driver,
        "pool": wd.slice.pool,
        "device": wd.dev.name,
    }
    if share is not None:
        exact["capacity"] = {"requests": {world.n.mem: _quantity(share[world.n.mem], "Gi")}}
        result["shareID"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        result["consumedCapacity"] = {
            n: _quantity(v, wd.dev.caps[n].unit) for n, v in share.items()
        }
    allocation: dict[str, Any] = {"devices": {"results": [result]}}
    where = wd.dev.where if wd.slice.where[0] == "per-device" else wd.slice.where
    assert where is not None
    if where[0] == "node":
        allocation["nodeSelector"] = {
            "nodeSelectorTerms": [
                {
                    "matchFields": [
                        {"key": "metadata.name", "operator": "In", "values": [holder["node"]]}
                    ]
                }
            ]
        }
    elif where[0] == "sel":
        allocation["nodeSelector"] = _where_json(where)["nodeSelector"]
    allocation["allocationTimestamp"] = "2026-01-01T00:00:00Z"
    return {
        "apiVersion": RESOURCE,
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": ns, "finalizers": [FINALIZER]},
        "spec": {"devices": {"requests": [{"name": "r0", "exactly": exact}]}},
        "status": {
            "allocation": allocation,
            "reservedFor": [{"resource": "pods", "name": holder["name"], "uid": holder["uid"]}],
        },
    }


def pod_json(
    ns: str,
    name: str,
    claims: list[str],
    *,
    node: str = "",
    uid: str = "",
    gated: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    entries = [{"name": f"c{i}", "resourceClaimName": c} for i, c in enumerate(claims)]
    spec: dict[str, Any] = {
        "resourceClaims": entries,
        "containers": [
            {
                "name": "main",
                "image": IMAGE,
                "command": ["sleep", "3600"],
                "resources": {"claims": [{"name": e["name"]} for e in entries]},
            }
        ],
        "terminationGracePeriodSeconds": 0,
        **extra,
    }
    if node:
        spec["nodeName"] = node
    if gated:
        spec["schedulingGates"] = [{"name": GATE}]
    meta: dict[str, Any] = {"name": name, "namespace": ns}
    if uid:
        meta["uid"] = uid
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
