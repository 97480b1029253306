"""Every benchmark in one run, on practice clusters of its own, then docs/PERFORMANCE.md.

    .venv/bin/python bench/run_all.py [--quick] [--out docs/PERFORMANCE.md]
    .venv/bin/python bench/run_all.py --scale [--scale-nodes N] [--scale-profile partitions]

Prints one `name value unit` line per figure on stdout (progress goes to stderr). The figures
are measured beside kubectl in the same run; nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import bench_check
import bench_k9s
import bench_latency
import bench_scale
import bench_startup
import growth
import profiles
from harness import PYTHON, ROOT, Figures, log, practice_cluster
from report import write_report

from gsb_tui.cluster.build import ensure_binaries
from gsb_tui.cluster.control_plane import Settings

UNITS = frozenset({"ns", "us", "ms", "s", "MB", "%", "x"})
SECTIONS = ("offline", "latency", "peer", "check", "startup", "scale", "profile")
# Not in a default run (each takes 10-15 minutes here): `--scale`, or --only with the name.
LARGE = ("scale10k", "scale_partitions", "growth")
SCALE_NODES = 1250  # the lab profile's large run: 10,000 devices
HEARTBEAT_S = (20.0, 45.0)  # kwok's node-heartbeat stage: every 20 s plus up to 25 s jitter
# The scheduler's client rate limit in the large runs: at its default (50 requests/s, ~4 per
# DRA pod) it places 12.6 pods/s here whatever else happens, 400 s for 5,000 pods.
SCHEDULER_QPS = 200.0
LINE = re.compile(r"^([A-Za-z_][\w.]*) (-?[\d.]+(?:e-?\d+)?|nan) (\S+)")


def offline_benches(figures: Figures) -> None:
    """bench_view.py (and bench_cel.py when it exists): figures without a cluster."""
    for script in ("bench_view.py", "bench_cel.py"):
        path = ROOT / "bench" / script
        if not path.is_file():
            figures.note("offline", f"{script} is not there; skipped")
            continue
        log(f"running {script}")
        proc = subprocess.run(
            [str(PYTHON), str(path)], capture_output=True, text=True, check=False, cwd=ROOT
        )
        if proc.returncode != 0:
            figures.note("offline", f"{script} failed: {proc.stderr.strip()[-300:]}")
        for line in proc.stdout.splitlines():
            m = LINE.match(line.strip())
            if m and m.group(3) in UNITS:
                figures.add(m.group(1), float(m.group(2)), m.group(3), script)
            elif line.strip():
                figures.note("offline", f"{script}: {line.strip()}")


def worker_description_cost(figures: Figures) -> None:
    """What `@work` spends describing its call: repr() of the DraView passed to _run_checks,
    on bench_view.py's 1000-device snapshot (textual formats it on every repaint)."""
    from bench_view import scale as scale_snapshot

    from gsb_tui.dra.builder import build_view
    from gsb_tui.kube.recording import snapshot_at

    view = build_view(scale_snapshot(snapshot_at(ROOT / "tests/fixtures/lab.jsonl", "step-8")))
    times = []
    for _ in range(5):
        started = time.perf_counter()
        size = len(repr(view))
        times.append(1000 * (time.perf_counter() - started))
    figures.add("repr_view_1000_devices_ms", sorted(times)[2], "ms", f"{size // 1024} KiB of text")


