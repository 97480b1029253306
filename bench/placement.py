"""The bench places pods and allocates their claims itself, where kube-scheduler cannot fill the
cluster within the bench's time.

kube-scheduler 1.36.3 places pods that need partitionable devices at ~0.6 pods/s at 10,008
devices (docs/CLUSTER-FACTS.md): 3,336 pods would take over an hour. What gsb-tui is measured
on is the objects, not who wrote them, so here the bench writes what the scheduler would: each
pod is created bound to its node (`spec.nodeName`: the scheduler never sees it, kwok runs it),
and its claim's status gets an allocation on that node's devices and the pod in `reservedFor`.

One claim per counter set (one GPU of the partitions profile), or per device where a slice has
no counters (the lab's GPUs, the growth run's 50,000 devices), so no counter is ever
over-committed: alternately the first device drawing on the set (a partition; the whole GPU
beside it is then blocked by the counters) and the last (the whole GPU; both partitions
blocked). The API server validates every status written; a refused one is counted, not hidden.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from harness import Client

SLICES_PATH = "/apis/resource.k8s.io/v1/resourceslices"


@dataclass(frozen=True)
class Slot:
    """Where one claim goes: a device of a node's pool."""

    node: str
    driver: str
    pool: str
    device: str


def slots(client: Client) -> list[Slot]:
    """One slot per counter set of every node-local slice, in node then slice order."""
    out: list[Slot] = []
    items = client.get(SLICES_PATH).get("items") or []
    items.sort(key=lambda s: _natural((s.get("spec") or {}).get("nodeName") or ""))
    for s in items:
        spec = s.get("spec") or {}
        node = str(spec.get("nodeName") or "")
        if not node:
            continue
        pool = str((spec.get("pool") or {}).get("name") or "")
        drawing: dict[str, list[str]] = {}  # counter set -> devices drawing on it, in order
        for device in spec.get("devices") or []:
            for use in device.get("consumesCounters") or []:
                drawing.setdefault(str(use.get("counterSet") or ""), []).append(device["name"])
        for devices in drawing.values():
            pick = devices[0] if len(out) % 2 == 0 else devices[-1]
            out.append(Slot(node, str(spec.get("driver") or ""), pool, pick))
        if not drawing:  # no counters (the lab's GPUs): every device is a slot of its own
            driver = str(spec.get("driver") or "")
            out.extend(Slot(node, driver, pool, d["name"]) for d in spec.get("devices") or [])
    return out


def spread(found: list[Slot], wanted: int) -> list[Slot]:
    """`wanted` slots evenly over those found (half the lab's devices: every other one of each
    node, as the scheduler spreads them; all of them when there are no more than wanted)."""
    if wanted >= len(found):
        return found
    return [found[i * len(found) // wanted] for i in range(wanted)]


def _natural(name: str) -> tuple[str, int]:
    """lab-node-10 after lab-node-9."""
    head, _, tail = name.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (name, -1)


def bound_pod(pod: dict[str, Any], node: str) -> dict[str, Any]:
    """The pod as the scheduler would leave it: bound to `node`."""
    return {**pod, "spec": {**pod["spec"], "nodeName": node}}


def allocation_status(slot: Slot, request: str, pod: str, pod_uid: str) -> dict[str, Any]:
    """A merge patch of a claim's status: its allocation on `slot` and `pod` in reservedFor."""
    return {
        "status": {
            "allocation": {
                "devices": {
                    "results": [
                        {
                            "request": request,
                            "driver": slot.driver,
                            "pool": slot.pool,
                            "device": slot.device,
                        }
                    ]
                },
                "nodeSelector": {
                    "nodeSelectorTerms": [
                        {
                            "matchFields": [
                                {"key": "metadata.name", "operator": "In", "values": [slot.node]}
                            ]
                        }
                    ]
                },
            },
            "reservedFor": [{"resource": "pods", "name": pod, "uid": pod_uid}],
        }
    }


def place(
    client: Client,
    slot: Slot,
    claims_path: str,
    pods_path: str,
    claim: dict[str, Any],
    pod: dict[str, Any],
) -> tuple[bool, bool, str]:
    """Create the claim and the bound pod, then allocate and reserve the claim:
    (claim made, pod made, the API server's refusal or "")."""
    made_claim = client.create(claims_path, claim) in (201, 409)
    status, raw = client.request("POST", pods_path, bound_pod(pod, slot.node))
    if status == 409:
        status, raw = client.request("GET", f"{pods_path}/{pod['metadata']['name']}")
    if status >= 300:
        return made_claim, False, f"pod: {status} {raw[:200]!r}"
    uid = str((json.loads(raw).get("metadata") or {}).get("uid") or "")
    request = claim["spec"]["devices"]["requests"][0]["name"]
    body = allocation_status(slot, request, pod["metadata"]["name"], uid)
    name = claim["metadata"]["name"]
    status, raw = client.request("PATCH", f"{claims_path}/{name}/status", body)
    return made_claim, True, "" if status < 300 else f"claim status: {status} {raw[:200]!r}"
