"""The scenarios `gsb-tui cluster record-profile` performs, as data: one list of Steps per profile.

A Step says what to apply, what to delete, what to wait for and the mark to write once that
holds. Each list is built from what the cluster publishes (pools, device names, uuids and
capacities are read from its slices and classes, never assumed); profile_run.py performs it
with lab_run's runner and recorder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from gsb_tui.cluster.control_plane import Settings
from gsb_tui.cluster.lab_run import NS, LabRunError, LabRunner
from gsb_tui.cluster.seed import DRIVER
from gsb_tui.cluster.seed_profiles import NET_DRIVER
from gsb_tui.dra.availability import format_quantity, quantity

RESOURCE = "/apis/resource.k8s.io/v1"
RULES = "/apis/resource.k8s.io/v1beta2/devicetaintrules"
Manifest = dict[str, Any]

# ---- what a scenario is made of ------------------------------------------------------------


@dataclass(frozen=True)
class Wait:
    """A condition a step waits for, checked against the API server (not the recording).

    running / unschedulable / gone: a pod; allocated: a claim; event: an event about the
    object `name` whose reason or message contains `detail`; condition: a condition of type
    `detail` at the API path `name` (status.conditions, or True in a claim's status.devices
    while the claim is still allocated).
    """

    what: Literal["running", "unschedulable", "gone", "allocated", "event", "condition"]
    name: str
    detail: str = ""


@dataclass(frozen=True)
class Step:
    mark: str
    apply: tuple[Manifest, ...] = ()
    delete: tuple[str, ...] = ()  # kubectl names in the lab namespace: "pod/x", "resourceclaim/y"
    wait: tuple[Wait, ...] = ()
    settle: float = 1.0  # seconds for the watches to deliver what the step caused


@dataclass(frozen=True)
class Published:
    """What the cluster publishes, read once before a scenario starts."""

    slices: tuple[Manifest, ...]
    classes: tuple[Manifest, ...]

    @classmethod
    def read(cls, runner: LabRunner) -> Published:
        slices = runner.rest.get(f"{RESOURCE}/resourceslices").get("items", [])
        classes = runner.rest.get(f"{RESOURCE}/deviceclasses").get("items", [])
        return cls(tuple(slices), tuple(classes))

    def device(
        self, match: Callable[[Manifest, Manifest], object], what: str
    ) -> tuple[Manifest, Manifest]:
        """(slice spec, device) of the first published device with match(spec, device)."""
        for s in sorted(self.slices, key=lambda s: str(s["metadata"]["name"])):
            spec = s["spec"]
            for device in spec.get("devices") or []:
                if match(spec, device):
                    return spec, device
        raise LabRunError(f"the cluster publishes no {what}")


Scenario = Callable[[Published], list[Step]]


@dataclass(frozen=True)
class Recipe:
    """A profile's recording: the cluster it needs and the scenario performed on it."""

    settings: Settings
    scenario: Scenario


# ---- manifests -----------------------------------------------------------------------------


def uuid_of(device: Manifest) -> str:
    return str(device["attributes"]["uuid"]["string"])


def attr(name: str, driver: str = DRIVER) -> str:
    return f"device.attributes['{driver}'].{name}"


def same_uuid(device: Manifest, driver: str = DRIVER) -> str:
    return f"{attr('uuid', driver)} == '{uuid_of(device)}'"


def claim(name: str, cel: str, device_class: str = DRIVER, **exactly: Any) -> Manifest:
    request = {"deviceClassName": device_class, "selectors": [{"cel": {"expression": cel}}]}
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"devices": {"requests": [{"name": "dev", "exactly": request | exactly}]}},
    }


def pod(name: str, claim_name: str = "", limits: Mapping[str, str] | None = None) -> Manifest:
    container: Manifest = {"name": "ctr", "image": "ubuntu:22.04", "command": ["sleep", "9999"]}
    spec: Manifest = {"containers": [container]}
    if claim_name:
        container["resources"] = {"claims": [{"name": "dev"}]}
        spec["resourceClaims"] = [{"name": "dev", "resourceClaimName": claim_name}]
    if limits:
        container["resources"] = {"limits": dict(limits)}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NS},
        "spec": spec,
    }


def claim_and_pod(
    name: str, cel: str, device_class: str = DRIVER, **exactly: Any
) -> tuple[Manifest, ...]:
    """A claim and a pod of the same name that uses it."""
    return (claim(name, cel, device_class, **exactly), pod(name, name))


