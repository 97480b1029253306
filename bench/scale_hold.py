"""Bring up the 10,000-device cluster of `bench/run.sh --scale` and keep it for probing by hand.

    .venv/bin/python bench/scale_hold.py [--nodes 1250] [--record FILE] [--heartbeats]
        [--partitions] [--placed-by-bench]

Prints `READY <kubeconfig>` once every pod runs; `--record FILE` also records 20 s of the watch
stream (`gsb-tui record`: a recording for bench/repaint_split.py). Stops the cluster on
Ctrl-C or SIGTERM. Filling takes about 4 minutes on 2 cores. `--partitions`: the partitions
profile instead (24 devices a node, one claim per GPU), pods bound and claims allocated by the
bench (bench/placement.py): `--nodes 417 --partitions` is 10,008 devices in about 30 s.
`--placed-by-bench` places the lab profile's pods so too (the growth run's 50,000 devices:
`--nodes 6250 --placed-by-bench`, about 8 minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import subprocess
import time

import bench_scale
from harness import GSB_TUI, Figures, log, practice_cluster

from gsb_tui.cluster.control_plane import Settings

HEARTBEAT_S = (20.0, 45.0)


def _stop(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the cluster is taken down, not orphaned


def main() -> None:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=1250)
    parser.add_argument("--record", help="record 20 s of the watch stream into this file")
    parser.add_argument("--heartbeats", action="store_true", help="patch node status as kwok")
    parser.add_argument("--partitions", action="store_true", help="the partitions profile")
    parser.add_argument(
        "--placed-by-bench", action="store_true", help="pods bound by the bench, not the scheduler"
    )
    args = parser.parse_args()
    claims = args.nodes * (8 if args.partitions else 4)
    by_bench = args.partitions or args.placed_by_bench
    scale = bench_scale.Scale(
        nodes=args.nodes, claims=claims, pods=claims, idle_s=0, rate_s=0, first_paint_runs=0,
        prefix="hold", threads=16, settle_max_s=1500.0, placed_by_bench=by_bench,
    )  # fmt: skip
    profiles = ("partitions",) if args.partitions else ("lab",)
    settings = Settings(
        nodes=args.nodes, devices=8, audit=False, scheduler_qps=200.0, profiles=profiles
    )
    with practice_cluster(settings) as cp:
        bench_scale.populate(cp, scale, Figures())
        if args.record:
            cmd = [str(GSB_TUI), "record", f"--kubeconfig={cp.kubeconfig}", args.record]
            recorder = subprocess.Popen(cmd)
            time.sleep(20)
            recorder.send_signal(signal.SIGTERM)  # SIGINT is ignored in a background job
            recorder.wait(30)
        beats = bench_scale.NodeHeartbeats(cp, HEARTBEAT_S) if args.heartbeats else None
        with beats if beats is not None else contextlib.nullcontext():
            print(f"READY {cp.kubeconfig}", flush=True)
            log("holding the cluster; Ctrl-C stops it")
            with contextlib.suppress(KeyboardInterrupt):
                while True:
                    time.sleep(1)


if __name__ == "__main__":
    main()
