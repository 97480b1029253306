"""`gsb-tui cluster up --profile …`: every 1.36 feature profile on one real control plane.

One cluster runs all profiles combined (their pools and classes add up). Each test reads the
device it needs from the published slices (pool, name, uuid, capacity, taint, conditions) and
checks what the real scheduler and controllers do with it; nothing about device counts or
values is assumed here. Each test removes what it created.
"""

from __future__ import annotations

import contextlib
import functools
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from gsb_tui.cluster import profiles
from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.releases import RELEASES
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.cluster.seed_profiles import binary_quantity
from tests.e2e.conftest import E2E_KUBE, practice_cluster

NS = LAB_NAMESPACE
RESOURCE = "/apis/resource.k8s.io/v1"
CLAIMS = f"{RESOURCE}/namespaces/{NS}/resourceclaims"
PODS = f"/api/v1/namespaces/{NS}/pods"
ALL = tuple(n for n in profiles.PROFILES if profiles.available(n, E2E_KUBE))
BINDING_DELAY = 2.0
UNSCHEDULABLE = "cannot allocate all claims"
T = TypeVar("T")


@pytest.fixture(scope="module")
def cp(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    settings = Settings(profiles=ALL, binding_delay=BINDING_DELAY, audit=False)
    with practice_cluster(request, tmp_path_factory, settings, "profiles") as started:
        yield started


@pytest.fixture
def rest(cp: ControlPlane) -> Iterator[Rest]:
    """The cluster's client; pods and claims a test made are deleted after it."""
    client = cp.rest()
    yield client
    for path in (PODS, CLAIMS):
        for item in client.get(path).get("items", []):
            if item["metadata"]["name"].startswith("prof-"):
                with contextlib.suppress(RestError):  # a generated claim may go first
                    client.delete(f"{path}/{item['metadata']['name']}")
    eventually(
        "the test's claims to be gone",
        lambda: (
            not any(c["metadata"]["name"].startswith("prof-") for c in client.get(CLAIMS)["items"])
        ),
        timeout=60,
    )


# ---- helpers -------------------------------------------------------------------------------


def eventually(what: str, probe: Callable[[], T], timeout: float = 30.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.2)


def slices(rest: Rest) -> list[dict[str, Any]]:
    return list(rest.get(f"{RESOURCE}/resourceslices")["items"])


def pool_devices(rest: Rest, pool_suffix: str) -> tuple[str, list[dict[str, Any]]]:
    """(pool name, its devices) of the first pool whose name ends with `pool_suffix`."""
    for s in slices(rest):
        if s["spec"]["pool"]["name"].endswith(pool_suffix) and s["spec"].get("devices"):
            return s["spec"]["pool"]["name"], list(s["spec"]["devices"])
    raise AssertionError(f"no slice with devices in a pool ending {pool_suffix!r}")


def uuid_of(device: dict[str, Any]) -> str:
    return str(device["attributes"]["uuid"]["string"])


def by_uuid(uuid: str, domain: str = "gpu.example.com") -> str:
    return f"device.attributes['{domain}'].uuid == '{uuid}'"


def claim(name: str, cel: str, cls: str = "gpu.example.com", **exactly: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "dev",
                        "exactly": {
                            "deviceClassName": cls,
                            "selectors": [{"cel": {"expression": cel}}],
                            **exactly,
                        },
                    }
                ]
            }
        },
    }


def pod(name: str, claim_name: str | None = None, limits: dict[str, int] | None = None) -> Any:
    container: dict[str, Any] = {
        "name": "ctr",
        "image": "ubuntu:22.04",
        "command": ["sleep", "9999"],
    }
    spec: dict[str, Any] = {"containers": [container]}
    if claim_name:
        container["resources"] = {"claims": [{"name": "dev"}]}
        spec["resourceClaims"] = [{"name": "dev", "resourceClaimName": claim_name}]
    if limits:
        container["resources"] = {"limits": {k: str(v) for k, v in limits.items()}}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}


