"""`gsb-tui record FILE` writes the live stream in the format --demo and the tests replay."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.rest import RestError
from gsb_tui.kube.recording import read_changes, snapshot_at
from gsb_tui.snapshot import REQUIRED_KINDS, Kind


# Ctrl-C, or SIGTERM (`timeout`, a script whose background job ignores SIGINT): both save.
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_record_then_replay(cluster: ControlPlane, tmp_path: Path, stop: signal.Signals) -> None:
    out = tmp_path / "rec.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gsb_tui.cli",
            "record",
            "--kubeconfig",
            str(cluster.kubeconfig),
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C's default in the child, however the test runner was started: a job started
        # in the background inherits SIGINT ignored, and Python then keeps ignoring it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    name = f"recorded-{stop.name.lower()}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if out.exists() and sum(1 for _ in out.open()) >= 2 * len(Kind):
                break
            time.sleep(0.1)
        rest = cluster.rest()
        rest.ensure("/api/v1/namespaces/dra-lab/configmaps", {"metadata": {"name": "noise"}})
        rest.create(
            "/apis/resource.k8s.io/v1/namespaces/dra-lab/resourceclaims",
            {
                "metadata": {"name": name, "namespace": "dra-lab"},
                "spec": {
                    "devices": {
                        "requests": [
                            {"name": "g", "exactly": {"deviceClassName": "gpu.example.com"}}
                        ]
                    }
                },
            },
        )
        time.sleep(1.0)
    finally:
        proc.send_signal(stop)
        try:
            _, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
            with contextlib.suppress(RestError):
                cluster.rest().delete(
                    f"/apis/resource.k8s.io/v1/namespaces/dra-lab/resourceclaims/{name}"
                )
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    changes = [c for _, c in read_changes(out)]
    # Optional kinds (DeviceTaintRules, a beta API) are not served by the default cluster.
    assert {c.kind for c in changes if c.type == "SYNCED"} >= set(REQUIRED_KINDS)
    end = snapshot_at(out)
    assert end.get(Kind.CLAIMS, "dra-lab", name) is not None
    assert end.synced
