"""The capacity oracle, continued: binding conditions, extended resources and network devices
on one practice cluster with the lab, binding, extended and network profiles (they combine),
plus a short second cluster whose binding driver always fails.

As in test_capacity_oracle.py: gsb-tui's number N (dra's answer only, from a settled snapshot)
of one-device claims that could be allocated now, then claims (or pods) one at a time: exactly
N must be allocated, the next one must stay Pending, what gsb-tui says about it must name the
blocker, and freeing must give N back.

- binding: each claim is allocated, shown "binding" (waiting on the driver's conditions, with
  the time the scheduler has left) while the driver's delay runs, then bound once the driver
  sets the condition; with a driver that fails, "binding-failed".
- extended: pods asking `resources.limits: {example.com/gpu: 1}`; each gets a claim the
  scheduler made (claim.extended, pod.extended_claim) and runs. The class admits every
  gpu.example.com device, those of the binding pool too (those pods run once bound).
- network: shares of the NICs of the allNodes pool `fabric`, each asking more than half a NIC's
  ingress bandwidth, so each NIC takes one.

Device counts, names, namespace and the bandwidth asked are drawn from a seeded random
(GSB_ORACLE_SEED=<n> repeats a run).
"""

from __future__ import annotations

import contextlib
import functools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from gsb_tui.cluster.control_plane import Settings
from gsb_tui.cluster.rest import RestError
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.cluster.seed_profiles import (
    BINDING_CONDITION,
    BINDING_FAILURE_CONDITION,
    EXTENDED_CLASS,
    EXTENDED_RESOURCE,
    NET_DRIVER,
)
from gsb_tui.dra.model import DeviceId, Request, parse_claim
from gsb_tui.ui.render import explain, features
from gsb_tui.why_cli import answer
from gsb_tui.words import text
from tests.alloc_apply import ungate
from tests.e2e.conftest import practice_cluster
from tests.e2e.test_capacity_oracle import (
    DRIVER,
    RESOURCE,
    SEED,
    Filled,
    Run,
    Shape,
    _exists,
    allocated,
    could_allocate,
    eventually,
    fill,
    follows,
    make,
    one_of,
    refused,
    results,
    why,
)

PROFILES = ("lab", "binding", "extended", "network")
# Seconds before the practice driver answers: long enough to see "binding" in a fresh
# snapshot, short enough that the scheduler's 5-second poll binds on its first tick.
BINDING_DELAY = 4.0


