"""Helpers for e2e tests: a LiveSource feeding a Store, and object builders."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Snapshot

CLAIMS = "/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims"


def claim(name: str, ns: str) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "devices": {
                "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]
            }
        },
    }


class Watching:
    """A LiveSource feeding a Store, with a helper to wait for a condition on snapshots."""

    def __init__(self, target: Target) -> None:
        self.store = Store()
        self.changed = asyncio.Event()
        self.source = LiveSource(target)
        self.task: asyncio.Task[None] | None = None

    def emit(self, change: Change) -> None:
        self.store.apply(change)
        self.changed.set()

    async def __aenter__(self) -> Watching:
        self.task = asyncio.create_task(self.source.run(self.emit))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)

    async def until(
        self, what: str, cond: Callable[[Snapshot], bool], timeout: float = 15
    ) -> Snapshot:
        async def wait() -> Snapshot:
            while True:
                snap = self.store.snapshot()
                if cond(snap):
                    return snap
                self.changed.clear()
                await self.changed.wait()

        try:
            return await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"timed out waiting for {what}: {self.store.snapshot().states}"
            ) from None
