"""gsb-tui with least privilege: a reader that may only get/list/watch works, and the API
server's audit log proves gsb-tui (dashboard, check, match) issued no write."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.lab_run import example, kubectl
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import GsbApp

from .rbac import ALL_KINDS, service_account_kubeconfig

WRITES = {"create", "update", "patch", "delete", "deletecollection"}
READER = "system:serviceaccount:dra-lab:gsb-reader"


def audit_entries(cluster: ControlPlane) -> list[dict[str, object]]:
    path = cluster.log_dir / "audit.log"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def test_reader_sees_everything_and_writes_nothing(
    cluster: ControlPlane, tmp_path: Path
) -> None:
    kubeconfig = service_account_kubeconfig(cluster, "gsb-reader", ALL_KINDS, tmp_path / "kc")
    lab_dir = tmp_path / "gsb-dra"
    lab_dir.mkdir()
    (lab_dir / "slices.txt").write_text("driver=gpu.example.com\n")
    before = {p.name: p.read_bytes() for p in lab_dir.iterdir()}

    source = LiveSource(Target(kubeconfig=kubeconfig, namespace="dra-lab"))
    app = GsbApp(source, lab_dir, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        subprocess.run(
            [kubectl(), f"--kubeconfig={cluster.kubeconfig}", "apply", "-f", "-"],
            input=example("one.yaml"),
            capture_output=True,
            text=True,
            check=True,
        )
        for _ in range(200):
            await pilot.pause(0.05)
            snap = app.store.snapshot()
            if snap.synced and snap.get(Kind.PODS, "dra-lab", "dra-1"):
                break
        snap = app.store.snapshot()
        assert snap.synced, snap.states  # every kind readable with get/list/watch only
        assert snap.state(Kind.CLAIMS).scope == "all namespaces"

    gsb = [sys.executable, "-m", "gsb_tui.cli"]
    check = subprocess.run(
        [*gsb, "check", "--kubeconfig", str(kubeconfig), "--lab-dir", str(lab_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 1, check.stderr  # steps not all green, but judged
    assert json.loads(check.stdout)["steps"]
    match = subprocess.run(
        [*gsb, "match", "--kubeconfig", str(kubeconfig), "device.driver == 'gpu.example.com'"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert match.returncode == 0, match.stderr

    subprocess.run(
        [
            kubectl(),
            f"--kubeconfig={cluster.kubeconfig}",
            "-n",
            "dra-lab",
            "delete",
            "pod",
            "dra-1",
            "--wait=true",
        ],
        capture_output=True,
        check=True,
    )
    subprocess.run(
        [
            kubectl(),
            f"--kubeconfig={cluster.kubeconfig}",
            "-n",
            "dra-lab",
            "delete",
            "resourceclaimtemplate",
            "one-gpu",
        ],
        capture_output=True,
        check=True,
    )
    await asyncio.sleep(1.0)  # the audit log is written asynchronously
    entries = audit_entries(cluster)
    writers = {(e["user"]["username"], e["verb"]) for e in entries}  # type: ignore[index]
    # The audit log really records writes: the lab's own kubectl apply is in it.
    assert any(user == "admin" and verb == "create" for user, verb in writers)
    assert not [(u, v) for u, v in writers if u == READER and v in WRITES]
    # And the learner's lab directory is untouched.
    assert {p.name: p.read_bytes() for p in lab_dir.iterdir()} == before
