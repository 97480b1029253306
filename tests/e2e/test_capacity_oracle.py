"""The capacity oracle: gsb-tui's "how many claims of this shape fit now" against the real
scheduler, on one practice cluster with the lab, partitions, shared and taints profiles.

For each pool, gsb-tui's number N is read from a settled snapshot (fetch_snapshot +
build_view, dra's answer only). Then one-device claims of that shape are made one at a time,
each with a pod: exactly N must be allocated and the next one must stay Pending; after every
allocation N must drop by what the scheduler took. For the Pending one, the view must name the
blocker the test set up (counters, a taint, capacity) and the details pane's words must say it.
Freeing claims must give N back, and the Pending claim must then be allocated. Beside the
profiles' shapes: capacity asked of devices that are not shared, adminAccess (in a namespace
that allows it), two partitions in one claim, and a shared capacity without a request policy
(a pool the test publishes) — each once where gsb-tui and the scheduler disagreed.

Node name, device and partition counts, namespace and the shapes asked are drawn from a seeded
random (GSB_ORACLE_SEED=<n> repeats a run), so no constant can pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

import pytest

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed_profiles import pool_slices
from gsb_tui.dra.availability import Reason, quantity, share_for
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.cel import RequestPreview, explain_request
from gsb_tui.dra.model import DeviceId, Request, parse_claim
from gsb_tui.dra.view import DraView
from gsb_tui.kube.config import Target
from gsb_tui.kube.oneshot import fetch_snapshot
from gsb_tui.ui.render import explain
from tests.e2e.conftest import practice_cluster

DRIVER = "gpu.example.com"
RESOURCE = "/apis/resource.k8s.io/v1"
PROFILES = ("lab", "partitions", "shared", "taints")
UNSCHEDULABLE = "cannot allocate all claims"
ADMIN_LABEL = "resource.kubernetes.io/admin-access"
SEED = int(os.environ.get("GSB_ORACLE_SEED") or random.SystemRandom().randrange(1, 2**31))
T = TypeVar("T")


@dataclass
class Run:
    """The module's cluster and what this run drew."""

    cp: ControlPlane
    rest: Rest
    rng: random.Random
    node: str
    ns: str
    gpus: int
    partitions: int
    made: list[str] = field(default_factory=list)  # claims (and pods) made, by name
    seen: dict[str, Any] = field(default_factory=dict)  # N per profile, for the report

    @property
    def claims(self) -> str:
        return f"{RESOURCE}/namespaces/{self.ns}/resourceclaims"

    @property
    def pods(self) -> str:
        return f"/api/v1/namespaces/{self.ns}/pods"

    def view(self) -> DraView:
        target = Target(kubeconfig=self.cp.kubeconfig, namespace=self.ns)
        return build_view(asyncio.run(fetch_snapshot(target)))

    def pool(self, profile: str) -> tuple[str, list[dict[str, Any]]]:
        """(pool name, its devices as published): `lab` is the node's own pool."""
        name = self.node if profile == "lab" else f"{self.node}-{profile}"
        devices = [
            d
            for s in self.rest.get(f"{RESOURCE}/resourceslices")["items"]
            if s["spec"]["pool"]["name"] == name
            for d in s["spec"].get("devices") or []
        ]
        assert devices, f"no devices published in pool {name}"
        return name, devices


@pytest.fixture(scope="module")
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    rng = random.Random(SEED)
    gpus = rng.randint(3, 5)  # the taints pool needs 3 (NoSchedule, NoExecute, None)
    partitions = rng.randint(2, 3)
    node = f"oracle-{rng.randrange(16**5):05x}"
    ns = f"oracle-{rng.randrange(16**5):05x}"
    print(f"\n[oracle] seed {SEED}: node {node}, {gpus} GPUs, {partitions} partitions, ns {ns}")
    settings = Settings(
        devices=gpus,
        partitions=partitions,
        node_prefix=node,
        profiles=PROFILES,
        audit=False,
    )
    explain.warm_up()  # the details pane's CEL preview, as the App loads it
    with practice_cluster(request, tmp_path_factory, settings, "oracle") as cp:
        rest = cp.rest()
        labels = {ADMIN_LABEL: "true"}  # adminAccess requests are allowed here
        rest.ensure("/api/v1/namespaces", {"metadata": {"name": ns, "labels": labels}})
        eventually(
            f"the default ServiceAccount in {ns}",
            lambda: _exists(rest, f"/api/v1/namespaces/{ns}/serviceaccounts/default"),
        )
        started = Run(cp, rest, rng, node, ns, gpus, partitions)
        yield started
        print(f"\n[oracle] seed {SEED}: N seen {started.seen}")


