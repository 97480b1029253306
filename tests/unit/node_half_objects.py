"""The node half of DRA (what a real kubelet writes) on objects RECORDED from the lab on a real
node (tests/fixtures/realnode/lab.jsonl, `gsb-tui cluster record-lab --real-node`: a real
kubelet, containerd and the practice driver for gpu.example.com; gsb_tui/cluster/node_run.py
performs it), and the few states that recording cannot show DERIVED from it.

RECORDED (marks of the recording):
- `unhealthy()`: health-unhealthy — the practice driver marked dra-1's device Unhealthy, with
  its message;
- `prepare_failed()`: prepare-failed — the driver stopped; the new pod after-driver waits in
  ContainerCreating and the kubelet's FailedPrepareDynamicResources says why; the devices of
  running pods went Unknown (the kubelet's health stream from the plugin ended);
- `image_pull()`: image-missing (ErrImagePull) and driver-back (ImagePullBackOff) — pod no-image
  names an image the node cannot pull.

DERIVED (recorded objects with only the kubelet's own fields changed, exactly as upstream
v1.36.5 writes them; pkg/kubelet/cm/dra/manager.go, kuberuntime/kuberuntime_manager.go):
- `not_registered()`: the kubelet's other words for a prepare failure, "DRA driver … is not
  registered" (a plugin that unregistered), repeated ×5 with backoff;
- `creating()`: after-driver in ContainerCreating before the kubelet said anything (its event
  left out);
- `unmatched()`: dra-2x reporting a resourceID that names neither of its two devices;
- `driver_gone()`: the node's ResourceSlice gone (the kubelet removes it ~40 s after the plugin
  stops; the recording restarts the driver sooner) while the claims stay allocated.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind, Snapshot

REALNODE = Path(__file__).resolve().parents[1] / "fixtures" / "realnode" / "lab.jsonl"
NAMESPACE = "dra-lab"
DRIVER = "gpu.example.com"
CDI_KIND = f"{DRIVER}/gpu"  # the practice driver's CDI kind (vendor/class)
ORPHAN_POD = "after-driver"  # made while the driver was stopped (node_run.ORPHAN_POD)
NO_IMAGE_POD = "no-image"  # its image is nowhere (node_run.NO_IMAGE_POD)
NOT_REGISTERED = (
    "Failed to prepare dynamic resources: prepare dynamic resources: DRA driver"
    f" {DRIVER} is not registered"
)
PREPARE_COUNT = 5  # not_registered(): the kubelet said it again with backoff

Obj = dict[str, Any]
Objects = dict[Kind, dict[Any, Obj]]


@functools.cache
def recorded(mark: str) -> Snapshot:
    """The real node's cluster right after a mark."""
    return snapshot_at(REALNODE, mark)


def unhealthy() -> Snapshot:
    return recorded("health-unhealthy")


def prepare_failed() -> Snapshot:
    return recorded("prepare-failed")


def image_pull(reason: str = "ErrImagePull") -> Snapshot:
    return recorded({"ErrImagePull": "image-missing", "ImagePullBackOff": "driver-back"}[reason])


# ---- what the recorded objects say, read from them (never constants) ------------------------


def pod(snapshot: Snapshot, name: str) -> Obj:
    found = snapshot.get(Kind.PODS, NAMESPACE, name)
    assert found is not None, name
    return dict(found)


def node_of(snapshot: Snapshot, pod_name: str) -> str:
    return str(pod(snapshot, pod_name)["spec"]["nodeName"])


def claim_of(snapshot: Snapshot, pod_name: str, entry: str = "gpu") -> Obj:
    """The claim a pod's resourceClaims entry names, or resolved to from a template
    (status.resourceClaimStatuses)."""
    found = pod(snapshot, pod_name)
    names = {
        s["name"]: s["resourceClaimName"]
        for s in found["spec"]["resourceClaims"]
        if "resourceClaimName" in s
    }
    for status in found["status"].get("resourceClaimStatuses") or ():
        names[status["name"]] = status["resourceClaimName"]
    claim = snapshot.get(Kind.CLAIMS, NAMESPACE, names[entry])
    assert claim is not None, names[entry]
    return dict(claim)


def devices_of(claim: Obj) -> list[str]:
    return [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]]


def reported(snapshot: Snapshot, pod_name: str) -> list[Obj]:
    """Every resources[] entry of the pod's allocatedResourcesStatus, as the kubelet wrote it."""
    return [
        resource
        for status in pod(snapshot, pod_name)["status"].get("containerStatuses") or ()
        for entry in status.get("allocatedResourcesStatus") or ()
        for resource in entry.get("resources") or ()
    ]


def waiting(snapshot: Snapshot, pod_name: str) -> Obj:
    (status,) = pod(snapshot, pod_name)["status"]["containerStatuses"]
    return dict(status["state"]["waiting"])


def events_of(snapshot: Snapshot, pod_name: str, reason: str) -> list[Obj]:
    return [
        dict(e)
        for e in snapshot.items(Kind.EVENTS)
        if e["involvedObject"]["name"] == pod_name and e["reason"] == reason
    ]


# ---- derived --------------------------------------------------------------------------------


def _edited(mark: str, edit: Callable[[Objects], None]) -> Snapshot:
    """The recorded snapshot at `mark`, its objects deep-copied and edited."""
    base = recorded(mark)
    objects: Objects = {
        kind: {key: copy.deepcopy(dict(o)) for key, o in objs.items()}
        for kind, objs in base.objects.items()
    }
    edit(objects)
    return Snapshot(objects=objects, states=base.states, server_version=base.server_version)


def _prepare_event(objects: Objects) -> Obj:
    (event,) = [
        e
        for e in objects[Kind.EVENTS].values()
        if e["reason"] == "FailedPrepareDynamicResources"
        and e["involvedObject"]["name"] == ORPHAN_POD
    ]
    return event


def not_registered() -> Snapshot:
    """prepare-failed, the kubelet's event in its words for a plugin that unregistered (the
    error of pkg/kubelet/cm/dra/plugin/dra_plugin_manager.go), said 5 times with backoff."""

    def edit(objects: Objects) -> None:
        event = _prepare_event(objects)
        event.update(message=NOT_REGISTERED, count=PREPARE_COUNT)
        event["lastTimestamp"] = "2026-12-02T06:55:44Z"  # 70 s after the first

    return _edited("prepare-failed", edit)


def creating() -> Snapshot:
    """prepare-failed a moment earlier: after-driver in ContainerCreating, nothing said yet."""

    def edit(objects: Objects) -> None:
        event = _prepare_event(objects)
        del objects[Kind.EVENTS][(event["metadata"]["namespace"], event["metadata"]["name"])]

    return _edited("prepare-failed", edit)


def unmatched() -> Snapshot:
    """step-7 with dra-2x (two devices) reporting one resourceID that names neither."""

    def edit(objects: Objects) -> None:
        found = objects[Kind.PODS][(NAMESPACE, "dra-2x")]
        (status,) = found["status"]["containerStatuses"]
        (entry,) = status["allocatedResourcesStatus"]
        entry["resources"] = [{"resourceID": f"{CDI_KIND}=some-other-id", "health": "Unhealthy"}]

    return _edited("step-7", edit)


def driver_gone() -> Snapshot:
    """step-7 after the driver's plugin stopped for good: its node's ResourceSlice is gone, the
    claims allocated from the node's pool stay allocated (and reserved)."""

    def edit(objects: Objects) -> None:
        objects[Kind.SLICES] = {}

    return _edited("step-7", edit)
