"""The objects each non-lab profile adds: what dra-example-driver publishes in that mode.

Shapes follow the driver's gpu profile (internal/profiles/gpu/gpu.go: `--gpu-partitions`,
`--gpu-allow-multiple-allocations`, `--binding-conditions`) and its net profile, with field
names from k8s.io/api@v0.36.3 resource/v1. Each profile publishes its own pool per node
(`<node>-<profile>`), so profiles combine without two drivers claiming one pool; every device
keeps the lab's attributes (index, uuid, model, driverVersion), and the uuid is derived from the
pool, so a selector on uuid names exactly one device (or one GPU with its partitions).
"""

from __future__ import annotations

from typing import Any

from gsb_tui.cluster.seed import DRIVER, DRIVER_VERSION, MODEL, device_uuid

NET_DRIVER = "net.example.com"
NET_MODEL = "LATEST-NET-MODEL"
EXTENDED_CLASS = f"extended.{DRIVER}"
EXTENDED_RESOURCE = "example.com/gpu"
GPU_MEMORY = 80 * 2**30  # bytes, as the driver's 80Gi
GPU_COMPUTE = 100
# dra-example-driver's condition types in --binding-conditions mode.
BINDING_CONDITION = "BindingConditions"
BINDING_FAILURE_CONDITION = "BindingFailureConditions"
TAINTS: dict[int, dict[str, str]] = {
    # Device index in the taints pool -> its taint. A tolerated NoExecute taint with
    # tolerationSeconds shows eviction after a delay; None is informational only.
    0: {"key": "example.com/broken", "value": "xid-79", "effect": "NoSchedule"},
    1: {"key": "example.com/ecc", "value": "uncorrectable", "effect": "NoExecute"},
    2: {"key": "example.com/maintenance", "value": "firmware", "effect": "None"},
}
MAX_COUNTER_SETS = 8  # per slice (ResourceSliceMaxCounterSets)
MAX_DEVICES_ADVANCED = 64  # per slice when a device has taints or consumes counters
MAX_DEVICES = 128


def pool_name(node_name: str, profile: str) -> str:
    return f"{node_name}-{profile}"


def binary_quantity(count: int) -> str:
    """Bytes as Kubernetes writes them: the largest exact Gi/Mi/Ki, else plain bytes."""
    for suffix, unit in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if count and count % unit == 0:
            return f"{count // unit}{suffix}"
    return str(count)


def gpu_attributes(pool: str, index: int) -> dict[str, Any]:
    return {
        "index": {"int": index},
        "uuid": {"string": device_uuid(pool, index)},
        "model": {"string": MODEL},
        "driverVersion": {"version": DRIVER_VERSION},
    }


def _plain_capacity(memory: int = GPU_MEMORY, compute: int = GPU_COMPUTE) -> dict[str, Any]:
    return {"memory": {"value": binary_quantity(memory)}, "compute": {"value": str(compute)}}