@pytest.fixture
def oracle(run: Run) -> Iterator[Run]:
    """The run; every claim and pod a test made is deleted after it."""
    yield run
    for name in run.made:
        with contextlib.suppress(RestError):
            run.rest.delete(f"{run.pods}/{name}?gracePeriodSeconds=0")
        with contextlib.suppress(RestError):
            run.rest.delete(f"{run.claims}/{name}")
    run.made.clear()
    eventually("the test's claims to be gone", lambda: not run.rest.get(run.claims)["items"], 60)


# ---- helpers -------------------------------------------------------------------------------


def eventually(what: str, probe: Callable[[], T], timeout: float = 60.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def _exists(rest: Rest, path: str) -> bool:
    try:
        rest.get(path)
    except RestError:
        return False
    return True


def uuid_of(device: dict[str, Any]) -> str:
    return str(device["attributes"]["uuid"]["string"])


def one_of(devices: list[dict[str, Any]]) -> str:
    """A selector admitting exactly these devices (and any that share their uuid: in the
    partitions pool, a GPU's partitions and full device; the seed derives uuids from the pool)."""
    uuids = sorted({uuid_of(d) for d in devices})
    listed = ", ".join(f"'{u}'" for u in uuids)
    return f"device.attributes['{DRIVER}'].uuid in [{listed}]"


def has(attribute: str) -> str:
    return f"has(device.attributes['{DRIVER}'].{attribute})"


@dataclass(frozen=True)
class Shape:
    """A request shape: one request, class gpu.example.com, these selectors and options."""

    cel: str
    count: int = 1
    exactly: dict[str, Any] = field(default_factory=dict)

    def claim(self, ns: str, name: str = "shape") -> dict[str, Any]:
        return {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceClaim",
            "metadata": {"name": name, "namespace": ns},
            "spec": {
                "devices": {
                    "requests": [
                        {
                            "name": "dev",
                            "exactly": {
                                "deviceClassName": DRIVER,
                                "selectors": [{"cel": {"expression": self.cel}}],
                                "count": self.count,
                                **self.exactly,
                            },
                        }
                    ]
                }
            },
        }

    def request(self, ns: str) -> Request:
        """The request as dra parses it from the claim the test will create."""
        return explain.leaf_requests(parse_claim(self.claim(ns)))[0]


def preview(view: DraView, request: Request) -> RequestPreview:
    """dra's CEL preview of the request, with "free" what the request could be given now."""
    return explain_request(
        view.devices, view.classes.get(request.device_class), request, view.allocatable(request)
    )


def could_allocate(view: DraView, request: Request) -> int:
    """gsb-tui's N: how many one-device claims of this shape could be allocated now.

    Only dra is asked: the devices the class and selectors admit that view.allocatable gives
    the request; a shared device counts as many times as the request's share (share_for)
    fits in what availability says is left of every capacity.
    """
    n = 0
    for device_id in preview(view, request).free_matching:
        found = view.availability.get(device_id)
        device = view.occupancy[device_id].device
        if found is None or not device.multiple:
            n += 1
            continue
        fits = []
        for name, left in found.capacity_left.items():
            whole = quantity(device.capacity[name])
            share = share_for(device.policies.get(name), request.capacity.get(name, ""), whole)
            assert share is not None and share > 0, (device_id, name, share)
            fits.append(math.floor(left / share))
        assert fits, f"{device_id} is shared without capacities: no count to give"
        n += min(fits)
    return n


def make(run: Run, name: str, shape: Shape) -> None:
    run.rest.create(run.claims, shape.claim(run.ns, name))
    run.made.append(name)
    run.rest.create(
        run.pods,
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name},
            "spec": {
                "containers": [
                    {
                        "name": "ctr",
                        "image": "ubuntu:22.04",
                        "command": ["sleep", "9999"],
                        "resources": {"claims": [{"name": "dev"}]},
                    }
                ],
                "resourceClaims": [{"name": "dev", "resourceClaimName": name}],
            },
        },
    )


