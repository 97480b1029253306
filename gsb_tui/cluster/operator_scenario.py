"""The operator's cluster, recorded: `gsb-tui cluster record-profile operator FILE`.

Not a feature profile of its own (no `up --profile operator`): a 40-node practice cluster with
the lab's, the partitions', the shared and the taints' pools (4 GPUs each per node: 24 devices
a node, 960 in all), filled the way an operator finds one: claims and pods in four namespaces,
most allocated and Running, placed by the real kube-scheduler and the resourceclaim controller;
whole GPUs and partitions holding each other's counters; shares of consumable capacity; one
claim shared by several pods; claims tolerating device taints; and pods Pending for different
reasons (more devices than any node has, a selector nothing matches, a taint not tolerated).

Marks: `start` (everything published and listed), `filled` (every pod Running or told why
not, and the watches caught up). No cleanup: the cluster is thrown away after the recording,
and the recording stays small. Device names, uuids and counts come from what the cluster
publishes, never assumed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gsb_tui.cluster.control_plane import Settings
from gsb_tui.cluster.lab_run import NS, LabRunError, LabRunner, Mark
from gsb_tui.cluster.profile_scenarios import Published, attr, same_uuid
from gsb_tui.cluster.seed import DRIVER

NAME = "operator"
SETTINGS = Settings(
    nodes=40,
    devices=4,  # per pool: lab 4 + partitions 4 x (2 partitions + full) + shared 4 + taints 4
    profiles=("lab", "partitions", "shared", "taints"),
    partitions=2,
    scheduler_qps=200.0,  # the default 50 requests/s binds ~12 DRA pods/s
    audit=False,
)
FILL_TIMEOUT_S = 900.0
LABEL = ("gsb-tui.example.com/scenario", NAME)
Manifest = dict[str, Any]

# (namespace, pods) of each kind of workload; the counts keep the recording a few MB.
TRAIN = ("ml-train", 32)  # whole GPUs of the partitions pool: their partitions are blocked
SERVE = ("ml-serve", 48)  # one partition each, from a template: the whole GPU is blocked
RESEARCH = ("research", 16)  # a half of a shared GPU's memory each
NOTEBOOK_PODS = 3  # pods of research sharing one claim
LAB_PODS = 24  # plain GPUs in the lab's namespace
TOLERATING = 4  # claims tolerating a NoSchedule device taint, each on such a device


@dataclass(frozen=True)
class Expect:
    """What `filled` waits for: these pods Running, those told they cannot be scheduled."""

    running: tuple[tuple[str, str], ...]
    pending: tuple[tuple[str, str], ...]


def _meta(name: str, namespace: str) -> Manifest:
    return {"name": name, "namespace": namespace, "labels": {LABEL[0]: LABEL[1]}}


def _request(cel: str, **exactly: Any) -> Manifest:
    selectors = [{"cel": {"expression": cel}}]
    return {"name": "gpu", "exactly": {"deviceClassName": DRIVER, "selectors": selectors} | exactly}


def claim(name: str, namespace: str, cel: str, **exactly: Any) -> Manifest:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": _meta(name, namespace),
        "spec": {"devices": {"requests": [_request(cel, **exactly)]}},
    }


def template(name: str, namespace: str, cel: str) -> Manifest:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaimTemplate",
        "metadata": _meta(name, namespace),
        "spec": {"spec": {"devices": {"requests": [_request(cel)]}}},
    }


def pod(name: str, namespace: str, claim_name: str = "", template_name: str = "") -> Manifest:
    ref = {"resourceClaimName": claim_name} if claim_name else {}
    ref |= {"resourceClaimTemplateName": template_name} if template_name else {}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": _meta(name, namespace),
        "spec": {
            "terminationGracePeriodSeconds": 0,
            "containers": [
                {
                    "name": "ctr",
                    "image": "ubuntu:22.04",
                    "command": ["sleep", "infinity"],
                    "resources": {"claims": [{"name": "gpu"}]},
                }
            ],
            "resourceClaims": [{"name": "gpu", **ref}],
        },
    }


def namespace(name: str) -> Manifest:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


def _tainted(found: Published, effect: str) -> list[Manifest]:
    """Devices the driver tainted with `effect`, in slice order (one per node)."""
    out = []
    for s in sorted(found.slices, key=lambda s: str(s["metadata"]["name"])):
        for device in s["spec"].get("devices") or []:
            if any(t.get("effect") == effect for t in device.get("taints") or []):
                out.append(device)
    return out


def _most_per_node(found: Published) -> int:
    per_node: dict[str, int] = {}
    for s in found.slices:
        node = s["spec"].get("nodeName") or ""
        per_node[node] = per_node.get(node, 0) + len(s["spec"].get("devices") or [])
    return max(per_node.values(), default=0)


def workloads(found: Published) -> tuple[list[list[Manifest]], Expect]:
    """The manifests, one batch per namespace (namespaces first), and what to wait for."""
    no_split = f"!has({attr('partitionable')}) && !device.allowMultipleAllocations"
    running: list[tuple[str, str]] = []
    pending: list[tuple[str, str]] = []
    batches: list[list[Manifest]] = [[namespace(n) for n in (TRAIN[0], SERVE[0], RESEARCH[0])]]

    ns, count = TRAIN
    batch = []
    for i in range(count):
        batch += [
            claim(f"train-{i}", ns, f"has({attr('full')})"),
            pod(f"train-{i}", ns, f"train-{i}"),
        ]
        running.append((ns, f"train-{i}"))
    batches.append(batch)

    ns, count = SERVE
    batch = [template("one-partition", ns, f"has({attr('partition')})")]
    for i in range(count):
        batch.append(pod(f"serve-{i}", ns, template_name="one-partition"))
        running.append((ns, f"serve-{i}"))
    batches.append(batch)

    ns, count = RESEARCH
    halves = {"capacity": {"requests": {"memory": "40Gi"}}}
    batch = []
    for i in range(count):
        batch += [
            claim(f"share-{i}", ns, "device.allowMultipleAllocations", **halves),
            pod(f"share-{i}", ns, f"share-{i}"),
        ]
        running.append((ns, f"share-{i}"))
    batch.append(claim("notebook", ns, no_split))
    for i in range(NOTEBOOK_PODS):
        batch.append(pod(f"notebook-{i}", ns, "notebook"))
        running.append((ns, f"notebook-{i}"))
    batch.append(claim("unused", ns, no_split))  # no pod: waits for its first consumer
    batches.append(batch)

    batch = []
    for i in range(LAB_PODS):
        batch += [claim(f"gpu-{i}", NS, no_split), pod(f"gpu-{i}", NS, f"gpu-{i}")]
        running.append((NS, f"gpu-{i}"))
    broken = _tainted(found, "NoSchedule")
    if len(broken) < TOLERATING + 1:
        raise LabRunError("the cluster publishes too few devices with a NoSchedule taint")
    for i, device in enumerate(broken[:TOLERATING]):
        taint = next(t for t in device["taints"] if t["effect"] == "NoSchedule")
        toleration = {"key": taint["key"], "operator": "Exists", "effect": "NoSchedule"}
        batch += [
            claim(f"tolerates-{i}", NS, same_uuid(device), tolerations=[toleration]),
            pod(f"tolerates-{i}", NS, f"tolerates-{i}"),
        ]
        running.append((NS, f"tolerates-{i}"))
    too_many = _most_per_node(found) + 1
    batch += [
        claim("too-many", NS, f"device.driver == '{DRIVER}'", count=too_many),
        pod("too-many", NS, "too-many"),
        claim("no-such-model", NS, f"{attr('model')} == 'NO-SUCH-MODEL'"),
        pod("no-such-model", NS, "no-such-model"),
        claim("untolerated", NS, same_uuid(broken[TOLERATING])),
        pod("untolerated", NS, "untolerated"),
    ]
    pending += [(NS, "too-many"), (NS, "no-such-model"), (NS, "untolerated")]
    batches.append(batch)
    return batches, Expect(tuple(running), tuple(pending))


def _filled(runner: LabRunner, expect: Expect) -> Callable[[], bool]:
    selector = f"labelSelector={LABEL[0]}%3D{LABEL[1]}"

    def check() -> bool:
        pods = runner.rest.get(f"/api/v1/pods?{selector}").get("items", [])
        phase = {
            (p["metadata"]["namespace"], p["metadata"]["name"]): (p.get("status") or {}).get(
                "phase"
            )
            for p in pods
        }
        if any(phase.get(key) != "Running" for key in expect.running):
            return False
        events = runner.rest.get("/api/v1/events?fieldSelector=reason%3DFailedScheduling")
        told = {
            (e["involvedObject"].get("namespace"), e["involvedObject"].get("name"))
            for e in events.get("items", [])
        }
        return set(expect.pending) <= told

    return check


def perform(runner: LabRunner, mark: Mark) -> list[str]:
    """Apply every namespace's batch, wait until each pod is Running or told why not."""
    found = Published.read(runner)
    batches, expect = workloads(found)
    runner.step(mark, "start", None, None, settle=1.0)

    def act() -> None:
        for batch in batches:
            runner.apply("\n---\n".join(json.dumps(m) for m in batch))

    act()
    runner.wait_for("every pod Running or told why not", _filled(runner, expect), FILL_TIMEOUT_S)
    runner.step(mark, "filled", None, None, settle=3.0)
    return ["start", "filled"]
