"""Faults on the real control plane: the API server killed (-9) and restarted, repeatedly."""

from __future__ import annotations

import time

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.kube.config import Target
from gsb_tui.snapshot import Kind, Snapshot

from .watching import CLAIMS, Watching, claim

RESTARTS = 10


def claim_versions(snap: Snapshot, ns: str) -> dict[str, str]:
    return {
        o["metadata"]["name"]: o["metadata"]["resourceVersion"]
        for o in snap.items(Kind.CLAIMS)
        if o["metadata"]["namespace"] == ns
    }


async def test_api_server_kill_and_restart(cluster: ControlPlane) -> None:
    rest = cluster.rest()
    ns = "e2e-faults"
    rest.ensure("/api/v1/namespaces", {"metadata": {"name": ns}})
    recoveries = []
    async with Watching(Target(kubeconfig=cluster.kubeconfig, namespace=ns)) as w:
        await w.until("all kinds synced", lambda s: s.synced)
        for i in range(RESTARTS):
            cluster.kill("kube-apiserver")
            await w.until(
                "the claims watch to notice",
                lambda s: s.state(Kind.CLAIMS).phase == "reconnecting",
            )
            cluster.start_again("kube-apiserver")
            deadline = time.monotonic() + 60
            while not rest.healthy():
                assert cluster.running()["kube-apiserver"], "the API server did not start again"
                assert time.monotonic() < deadline, "the API server did not become ready"
                time.sleep(0.05)
            ready = time.monotonic()
            # Changes made before the reflector is back must still arrive (re-list).
            rest.create(CLAIMS.format(ns=ns), claim(f"r{i}", ns))
            if i:
                rest.delete(f"{CLAIMS.format(ns=ns)}/r{i - 1}")
            fresh = {
                c["metadata"]["name"]: c["metadata"]["resourceVersion"]
                for c in rest.get(CLAIMS.format(ns=ns))["items"]
            }
            snap = await w.until(
                f"restart {i + 1}: the store to equal a fresh list",
                lambda s, fresh=fresh: s.synced and claim_versions(s, ns) == fresh,
                timeout=30,
            )
            recoveries.append(time.monotonic() - ready)
            assert f"r{i}" in claim_versions(snap, ns)
            assert f"r{i - 1}" not in claim_versions(snap, ns)
        assert w.task is not None and not w.task.done()  # the source never died
    recoveries.sort()
    print(
        f"\n[faults] {RESTARTS} API server restarts: store equal to a fresh list "
        f"{recoveries[len(recoveries) // 2]:.2f} s (median), {recoveries[-1]:.2f} s (max) "
        "after /readyz"
    )