def results(run: Run, name: str) -> list[dict[str, Any]]:
    status = run.rest.get(f"{run.claims}/{name}").get("status") or {}
    return list(((status.get("allocation") or {}).get("devices") or {}).get("results") or [])


def allocated(run: Run, name: str) -> list[dict[str, Any]]:
    """The scheduler's results for the claim, once it has allocated it."""
    return eventually(f"{name} to be allocated", lambda: results(run, name))


def refused(run: Run, name: str) -> str:
    """The scheduler's PodScheduled=False message once it has refused the pod."""

    def message() -> str:
        pod = run.rest.get(f"{run.pods}/{name}")
        for c in pod.get("status", {}).get("conditions") or []:
            if c["type"] == "PodScheduled" and c["status"] == "False":
                return str(c.get("message") or c.get("reason") or "?")
        return ""

    said = eventually(f"the scheduler to refuse {name}", message)
    assert UNSCHEDULABLE in said, said
    assert results(run, name) == [], f"{name} was allocated after all"
    return said


def free(run: Run, *names: str) -> None:
    """Delete the pods and their claims, and wait until the claims are gone."""
    for name in names:
        run.rest.delete(f"{run.pods}/{name}?gracePeriodSeconds=0")
        run.rest.delete(f"{run.claims}/{name}")
        run.made.remove(name)

    def gone() -> bool:
        left = {c["metadata"]["name"] for c in run.rest.get(run.claims)["items"]}
        return not left & set(names)

    eventually(f"{', '.join(names)} to be gone", gone)


@dataclass
class Filled:
    n0: int  # gsb-tui's N before the first claim
    names: list[str]  # the claims the scheduler allocated, in order
    taken: dict[str, list[dict[str, Any]]]  # their results
    pending: str  # the claim the scheduler refused


def fill(run: Run, prefix: str, shape: Shape) -> Filled:
    """Claims of the shape one at a time until gsb-tui says none fits, each checked against
    the scheduler; then one more, which the scheduler must refuse."""
    request = shape.request(run.ns)
    n = n0 = could_allocate(run.view(), request)
    names: list[str] = []
    taken: dict[str, list[dict[str, Any]]] = {}
    while n > 0:
        name = f"{prefix}-{len(names)}"
        make(run, name, shape)
        got = allocated(run, name)
        after = could_allocate(run.view(), request)
        assert n - after == len(got), (
            f"{name}: the scheduler took {len(got)} ({[r['device'] for r in got]}), "
            f"gsb-tui's N went {n} -> {after}"
        )
        names.append(name)
        taken[name] = got
        n = after
    pending = f"{prefix}-{len(names)}"
    make(run, pending, shape)
    refused(run, pending)
    assert could_allocate(run.view(), request) == 0
    return Filled(n0, names, taken, pending)


@dataclass
class Why:
    """What gsb-tui says about a claim it cannot allocate."""

    reasons: dict[str, Reason | None]  # per device name the request's selectors admit
    lines: list[str]  # the details pane's why-lines (English)
    shortfall: str


def why(run: Run, name: str) -> Why:
    view = run.view()
    claim = view.claims[(run.ns, name)]
    request = explain.leaf_requests(claim)[0]
    blockers = view.blockers(request)
    shown = explain.claim_preview(view, claim)
    assert not shown.note, shown.note
    request_preview = shown.requests[request.name]
    return Why(
        {d.device: blockers.get(d) for d in request_preview.selector_admits},
        explain.blocker_lines(view, request_preview, shown.blockers[request.name], "en"),
        explain.request_shortfall(request_preview, "en"),
    )


def probe(run: Run, name: str, shape: Shape) -> int:
    """One claim of the shape: the scheduler must allocate it exactly when gsb-tui's N is not
    0 (and to a device gsb-tui counted), and refuse it otherwise. Freed again; returns N."""
    request = shape.request(run.ns)
    view = run.view()
    n = could_allocate(view, request)
    make(run, name, shape)
    if n:
        counted = {d.device for d in preview(view, request).free_matching}
        assert {r["device"] for r in allocated(run, name)} <= counted
    else:
        refused(run, name)
    free(run, name)
    return n