def large_scale(
    figures: Figures, section: str, args: argparse.Namespace, profile: bool
) -> list[profiles.Hotspots]:
    """The 10,000-device run (or the partitions profile's ~1,000 devices): 8 GPUs a node."""
    partitions = section == "scale_partitions"
    nodes = args.scale_nodes or (42 if partitions else SCALE_NODES)
    per_node = 24 if partitions else 8  # 8 GPUs: 2 partitions and the whole GPU each
    # lab: half the devices held, one claim per pod; partitions: one claim per GPU
    claims = args.scale_claims or (nodes * 8 if partitions else nodes * per_node // 2)
    scale = bench_scale.Scale(
        nodes=nodes,
        claims=claims,
        pods=claims,
        idle_s=30,
        rate_s=20,
        first_paint_runs=2,
        prefix=section,
        events_per_s=100.0,
        size=(160, 48),
        complete=True,
        apiserver=True,
        heartbeats=HEARTBEAT_S,
        profiles=("partitions",) if partitions else ("lab",),
        threads=16,
        settle_max_s=1500.0,
        placed_by_bench=args.scale_placement == "bench",
        per_node=per_node,
    )
    figures.note(
        section,
        f"{nodes} kwok nodes x {per_node} devices ({nodes * per_node}), {claims} claims, "
        f"{claims} pods; node heartbeats every {HEARTBEAT_S[0]:.0f}-{HEARTBEAT_S[1]:.0f} s; "
        f"scheduler client at {SCHEDULER_QPS:.0f} requests/s",
    )
    hot: list[profiles.Hotspots] = []

    def profiled() -> None:
        label = f"{section} ({nodes * per_node} devices)"
        hot.extend(profiles.profile_app(cp, label, idle_s=10, rate_s=0, size=scale.size))

    settings = Settings(
        nodes=nodes,
        devices=8,
        audit=False,
        profiles=scale.profiles,
        scheduler_qps=SCHEDULER_QPS,
    )
    with practice_cluster(settings) as cp:
        bench_scale.run(cp, figures, scale, then=profiled if profile else None)
    return hot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smaller run (< 5 minutes)")
    parser.add_argument(
        "--out", type=Path, default=None, help="default docs/PERFORMANCE.md (not with --only)"
    )
    parser.add_argument(
        "--only",
        default="",
        help=f"comma-separated sections to run, of {','.join(SECTIONS)} (for working on one)",
    )
    parser.add_argument("--no-profile", action="store_true", help="skip the pyinstrument passes")
    parser.add_argument(
        "--scale",
        action="store_true",
        help="only the large run: 1,250 kwok nodes x 8 devices, 5,000 claims and pods "
        "(--scale-profile partitions: ~1,000 partitionable devices); no doc unless --out",
    )
    parser.add_argument(
        "--scale-nodes", type=int, default=0, help="nodes of the large run (1250; 42)"
    )
    parser.add_argument(
        "--scale-claims", type=int, default=0, help="claims (and pods) of the large run"
    )
    parser.add_argument(
        "--scale-profile",
        default="lab",
        choices=("lab", "partitions"),
        help="lab: 8 devices a node; partitions: 8 GPUs a node as 2 partitions + the whole",
    )
    parser.add_argument(
        "--scale-growth",
        default="125,6250",
        help="node counts of the growth runs beside the 10,000-device one (1,000 and 50,000 "
        "devices; bench/growth.py); '' for none; --only growth runs just these",
    )
    parser.add_argument(
        "--scale-placement",
        default="scheduler",
        choices=("scheduler", "bench"),
        help="who binds the large run's pods and allocates their claims: kube-scheduler, or "
        "the bench itself (bench/placement.py; for sizes the scheduler cannot fill in time)",
    )
    args = parser.parse_args()
    quick = args.quick
    only = {part.strip() for part in args.only.split(",") if part.strip()} or set(SECTIONS)
    if args.scale:
        only = {"scale10k" if args.scale_profile == "lab" else "scale_partitions"}
        if args.scale_profile == "lab" and not args.scale_nodes and args.scale_growth:
            only.add("growth")  # how cost grows: the 10,000-device run beside the others
        if not args.no_profile:
            only.add("profile")
    out = args.out or (None if args.only or args.scale else ROOT / "docs" / "PERFORMANCE.md")
    started = time.monotonic()
    figures = Figures()
    hot: list[profiles.Hotspots] = []
    profile = not args.no_profile and "profile" in only and profiles.available()
    if "profile" in only and not args.no_profile and not profiles.available():
        figures.note("profile", "pyinstrument is not installed: no hot spots this run")

    ensure_binaries(log=lambda _m: None)  # built once and cached; building is not measured
    if "offline" in only:
        offline_benches(figures)
        worker_description_cost(figures)

    if only & {"latency", "peer", "check", "startup"} or (profile and not args.scale):
        with practice_cluster(Settings(audit=False)) as cp:
            if "latency" in only:
                bench_latency.run(cp, figures, 60 if quick else 200)
                bench_latency.run(cp, figures, 60 if quick else 200, busy=True)
            if "peer" in only:  # k9s, and gsb-tui, in tmux: the same events
                bench_k9s.run(cp, figures, 40 if quick else 100)
            if "check" in only:
                hot += bench_check.run(cp, figures, 3 if quick else 5, profile=profile)
            if "startup" in only:
                bench_startup.run(cp, figures, 3 if quick else 5)
            if profile and not args.scale:
                hot += profiles.profile_app(cp, "lab cluster", idle_s=0, rate_s=0)
                hot.append(profiles.widget_costs(cp, "lab cluster"))

    scale = (
        bench_scale.Scale(nodes=25, claims=200, pods=200, idle_s=20, rate_s=10, first_paint_runs=2)
        if quick
        else bench_scale.Scale(
            nodes=125, claims=1000, pods=1000, idle_s=60, rate_s=20, first_paint_runs=3
        )
    )
    if "scale" in only:
        with practice_cluster(Settings(nodes=scale.nodes, devices=8, audit=False)) as cp:
            bench_scale.run(cp, figures, scale)
            if profile:
                label = f"scale ({scale.nodes * 8} devices)"
                hot += profiles.profile_app(cp, label, idle_s=10, rate_s=5 if quick else 10)
                hot.append(profiles.widget_costs(cp, label, 10 if quick else 20))

    for section in LARGE:
        if section in only and section != "growth":
            hot += large_scale(figures, section, args, profile)
    if "growth" in only:
        grown = [int(n) for n in args.scale_growth.split(",") if n.strip()]
        # The 10,000-device row from scale10k's own run (growth joins it only at its default size).
        sizes = [(SCALE_NODES * growth.PER_NODE, "scale10k")] if "scale10k" in only else []
        for nodes in sorted(grown):
            prefix = growth.run_size(figures, nodes, HEARTBEAT_S, SCHEDULER_QPS)
            sizes.append((nodes * growth.PER_NODE, prefix))
        growth.table(figures, sizes)

    elapsed = time.monotonic() - started
    figures.add("bench_total_s", elapsed, "s")
    command = "bench/run.sh" + (" --quick" if quick else "")
    machine = (
        f"{os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )
    if out is not None:
        write_report(out, figures, hot, command=command, machine=machine, scale=scale)
        log(f"wrote {out} after {elapsed:.0f} s")
    else:  # no document: the hot spots go with the progress, on stderr
        for h in hot:
            body = h.widgets or [*h.flat, "", *h.tree]
            print(f"\n## {h.title} ({h.seconds:.1f} s)", *body, sep="\n", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
