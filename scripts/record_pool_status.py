"""Record what kube-controller-manager's resourcepoolstatusrequest-controller writes, beside the
objects it counted, for tests/unit/test_pool_status.py (tests/fixtures/poolstatus/<stage>.json).

    .venv/bin/python scripts/record_pool_status.py [--dir DIR] [--out tests/fixtures/poolstatus]

Without --dir it starts a practice cluster of its own (--kube, default 1.37; profiles lab,
partitions, shared, taints and poolstatus, 4 devices per pool) in a temporary directory and
stops it at the end; with --dir it uses the cluster running there (started with those
profiles). Stages, each but `later` ending with a ResourcePoolStatusRequest the controller
answered (or did not):

- idle: nothing allocated;
- busy: claims with pods on the lab, shared, partitions and taints pools (two shares of one
  device, a partition, a tolerated tainted device), an adminAccess claim on a held device, and
  DeviceTaintRules (NoSchedule on a free and on a held device, None on another);
- later: a claim freed and the taints pool republished at generation 2 after `busy` answered;
- orphan: the lab pool republished at generation 3 without the device a claim still holds, and
  a pool of two slices publishing one device name twice;
- incomplete: a pool whose resourceSliceCount says 2 with one slice published.

With --kube 1.36 (rules at resource.k8s.io/v1beta2, which the taints profile serves there) it
records the busy stage only, as busy-1.36.json.

Pools and uuids are read from what the cluster publishes; devices are picked by the
names the seeds give them (gpu-0…, gpu-<i>-partition-0), and it stops if one is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import NS
from gsb_tui.cluster.profile_scenarios import attr, claim, pod
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed import DRIVER

RESOURCE = "/apis/resource.k8s.io/v1"
REQUESTS = "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests"
PROFILES = ("lab", "partitions", "shared", "taints", "poolstatus")
ADMIN_NS = "ps-admin"
# What the fixtures keep, as (file key, collection path).
COLLECTIONS = (
    ("resourceslices", f"{RESOURCE}/resourceslices"),
    ("deviceclasses", f"{RESOURCE}/deviceclasses"),
    ("resourceclaims", f"{RESOURCE}/resourceclaims"),
    ("devicetaintrules", "/apis/{rules}/devicetaintrules"),
    ("resourcepoolstatusrequests", REQUESTS),
)


def until(what: str, ok: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > deadline:
            raise SystemExit(f"record_pool_status: {what}: not within {timeout:.0f} s")
        time.sleep(0.2)


class Cluster:
    def __init__(self, rest: Rest, release: str) -> None:
        self.rest = rest
        self.slices = rest.get(f"{RESOURCE}/resourceslices")["items"]
        # DeviceTaintRule: v1 from 1.37; the taints profile serves v1beta2 on 1.36
        self.rules_api = "resource.k8s.io/v1" if release == "1.37" else "resource.k8s.io/v1beta2"

    def device(self, pool_suffix: str, pick: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first device of the node's pool ending in `pool_suffix` with pick(device)."""
        for s in sorted(self.slices, key=lambda s: str(s["metadata"]["name"])):
            if not str(s["spec"]["pool"]["name"]).endswith(pool_suffix):
                continue
            for device in s["spec"].get("devices") or []:
                if pick(device):
                    return dict(device)
        raise SystemExit(f"record_pool_status: no such device in a pool *{pool_suffix}")

    def pool_of(self, suffix: str) -> str:
        return next(
            str(s["spec"]["pool"]["name"])
            for s in self.slices
            if str(s["spec"]["pool"]["name"]).endswith(suffix)
        )

    def claim_and_pod(self, ns: str, name: str, cel: str, **exactly: Any) -> None:
        body = claim(name, cel, **exactly)
        body["metadata"]["namespace"] = ns
        self.rest.create(f"{RESOURCE}/namespaces/{ns}/resourceclaims", body)
        spec = pod(name, name)
        spec["metadata"]["namespace"] = ns
        self.rest.create(f"/api/v1/namespaces/{ns}/pods", spec)

    def running(self, ns: str, name: str) -> bool:
        got = self.rest.get(f"/api/v1/namespaces/{ns}/pods/{name}")
        return (got.get("status") or {}).get("phase") == "Running"

    def ask(self, name: str, pool: str | None = None, limit: int | None = None) -> dict[str, Any]:
        spec: dict[str, Any] = {"driver": DRIVER}
        if pool is not None:
            spec["poolName"] = pool
        if limit is not None:
            spec["limit"] = limit
        body = {
            "apiVersion": "resource.k8s.io/v1alpha3",
            "kind": "ResourcePoolStatusRequest",
            "metadata": {"name": name},
            "spec": spec,
        }
        self.rest.create(REQUESTS, body)
        return body

    def answered(self, name: str) -> bool:
        return bool(self.rest.get(f"{REQUESTS}/{name}").get("status"))

    def rule(self, name: str, pool: str, device: str, effect: str) -> None:
        taint = {"key": "example.com/recorded", "value": name, "effect": effect}
        selector = {"driver": DRIVER, "pool": pool, "device": device}
        self.rest.create(
            f"/apis/{self.rules_api}/devicetaintrules",
            {
                "apiVersion": self.rules_api,
                "kind": "DeviceTaintRule",
                "metadata": {"name": name},
                "spec": {"deviceSelector": selector, "taint": taint},
            },
        )

    def delete_pod_and_claim(self, ns: str, name: str) -> None:
        self.rest.delete(f"/api/v1/namespaces/{ns}/pods/{name}")
        pods = f"/api/v1/namespaces/{ns}/pods"
        until(f"pod {name} gone", lambda: name not in names(self.rest.get(pods)))
        claims = f"{RESOURCE}/namespaces/{ns}/resourceclaims"
        self.rest.delete(f"{claims}/{name}")
        until(f"claim {name} gone", lambda: name not in names(self.rest.get(claims)))

    def republish(self, pool: str, generation: int, drop: str = "") -> None:
        """The pool's one slice again at `generation`, without the device `drop`."""
        (found,) = [
            s
            for s in self.rest.get(f"{RESOURCE}/resourceslices")["items"]
            if s["spec"]["pool"]["name"] == pool
        ]
        found["spec"]["pool"]["generation"] = generation
        found["spec"]["devices"] = [d for d in found["spec"]["devices"] if d["name"] != drop]
        self.rest.request("PUT", f"{RESOURCE}/resourceslices/{found['metadata']['name']}", found)