def running(name: str) -> Wait:
    return Wait("running", name)


def unschedulable(name: str) -> Wait:
    return Wait("unschedulable", name)


def half(value: str) -> str:
    """Half a quantity, written as Kubernetes would ("80Gi" -> "40Gi")."""
    return format_quantity((quantity(value) or Fraction(0)) / 2)


# ---- the scenarios -------------------------------------------------------------------------


def partitions(found: Published) -> list[Step]:
    """A full GPU holds the counters its partitions need; they come free when it goes."""
    _, full = found.device(
        lambda s, d: s["pool"]["name"].endswith("-partitions") and "full" in d["attributes"],
        "full GPU in a -partitions pool",
    )
    gpu = same_uuid(full)
    return [
        Step("start"),
        Step(
            "full-held",
            apply=claim_and_pod("whole-gpu", f"{gpu} && has({attr('full')})"),
            wait=(running("whole-gpu"),),
        ),
        Step(
            "partition-pending",
            apply=claim_and_pod("gpu-slice", f"{gpu} && has({attr('partition')})"),
            wait=(unschedulable("gpu-slice"),),
        ),
        Step(
            "partition-allocated",
            delete=("pod/whole-gpu", "resourceclaim/whole-gpu"),
            wait=(running("gpu-slice"),),
        ),
    ]


def shared(found: Published) -> list[Step]:
    """Two claims take half the memory each of one device; a third finds it full."""
    _, device = found.device(
        lambda s, d: s["pool"]["name"].endswith("-shared") and d.get("allowMultipleAllocations"),
        "device allowing multiple allocations in a -shared pool",
    )
    memory = device["capacity"]["memory"]
    halves = {"requests": {"memory": half(memory["value"])}}
    least = {"requests": {"memory": memory["requestPolicy"]["validRange"]["min"]}}
    gpu = same_uuid(device)
    return [
        Step("start"),
        Step(
            "one-share",
            apply=claim_and_pod("share-a", gpu, capacity=halves),
            wait=(running("share-a"),),
        ),
        Step(
            "full", apply=claim_and_pod("share-b", gpu, capacity=halves), wait=(running("share-b"),)
        ),
        Step(
            "share-pending",
            apply=claim_and_pod("share-c", gpu, capacity=least),
            wait=(unschedulable("share-c"),),
        ),
    ]


def taints(found: Published) -> list[Step]:
    """A NoSchedule taint keeps a claim away unless tolerated; a NoExecute DeviceTaintRule
    then evicts the tolerating pod."""
    spec, device = found.device(
        lambda s, d: any(t.get("effect") == "NoSchedule" for t in d.get("taints") or []),
        "device with a NoSchedule taint",
    )
    taint = next(t for t in device["taints"] if t["effect"] == "NoSchedule")
    toleration = {k: taint[k] for k in ("key", "value", "effect")} | {"operator": "Equal"}
    rule: Manifest = {
        "apiVersion": "resource.k8s.io/v1beta2",
        "kind": "DeviceTaintRule",
        "metadata": {"name": "drain-device"},
        "spec": {
            "deviceSelector": {
                "driver": spec["driver"],
                "pool": spec["pool"]["name"],
                "device": device["name"],
            },
            "taint": {"key": "example.com/drain", "value": "now", "effect": "NoExecute"},
        },
    }
    gpu = same_uuid(device)
    return [
        Step("start"),
        Step(
            "untolerated-pending",
            apply=claim_and_pod("no-toleration", gpu),
            wait=(unschedulable("no-toleration"),),
        ),
        Step(
            "tolerated-allocated",
            apply=claim_and_pod("tolerates", gpu, tolerations=[toleration]),
            wait=(running("tolerates"),),
        ),
        Step(
            "evicted",
            apply=(rule,),
            wait=(
                Wait("event", "tolerates", "DeviceTaintManagerEviction"),
                Wait("gone", "tolerates"),
                Wait("condition", f"{RULES}/drain-device", "EvictionInProgress"),
            ),
        ),
    ]


