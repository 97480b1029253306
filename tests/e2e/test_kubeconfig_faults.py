"""Bad kubeconfigs against the real API server: a clear message and exit 2, never a traceback."""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.pki import new_ca


def other_ca() -> bytes:
    cert, _key = new_ca("not-the-cluster-ca")
    return cert.public_bytes(serialization.Encoding.PEM)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def variant(cluster: ControlPlane, tmp: Path, case: str) -> Path:
    config = json.loads(cluster.kubeconfig.read_text())
    path = tmp / f"{case}.kubeconfig"
    if case == "missing":
        return tmp / "does-not-exist"
    if case == "malformed":
        path.write_text("apiVersion: v1\nclusters: [\n  - name: {broken\n")
        return path
    if case == "wrong-ca":
        config["clusters"][0]["cluster"]["certificate-authority-data"] = base64.b64encode(
            other_ca()
        ).decode()
    elif case == "wrong-token":
        config["users"][0]["user"] = {"token": "not-a-valid-token"}
    elif case == "unreachable":
        config["clusters"][0]["cluster"]["server"] = f"https://127.0.0.1:{closed_port()}"
    elif case == "no-context":
        config["current-context"] = "nowhere"
    path.write_text(json.dumps(config))
    return path


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("missing", "no kubeconfig found"),
        ("malformed", "is not valid YAML"),
        ("no-context", "sets no current-context"),
        ("wrong-ca", "certificate"),
        ("wrong-token", "rejected the credentials (401)"),
        ("unreachable", "cannot connect to the API server"),
    ],
)
def test_check_exits_2_with_a_clear_message(
    cluster: ControlPlane, tmp_path: Path, case: str, says: str
) -> None:
    kubeconfig = variant(cluster, tmp_path, case)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gsb_tui.cli",
            "check",
            "--kubeconfig",
            str(kubeconfig),
            "--lab-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert says in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