def names(listed: dict[str, Any]) -> set[str]:
    return {str(o["metadata"]["name"]) for o in listed.get("items", [])}


def uuid_is(device: dict[str, Any]) -> str:
    return f"{attr('uuid')} == '{device['attributes']['uuid']['string']}'"


def named(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda d: d["name"] == name


def dump(c: Cluster, out: Path, stage: str) -> None:
    rest = c.rest
    objects: dict[str, list[dict[str, Any]]] = {}
    for key, path in COLLECTIONS:
        items = rest.get(path.format(rules=c.rules_api)).get("items", [])
        for item in items:
            item.get("metadata", {}).pop("managedFields", None)
        objects[key] = sorted(
            items, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"])
        )
    version = rest.get("/version")["gitVersion"]
    data = {"stage": stage, "server_version": version, "objects": objects}
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stage}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"record_pool_status: wrote {out / f'{stage}.json'}", file=sys.stderr)


def scenario(rest: Rest, out: Path, release: str) -> None:
    c = Cluster(rest, release)
    lab, shared, parts, taints = (
        c.pool_of(s) for s in ("node", "-shared", "-partitions", "-taints")
    )
    if release == "1.37":
        c.ask("idle")
        until("idle answered", lambda: c.answered("idle"))
        dump(c, out, "idle")
    busy(c, lab, shared, parts, taints)
    dump(c, out, "busy" if release == "1.37" else f"busy-{release}")
    if release != "1.37":
        return
    c.delete_pod_and_claim(NS, "two")
    c.republish(taints, generation=2)
    time.sleep(1.0)
    dump(c, out, "later")

    c.republish(lab, generation=3, drop="gpu-0")  # claim "one" still holds it
    dup = next(s for s in c.slices if s["spec"]["pool"]["name"] == lab)
    for i in range(2):
        twin = json.loads(json.dumps(dup))
        twin["metadata"] = {"name": f"ps-dup-{i}"}
        twin["spec"]["pool"] = {"name": f"{lab}-dup", "generation": 1, "resourceSliceCount": 2}
        twin["spec"]["devices"] = twin["spec"]["devices"][:1]
        rest.create(f"{RESOURCE}/resourceslices", twin)
    time.sleep(1.0)
    c.ask("orphan")
    until("orphan answered", lambda: c.answered("orphan"))
    dump(c, out, "orphan")

    half = json.loads(json.dumps(dup))
    half["metadata"] = {"name": "ps-half-0"}
    half["spec"]["pool"] = {"name": f"{lab}-half", "generation": 1, "resourceSliceCount": 2}
    half["spec"]["devices"] = half["spec"]["devices"][:2]
    rest.create(f"{RESOURCE}/resourceslices", half)
    time.sleep(1.0)
    c.ask("incomplete")
    time.sleep(5.0)  # the controller requeues an incomplete pool 5 times (~0.2 s), then drops it
    dump(c, out, "incomplete")