def binding(found: Published, fail: bool = False) -> list[Step]:
    """The scheduler reserves a device, waits for the driver's conditions, then binds — or,
    when the driver reports failure, gives the device back."""
    _, device = found.device(
        lambda s, d: s["pool"]["name"].endswith("-binding") and d.get("bindingConditions"),
        "device with bindingConditions in a -binding pool",
    )
    claim_path = f"{RESOURCE}/namespaces/{NS}/resourceclaims/bind-gpu"
    failure = device["bindingFailureConditions"][0]
    steps = [
        Step("start"),
        Step(
            "binding-waiting",
            apply=claim_and_pod("bind-gpu", same_uuid(device)),
            wait=(
                Wait("allocated", "bind-gpu"),
                Wait("event", "bind-gpu", "BindingConditionsPending"),
            ),
            settle=0.5,
        ),
    ]
    if not fail:
        return [*steps, Step("bound", wait=(running("bind-gpu"),))]
    return [
        *steps,
        # The scheduler looks again within 5 s and gives the device back: mark quickly.
        Step("binding-failed", wait=(Wait("condition", claim_path, failure),), settle=0.3),
        Step("given-back", wait=(Wait("event", "bind-gpu", "deallocation of ResourceClaim"),)),
    ]


def extended(found: Published) -> list[Step]:
    """A pod asks for the extended resource in resources.limits; the scheduler makes its claim."""
    cls = next((c for c in found.classes if c["spec"].get("extendedResourceName")), None)
    if cls is None:
        raise LabRunError("the cluster has no DeviceClass with an extendedResourceName")
    limits = {cls["spec"]["extendedResourceName"]: "1"}
    return [
        Step("start"),
        Step(
            "extended-running", apply=(pod("ext-gpu", limits=limits),), wait=(running("ext-gpu"),)
        ),
    ]


def network(found: Published) -> list[Step]:
    """A shared NIC from a pool every node reaches, then a port chosen per device (one node)."""
    _, nic = found.device(
        lambda s, d: s["driver"] == NET_DRIVER and bool(s.get("allNodes")), "allNodes NIC"
    )
    _, port = found.device(
        lambda s, d: bool(s.get("perDeviceNodeSelection")) and bool(d.get("nodeName")),
        "per-device port with a nodeName",
    )
    return [
        Step("start"),
        Step(
            "fabric-allocated",
            apply=claim_and_pod("fabric-nic", same_uuid(nic, NET_DRIVER), NET_DRIVER),
            wait=(running("fabric-nic"),),
        ),
        Step(
            "port-allocated",
            apply=claim_and_pod("node-port", same_uuid(port, NET_DRIVER), NET_DRIVER),
            wait=(running("node-port"),),
        ),
    ]


def workloads(found: Published) -> list[Step]:
    """A PodGroup holds one claim for its two pods (DRAWorkloadResourceClaims): the claim is
    reserved for the group, not for either pod; deleting the pods leaves it reserved, deleting
    the group lets it go."""
    del found  # any of the lab's devices will do
    group: Manifest = {
        "apiVersion": "scheduling.k8s.io/v1beta1",
        "kind": "PodGroup",
        "metadata": {"name": "trainers", "namespace": NS},
        "spec": {
            "schedulingPolicy": {"basic": {}},
            "resourceClaims": [{"name": "dev", "resourceClaimName": "group-gpu"}],
        },
    }
    members = []
    for name in ("trainer-0", "trainer-1"):
        member = pod(name, "group-gpu")
        member["spec"]["schedulingGroup"] = {"podGroupName": "trainers"}
        members.append(member)
    return [
        Step("start"),
        Step(
            "group-running",
            apply=(claim("group-gpu", f"device.driver == '{DRIVER}'"), group, *members),
            wait=(running("trainer-0"), running("trainer-1")),
        ),
        Step("pods-gone", delete=("pod/trainer-0", "pod/trainer-1")),
        Step("group-gone", delete=("podgroup.scheduling.k8s.io/trainers",)),
    ]


SMALL = Settings(devices=4)  # a few devices per pool keep the recordings and the demo small
RECIPES: dict[str, Recipe] = {
    "partitions": Recipe(replace(SMALL, profiles=("partitions",)), partitions),
    "shared": Recipe(replace(SMALL, profiles=("shared",)), shared),
    "taints": Recipe(replace(SMALL, profiles=("taints",)), taints),
    # The driver answers after 4 s: time to see the claim waiting before the pod binds.
    "binding": Recipe(replace(SMALL, profiles=("binding",), binding_delay=4.0), binding),
    "extended": Recipe(replace(SMALL, profiles=("extended",)), extended),
    "network": Recipe(replace(SMALL, profiles=("network",)), network),
    "workloads": Recipe(replace(SMALL, profiles=("workloads",), kube="1.37"), workloads),
}