def claim_and_pod(rest: Rest, name: str, cel: str, **exactly: Any) -> None:
    rest.create(CLAIMS, claim(name, cel, **exactly))
    rest.create(PODS, pod(name, name))


def results(rest: Rest, name: str) -> list[dict[str, Any]]:
    status = rest.get(f"{CLAIMS}/{name}").get("status") or {}
    return list(((status.get("allocation") or {}).get("devices") or {}).get("results") or [])


def running(rest: Rest, name: str) -> bool:
    return bool(rest.get(f"{PODS}/{name}").get("status", {}).get("phase") == "Running")


def unschedulable(rest: Rest, name: str) -> str:
    """The PodScheduled message once the scheduler calls the pod Unschedulable, else ""."""
    for c in rest.get(f"{PODS}/{name}").get("status", {}).get("conditions") or []:
        if c["type"] == "PodScheduled" and c.get("reason") == "Unschedulable":
            return str(c.get("message", ""))
    return ""


def event_reasons(rest: Rest, name: str) -> list[str]:
    events = rest.get(f"/api/v1/namespaces/{NS}/events?fieldSelector=involvedObject.name={name}")
    return [e.get("reason", "") for e in events.get("items", [])]


def binary_bytes(quantity: str) -> int:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
    suffix = quantity[-2:]
    return int(quantity[:-2]) * units[suffix] if suffix in units else int(quantity)


# ---- tests ---------------------------------------------------------------------------------


def test_the_cluster_serves_what_the_profiles_publish(cp: ControlPlane, rest: Rest) -> None:
    info = cp.info()
    assert info["profiles"] == list(ALL)
    assert "device-taint-eviction-controller" in info["controllers"]
    rules_api = RELEASES[info["kube"]].rules_api
    # 1.36 serves rules at v1beta2 only when asked to; 1.37 at v1 by default
    assert ("resource.k8s.io/v1beta2=true" in info["runtime_config"]) is (info["kube"] == "1.36")
    served = rest.get(f"/apis/{rules_api}")["resources"]
    assert "devicetaintrules" in {r["name"] for r in served}
    by_pool: dict[str, list[dict[str, Any]]] = {}
    for s in slices(rest):
        by_pool.setdefault(s["spec"]["pool"]["name"], []).append(s)
    for pool, members in by_pool.items():  # every pool complete
        assert {s["spec"]["pool"]["resourceSliceCount"] for s in members} == {len(members)}, pool
    fields = {  # a gate that is off makes the API server drop its fields silently
        key
        for s in slices(rest)
        for key in [*s["spec"], *(k for d in s["spec"].get("devices", []) for k in d)]
    }
    for field in (
        "sharedCounters",
        "consumesCounters",
        "allowMultipleAllocations",
        "taints",
        "bindingConditions",
        "bindingFailureConditions",
        "bindsToNode",
        "allNodes",
        "perDeviceNodeSelection",
        "nodeName",
    ):
        assert field in fields, field


def test_a_full_gpu_uses_the_counters_its_partitions_need(rest: Rest) -> None:
    _, devices = pool_devices(rest, "-partitions")
    full = next(d for d in devices if d["attributes"].get("full"))
    counter_set = full["consumesCounters"][0]["counterSet"]
    parts = [
        d
        for d in devices
        if "partition" in d["attributes"] and d["consumesCounters"][0]["counterSet"] == counter_set
    ]
    assert parts and all(uuid_of(p) == uuid_of(full) for p in parts)
    gpu = f"{by_uuid(uuid_of(full))} && has(device.attributes['gpu.example.com']"
    claim_and_pod(rest, "prof-full", f"{gpu}.full)")
    eventually("the full GPU's pod to run", lambda: running(rest, "prof-full"))
    assert [r["device"] for r in results(rest, "prof-full")] == [full["name"]]

    claim_and_pod(rest, "prof-part", f"{gpu}.partition)")
    message = eventually(
        "the partition's pod to be unschedulable", lambda: unschedulable(rest, "prof-part")
    )
    assert UNSCHEDULABLE in message
    assert results(rest, "prof-part") == []

    rest.delete(f"{PODS}/prof-full")  # the counters come back: a partition fits now
    eventually("a partition to be allocated", lambda: results(rest, "prof-part"), timeout=60)
    assert results(rest, "prof-part")[0]["device"] in {p["name"] for p in parts}


