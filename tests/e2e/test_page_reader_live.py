"""The first list pages read by the child process (pages.ChildPages) against the real API
server: over its TLS and credentials, equal to a fresh list less managedFields."""

from __future__ import annotations

import asyncio
import json

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.kube.config import Target, resolve
from gsb_tui.kube.pages import ChildPages
from gsb_tui.kube.transport import NativeTransport

SLICES = "/apis/resource.k8s.io/v1/resourceslices"


def test_the_child_reads_a_list_over_tls_as_the_server_has_it(cluster: ControlPlane) -> None:
    api = NativeTransport(resolve(Target(kubeconfig=cluster.kubeconfig)))
    query = {"limit": 500, "resourceVersion": "0"}
    assert api.begin([(SLICES, query)], 5, 30, 1 << 30)
    child = api._early
    assert isinstance(child, ChildPages)

    async def fetch() -> bytes:
        try:
            got = await api.fetch(SLICES, query, 5, 30, 1 << 30)
        finally:
            await api.close()
        assert (got.status, got.content_type) == (200, "application/json")
        assert got.body is not None
        return got.body

    listed = json.loads(asyncio.run(fetch()))
    fresh = cluster.rest().get(SLICES)
    assert fresh["items"], "the practice cluster publishes slices"
    assert any("managedFields" in s["metadata"] for s in fresh["items"])
    for item in fresh["items"]:
        item["metadata"].pop("managedFields", None)
    by_name = {s["metadata"]["name"]: s for s in listed["items"]}
    assert by_name == {s["metadata"]["name"]: s for s in fresh["items"]}
    assert child._proc.poll() is not None  # answered, ended and reaped