@pytest.fixture(scope="module")
def more(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    rng = random.Random(SEED + 1)
    gpus = rng.randint(2, 3)  # per pool: the lab's, the binding pool and the fabric's NICs
    node = f"more-{rng.randrange(16**5):05x}"
    ns = f"more-{rng.randrange(16**5):05x}"
    print(f"\n[oracle+] seed {SEED}: node {node}, {gpus} devices per pool, ns {ns}")
    settings = Settings(
        devices=gpus,
        node_prefix=node,
        profiles=PROFILES,
        binding_delay=BINDING_DELAY,
        audit=False,
    )
    explain.warm_up()
    with practice_cluster(request, tmp_path_factory, settings, "oracle-more") as cp:
        rest = cp.rest()
        rest.ensure("/api/v1/namespaces", {"metadata": {"name": ns}})
        eventually(
            f"the default ServiceAccount in {ns}",
            lambda: _exists(rest, f"/api/v1/namespaces/{ns}/serviceaccounts/default"),
        )
        started = Run(cp, rest, rng, node, ns, gpus, partitions=0)
        yield started
        print(f"\n[oracle+] seed {SEED}: N seen {started.seen}")


@pytest.fixture
def oracle(more: Run) -> Iterator[Run]:
    """The run; every claim and pod a test made is deleted after it (with the claims the
    scheduler made for pods)."""
    yield more
    for name in more.made:
        with contextlib.suppress(RestError):
            more.rest.delete(f"{more.pods}/{name}?gracePeriodSeconds=0")
        with contextlib.suppress(RestError):
            more.rest.delete(f"{more.claims}/{name}")
    more.made.clear()
    eventually("the test's claims to be gone", lambda: not more.rest.get(more.claims)["items"], 90)


# ---- helpers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassShape(Shape):
    """A Shape of another device class (the oracle's is gpu.example.com)."""

    device_class: str = DRIVER

    def claim(self, ns: str, name: str = "shape") -> dict[str, Any]:
        body = super().claim(ns, name)
        body["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = self.device_class
        return body


def pod_of(run: Run, name: str) -> dict[str, Any]:
    return dict(run.rest.get(f"{run.pods}/{name}"))


def running(run: Run, name: str) -> bool:
    pod = pod_of(run, name)
    return bool(pod["spec"].get("nodeName")) and pod.get("status", {}).get("phase") == "Running"


def unschedulable(run: Run, name: str) -> str:
    """The scheduler's PodScheduled=False message (and reason), once it has said one."""
    for c in pod_of(run, name).get("status", {}).get("conditions") or []:
        if c["type"] == "PodScheduled" and c["status"] == "False":
            return f"{c.get('reason')}: {c.get('message')}"
    return ""


def slice_devices(run: Run, driver: str, pool: str) -> list[dict[str, Any]]:
    return [
        d
        for s in run.rest.get(f"{RESOURCE}/resourceslices")["items"]
        if s["spec"]["driver"] == driver and s["spec"]["pool"]["name"] == pool
        for d in s["spec"].get("devices") or []
    ]


# ---- binding with a driver that fails (first: its cluster is up before the module's)


def test_a_failing_binding_driver_is_shown_as_binding_failed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`--binding-fail`: the driver sets the failure condition; gsb-tui says "binding-failed"
    until the scheduler gives the device back (a second, short cluster)."""
    settings = Settings(
        devices=1, profiles=("binding",), binding_delay=0, binding_fail=True, audit=False
    )
    with practice_cluster(request, tmp_path_factory, settings, "oracle-binding-fail") as cp:
        rest = cp.rest()
        node = rest.get("/api/v1/nodes")["items"][0]["metadata"]["name"]
        run = Run(cp, rest, random.Random(SEED), node, LAB_NAMESPACE, 1, 0)
        eventually(
            "the default ServiceAccount",
            lambda: _exists(rest, f"/api/v1/namespaces/{run.ns}/serviceaccounts/default"),
        )
        pool, devices = run.pool("binding")
        shape = Shape(one_of(devices))
        assert could_allocate(run.view(), shape.request(run.ns)) == 1
        make(run, "fails", shape)
        device = DeviceId(DRIVER, pool, devices[0]["name"])

        def failed() -> Any:
            view = run.view()
            found = view.availability.get(device)
            return view if found is not None and found.state == "binding-failed" else None

        view = eventually("gsb-tui to say binding-failed", failed, 60)
        found = view.availability[device]
        assert found.binding_failed == (BINDING_FAILURE_CONDITION,), found
        claim = view.claims[(run.ns, "fails")]
        assert features.binding_lines(view, claim, "en") == [
            text(
                "en",
                "why.binding-failed",
                device=device.device,
                conditions=BINDING_FAILURE_CONDITION,
            )
        ]
        assert could_allocate(view, shape.request(run.ns)) == 0
        said = eventually(
            "the scheduler to give the device back", lambda: unschedulable(run, "fails")
        )
        print(f"\n[oracle+] binding failed: {said}")


# ---- binding: allocated first, bound once the driver says the device is ready ---------------


def _binding_shown(run: Run, name: str, device: DeviceId) -> None:
    """Right after the allocation, before the driver's delay is up: gsb-tui says "binding",
    names the pending condition and the time the scheduler has left, and the pod waits."""
    view = run.view()
    claim = view.claims[(run.ns, name)]
    found = view.availability[device]
    assert not claim.device_status, f"{name}: the driver answered before gsb-tui looked"
    assert found.state == "binding", found
    assert found.binding_pending == (BINDING_CONDITION,) and not found.binding_failed
    left = features.binding_time_left(claim.allocated_at)
    assert left is not None and 0 < left <= 600, (claim.allocated_at, left)
    (line,) = features.binding_lines(view, claim, "en", now=time.time())
    assert line.startswith(f"{device.device} is allocated, waiting on binding conditions "), line
    assert BINDING_CONDITION in line
    shown_left = int(line.rsplit("(", 1)[1].split("s ", 1)[0])
    assert 0 < shown_left <= 600, line
    (pod,) = view.pods_of_claim(claim)
    assert pod.pending and explain.needs_why(view, claim)


def _bound_shown(run: Run, name: str, device: DeviceId) -> None:
    """Once the pod runs: the condition is True in status.devices, gsb-tui no longer says
    "binding" and has no binding line."""
    eventually(f"{name} to bind and run", lambda: running(run, name), 60)
    view = run.view()
    claim = view.claims[(run.ns, name)]
    found = view.availability[device]
    assert found.state == view.occupancy[device].status == "reserved", found
    assert not found.binding_pending and not found.binding_failed
    assert features.binding_lines(view, claim, "en") == []
    (status,) = claim.device_status
    condition = status.condition(BINDING_CONDITION)
    assert condition is not None and condition.status == "True", status


def test_binding_devices_fit_as_gsb_tui_says_and_bind_when_the_driver_answers(
    oracle: Run,
) -> None:
    pool, devices = oracle.pool("binding")
    shape = Shape(one_of(devices))
    request = shape.request(oracle.ns)
    n = n0 = could_allocate(oracle.view(), request)
    oracle.seen["binding"] = {"N": n0}
    assert n0 == len(devices) == oracle.gpus
    names: list[str] = []
    taken: dict[str, list[dict[str, Any]]] = {}
    while n > 0:
        name = f"bind-{len(names)}"
        make(oracle, name, shape)
        got = allocated(oracle, name)
        (result,) = got
        assert result["pool"] == pool and result["bindingConditions"] == [BINDING_CONDITION]
        device = DeviceId(DRIVER, pool, result["device"])
        _binding_shown(oracle, name, device)
        after = could_allocate(oracle.view(), request)
        assert n - after == 1, f"{name}: gsb-tui's N went {n} -> {after}"
        _bound_shown(oracle, name, device)
        names.append(name)
        taken[name] = got
        n = after

    pending = f"bind-{len(names)}"
    make(oracle, pending, shape)
    refused(oracle, pending)
    said = why(oracle, pending)
    assert set(said.reasons.values()) == {"held"}, said.reasons
    assert said.lines == []
    assert said.shortfall.startswith("needs 1, 0 free"), said.shortfall

    filled = Filled(n0, names, taken, pending)
    given = DeviceId(DRIVER, pool, follows(oracle, request, filled, 1, grows=1))
    _binding_shown(oracle, pending, given)
    _bound_shown(oracle, pending, given)


# ---- extended: the scheduler makes the claim for a pod's resources.limits ------------------


def _extended_pod(run: Run, name: str, gated: bool = False) -> None:
    container = {
        "name": "ctr",
        "image": "ubuntu:22.04",
        "command": ["sleep", "9999"],
        "resources": {"limits": {EXTENDED_RESOURCE: "1"}},
    }
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}}
    spec: dict[str, Any] = {"containers": [container]}
    if gated:
        spec["schedulingGates"] = [{"name": "gsb-tui.test/hold"}]
    run.rest.create(run.pods, {**body, "spec": spec})
    run.made.append(name)


def test_why_predicts_the_claim_the_scheduler_makes_for_an_extended_resource(
    oracle: Run,
) -> None:
    """A pod asking the extended resource, held by a gate: `why` judges it with the claim the
    scheduler would make (one request per container and resource) and names the device; let
    go, the scheduler makes that claim and allocates that very device."""
    name = f"ext-gated-{oracle.rng.randrange(1000)}"
    _extended_pod(oracle, name, gated=True)
    said = answer(oracle.view(), oracle.ns, name, "en")
    assert said["fits"] is True and said["blockers"] == [], said
    (row,) = said["allocation"]
    assert row["request"] == "container-0-request-0"
    ungate(oracle.rest, f"{oracle.ns}/{name}")
    (result,) = results(oracle, _made_for(oracle, name))
    assert (result["request"], result["pool"], result["device"]) == (
        row["request"],
        row["pool"],
        row["device"],
    )


def _made_for(run: Run, name: str) -> str:
    """The claim the scheduler made for the pod, once it is allocated."""

    def made() -> str:
        status = pod_of(run, name).get("status", {}).get("extendedResourceClaimStatus") or {}
        claim = str(status.get("resourceClaimName") or "")
        return claim if claim and results(run, claim) else ""

    return eventually(f"a claim for {name}'s {EXTENDED_RESOURCE}", made)


def test_extended_resource_pods_fit_as_gsb_tui_says(oracle: Run) -> None:
    view = oracle.view()
    (cls,) = [c for c in view.classes.values() if c.extended_resource_name == EXTENDED_RESOURCE]
    assert cls.name == EXTENDED_CLASS
    # The request the scheduler writes into the claim it makes (CLUSTER-FACTS.md, extended).
    shape = ClassShape("true", device_class=cls.name)
    request: Request = explain.leaf_requests(parse_claim(shape.claim(oracle.ns)))[0]
    n = n0 = could_allocate(view, request)
    gpu_devices = [d for d in view.devices if d.id.driver == DRIVER]
    oracle.seen["extended"] = {"N": n0, "gpu.example.com devices": len(gpu_devices)}
    assert n0 == len(gpu_devices) == 2 * oracle.gpus  # the lab's pool and the binding pool
    names: list[str] = []
    taken: list[str] = []
    while n > 0:
        name = f"ext-{len(names)}"
        _extended_pod(oracle, name)
        claim_name = _made_for(oracle, name)
        (result,) = results(oracle, claim_name)
        eventually(f"{name} to run", functools.partial(running, oracle, name), 60)
        view = oracle.view()
        pod = view.pods[(oracle.ns, name)]
        claim = view.claims[(oracle.ns, claim_name)]
        assert pod.extended_claim == claim_name and claim.extended
        assert claim.owner_pod == name and pod in view.pods_of_claim(claim)
        assert [d.device for d in claim.devices] == [result["device"]]
        after = could_allocate(view, request)
        assert n - after == 1, f"{name} took {result['device']}: gsb-tui's N went {n} -> {after}"
        names.append(name)
        taken.append(f"{result['pool']}/{result['device']}")
        n = after
    oracle.seen["extended"]["taken"] = taken  # the binding pool's too: those ran once bound

    pending = f"ext-{len(names)}"
    _extended_pod(oracle, pending)
    said = eventually(f"the scheduler to refuse {pending}", lambda: unschedulable(oracle, pending))
    oracle.seen["extended"]["refused"] = said
    predicted = answer(
        oracle.view(), oracle.ns, pending, "en"
    )  # judged with the claim it would get
    assert predicted["fits"] is False and {b["code"] for b in predicted["blockers"]} & {
        "held",
        "binding",
    }, predicted
    status = pod_of(oracle, pending).get("status", {})
    assert not status.get("extendedResourceClaimStatus"), status
    view = oracle.view()
    assert (
        view.pods[(oracle.ns, pending)].pending
        and not view.pods[(oracle.ns, pending)].extended_claim
    )
    assert could_allocate(view, request) == 0

    freed = oracle.rng.choice(names)
    oracle.rest.delete(f"{oracle.pods}/{freed}?gracePeriodSeconds=0")
    oracle.made.remove(freed)
    _made_for(oracle, pending)
    eventually(f"{pending} to run", lambda: running(oracle, pending), 60)
    assert could_allocate(oracle.view(), request) == 0


# ---- network: shares of NICs every node reaches --------------------------------------------


def test_network_devices_for_all_nodes_fit_as_gsb_tui_says(oracle: Run) -> None:
    view = oracle.view()
    fabric = [s for s in view.slices if s.driver == NET_DRIVER and s.pool == "fabric"]
    assert fabric and {s.where for s in fabric} == {"all-nodes"}, [s.where for s in fabric]
    assert all(not s.node for s in fabric)
    devices = slice_devices(oracle, NET_DRIVER, "fabric")
    uuids = ", ".join(f"'{d['attributes']['uuid']['string']}'" for d in devices)
    ingress = f"{oracle.rng.randint(51, 100)}G"  # more than half a NIC's 100G: one per NIC
    shape = ClassShape(
        f"device.attributes['{NET_DRIVER}'].uuid in [{uuids}]",
        exactly={"capacity": {"requests": {"ingressBandwidth": ingress}}},
        device_class=NET_DRIVER,
    )
    filled = fill(oracle, "nic", shape)
    oracle.seen["network"] = {"ingress asked": ingress, "N": filled.n0}
    assert filled.n0 == len(devices) == oracle.gpus
    for rs in filled.taken.values():
        (result,) = rs
        assert result["pool"] == "fabric" and result.get("shareID"), result
    allocations = [
        oracle.rest.get(f"{oracle.claims}/{name}")["status"]["allocation"] for name in filled.names
    ]
    assert not any(a.get("nodeSelector") for a in allocations), allocations

    said = why(oracle, filled.pending)
    assert set(said.reasons.values()) == {"capacity"}, said.reasons
    (line,) = said.lines
    assert line.startswith(f"{len(devices)} without enough capacity left"), line

    k = oracle.rng.randint(1, min(2, filled.n0))
    follows(oracle, shape.request(oracle.ns), filled, k, grows=k)
