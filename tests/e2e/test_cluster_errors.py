"""`gsb-tui cluster` in bad situations: plain messages that say what to do, never a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gsb_tui.cluster import control_plane
from gsb_tui.cluster.control_plane import ClusterError, ControlPlane, Settings

GSB = [sys.executable, "-m", "gsb_tui.cli"]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GSB, *args], capture_output=True, text=True, timeout=300, env=env or dict(os.environ)
    )


def test_go_missing(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent), "GSB_TUI_CACHE": str(tmp_path)}
    proc = run("cluster", "build", env=env)
    assert proc.returncode == 1
    assert "Go is not installed" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_module_download_refused(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GSB_TUI_CACHE": str(tmp_path / "cache"),
        "GOMODCACHE": str(tmp_path / "mod"),
        "GOPROXY": "off",
    }
    proc = run("cluster", "build", env=env)
    assert proc.returncode == 1
    assert "build step 'build k8s' failed" in proc.stderr
    assert str(tmp_path / "cache" / "logs" / "build-k8s.log") in proc.stderr
    assert "Go module proxy" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_down_with_nothing_running(tmp_path: Path) -> None:
    proc = run("cluster", "--dir", str(tmp_path), "down")
    assert proc.returncode == 0
    assert "nothing is running" in proc.stderr


def test_stale_pid_files_after_a_crash(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    (run_dir / "etcd.pid").write_text(json.dumps({"pid": dead.pid, "start": 1, "args": ["x"]}))
    status = run("cluster", "--dir", str(tmp_path), "status")
    assert status.returncode == 1 and "stopped" in status.stdout
    proc = run("cluster", "--dir", str(tmp_path), "down")
    assert "etcd: not running (stale pid file removed)" in proc.stderr
    assert not (run_dir / "etcd.pid").exists()


def test_port_taken_names_the_component_and_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ports are chosen free; a port taken between choosing and binding is the race left.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setattr(control_plane, "free_port", lambda: port)
        cp = ControlPlane(tmp_path)
        with pytest.raises(ClusterError) as err:
            cp.up(Settings(audit=False), log=lambda _m: None)
    message = str(err.value)
    assert "etcd exited" in message and str(cp.log_dir / "etcd.log") in message
    assert "address already in use" in message
    assert not any(cp.running().values())  # nothing left behind
