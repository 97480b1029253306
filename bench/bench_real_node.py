"""What the real node costs: `up --real-node` to Ready, a DRA pod Running for real, and the
node's idle CPU and memory (kubelet, containerd, the practice driver, shims and pods).

Prints `name value unit` lines. Root only. Run: .venv/bin/python bench/bench_real_node.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from gsb_tui.cluster import real_node
from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import LabRunner, example, kubectl

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def node_pids(cp: ControlPlane, shim_dir: Path) -> dict[str, set[int]]:
    named = {n: {p} for n in real_node.COMPONENTS if (p := cp._pid_file(n).alive())}
    named["shims"] = real_node._pids_of(shim_dir)
    named["pods"] = real_node.pod_pids()
    return named


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsb-bench-node-") as tmp:
        cp = ControlPlane(Path(tmp))
        started = time.monotonic()
        info = cp.up(Settings(audit=False, real_node=True, nodes=0), log=lambda _m: None)
        print(f"up_real_node_ready {time.monotonic() - started:.2f} s")
        print(f"real_node_phase {info['timings_s'].get('real_node', 0):.2f} s")
        try:
            runner = LabRunner(cp, log=lambda _m: None)
            applied = time.monotonic()
            subprocess.run(
                [kubectl(), f"--kubeconfig={cp.kubeconfig}", "apply", "-f", "-"],
                input=example("one.yaml"),
                capture_output=True,
                text=True,
                check=True,
            )
            runner.wait_for("dra-1 Running", runner.running("dra-1"))
            print(f"apply_to_dra1_running {time.monotonic() - applied:.2f} s")
            time.sleep(5)  # let start-up work finish before measuring idle
            exe = str((cp._pid_file("containerd").read() or {}).get("exe"))
            pids = node_pids(cp, Path(exe).parent)
            before = {n: sum(cpu_ticks(p) for p in ps) for n, ps in pids.items()}
            time.sleep(args.idle)
            for name, ps in pids.items():
                used = (sum(cpu_ticks(p) for p in ps) - before[name]) / TICKS
                print(f"idle_cpu_{name} {100 * used / args.idle:.2f} %core")
                print(f"rss_{name} {sum(rss_mb(p) for p in ps):.0f} MB")
        finally:
            cp.down(log=lambda _m: None)


if __name__ == "__main__":
    main()
