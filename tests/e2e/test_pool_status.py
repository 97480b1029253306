"""ResourcePoolStatusRequest on the real controller (v1.37.2, `--profile lab,taints,poolstatus`):
`gsb-tui devices --json` shows per pool what kube-controller-manager wrote, what gsb-tui itself
counts, and reasons that account for the difference. A device held by a claim (placed by the
real scheduler) is tainted by a DeviceTaintRule, so 1.37.2 counts it allocated and unavailable.
Which device, and every count, come from the cluster; names from a seeded random."""

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
from gsb_tui.cluster.lab_run import NS
from tests.alloc_apply import outcome, ungate
from tests.e2e.conftest import practice_cluster
from tests.e2e.test_why_cli import _claim, _pod

RESOURCE = "/apis/resource.k8s.io/v1"
REQUESTS = "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests"
FIELDS = ("slices", "total", "allocated", "available", "unavailable")
WRITTEN = {
    "slices": "resourceSliceCount",
    "total": "totalDevices",
    "allocated": "allocatedDevices",
    "available": "availableDevices",
    "unavailable": "unavailableDevices",
}
SEED = int(os.environ.get("GSB_POOLSTATUS_SEED") or 5677)


@pytest.fixture(scope="module")
def cp(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    settings = Settings(kube="1.37", devices=4, profiles=("lab", "taints", "poolstatus"))
    with practice_cluster(request, tmp_path_factory, settings, "poolstatus") as started:
        yield started


def devices_json(cp: ControlPlane) -> dict[str, Any]:
    args = ["devices", "--json", "--kubeconfig", str(cp.kubeconfig)]
    proc = subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    answer: dict[str, Any] = json.loads(proc.stdout)
    return answer


def until(what: str, ok: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := ok()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.2)
    return found


def blocking(device: dict[str, Any]) -> bool:
    return any(t.get("effect") in ("NoSchedule", "NoExecute") for t in device.get("taints") or [])


def test_devices_sets_the_controllers_counts_beside_its_own(cp: ControlPlane) -> None:
    rest = cp.rest()
    rng = random.Random(SEED)
    before = devices_json(cp)
    assert before["pool_status"] == [] and before["pool_status_requests"] == []
    free = [d for d in before["devices"] if d["state"] == "free"]
    target = rng.choice(free)
    cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
    name = f"ps-{rng.randrange(16**5):05x}"
    claim = _claim(NS, name, cls, 1)
    claim["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = [
        {"cel": {"expression": f"device.driver == '{target['driver']}'"}}
    ]
    rest.create(f"{RESOURCE}/namespaces/{NS}/resourceclaims", claim)
    rest.create(f"/api/v1/namespaces/{NS}/pods", _pod(NS, name, name))
    ungate(rest, f"{NS}/{name}")
    verdict, _ = outcome(rest, f"{NS}/{name}", 30)
    assert verdict == "placed"
    got = rest.get(f"{RESOURCE}/namespaces/{NS}/resourceclaims/{name}")
    (held,) = got["status"]["allocation"]["devices"]["results"]
    rule = f"ps-held-{rng.randrange(1000)}"
    selector = {k: held[k] for k in ("driver", "pool", "device")}
    taint = {"key": "example.com/poolstatus", "value": rule, "effect": "NoSchedule"}
    rest.create(
        f"{RESOURCE}/devicetaintrules",
        {"metadata": {"name": rule}, "spec": {"deviceSelector": selector, "taint": taint}},
    )
    time.sleep(1.0)  # the controller's informers see the rule
    ask = f"ps-ask-{rng.randrange(1000)}"
    rest.create(REQUESTS, {"metadata": {"name": ask}, "spec": {"driver": held["driver"]}})
    written = until("the controller's answer", lambda: rest.get(f"{REQUESTS}/{ask}").get("status"))

    now = devices_json(cp)
    mine = {(p["driver"], p["pool"]): p for p in now["pool_status"] if p["request"] == ask}
    assert len(mine) == len(written["pools"]) == written["poolCount"]
    (said,) = [r for r in now["pool_status_requests"] if r["name"] == ask]
    assert said["state"] == "complete" and said["listed"] == written["poolCount"]
    slices = rest.get(f"{RESOURCE}/resourceslices")["items"]
    claims = rest.get(f"{RESOURCE}/resourceclaims")["items"]
    for pool in written["pools"]:
        key = (pool["driver"], pool["poolName"])
        p = mine[key]
        # upstream: what the controller wrote, and what gsb-tui says it would write now
        assert p["upstream"] == {f: pool.get(WRITTEN[f]) for f in FIELDS}
        assert p["upstream_now"] == p["upstream"] and p["generation"] == pool["generation"]
        # gsb-tui's own, from the cluster's objects and its own device rows
        published = [
            d
            for s in slices
            if (s["spec"]["driver"], s["spec"]["pool"]["name"]) == key
            for d in s["spec"].get("devices") or []
        ]
        allocated = {
            r["device"]
            for c in claims
            if (c.get("status") or {}).get("allocation")
            for r in c["status"]["allocation"]["devices"]["results"]
            if (r["driver"], r["pool"]) == key and not r.get("adminAccess")
        }
        rows = [d for d in now["devices"] if (d["driver"], d["pool"]) == key]
        own = p["gsb_tui"]
        assert own["total"] == len(published) == len(rows)
        assert own["allocated"] == len(allocated)
        assert own["available"] == sum(1 for d in rows if d["state"] == "free")
        assert own["unavailable"] == own["total"] - own["allocated"] - own["available"]
        # every difference accounted for by a named reason
        moved = {f: sum(r["moves"].get(f, 0) for r in p["reasons"]) for f in FIELDS}
        assert moved == {f: p["upstream"][f] - own[f] for f in FIELDS}
        assert "unexplained" not in {r["code"] for r in p["reasons"]}
        tainted = {d["name"] for d in published if blocking(d)}
        if key == (held["driver"], held["pool"]):
            tainted.add(held["device"])
            (both,) = [r for r in p["reasons"] if r["code"] == "tainted-held"]
            assert both["devices"] == [held["device"]] and both["text"]
        assert pool["unavailableDevices"] == len(tainted)
    rest.delete(f"{RESOURCE}/devicetaintrules/{rule}")
