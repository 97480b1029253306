"""The CEL preview agrees with the real API server and scheduler: for each selector, the devices
gsb-tui says match are exactly the devices the scheduler allocates for `allocationMode: All`;
and for a generated set (fixed seed: valid, invalid, costly, runtime-erroring, deep), gsb-tui
gives the API server's admission verdict and words (`kubectl create --dry-run=server`), and for
admitted ones the scheduler's devices or its runtime error (tests/cel_parity.py judges)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.cel import evaluate_all
from gsb_tui.dra.view import DraView
from gsb_tui.kube.config import Target
from gsb_tui.kube.oneshot import fetch_snapshot
from tests import cel_parity
from tests.cel_generated import corpus

NS = "e2e-parity"
SELECTORS = [
    "device.attributes['gpu.example.com'].index == 7",
    "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'",
    "device.capacity['gpu.example.com'].memory.compareTo(quantity('4Gi')) >= 0",
    "device.attributes['gpu.example.com'].index % 3 == 1",
    "device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('0.9.0'))",
    "device.attributes['gpu.example.com'].index > 100",  # matches nothing
    "device.attributes['gpu.example.com'].idx == 7",  # runtime error: no such key
    "device.attributes['gpu.example.com'].index > 6",  # step 5 written another way
    # The attribute's domain written as "index": compiles (the API server creates the claim),
    # then fails on every device at scheduling with "no such key: index".
    "device.attributes['index'].index == 7",
]


def objects(name: str, expression: str) -> tuple[dict[str, Any], dict[str, Any]]:
    claim = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "gpus",
                        "exactly": {
                            "deviceClassName": "gpu.example.com",
                            "allocationMode": "All",
                            "selectors": [{"cel": {"expression": expression}}],
                        },
                    }
                ]
            }
        },
    }
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "containers": [
                {"name": "c", "image": "ubuntu:22.04", "resources": {"claims": [{"name": "gpus"}]}}
            ],
            "resourceClaims": [{"name": "gpus", "resourceClaimName": name}],
        },
    }
    return claim, pod


def scheduler_outcome(cluster: ControlPlane, name: str) -> tuple[set[str], str]:
    """(allocated devices, the scheduler's message when it could not allocate)."""
    rest = cluster.rest()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        claim = rest.get(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims/{name}")
        results = claim.get("status", {}).get("allocation", {}).get("devices", {}).get("results")
        if results:
            return {r["device"] for r in results}, ""
        pod = rest.get(f"/api/v1/namespaces/{NS}/pods/{name}")
        for cond in pod.get("status", {}).get("conditions", []):
            if cond["type"] == "PodScheduled" and cond["status"] == "False":
                return set(), str(cond["message"])
        time.sleep(0.1)
    raise AssertionError(f"the scheduler said nothing about {name}")


@pytest.mark.parametrize("index", range(len(SELECTORS)))
async def test_preview_matches_what_the_scheduler_allocates(
    cluster: ControlPlane, index: int
) -> None:
    expression = SELECTORS[index]
    rest = cluster.rest()
    rest.ensure("/api/v1/namespaces", {"metadata": {"name": NS}})
    snapshot = await fetch_snapshot(Target(kubeconfig=cluster.kubeconfig, namespace=NS))
    view = build_view(snapshot)
    class_selectors = list(view.classes["gpu.example.com"].selectors)
    outcomes = evaluate_all([*class_selectors, expression], view.devices)
    predicted = {d.device for d, o in outcomes.items() if o.matched}
    errors = {o.error for o in outcomes.values() if o.error}
    free = {d for d, occ in view.occupancy.items() if occ.status == "free"}
    assert free == set(view.occupancy), "parity needs an idle cluster"

    name = f"parity-{index}"
    claim, pod = objects(name, expression)
    rest.create(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims", claim)
    rest.create(f"/api/v1/namespaces/{NS}/pods", pod)
    try:
        allocated, message = scheduler_outcome(cluster, name)
    finally:
        rest.delete(f"/api/v1/namespaces/{NS}/pods/{name}?gracePeriodSeconds=0")
        rest.delete(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims/{name}")
        deadline = time.monotonic() + 30
        while rest.get(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims")["items"]:
            assert time.monotonic() < deadline, "claim not released"
            time.sleep(0.1)
    print(
        f"\n[parity] {expression!r}: gsb-tui {sorted(predicted)} scheduler {sorted(allocated)}"
        + (f" ({message})" if message else "")
    )
    assert predicted == allocated
    if errors:
        # Both sides call it a runtime error, with the same missing key.
        assert "CEL runtime error" in message
        keys = {m.group(0) for e in errors if (m := re.search(r"no such key: \w+", e))}
        assert keys and all(key in message for key in keys), (keys, message)
    elif not predicted:
        assert "cannot allocate all claims" in message


# --- generated selectors: admission, words, devices and runtime errors ------------------------

SEED = 20261201  # bench/cel_parity.py runs the larger set (other seeds, 1,000 and more)
GENERATED = corpus(SEED, 50)


@pytest.fixture(scope="module")
def lab_view(cluster: ControlPlane) -> DraView:
    cluster.rest().ensure("/api/v1/namespaces", {"metadata": {"name": NS}})
    snapshot = asyncio.run(fetch_snapshot(Target(kubeconfig=cluster.kubeconfig, namespace=NS)))
    view = build_view(snapshot)
    free = {d for d, occ in view.occupancy.items() if occ.status == "free"}
    assert free == set(view.occupancy), "parity needs an idle cluster"
    return view


@pytest.mark.parametrize(
    "index", range(len(GENERATED)), ids=[f"{f}-{i}" for i, (f, _) in enumerate(GENERATED)]
)
def test_generated_selectors_are_judged_as_the_api_server_and_scheduler_judge_them(
    cluster: ControlPlane, lab_view: DraView, index: int
) -> None:
    family, expression = GENERATED[index]
    api = cel_parity.admission(cluster.kubeconfig, NS, expression)
    scheduler = None
    if api.admitted:
        scheduler = cel_parity.scheduling(cluster, NS, f"generated-{index}", expression)
    ours = cel_parity.gsb_tui(lab_view, expression)
    print(f"\n[parity {family}] {expression[:160]!r}: api {api} scheduler {scheduler}")
    if ours.abstained:
        pytest.skip(f"gsb-tui does not evaluate this one: {ours.message}")
    assert cel_parity.compare(api, scheduler, ours) == ""
