"""`gsb-tui why`, `devices` and `match --json` against the real scheduler, on the session's
practice cluster: a pod held by a scheduling gate is judged, then let go.

- one asking more devices than are free: `why` says no (exit 1) and names the count and the
  holders; the scheduler then refuses it;
- one asking one device: `why` says where and which device (exit 0); the scheduler then
  places it there, and allocates that very device (the search is upstream's, first fit);
- `devices --json` counts free what the cluster has free, before and after;
- `match --json` counts free as the ledger does.
Counts come from the cluster; the namespace and names from a seeded random.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.rest import Rest
from gsb_tui.dra.builder import ViewBuilder, build_view
from gsb_tui.kube.config import Target
from gsb_tui.kube.oneshot import fetch_snapshot
from gsb_tui.snapshot import Kind
from gsb_tui.why_cli import READ, answer, selectors_for
from tests.alloc_apply import outcome, ungate

RESOURCE = "/apis/resource.k8s.io/v1"
SEED = int(os.environ.get("GSB_WHY_SEED") or 42)
GATE = "gsb-tui.test/hold"


def gsb(cluster: ControlPlane, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", *args, "--kubeconfig", str(cluster.kubeconfig)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _free(rest: Rest, driver: str) -> list[tuple[str, str, str]]:
    slices = rest.get(f"{RESOURCE}/resourceslices")["items"]
    published = {
        (s["spec"]["driver"], s["spec"]["pool"]["name"], d["name"])
        for s in slices
        if s["spec"]["driver"] == driver
        for d in s["spec"].get("devices", [])
    }
    held = {
        (r["driver"], r["pool"], r["device"])
        for c in rest.get(f"{RESOURCE}/resourceclaims")["items"]
        for r in ((c.get("status") or {}).get("allocation") or {})
        .get("devices", {})
        .get("results", [])
        if not r.get("adminAccess")
    }
    return sorted(published - held)


def _claim(ns: str, name: str, cls: str, count: int) -> dict[str, Any]:
    request = {"deviceClassName": cls, "allocationMode": "ExactCount", "count": count}
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"devices": {"requests": [{"name": "gpus", "exactly": request}]}},
    }


def _pod(ns: str, name: str, claim: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "schedulingGates": [{"name": GATE}],
            "resourceClaims": [{"name": "gpu", "resourceClaimName": claim}],
            "containers": [
                {
                    "name": "main",
                    "image": "busybox:1.36",
                    "command": ["sleep", "3600"],
                    "resources": {"claims": [{"name": "gpu"}]},
                }
            ],
            "terminationGracePeriodSeconds": 0,
        },
    }


def test_why_predicts_what_the_scheduler_does(cluster: ControlPlane) -> None:
    rest = cluster.rest()
    rng = random.Random(SEED)
    ns = f"why-{rng.randrange(16**6):06x}"
    cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
    driver = _free_driver(rest, cls)
    free = _free(rest, driver)
    assert free, "the session cluster has free devices"
    rest.create("/api/v1/namespaces", {"metadata": {"name": ns}})
    try:
        before = json.loads(gsb(cluster, "devices", "--json").stdout)
        assert before["summary"]["free"] == len(free)
        matched = json.loads(gsb(cluster, "match", "true", "--class", cls, "--json").stdout)
        assert matched["free"] == len(free)

        big, small = f"big-{rng.randrange(1000)}", f"one-{rng.randrange(1000)}"
        rest.create(
            f"{RESOURCE}/namespaces/{ns}/resourceclaims", _claim(ns, big, cls, len(free) + 1)
        )
        rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, big, big))
        refused = gsb(cluster, "why", f"{ns}/{big}", "--json")
        assert refused.returncode == 1, refused.stderr
        said = json.loads(refused.stdout)
        assert said["found"] and said["fits"] is False and said["nodes"] == []
        assert said["gates"] == [GATE]
        assert said["server_version"] == rest.get("/version")["gitVersion"]
        assert "other-version" not in {n["code"] for n in said["notes"]}  # the mirrored release
        codes = {b["code"] for b in said["blockers"]}
        assert codes & {"held", "count"}, said["blockers"]
        text_of = " ".join(b["text"] for b in said["blockers"])
        assert f"needs {len(free) + 1}, {len(free)} " in text_of  # "… free" or "… match"
        ungate(rest, f"{ns}/{big}")
        verdict, words = outcome(rest, f"{ns}/{big}", 60)
        assert verdict == "refused" and "cannot allocate all claims" in words

        rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", _claim(ns, small, cls, 1))
        rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, small, small))
        fits = gsb(cluster, "why", f"{ns}/{small}", "--json")
        assert fits.returncode == 0, fits.stdout + fits.stderr
        predicted = json.loads(fits.stdout)
        assert predicted["fits"] is True and predicted["blockers"] == []
        (row,) = predicted["allocation"]
        assert (row["driver"], row["pool"], row["device"]) in free
        ungate(rest, f"{ns}/{small}")
        verdict, node = outcome(rest, f"{ns}/{small}", 60)
        assert verdict == "placed" and node in predicted["nodes"]
        claim = rest.get(f"{RESOURCE}/namespaces/{ns}/resourceclaims/{small}")
        (result,) = claim["status"]["allocation"]["devices"]["results"]
        assert (result["pool"], result["device"]) == (row["pool"], row["device"])

        bound = json.loads(gsb(cluster, "why", f"{ns}/{small}", "--json").stdout)
        assert bound["bound"] == node and bound["fits"] is True
        _wait(
            lambda: (
                json.loads(gsb(cluster, "devices", "--json").stdout)["summary"]["free"]
                == len(free) - 1
            )
        )
        missing = gsb(cluster, "why", f"{ns}/no-such-pod", "--json")
        assert missing.returncode == 1 and json.loads(missing.stdout)["found"] is False
        usage = gsb(cluster, "why", "not-a-ref")
        assert usage.returncode == 64
    finally:
        rest.delete(f"/api/v1/namespaces/{ns}")


def _free_driver(rest: Rest, cls: str) -> str:
    found = rest.get(f"{RESOURCE}/deviceclasses/{cls}")
    expression = found["spec"]["selectors"][0]["cel"]["expression"]
    return expression.split("'")[1]  # "device.driver == '<driver>'", as the cluster seeds it


def _wait(ok: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.5)


def test_why_reads_its_pod_and_the_events_about_it_by_name(cluster: ControlPlane) -> None:
    """`why` asks the API server for its pod and that pod's events only (field selectors);
    the answer is the one a read of every pod and event gives, beside a pod refused too."""
    rest = cluster.rest()
    rng = random.Random(SEED + 1)
    ns = f"why-{rng.randrange(16**6):06x}"
    cls = rest.get(f"{RESOURCE}/deviceclasses")["items"][0]["metadata"]["name"]
    free = _free(rest, _free_driver(rest, cls))
    rest.create("/api/v1/namespaces", {"metadata": {"name": ns}})
    try:
        names = [f"big-{rng.randrange(1000)}", f"big-{rng.randrange(1000, 2000)}"]
        for name in names:  # the second's name starts with the first's
            claim = _claim(ns, name, cls, len(free) + 1)
            rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", claim)
            rest.create(f"/api/v1/namespaces/{ns}/pods", _pod(ns, name, name))
            ungate(rest, f"{ns}/{name}")
        for name in names:
            assert outcome(rest, f"{ns}/{name}", 60)[0] == "refused"
            about = f"/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.name%3D{name}"
            _wait(lambda about=about: bool(rest.get(about)["items"]))
        target = Target(kubeconfig=cluster.kubeconfig, namespace=ns)
        pod = names[0]
        chosen = asyncio.run(fetch_snapshot(target, READ, field_selectors=selectors_for(pod)))
        assert set(chosen.objects[Kind.PODS]) == {(ns, pod)}
        events = chosen.items(Kind.EVENTS)
        assert events, "the scheduler's FailedScheduling events about the pod"
        assert {(e["involvedObject"]["kind"], e["involvedObject"]["name"]) for e in events} == {
            ("Pod", pod)
        }
        every = asyncio.run(fetch_snapshot(target, READ))
        assert {(ns, n) for n in names} <= set(every.objects[Kind.PODS])
        want = answer(build_view(every), ns, pod, "en")
        assert want["scheduler"] and "cannot allocate all claims" in want["scheduler"]
        assert answer(build_view(chosen), ns, pod, "en") == want
        # As `why` reads: each list parsed as it comes, while the others are on their way.
        builder, told = ViewBuilder(), []
        ahead = asyncio.run(
            fetch_snapshot(
                target,
                READ,
                field_selectors=selectors_for(pod),
                listed=lambda s: (told.append(s.revision), builder.parse_ahead(s)),
            )
        )
        assert told and told == sorted(told) and told[-1] < ahead.revision, told
        assert answer(builder.build(ahead), ns, pod, "en") == want
        said = json.loads(gsb(cluster, "why", f"{ns}/{pod}", "--json").stdout)
        assert {k: said[k] for k in want} == want
    finally:
        rest.delete(f"/api/v1/namespaces/{ns}")