def busy(c: Cluster, lab: str, shared: str, parts: str, taints: str) -> None:
    one = c.device(lab, named("gpu-0"))
    pair = [c.device(lab, named(n)) for n in ("gpu-1", "gpu-2")]
    c.claim_and_pod(NS, "one", uuid_is(one))
    pair_cel = " || ".join(f"({uuid_is(d)})" for d in pair)
    c.claim_and_pod(NS, "two", pair_cel, allocationMode="ExactCount", count=2)
    share = c.device(shared, named("gpu-0"))
    for name in ("share-a", "share-b"):
        c.claim_and_pod(NS, name, uuid_is(share), capacity={"requests": {"memory": "10Gi"}})
    part = c.device(parts, lambda d: d["name"].endswith("-partition-0"))
    c.claim_and_pod(NS, "part", uuid_is(part))
    tainted = c.device(
        taints, lambda d: any(t["effect"] == "NoSchedule" for t in d.get("taints") or [])
    )
    tolerate = [{"operator": "Exists", "effect": "NoSchedule"}]
    c.claim_and_pod(NS, "tolerant", uuid_is(tainted), tolerations=tolerate)
    labels = {"resource.kubernetes.io/admin-access": "true"}
    c.rest.create("/api/v1/namespaces", {"metadata": {"name": ADMIN_NS, "labels": labels}})
    c.claim_and_pod(ADMIN_NS, "watch", uuid_is(one), adminAccess=True)
    mine = [(NS, n) for n in ("one", "two", "share-a", "share-b", "part", "tolerant")]
    for ns, name in [*mine, (ADMIN_NS, "watch")]:
        until(f"pod {ns}/{name} running", lambda ns=ns, name=name: c.running(ns, name))
    c.rule("free-noschedule", lab, "gpu-3", "NoSchedule")
    c.rule("held-noschedule", lab, "gpu-1", "NoSchedule")
    c.rule("none-effect", shared, "gpu-3", "None")
    time.sleep(1.0)  # the controller's informers see the rules
    c.ask("busy")
    c.ask("one-pool", pool=lab)
    c.ask("first-two", limit=2)
    for name in ("busy", "one-pool", "first-two"):
        until(f"{name} answered", lambda name=name: c.answered(name))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, help="use the practice cluster running there")
    parser.add_argument("--out", type=Path, default=Path("tests/fixtures/poolstatus"))
    parser.add_argument("--kube", choices=("1.36", "1.37"), default="1.37")
    args = parser.parse_args()
    if args.dir is not None:
        scenario(ControlPlane(args.dir).rest(), args.out, args.kube)
        return 0
    with tempfile.TemporaryDirectory(prefix="poolstatus-") as tmp:
        cp = ControlPlane(Path(tmp))
        settings = Settings(kube=args.kube, devices=4, profiles=PROFILES, audit=False)
        cp.up(settings, log=lambda _m: None)
        try:
            scenario(cp.rest(), args.out, args.kube)
        except RestError as exc:
            print(f"record_pool_status: {exc}", file=sys.stderr)
            return 1
        finally:
            cp.down(log=lambda _m: None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