def follows(run: Run, request: Request, filled: Filled, k: int, grows: int) -> str:
    """Free k of the filled claims: gsb-tui's N must grow by `grows` and lose what the waiting
    claim then takes, and the scheduler must allocate the waiting claim. Returns its device."""
    before = could_allocate(run.view(), request)
    chosen = filled.names[-k:]
    free(run, *chosen)
    for name in chosen:
        filled.names.remove(name)
    got = allocated(run, filled.pending)
    after = could_allocate(run.view(), request)
    assert after == before + grows - len(got), (
        f"freed {chosen} (+{grows}), {filled.pending} took {len(got)}: "
        f"gsb-tui's N went {before} -> {after}"
    )
    return str(got[0]["device"])


# ---- the lab's plain pool ------------------------------------------------------------------


def test_plain_devices_fit_exactly_as_many_as_gsb_tui_says(oracle: Run) -> None:
    pool, devices = oracle.pool("lab")
    memory = _value(devices[0]["capacity"]["memory"]["value"])
    gi = 2**30
    # Asking more memory than a device has, or a capacity it does not have: nothing fits, as
    # the scheduler checks capacity requests on devices that are not shared too.
    for i, asked in enumerate(
        [{"memory": f"{memory // gi + oracle.rng.randint(1, 16)}Gi"}, {"links": "1"}]
    ):
        over = Shape(one_of(devices), exactly={"capacity": {"requests": asked}})
        assert could_allocate(oracle.view(), over.request(oracle.ns)) == 0, asked
        make(oracle, f"over-{i}", over)
        refused(oracle, f"over-{i}")
        said = why(oracle, f"over-{i}")
        assert set(said.reasons.values()) == {"capacity"}, said.reasons
        (line,) = said.lines
        assert line.startswith(f"{len(devices)} without enough capacity left"), line
        free(oracle, f"over-{i}")

    # The shape filled: plain, or asking at most what a device has (it then takes it whole).
    fits = oracle.rng.choice([None, f"{oracle.rng.randint(1, memory // gi)}Gi"])
    shape = Shape(
        one_of(devices), exactly={"capacity": {"requests": {"memory": fits}}} if fits else {}
    )
    filled = fill(oracle, "plain", shape)
    oracle.seen["lab"] = {"asked": fits, "N": filled.n0}
    assert filled.n0 == len(devices) == oracle.gpus
    assert {r["pool"] for rs in filled.taken.values() for r in rs} == {pool}

    said = why(oracle, filled.pending)
    assert set(said.reasons.values()) == {"held"}, said.reasons  # every one in use
    assert said.lines == []  # held devices are listed "in use", not as blockers
    assert said.shortfall.startswith("needs 1, 0 free"), said.shortfall

    # adminAccess (allowed in this namespace) gets a device others hold, and takes none away.
    admin = Shape(one_of(devices), exactly={"adminAccess": True})
    n_admin = could_allocate(oracle.view(), admin.request(oracle.ns))
    oracle.seen["lab"]["adminAccess N"] = n_admin
    assert n_admin == len(devices)
    make(oracle, "admin", admin)
    (result,) = allocated(oracle, "admin")
    assert result["adminAccess"] is True and result["pool"] == pool
    view = oracle.view()
    assert could_allocate(view, admin.request(oracle.ns)) == n_admin
    assert could_allocate(view, shape.request(oracle.ns)) == 0
    free(oracle, "admin")
    assert results(oracle, filled.pending) == []

    k = oracle.rng.randint(1, min(2, filled.n0))
    follows(oracle, shape.request(oracle.ns), filled, k, grows=k)


# ---- partitions: counters shared by a GPU and its partitions -------------------------------


