"""`gsb-tui match` against the real cluster: one line per device, exit codes 0/1/2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gsb_tui.cluster.control_plane import ControlPlane


def match(cluster: ControlPlane | Path, *args: str) -> subprocess.CompletedProcess[str]:
    kc = cluster.kubeconfig if isinstance(cluster, ControlPlane) else cluster
    return subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", "match", "--kubeconfig", str(kc), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_lines_and_exit_codes(cluster: ControlPlane, tmp_path: Path) -> None:
    slices = cluster.rest().get("/apis/resource.k8s.io/v1/resourceslices")["items"]
    devices = {
        f"{s['spec']['driver']}/{s['spec']['pool']['name']}/{d['name']}": d
        for s in slices
        for d in s["spec"]["devices"]
    }
    ok = match(
        cluster, "device.attributes['gpu.example.com'].index == 7", "--class", "gpu.example.com"
    )
    assert ok.returncode == 0, ok.stderr
    lines = dict(line.split(" ", 1) for line in ok.stdout.splitlines())
    assert set(lines) == set(devices)
    expected = {k for k, d in devices.items() if d["attributes"]["index"]["int"] == 7}
    assert {k for k, v in lines.items() if v == "match"} == expected
    assert all(v in ("match", "no-match") for v in lines.values())

    err = match(cluster, "device.attributes['gpu.example.com'].idx == 7")
    assert err.returncode == 0
    assert all(
        line.endswith("error: selector #0: no such key: idx") or "no such key: idx" in line
        for line in err.stdout.splitlines()
    )

    bad = match(cluster, "device.attributes.index == 7")
    assert bad.returncode == 1
    assert "found no matching overload for '_==_'" in bad.stderr
    assert "device.attributes['gpu.example.com'].index == 7" in bad.stderr

    unknown = match(cluster, "true", "--class", "no-such-class")
    assert unknown.returncode == 1 and "no DeviceClass 'no-such-class'" in unknown.stderr

    gone = match(tmp_path / "missing-kubeconfig", "true")
    assert gone.returncode == 2 and "no kubeconfig found" in gone.stderr
