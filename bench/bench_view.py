"""How long build_view takes on a cluster far larger than the lab's.

The scale data is cloned from the recorded lab (tests/fixtures/lab.jsonl, mark step-8) with
new names: 125 nodes x 8 devices (the recorded slice, re-pooled per node), 1000 claims and
1000 pods (recorded ones renamed and re-pointed at each other), plus one event per pod.
Prints figures, not pass/fail:  build_view_ms <median> ms (a cold build, every object parsed)
and build_view_one_change_ms (the rebuild after one pod changed, what a watch event costs).

    .venv/bin/python bench/bench_view.py [--runs 7] [--recording PATH] [--mark step-8]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gsb_tui.dra.builder import ViewBuilder, build_view
from gsb_tui.dra.warnings import find_warnings
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind, KindState, Obj, ObjKey, Snapshot, obj_key

NODES = 125
CLAIMS = 1000
PODS = 1000
ROOT = Path(__file__).resolve().parent.parent


def _renamed(obj: Obj, name: str) -> dict[str, Any]:
    out = copy.deepcopy(dict(obj))
    out["metadata"] = {**out.get("metadata", {}), "name": name, "uid": f"uid-{name}"}
    return out


def scale(base: Snapshot) -> Snapshot:
    slices = base.items(Kind.SLICES)
    claims = [c for c in base.items(Kind.CLAIMS) if (c.get("status") or {}).get("allocation")]
    pods = [p for p in base.items(Kind.PODS) if (p.get("spec") or {}).get("resourceClaims")]
    nodes = base.items(Kind.NODES)
    events = base.items(Kind.EVENTS)
    if not (slices and claims and pods):
        raise SystemExit("the recording has no slice, allocated claim or claim-using pod to clone")

    # Classes and templates stay as recorded; every other kind is made of clones only.
    objects: dict[Kind, dict[ObjKey, Obj]] = {k: {} for k in Kind}
    objects[Kind.CLASSES] = dict(base.objects.get(Kind.CLASSES, {}))
    objects[Kind.TEMPLATES] = dict(base.objects.get(Kind.TEMPLATES, {}))
    node_names = [f"bench-node-{i:03d}" for i in range(NODES)]
    per_node = len((slices[0].get("spec") or {}).get("devices") or []) or 1
    for node in node_names:
        s = _renamed(slices[0], f"00000-bench-{node}")
        s["spec"]["nodeName"] = node
        s["spec"]["pool"]["name"] = node
        objects[Kind.SLICES][obj_key(s)] = s
        if nodes:
            n = _renamed(nodes[0], node)
            objects[Kind.NODES][obj_key(n)] = n

    for i in range(max(CLAIMS, PODS)):
        node = node_names[(i // per_node) % NODES]
        pod_name, claim_name = f"bench-pod-{i:04d}", f"bench-claim-{i:04d}"
        if i < CLAIMS:
            c = _renamed(claims[i % len(claims)], claim_name)
            c["metadata"].pop("ownerReferences", None)
            alloc = c["status"]["allocation"]
            for r in alloc["devices"]["results"]:
                r["pool"] = node
                r["device"] = f"gpu-{i % per_node}"
            alloc.pop("nodeSelector", None)
            c["status"]["reservedFor"] = (
                [{"resource": "pods", "name": pod_name, "uid": f"uid-{pod_name}"}]
                if i < PODS
                else []
            )
            objects[Kind.CLAIMS][obj_key(c)] = c
        if i < PODS:
            p = _renamed(pods[i % len(pods)], pod_name)
            p["spec"]["nodeName"] = node
            entries = p["spec"]["resourceClaims"]
            for e in entries:
                e.pop("resourceClaimTemplateName", None)
                e["resourceClaimName"] = claim_name
            p.setdefault("status", {})["resourceClaimStatuses"] = []
            objects[Kind.PODS][obj_key(p)] = p
            if events:
                ev = _renamed(events[i % len(events)], f"{pod_name}.bench")
                ev["involvedObject"] = {
                    "kind": "Pod",
                    "namespace": p["metadata"].get("namespace", ""),
                    "name": pod_name,
                }
                objects[Kind.EVENTS][obj_key(ev)] = ev
    states = {k: KindState(phase="synced", scope="cluster") for k in Kind}
    return Snapshot(objects=objects, states=states, revision=base.revision + 1)


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _count(objects: Mapping[Kind, Mapping[ObjKey, Obj]], kind: Kind) -> int:
    return len(objects.get(kind, {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--recording", type=Path, default=ROOT / "tests/fixtures/lab.jsonl")
    parser.add_argument("--mark", default="step-8")
    args = parser.parse_args()

    snap = scale(snapshot_at(args.recording, args.mark))
    view = build_view(snap)
    print(
        f"scale: {len(view.devices)} devices in {len(view.slices)} slices,"
        f" {_count(snap.objects, Kind.CLAIMS)} claims, {_count(snap.objects, Kind.PODS)} pods,"
        f" {_count(snap.objects, Kind.EVENTS)} events"
    )

    def cold() -> None:
        build_view(snap)  # a fresh builder: nothing kept

    # What a watch event costs: one pod replaced by a new object, the rest parsed already.
    pod_key = sorted(k for k in snap.objects[Kind.PODS] if k[1].startswith("bench-"))[0]
    pods = dict(snap.objects[Kind.PODS])

    builder = ViewBuilder()  # what the App keeps from build to build

    def one_change() -> None:
        pods[pod_key] = copy.deepcopy(dict(pods[pod_key]))
        builder.build(Snapshot({**snap.objects, Kind.PODS: dict(pods)}, snap.states))

    print(f"build_view_ms {_median_ms(cold, args.runs):.1f} ms  (cold: every object parsed)")
    builder.build(snap)
    print(f"build_view_one_change_ms {_median_ms(one_change, args.runs):.1f} ms")
    print(f"find_warnings_ms {_median_ms(lambda: find_warnings(view), args.runs):.1f} ms")
    driver = view.devices[0].id.driver
    print(f"ledger_ms {_median_ms(lambda: view.ledger(driver, 'dra-lab'), args.runs):.1f} ms")


if __name__ == "__main__":
    main()