def _gpus(devices: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Devices by the counter set they consume (one GPU: its partitions and its full device)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for d in devices:
        out.setdefault(d["consumesCounters"][0]["counterSet"], []).append(d)
    return out


def test_partitions_fit_as_gsb_tui_says_while_full_gpus_use_their_counters(
    oracle: Run,
) -> None:
    _, devices = oracle.pool("partitions")
    gpus = _gpus(devices)
    parts_of = {  # full device name -> the names of the partitions sharing its counters
        d["name"]: {p["name"] for p in members if "partition" in p["attributes"]}
        for members in gpus.values()
        for d in members
        if "full" in d["attributes"]
    }
    full = Shape(f"{one_of(devices)} && {has('full')}")
    part = Shape(f"{one_of(devices)} && {has('partition')}")
    full_request, part_request = full.request(oracle.ns), part.request(oracle.ns)
    view = oracle.view()
    assert could_allocate(view, full_request) == len(gpus)
    n_part = could_allocate(view, part_request)
    assert n_part == sum(len(p) for p in parts_of.values())

    # Some GPUs taken whole: each takes one full device and its partitions' counters.
    held_full: list[str] = []
    for i in range(oracle.rng.randint(1, len(gpus) - 1)):
        name = f"full-{i}"
        n_full = could_allocate(oracle.view(), full_request)
        make(oracle, name, full)
        got = allocated(oracle, name)
        view = oracle.view()
        assert n_full - could_allocate(view, full_request) == len(got) == 1
        held_full.append(got[0]["device"])
        after = could_allocate(view, part_request)
        assert n_part - after == len(parts_of[got[0]["device"]]), (got, n_part, after)
        n_part = after

    filled = fill(oracle, "part", part)
    oracle.seen["partitions"] = {"full GPUs held": len(held_full), "partitions N": filled.n0}
    assert filled.n0 == n_part

    # The refused partition: the ones left are blocked by counters the full GPUs use.
    said = why(oracle, filled.pending)
    blocked = {p for f in held_full for p in parts_of[f]}
    assert {d for d, r in said.reasons.items() if r == "counters"} == blocked, said.reasons
    assert {r for d, r in said.reasons.items() if d not in blocked} == {"held"}
    (line,) = said.lines
    assert line.startswith(f"{len(blocked)} blocked by counters"), line
    assert all(f in line.split("used by ", 1)[1] for f in held_full), line

    # A full GPU now: every GPU is taken whole or has partitions in use.
    make(oracle, "full-more", full)
    refused(oracle, "full-more")
    said = why(oracle, "full-more")
    free_full = set(parts_of) - set(held_full)
    assert {d for d, r in said.reasons.items() if r == "counters"} == free_full
    (line,) = said.lines
    users = {r["device"] for name in filled.names for r in filled.taken[name]}
    assert {u for u in users if u in line.split("used by ", 1)[1]} == users, line
    free(oracle, "full-more")

    # adminAccess looks past holders, not past counters: every GPU's counters are used up.
    admin = Shape(one_of(devices), exactly={"adminAccess": True})
    assert probe(oracle, "part-admin", admin) == 0

    # One GPU freed whole: its partitions come back, the refused one takes one of them.
    whole = oracle.rng.choice(held_full)
    index = held_full.index(whole)
    filled.names.append(f"full-{index}")  # `follows` frees the last k names
    device = follows(oracle, part_request, filled, 1, grows=len(parts_of[whole]))
    assert device in parts_of[whole]


def test_two_partitions_of_one_gpu_until_the_whole_gpu_is_taken(oracle: Run) -> None:
    _, devices = oracle.pool("partitions")
    members = oracle.rng.choice(list(_gpus(devices).values()))
    whole = next(d["name"] for d in members if "full" in d["attributes"])
    parts = {d["name"] for d in members if "partition" in d["attributes"]}
    two = Shape(f"{one_of(members)} && {has('partition')}", count=2)
    one = Shape(f"{one_of(members)} && {has('partition')}")

    # Both partitions while the full device is free: gsb-tui says it fits, so does the scheduler.
    view = oracle.view()
    assert not preview(view, two.request(oracle.ns)).short
    before = could_allocate(view, one.request(oracle.ns))
    make(oracle, "two-a", two)
    got = allocated(oracle, "two-a")
    taken = {r["device"] for r in got}
    assert taken <= parts and len(got) == 2
    assert before - could_allocate(oracle.view(), one.request(oracle.ns)) == len(got)
    # adminAccess on the two held partitions: only while the GPU's counters have room for one
    # of them once more (a third partition free), as its own use counts already.
    held = [d["attributes"]["partition"]["int"] for d in members if d["name"] in taken]
    admin = Shape(
        f"{one_of(members)} && {has('partition')}"
        f" && device.attributes['{DRIVER}'].partition in {sorted(held)}",
        exactly={"adminAccess": True},
    )
    n_admin = probe(oracle, "two-admin", admin)
    assert n_admin == (2 if len(parts) > 2 else 0)  # what the scheduler then did: see probe
    oracle.seen["partitions"] = {
        **oracle.seen.get("partitions", {}),
        "adminAccess N on the 2 held": n_admin,
    }
    free(oracle, "two-a")

    # The full device taken: no two partitions of it fit, for the counters it uses.
    make(oracle, "two-whole", Shape(f"{one_of(members)} && {has('full')}"))
    assert [r["device"] for r in allocated(oracle, "two-whole")] == [whole]
    view = oracle.view()
    assert preview(view, two.request(oracle.ns)).short
    assert could_allocate(view, one.request(oracle.ns)) == 0
    make(oracle, "two-b", two)
    refused(oracle, "two-b")
    said = why(oracle, "two-b")
    assert said.reasons == dict.fromkeys(parts, "counters"), said.reasons
    assert said.lines == [
        f"{len(parts)} blocked by counters ({', '.join(sorted(parts))}): the shared counters "
        f"they need are used by {whole}"
    ]

    free(oracle, "two-whole")
    got = allocated(oracle, "two-b")
    assert {r["device"] for r in got} <= parts and len(got) == 2


# ---- shared: claims take shares of a device's capacity -------------------------------------


def _value(text: str) -> Fraction:
    value = quantity(text)
    assert value is not None, text
    return value


def test_shares_fit_as_gsb_tui_says_until_the_device_is_full(oracle: Run) -> None:
    pool, devices = oracle.pool("shared")
    device = oracle.rng.choice(devices)
    device_id = DeviceId(DRIVER, pool, device["name"])
    memory = device["capacity"]["memory"]["requestPolicy"]
    compute = device["capacity"]["compute"]["requestPolicy"]
    asked: dict[str, str] = {"memory": f"{oracle.rng.randint(5, 30)}Gi"}
    compute_ask = oracle.rng.choice([None, "20", "25", "40"])  # 20, 40: rounded up
    if compute_ask:
        asked["compute"] = compute_ask
    shape = Shape(one_of([device]), exactly={"capacity": {"requests": asked}})
    request = shape.request(oracle.ns)

    filled = fill(oracle, "share", shape)
    oracle.seen["shared"] = {"asked": asked, "shares N": filled.n0}
    assert filled.n0 >= 2
    # What each share took is what gsb-tui's share_for said it would take.
    published = oracle.view().occupancy[device_id].device
    for rs in filled.taken.values():
        (result,) = rs
        assert result["device"] == device["name"]
        for name, taken in result["consumedCapacity"].items():
            whole = _value(published.capacity[name])
            wanted = share_for(published.policies.get(name), asked.get(name, ""), whole)
            assert _value(taken) == wanted, result

    said = why(oracle, filled.pending)
    assert said.reasons == {device["name"]: "capacity"}, said.reasons
    assert said.lines == [f"1 without enough capacity left under their policy: {device['name']}"], (
        said.lines
    )

    # Smallest shares until gsb-tui calls the device full; then the scheduler refuses one.
    smallest = Shape(
        one_of([device]),
        exactly={
            "capacity": {
                "requests": {
                    "memory": memory["validRange"]["min"],
                    "compute": min(compute["validValues"], key=_value),
                }
            }
        },
    )
    small = smallest.request(oracle.ns)
    extra = 0
    while (view := oracle.view()).availability[device_id].state != "full":
        assert could_allocate(view, small) > 0
        make(oracle, f"small-{extra}", smallest)
        allocated(oracle, f"small-{extra}")
        extra += 1
    assert could_allocate(view, small) == 0
    make(oracle, "small-refused", smallest)
    refused(oracle, "small-refused")
    oracle.seen["shared"]["smallest shares until full"] = extra
    free(oracle, "small-refused")

    k = oracle.rng.randint(1, min(2, len(filled.names)))
    follows(oracle, request, filled, k, grows=k)


# ---- taints: a request without tolerations stays off NoSchedule and NoExecute devices ------


def test_taints_keep_as_many_devices_away_as_gsb_tui_says(oracle: Run) -> None:
    _, devices = oracle.pool("taints")
    tainted = {
        d["name"]: d["taints"]
        for d in devices
        if any(t["effect"] in ("NoSchedule", "NoExecute") for t in d.get("taints", []))
    }
    no_schedule = next(d for d in devices if d.get("taints", [{}])[0].get("effect") == "NoSchedule")
    taint = no_schedule["taints"][0]
    plain = Shape(one_of(devices))
    tolerant = Shape(
        one_of(devices),
        exactly={"tolerations": [{k: taint[k] for k in ("key", "value", "effect")}]},
    )
    view = oracle.view()
    n_plain = could_allocate(view, plain.request(oracle.ns))
    assert could_allocate(view, tolerant.request(oracle.ns)) == n_plain + 1

    filled = fill(oracle, "clean", plain)
    oracle.seen["taints"] = {"untolerated N": filled.n0, "tolerating N": filled.n0 + 1}
    assert filled.n0 == len(devices) - len(tainted)
    said = why(oracle, filled.pending)
    assert {d for d, r in said.reasons.items() if r == "tainted"} == set(tainted), said.reasons
    (line,) = said.lines
    assert line.startswith(f"{len(tainted)} tainted and not tolerated"), line
    for name, taints in tainted.items():
        assert name in line
        for t in taints:
            assert f"{t['key']}={t['value']}:{t['effect']}" in line, line

    # The toleration opens the NoSchedule device: one more than for the plain request.
    assert could_allocate(oracle.view(), tolerant.request(oracle.ns)) == 1
    make(oracle, "tolerant", tolerant)
    assert [r["device"] for r in allocated(oracle, "tolerant")] == [no_schedule["name"]]
    assert could_allocate(oracle.view(), tolerant.request(oracle.ns)) == 0

    k = oracle.rng.randint(1, min(2, filled.n0))
    follows(oracle, plain.request(oracle.ns), filled, k, grows=k)


# ---- a shared capacity without a request policy --------------------------------------------


def test_a_capacity_without_a_policy_is_taken_whole_when_not_asked(oracle: Run) -> None:
    """Not a profile's device: a shared device whose capacity has no requestPolicy, published
    by the test in a pool of its own. A claim that does not ask for it takes all of it."""
    node = oracle.rest.get(f"/api/v1/nodes/{oracle.node}")
    pool = f"{oracle.node}-bare"
    memory = f"{oracle.rng.randint(40, 96)}Gi"
    device = {
        "name": "bare-0",
        "allowMultipleAllocations": True,
        "attributes": {"uuid": {"string": f"bare-{oracle.rng.randrange(16**8):08x}"}},
        "capacity": {"memory": {"value": memory}},
    }
    (made,) = [
        oracle.rest.create(f"{RESOURCE}/resourceslices", s)
        for s in pool_slices(
            DRIVER, pool, devices=[device], node=(oracle.node, node["metadata"]["uid"])
        )
    ]
    try:
        bare = DeviceId(DRIVER, pool, "bare-0")
        eventually("the pool in gsb-tui's view", lambda: bare in oracle.view().occupancy)
        whole = Shape(one_of([device]))
        gi = _value(memory) // 2**30
        part = f"{oracle.rng.randint(gi // 5, gi // 2)}Gi"  # 2 to 5 fit
        asking = Shape(one_of([device]), exactly={"capacity": {"requests": {"memory": part}}})
        view = oracle.view()
        n_asking = could_allocate(view, asking.request(oracle.ns))
        oracle.seen["no policy"] = {"capacity": memory, "asked": part, "N": n_asking}
        assert could_allocate(view, whole.request(oracle.ns)) == 1

        filled = fill(oracle, "whole", whole)  # one claim takes it all
        assert filled.n0 == 1
        (result,) = filled.taken[filled.names[0]]
        assert _value(result["consumedCapacity"]["memory"]) == _value(memory)
        assert oracle.view().availability[bare].state == "full"
        said = why(oracle, filled.pending)
        assert said.reasons == {"bare-0": "capacity"}, said.reasons
        free(oracle, *filled.names, filled.pending)

        filled = fill(oracle, "asking", asking)  # asked: as many as fit
        assert filled.n0 == n_asking
        make(oracle, "whole-after", whole)
        refused(oracle, "whole-after")
    finally:
        oracle.rest.delete(f"{RESOURCE}/resourceslices/{made['metadata']['name']}")
