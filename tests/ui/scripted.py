"""A change source the UI tests drive step by step, and lab-shaped objects for the states the
recording cannot show (forbidden kinds, 64 devices, an unreachable server).

Object shapes follow shared/docs/dra-reference.md (resource.k8s.io/v1 as served by 1.36);
tests about what the lab really produced load tests/fixtures/lab.jsonl instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from gsb_tui.kube.source import Emit, SourceInfo
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, KindState, Phase, Snapshot

DRIVER = "gpu.example.com"
NAMESPACE = "dra-lab"


class ScriptedSource:
    """Emits whatever the test pushes, then waits (like a live watch that stays open)."""

    def __init__(self, server: str = "https://127.0.0.1:6443", fail: Exception | None = None):
        self.info = SourceInfo(context="test", server=server, namespace=NAMESPACE, live=True)
        self.queue: asyncio.Queue[Change] = asyncio.Queue()
        self.fail = fail
        self.runs = 0
        self.drawn_calls = 0

    def drawn(self) -> None:
        """What the App is given as `first_frame` by the tests about it."""
        self.drawn_calls += 1

    def push(self, *changes: Change) -> None:
        for change in changes:
            self.queue.put_nowait(change)

    async def run(self, emit: Emit) -> None:
        self.runs += 1
        if self.fail is not None:
            raise self.fail
        while True:
            emit(await self.queue.get())


def state(kind: Kind, phase: Phase, message: str = "", attempts: int = 0) -> Change:
    return Change(kind, "STATE", state=KindState(phase, message, attempts, "cluster"))


def synced(kind: Kind, items: Iterable[dict[str, Any]] = ()) -> list[Change]:
    return [Change(kind, "SYNCED", items=tuple(items)), state(kind, "synced")]


def resource_slice(node: str, count: int, generation: int = 1) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": f"00000-{DRIVER}-{node}-abcde", "uid": f"slice-{node}"},
        "spec": {
            "driver": DRIVER,
            "nodeName": node,
            "pool": {"name": node, "generation": generation, "resourceSliceCount": 1},
            "devices": [
                {
                    "name": f"gpu-{i}",
                    "attributes": {
                        "index": {"int": i},
                        "model": {"string": "LATEST-GPU-MODEL"},
                        "driverVersion": {"version": "1.0.0"},
                    },
                    "capacity": {"memory": {"value": "80Gi"}, "compute": {"value": "100"}},
                }
                for i in range(count)
            ],
        },
    }


def claim(
    name: str,
    node: str | None = None,
    devices: Iterable[str] = (),
    pods: Iterable[str] = (),
    count: int = 1,
) -> dict[str, Any]:
    devices = list(devices)
    status: dict[str, Any] = {}
    if devices and node:
        status["allocation"] = {
            "devices": {
                "results": [
                    {"request": "gpu", "driver": DRIVER, "pool": node, "device": d} for d in devices
                ]
            },
            "nodeSelector": {
                "nodeSelectorTerms": [
                    {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}
                ]
            },
        }
        status["reservedFor"] = [{"resource": "pods", "name": p, "uid": f"uid-{p}"} for p in pods]
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": NAMESPACE, "uid": f"uid-{name}"},
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "gpu",
                        "exactly": {
                            "deviceClassName": DRIVER,
                            "allocationMode": "ExactCount",
                            "count": count,
                        },
                    }
                ]
            }
        },
        "status": status,
    }


def pod(name: str, claim_name: str, node: str = "") -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NAMESPACE, "uid": f"uid-{name}"},
        "spec": {
            "nodeName": node,
            "resourceClaims": [{"name": "gpu", "resourceClaimName": claim_name}],
            "containers": [{"name": "ctr", "resources": {"claims": [{"name": "gpu"}]}}],
        },
        "status": {"phase": "Running" if node else "Pending"},
    }


class SnapshotSource:
    """Emits one recorded Snapshot (every kind's objects and watch state), then waits.

    The info is fixed (not the recording's path) so screenshots do not depend on where the
    repository is checked out.
    """

    def __init__(self, snapshot: Snapshot, server: bool = False) -> None:
        self.snapshot = snapshot
        self.server = server  # also say the snapshot's server version (a SERVER change)
        self.done = False
        self.info = SourceInfo(
            context="lab", server="https://127.0.0.1:6443", namespace=NAMESPACE, live=True
        )

    async def run(self, emit: Emit) -> None:
        if self.server and self.snapshot.server_version:
            emit(Change(Kind.NODES, "SERVER", label=self.snapshot.server_version))
        for kind in Kind:
            emit(Change(kind, "SYNCED", items=tuple(self.snapshot.items(kind))))
            emit(Change(kind, "STATE", state=self.snapshot.state(kind)))
        self.done = True
        await asyncio.Event().wait()  # then stays open, as a live watch does