def test_claims_share_a_device_until_its_capacity_is_used(rest: Rest) -> None:
    pool, devices = pool_devices(rest, "-shared")
    device = next(d for d in devices if d.get("allowMultipleAllocations"))
    memory = device["capacity"]["memory"]
    half = binary_quantity(binary_bytes(memory["value"]) // 2)
    smallest = memory["requestPolicy"]["validRange"]["min"]
    ask = {"capacity": {"requests": {"memory": half}}}
    # One after the other: on 1.36.3 a pod whose share was tried while the other share's
    # allocation was still in flight was Unschedulable ("cannot allocate all claims") and was
    # not tried again for minutes (seen in 1 of 6 runs and in a CI run), although the two
    # halves fit. The dashboard is not involved; the test waits for each share in turn.
    for name in ("prof-share-a", "prof-share-b"):
        claim_and_pod(rest, name, by_uuid(uuid_of(device)), **ask)
        eventually(f"{name} to run", functools.partial(running, rest, name))
    a, b = results(rest, "prof-share-a")[0], results(rest, "prof-share-b")[0]
    assert (a["pool"], a["device"]) == (b["pool"], b["device"]) == (pool, device["name"])
    assert a["shareID"] != b["shareID"]
    assert a["consumedCapacity"]["memory"] == b["consumedCapacity"]["memory"] == half

    over = {"capacity": {"requests": {"memory": smallest}}}
    claim_and_pod(rest, "prof-share-c", by_uuid(uuid_of(device)), **over)
    message = eventually(
        "the third claim's pod to be unschedulable", lambda: unschedulable(rest, "prof-share-c")
    )
    assert UNSCHEDULABLE in message


def test_a_taint_keeps_claims_away_unless_tolerated(cp: ControlPlane, rest: Rest) -> None:
    pool, devices = pool_devices(rest, "-taints")
    device = next(
        d for d in devices if any(t["effect"] == "NoSchedule" for t in d.get("taints", []))
    )
    taint = next(t for t in device["taints"] if t["effect"] == "NoSchedule")
    claim_and_pod(rest, "prof-taint-no", by_uuid(uuid_of(device)))
    message = eventually(
        "the untolerating pod to be unschedulable", lambda: unschedulable(rest, "prof-taint-no")
    )
    assert UNSCHEDULABLE in message

    toleration = {k: taint[k] for k in ("key", "value", "effect")} | {"operator": "Equal"}
    claim_and_pod(rest, "prof-taint-yes", by_uuid(uuid_of(device)), tolerations=[toleration])
    eventually("the tolerating pod to run", lambda: running(rest, "prof-taint-yes"))
    result = results(rest, "prof-taint-yes")[0]
    assert result["device"] == device["name"] and result["tolerations"] == [toleration]

    # A DeviceTaintRule (where the release serves it) with NoExecute: the eviction controller
    # deletes the pod.
    rules_api = RELEASES[cp.info()["kube"]].rules_api
    rule = {
        "apiVersion": rules_api,
        "kind": "DeviceTaintRule",
        "metadata": {"name": "prof-drain"},
        "spec": {
            "deviceSelector": {"driver": "gpu.example.com", "pool": pool, "device": device["name"]},
            "taint": {"key": "example.com/drain", "value": "now", "effect": "NoExecute"},
        },
    }
    rules = f"/apis/{rules_api}/devicetaintrules"
    rest.create(rules, rule)
    try:

        def evicted() -> bool:
            try:
                got = rest.get(f"{PODS}/prof-taint-yes")
            except RestError as exc:
                return exc.status == 404
            conditions = got.get("status", {}).get("conditions") or []
            return any(c.get("reason") == "DeletionByDeviceTaintManager" for c in conditions)

        eventually("the device-taint eviction", evicted)
        assert "DeviceTaintManagerEviction" in event_reasons(rest, "prof-taint-yes")
        status = eventually(
            "the rule's EvictionInProgress condition",
            lambda: rest.get(f"{rules}/prof-drain").get("status", {}).get("conditions"),
        )
        assert status[0]["type"] == "EvictionInProgress"
    finally:
        rest.delete(f"{rules}/prof-drain")


def test_the_pod_binds_once_the_driver_reports_the_device_ready(rest: Rest) -> None:
    _, devices = pool_devices(rest, "-binding")
    device = devices[0]
    claim_and_pod(rest, "prof-bind", by_uuid(uuid_of(device)))
    result = eventually("the allocation", lambda: results(rest, "prof-bind"))[0]
    allocated = time.monotonic()
    assert result["bindingConditions"] == device["bindingConditions"]
    assert result["bindingFailureConditions"] == device["bindingFailureConditions"]
    assert not rest.get(f"{PODS}/prof-bind")["spec"].get("nodeName")  # reserved, not bound
    eventually(
        "BindingConditionsPending",
        lambda: "BindingConditionsPending" in event_reasons(rest, "prof-bind"),
    )
    eventually("the pod to bind and run", lambda: running(rest, "prof-bind"), timeout=60)
    assert time.monotonic() - allocated >= BINDING_DELAY - 1.0  # it did wait for the driver
    entry = rest.get(f"{CLAIMS}/prof-bind")["status"]["devices"][0]
    assert entry["device"] == device["name"]
    assert {c["type"]: c["status"] for c in entry["conditions"]} == {
        c: "True" for c in device["bindingConditions"]
    }


def test_an_extended_resource_request_gets_a_claim_from_the_scheduler(rest: Rest) -> None:
    classes = rest.get(f"{RESOURCE}/deviceclasses")["items"]
    cls = next(c for c in classes if c["spec"].get("extendedResourceName"))
    resource = cls["spec"]["extendedResourceName"]
    rest.create(PODS, pod("prof-ext", limits={resource: 1}))
    eventually("the extended-resource pod to run", lambda: running(rest, "prof-ext"))
    status = rest.get(f"{PODS}/prof-ext")["status"]["extendedResourceClaimStatus"]
    made = rest.get(f"{CLAIMS}/{status['resourceClaimName']}")
    assert made["metadata"]["name"].startswith("prof-ext-extended-resources-")
    assert made["metadata"]["annotations"]["resource.kubernetes.io/extended-resource-claim"]
    assert made["metadata"]["ownerReferences"][0]["name"] == "prof-ext"
    request = made["spec"]["devices"]["requests"][0]
    assert request["exactly"]["deviceClassName"] == cls["metadata"]["name"]
    assert status["requestMappings"][0]["resourceName"] == resource
    assert made["status"]["allocation"]["devices"]["results"]


def test_network_devices_for_all_nodes_and_per_device(rest: Rest) -> None:
    by_mode: dict[str, tuple[str, dict[str, Any]]] = {}
    for s in slices(rest):
        spec = s["spec"]
        for d in spec.get("devices", []):
            mode = "slice" if spec.get("allNodes") else ("node" if d.get("nodeName") else "")
            if spec.get("perDeviceNodeSelection") and d.get("allNodes"):
                mode = "device"
            if mode and spec["driver"] != "gpu.example.com":
                by_mode.setdefault(mode, (spec["driver"], d))
    assert set(by_mode) == {"slice", "node", "device"}
    for mode, (driver, device) in by_mode.items():
        name = f"prof-net-{mode}"
        rest.create(CLAIMS, claim(name, by_uuid(uuid_of(device), driver), cls=driver))
        rest.create(PODS, pod(name, name))
        eventually(f"{name} to run", functools.partial(running, rest, name))
        selector = rest.get(f"{CLAIMS}/{name}")["status"]["allocation"].get("nodeSelector")
        # Only a device tied to one node ties the claim to that node.
        assert (selector is not None) == (mode == "node"), (mode, selector)


def _rows(cp: ControlPlane) -> list[dict[str, Any]]:
    command = [sys.executable, "-m", "gsb_tui.cli", "devices", "--json"]
    proc = subprocess.run(
        [*command, "--kubeconfig", str(cp.kubeconfig)], capture_output=True, text=True, timeout=60
    )
    rows: list[dict[str, Any]] = json.loads(proc.stdout)["devices"]
    return rows


def _tainted(cp: ControlPlane) -> set[tuple[str, str, str]]:
    """The devices `gsb-tui devices --json` says are tainted (any reason naming a taint)."""
    return {(r["driver"], r["pool"], r["device"]) for r in _rows(cp) if "tainted" in r["reasons"]}


def test_a_rule_without_selector_taints_as_the_release_says(cp: ControlPlane, rest: Rest) -> None:
    """No deviceSelector: every device on 1.36 (v1beta2), none from 1.37.1 (v1); gsb-tui and the
    scheduler follow the release."""
    release = cp.info()["kube"]
    api = RELEASES[release].rules_api
    every = {
        (s["spec"]["driver"], s["spec"]["pool"]["name"], d["name"])
        for s in slices(rest)
        for d in s["spec"].get("devices") or []
    }
    before = _tainted(cp)
    assert before < every  # the taints profile's own tainted devices, not all
    lab_pools = {
        s["spec"]["pool"]["name"]
        for s in slices(rest)
        if s["spec"]["pool"]["name"] == s["spec"].get("nodeName")
    }
    free = next(r for r in _rows(cp) if r["pool"] in lab_pools and r["state"] == "free")
    rule = {
        "apiVersion": api,
        "kind": "DeviceTaintRule",
        "metadata": {"name": "prof-no-selector"},
        "spec": {"taint": {"key": "example.com/all", "value": "x", "effect": "NoSchedule"}},
    }
    rules = f"/apis/{api}/devicetaintrules"
    rest.create(rules, rule)
    try:
        # any device of the lab's driver: one is free (`free`) unless the rule taints them all
        rest.create(CLAIMS, claim("prof-no-selector", f"device.driver == '{free['driver']}'"))
        rest.create(PODS, pod("prof-no-selector", "prof-no-selector"))
        if release == "1.36":
            eventually("every device tainted", lambda: _tainted(cp) == every)
            said = eventually("the refusal", lambda: unschedulable(rest, "prof-no-selector"))
            assert UNSCHEDULABLE in said
        else:
            eventually("the pod to run", lambda: running(rest, "prof-no-selector"))
            assert _tainted(cp) == before
    finally:
        rest.delete(f"{rules}/prof-no-selector")
        with contextlib.suppress(RestError):
            rest.delete(f"{PODS}/prof-no-selector?gracePeriodSeconds=0")
        rest.delete(f"{CLAIMS}/prof-no-selector")
        eventually("the rule's taints gone", lambda: _tainted(cp) == before)


def test_a_failure_condition_makes_the_scheduler_give_the_device_back(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`up --profile binding --binding-fail`: the driver reports the failure condition."""
    settings = Settings(profiles=("binding",), binding_delay=0, binding_fail=True, audit=False)
    with practice_cluster(request, tmp_path_factory, settings, "binding-fail") as failing:
        client = failing.rest()
        _, devices = pool_devices(client, "-binding")
        claim_and_pod(client, "prof-bind-fail", by_uuid(uuid_of(devices[0])))

        def messages() -> list[str]:
            path = f"/api/v1/namespaces/{NS}/events?fieldSelector=involvedObject.name="
            return [e.get("message", "") for e in client.get(path + "prof-bind-fail")["items"]]

        eventually(
            "the scheduler to give the allocation back",
            lambda: any("deallocation of ResourceClaim completed" in m for m in messages()),
            timeout=60,
        )
        failed = [m for m in messages() if "device binding failed" in m]
        assert failed and "claim=prof-bind-fail" in failed[0]
        assert not client.get(f"{PODS}/prof-bind-fail")["spec"].get("nodeName")
