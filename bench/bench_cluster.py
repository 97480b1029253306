"""Practice-cluster figures: warm `up` to ready, and to the first Running DRA pod.

Prints `name value unit` lines. Run: .venv/bin/python bench/bench_cluster.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from gsb_tui.cluster.build import ensure_binaries
from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import LabRunner, example, kubectl


def one_run() -> tuple[float, float, dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="gsb-bench-") as tmp:
        cp = ControlPlane(Path(tmp))
        started = time.monotonic()
        info = cp.up(Settings(audit=False), log=lambda _m: None)
        ready = time.monotonic() - started
        try:
            runner = LabRunner(cp, log=lambda _m: None)
            subprocess.run(
                [kubectl(), f"--kubeconfig={cp.kubeconfig}", "apply", "-f", "-"],
                input=example("one.yaml"),
                capture_output=True,
                text=True,
                check=True,
            )
            runner.wait_for("dra-1 Running", runner.running("dra-1"))
            first_pod = time.monotonic() - started
        finally:
            cp.down(log=lambda _m: None)
        return ready, first_pod, info["timings_s"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_binaries(log=lambda _m: None)  # warm: builds are measured separately
    readies, pods = [], []
    phases: dict[str, list[float]] = {}
    for _ in range(args.runs):
        ready, pod, timings = one_run()
        readies.append(ready)
        pods.append(pod)
        for k, v in timings.items():
            phases.setdefault(k, []).append(v)
    print(f"cluster_up_ready_s {statistics.median(readies):.2f} s")
    print(f"cluster_first_dra_pod_running_s {statistics.median(pods):.2f} s")
    for k, v in phases.items():
        print(f"cluster_up_phase_{k}_s {statistics.median(v):.2f} s")


if __name__ == "__main__":
    main()
