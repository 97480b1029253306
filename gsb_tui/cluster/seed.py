"""The objects the practice cluster starts with: what k3s plus dra-example-driver would show.

The driver's part is played by us: a DeviceClass and one ResourceSlice per node shaped like
dra-example-driver's gpu profile (devices gpu-0..gpu-N-1 with index/uuid/model/driverVersion
attributes and memory/compute capacity, pool named after the node).
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

DRIVER = "gpu.example.com"
MODEL = "LATEST-GPU-MODEL"
DRIVER_VERSION = "1.0.0"
LAB_NAMESPACE = "dra-lab"
KWOK_ANNOTATION = ("kwok.x-k8s.io/node", "fake")


def node_names(prefix: str, count: int) -> list[str]:
    return [prefix] if count == 1 else [f"{prefix}-{i}" for i in range(count)]


def node(name: str) -> dict[str, Any]:
    key, value = KWOK_ANNOTATION
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "annotations": {key: value},
            "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "node-role.kubernetes.io/control-plane": "true",
                "type": "kwok",
            },
        },
        "status": {
            # A small lab VM: note there is no GPU here; DRA devices are not node numbers.
            "allocatable": {
                "cpu": "4",
                "memory": "8Gi",
                "pods": "110",
                "ephemeral-storage": "40Gi",
            },
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "40Gi"},
        },
    }


def device_uuid(node_name: str, index: int) -> str:
    # Deterministic per node, like the driver's seeded generator (values differ from it).
    digest = hashlib.sha256(f"{node_name}/{index}".encode()).digest()
    return f"gpu-{uuid.UUID(bytes=digest[:16], version=4)}"


def device_class() -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": DRIVER},
        "spec": {"selectors": [{"cel": {"expression": f"device.driver == '{DRIVER}'"}}]},
    }


def resource_slice(node_name: str, node_uid: str, devices: int) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {
            # The v0.36 publisher's pattern: <index hex>-<driver>-<node>-<random>.
            "generateName": f"00000-{DRIVER}-{node_name}-",
            "ownerReferences": [
                {
                    "apiVersion": "v1",
                    "kind": "Node",
                    "name": node_name,
                    "uid": node_uid,
                    "controller": True,
                }
            ],
        },
        "spec": {
            "driver": DRIVER,
            "nodeName": node_name,
            "pool": {"name": node_name, "generation": 1, "resourceSliceCount": 1},
            "devices": [
                {
                    "name": f"gpu-{i}",
                    "allowMultipleAllocations": False,
                    "attributes": {
                        "index": {"int": i},
                        "uuid": {"string": device_uuid(node_name, i)},
                        "model": {"string": MODEL},
                        "driverVersion": {"version": DRIVER_VERSION},
                    },
                    "capacity": {"memory": {"value": "80Gi"}, "compute": {"value": "100"}},
                }
                for i in range(devices)
            ],
        },
    }


def namespace(name: str = LAB_NAMESPACE) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