def _chunks(items: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def pool_slices(
    driver: str,
    pool: str,
    *,
    devices: list[dict[str, Any]] | None = None,
    counter_sets: list[dict[str, Any]] | None = None,
    node: tuple[str, str] | None = None,
    per_device_node_selection: bool = False,
) -> list[dict[str, Any]]:
    """One pool as a driver's publisher writes it: counter-only slices first, then device
    slices, each within the API's per-slice limits, resourceSliceCount counting them all.

    `node` is (name, uid) for a node-local pool (owned by the Node, like the lab's slice);
    without it the pool is for all nodes, or per device with `per_device_node_selection`.
    """
    devices = devices or []
    counter_sets = counter_sets or []
    advanced = any(d.get("taints") or d.get("consumesCounters") for d in devices)
    specs: list[dict[str, Any]] = [
        {"sharedCounters": chunk} for chunk in _chunks(counter_sets, MAX_COUNTER_SETS)
    ]
    limit = MAX_DEVICES_ADVANCED if advanced else MAX_DEVICES
    specs += [{"devices": chunk} for chunk in _chunks(devices, limit)]
    out = []
    for index, content in enumerate(specs):
        spec: dict[str, Any] = {
            "driver": driver,
            "pool": {"name": pool, "generation": 1, "resourceSliceCount": len(specs)},
        }
        metadata: dict[str, Any] = {"generateName": f"{index:05x}-{driver}-"}
        if node:
            name, uid = node
            spec["nodeName"] = name
            metadata["generateName"] += f"{name}-"
            metadata["ownerReferences"] = [
                {"apiVersion": "v1", "kind": "Node", "name": name, "uid": uid, "controller": True}
            ]
        elif per_device_node_selection:
            spec["perDeviceNodeSelection"] = True
        else:
            spec["allNodes"] = True
        spec.update(content)
        out.append(
            {
                "apiVersion": "resource.k8s.io/v1",
                "kind": "ResourceSlice",
                "metadata": metadata,
                "spec": spec,
            }
        )
    return out


def partition_slices(
    node_name: str, node_uid: str, gpus: int, partitions: int
) -> list[dict[str, Any]]:
    """`--gpu-partitions N`: per GPU a counter set, gpu-<i>-partition-<j> and gpu-<i>-full."""
    pool = pool_name(node_name, "partitions")
    part_memory, part_compute = GPU_MEMORY // partitions, GPU_COMPUTE // partitions
    counter_sets = []
    devices: list[dict[str, Any]] = []
    for i in range(gpus):
        counter_set = f"gpu-{i}-counters"
        counter_sets.append({"name": counter_set, "counters": _plain_capacity()})
        for j in range(partitions):
            devices.append(
                {
                    "name": f"gpu-{i}-partition-{j}",
                    "attributes": {
                        **gpu_attributes(pool, i),
                        "partition": {"int": j},
                        "partitionable": {"bool": True},
                    },
                    "capacity": _plain_capacity(part_memory, part_compute),
                    "consumesCounters": [
                        {
                            "counterSet": counter_set,
                            "counters": _plain_capacity(part_memory, part_compute),
                        }
                    ],
                }
            )
        devices.append(
            {
                "name": f"gpu-{i}-full",
                "attributes": {
                    **gpu_attributes(pool, i),
                    "partitionable": {"bool": True},
                    "full": {"bool": True},
                },
                "capacity": _plain_capacity(),
                "consumesCounters": [{"counterSet": counter_set, "counters": _plain_capacity()}],
            }
        )
    return pool_slices(
        DRIVER, pool, devices=devices, counter_sets=counter_sets, node=(node_name, node_uid)
    )


def shared_slices(node_name: str, node_uid: str, gpus: int) -> list[dict[str, Any]]:
    """`--gpu-allow-multiple-allocations`: each GPU can be shared by claims asking capacity.

    memory takes any whole Gi (a claim without a memory request gets 10Gi); compute takes one
    of the listed values (a request in between is rounded up to the next one).
    """
    pool = pool_name(node_name, "shared")
    devices = [
        {
            "name": f"gpu-{i}",
            "allowMultipleAllocations": True,
            "attributes": gpu_attributes(pool, i),
            "capacity": {
                "memory": {
                    "value": binary_quantity(GPU_MEMORY),
                    "requestPolicy": {
                        "default": "10Gi",
                        "validRange": {"min": "1Gi", "step": "1Gi"},
                    },
                },
                "compute": {
                    "value": str(GPU_COMPUTE),
                    "requestPolicy": {"default": "10", "validValues": ["10", "25", "50", "100"]},
                },
            },
        }
        for i in range(gpus)
    ]
    return pool_slices(DRIVER, pool, devices=devices, node=(node_name, node_uid))


def taint_slices(node_name: str, node_uid: str, gpus: int) -> list[dict[str, Any]]:
    """Driver-published taints on the first devices of the pool (see TAINTS); others clean."""
    pool = pool_name(node_name, "taints")
    devices = []
    for i in range(gpus):
        device: dict[str, Any] = {
            "name": f"gpu-{i}",
            "attributes": gpu_attributes(pool, i),
            "capacity": _plain_capacity(),
        }
        if i in TAINTS:
            device["taints"] = [dict(TAINTS[i])]
        devices.append(device)
    return pool_slices(DRIVER, pool, devices=devices, node=(node_name, node_uid))


def binding_slices(node_name: str, node_uid: str, gpus: int) -> list[dict[str, Any]]:
    """`--binding-conditions`: the pod binds only after the driver reports the device ready."""
    pool = pool_name(node_name, "binding")
    devices = [
        {
            "name": f"gpu-{i}",
            "attributes": gpu_attributes(pool, i),
            "capacity": _plain_capacity(),
            "bindsToNode": True,
            "bindingConditions": [BINDING_CONDITION],
            "bindingFailureConditions": [BINDING_FAILURE_CONDITION],
        }
        for i in range(gpus)
    ]
    return pool_slices(DRIVER, pool, devices=devices, node=(node_name, node_uid))


def extended_class() -> dict[str, Any]:
    """The chart's `deviceClass.extendedResourceName`, as a class beside the lab's."""
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": EXTENDED_CLASS},
        "spec": {
            "selectors": [{"cel": {"expression": f"device.driver == '{DRIVER}'"}}],
            "extendedResourceName": EXTENDED_RESOURCE,
        },
    }


