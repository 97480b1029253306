"""Kubernetes 1.37 (v1.37.2, `gsb-tui cluster up --kube 1.37`): DeviceTaintRules are served as
resource.k8s.io/v1 by default and gsb-tui reads them there; a rule's taint is in the grid, the
ledger, `devices` and `why`, and the scheduler refuses as `why` says; a rule without
deviceSelector taints nothing on 1.37 (it tainted every device on 1.36) and gsb-tui follows.
The device and names come from a seeded random; counts from the cluster."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from tests.alloc_apply import outcome, ungate
from tests.e2e.conftest import practice_cluster
from tests.e2e.test_why_cli import _claim, _pod

RESOURCE = "/apis/resource.k8s.io/v1"
SEED = int(os.environ.get("GSB_137_SEED") or 137)


@pytest.fixture(scope="module")
def cp(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    settings = Settings(kube="1.37", audit=False)
    with practice_cluster(request, tmp_path_factory, settings, "kube-1.37") as started:
        yield started


def gsb(cp: ControlPlane, *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", *args, "--json", "--kubeconfig", str(cp.kubeconfig)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    answer: dict[str, Any] = json.loads(proc.stdout)
    return answer


def _until(what: str, ok: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.5)


def _rule(name: str, selector: dict[str, str] | None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "taint": {"key": "example.com/broken", "value": name, "effect": "NoSchedule"}
    }
    if selector is not None:
        spec["deviceSelector"] = selector
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceTaintRule",
        "metadata": {"name": name},
        "spec": spec,
    }


def test_the_server_is_137_and_serves_rules_at_v1(cp: ControlPlane) -> None:
    rest = cp.rest()
    assert rest.get("/version")["gitVersion"] == "v1.37.2"
    served = {r["name"] for r in rest.get(RESOURCE)["resources"]}
    assert "devicetaintrules" in served


def test_a_v1_rule_taints_a_device_and_why_names_it(cp: ControlPlane) -> None:
    rest = cp.rest()
    rng = random.Random(SEED)
    devices = gsb(cp, "devices")
    free = [d for d in devices["devices"] if d["state"] == "free"]
    target = rng.choice(free)
    rule = f"broken-{rng.randrange(1000)}"
    selector = {"driver": target["driver"], "pool": target["pool"], "device": target["device"]}
    rest.create(f"{RESOURCE}/devicetaintrules", _rule(rule, selector))
    ns = f"r137-{rng.randrange(16**5):05x}"
    rest.create("/api/v1/namespaces", {"metadata": {"name": ns}})
    try:

        def tainted() -> bool:
            now = gsb(cp, "devices")
            row = next(d for d in now["devices"] if d["device"] == target["device"])
            return row["state"] == "tainted" and now["summary"]["free"] == len(free) - 1

        _until("the rule's taint in gsb-tui devices", tainted)
        name = f"want-{target['device']}"
        cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
        claim = _claim(ns, name, cls, 1)
        index = target["device"].rsplit("-", 1)[-1]
        claim["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = [
            {"cel": {"expression": f"device.attributes['{target['driver']}'].index == {index}"}}
        ]
        rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", claim)
        rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, name, name))
        said = gsb(cp, "why", f"{ns}/{name}")
        assert said["fits"] is False and said["server_version"] == "v1.37.2"
        assert "tainted" in {b["code"] for b in said["blockers"]}, said
        assert "other-version" not in {n["code"] for n in said["notes"]}  # mirrored as it is
        assert said["mirrors"] == "v1.37.2"
        ungate(rest, f"{ns}/{name}")
        verdict, words = outcome(rest, f"{ns}/{name}", 60)
        assert verdict == "refused" and "cannot allocate all claims" in words
    finally:
        rest.delete(f"{RESOURCE}/devicetaintrules/{rule}")
        rest.delete(f"/api/v1/namespaces/{ns}")


def test_a_rule_without_selector_taints_nothing_on_137(cp: ControlPlane) -> None:
    rest = cp.rest()
    rng = random.Random(SEED + 1)
    _until("no rule left", lambda: not rest.get(f"{RESOURCE}/devicetaintrules")["items"])
    free = gsb(cp, "devices")["summary"]["free"]
    rule = f"everything-{rng.randrange(1000)}"
    rest.create(f"{RESOURCE}/devicetaintrules", _rule(rule, None))
    ns = f"r137-{rng.randrange(16**5):05x}"
    rest.create("/api/v1/namespaces", {"metadata": {"name": ns}})
    try:
        _until(
            "the rule read",
            lambda: any(
                r["metadata"]["name"] == rule
                for r in rest.get(f"{RESOURCE}/devicetaintrules")["items"]
            ),
        )
        time.sleep(1.0)  # what a watch would have delivered by now
        now = gsb(cp, "devices")
        assert now["summary"]["tainted"] == 0 and now["summary"]["free"] == free
        name = f"one-{rng.randrange(1000)}"
        cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
        rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", _claim(ns, name, cls, 1))
        rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, name, name))
        said = gsb(cp, "why", f"{ns}/{name}")
        assert said["fits"] is True, said
        ungate(rest, f"{ns}/{name}")
        verdict, node = outcome(rest, f"{ns}/{name}", 60)
        assert verdict == "placed" and node in said["nodes"]
    finally:
        rest.delete(f"{RESOURCE}/devicetaintrules/{rule}")
        rest.delete(f"/api/v1/namespaces/{ns}")


def test_a_fractional_range_fills_as_the_scheduler_fills_it(cp: ControlPlane) -> None:
    """A shared device whose range steps in milli units, on a default 1.37 cluster, where
    DRAFractionalCapacityRange (beta) is off: its default-on entry needs compatibility version
    1.37. Each share is predicted by `why` (fits, and what it takes) before the scheduler is
    let at it; the amounts the scheduler writes are `why`'s, and the share that does not fit
    is the one `why` refused. The device and its numbers are this test's own."""
    from gsb_tui.dra.cel.quantity import parse_quantity

    rest = cp.rest()
    rng = random.Random(SEED + 2)
    node = rest.get("/api/v1/nodes")["items"][0]["metadata"]["name"]
    driver = rest.get(f"{RESOURCE}/resourceslices")["items"][0]["spec"]["driver"]
    cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
    pool = f"frac-{rng.randrange(16**4):04x}"
    step, low, total, asked = "250m", "500m", "2", "600m"
    device = {
        "name": "shared-0",
        "allowMultipleAllocations": True,
        "capacity": {
            "mem": {
                "value": total,
                "requestPolicy": {"default": low, "validRange": {"min": low, "step": step}},
            }
        },
    }
    spec = {
        "driver": driver,
        "nodeName": node,
        "pool": {"name": pool, "generation": 1, "resourceSliceCount": 1},
        "devices": [device],
    }
    slice_name = f"{pool}-slice"
    rest.create(
        f"{RESOURCE}/resourceslices",
        {
            "apiVersion": "resource.k8s.io/v1",
            "kind": "ResourceSlice",
            "metadata": {"name": slice_name},
            "spec": spec,
        },
    )
    ns = f"r137-{rng.randrange(16**5):05x}"
    rest.create("/api/v1/namespaces", {"metadata": {"name": ns}})
    placed: list[str] = []
    taken: list[str] = []
    try:
        for i in range(6):
            name = f"share-{i}"
            claim = _claim(ns, name, cls, 1)
            exactly = claim["spec"]["devices"]["requests"][0]["exactly"]
            # only a device publishing "mem" can give it (the lab's GPUs publish memory)
            exactly["capacity"] = {"requests": {"mem": asked}}
            rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", claim)
            rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, name, name))
            said = gsb(cp, "why", f"{ns}/{name}")
            ours = [a for a in said["allocation"] if a["pool"] == pool]
            ungate(rest, f"{ns}/{name}")
            verdict, words = outcome(rest, f"{ns}/{name}", 60)
            if verdict == "placed":
                results = rest.get(f"{RESOURCE}/namespaces/{ns}/resourceclaims/{name}")
                (result,) = results["status"]["allocation"]["devices"]["results"]
                assert result["pool"] == pool and said["fits"] is True and len(ours) == 1, said
                theirs = parse_quantity(result["consumedCapacity"]["mem"]).value
                assert parse_quantity(ours[0]["consumed"]["mem"]).value == theirs
                placed.append(name)
                taken.append(result["consumedCapacity"]["mem"])
            else:
                assert said["fits"] is not True or not ours, (said, words)
                break
        # with the gate off 600m is made an integer first and takes 1 (750m with it on)
        assert placed and all(parse_quantity(c).value == 1 for c in taken), taken
        assert len(placed) == 2, placed  # two shares of 1 fill 2
    finally:
        rest.delete(f"/api/v1/namespaces/{ns}")
        rest.delete(f"{RESOURCE}/resourceslices/{slice_name}")