def network_class() -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": NET_DRIVER},
        "spec": {"selectors": [{"cel": {"expression": f"device.driver == '{NET_DRIVER}'"}}]},
    }


def _nic_attributes(pool: str, index: int) -> dict[str, Any]:
    return {
        "index": {"int": index},
        "uuid": {"string": device_uuid(pool, index).replace("gpu-", "net-", 1)},
        "model": {"string": NET_MODEL},
        "driverVersion": {"version": DRIVER_VERSION},
    }


def network_slices(node_names: list[str], nics: int) -> list[dict[str, Any]]:
    """The net profile's NICs as network-attached devices every node reaches (allNodes), and
    a pool choosing per device: one port per node (nodeName) and an uplink for all nodes."""
    bandwidth = {
        "value": "100G",
        "requestPolicy": {
            "default": "1G",
            "validRange": {"min": "100M", "max": "100G", "step": "1M"},
        },
    }
    fabric = [
        {
            "name": f"nic-{i}",
            "allowMultipleAllocations": True,
            "attributes": _nic_attributes("fabric", i),
            "capacity": {
                "vfs": {"value": "100", "requestPolicy": {"default": "1", "validValues": ["1"]}},
                "ingressBandwidth": bandwidth,
                "egressBandwidth": bandwidth,
            },
        }
        for i in range(nics)
    ]
    ports: list[dict[str, Any]] = [
        {"name": f"port-{k}", "attributes": _nic_attributes("fabric-ports", k), "nodeName": node}
        for k, node in enumerate(node_names)
    ]
    ports.append(
        {
            "name": "uplink",
            "attributes": _nic_attributes("fabric-ports", len(node_names)),
            "allNodes": True,
        }
    )
    return pool_slices(NET_DRIVER, "fabric", devices=fabric) + pool_slices(
        NET_DRIVER, "fabric-ports", devices=ports, per_device_node_selection=True
    )


def objects(
    profiles: tuple[str, ...], nodes: dict[str, str], gpus: int, partitions: int
) -> list[tuple[str, dict[str, Any]]]:
    """(collection path, object) for everything the non-lab profiles add; `nodes` maps each
    node's name to its uid (the owner of its slices)."""
    classes = "/apis/resource.k8s.io/v1/deviceclasses"
    slices = "/apis/resource.k8s.io/v1/resourceslices"
    out: list[tuple[str, dict[str, Any]]] = []
    if "extended" in profiles:
        out.append((classes, extended_class()))
    if "network" in profiles:
        out.append((classes, network_class()))
        out += [(slices, s) for s in network_slices(list(nodes), gpus)]
    for name, uid in nodes.items():
        made: list[dict[str, Any]] = []
        if "partitions" in profiles:
            made += partition_slices(name, uid, gpus, partitions)
        if "shared" in profiles:
            made += shared_slices(name, uid, gpus)
        if "taints" in profiles:
            made += taint_slices(name, uid, gpus)
        if "binding" in profiles:
            made += binding_slices(name, uid, gpus)
        out += [(slices, s) for s in made]
    return out
