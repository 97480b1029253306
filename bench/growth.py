"""Issue 27, goal 5: how cost grows — the scale run at 1,000 and 50,000 devices beside its
10,000, and a table of first frame, RSS, idle CPU, event p95 and `why` per size.

Each size is a practice cluster of its own, filled as the 10,000-device run is (kwok nodes of
8 GPUs, half of them held by one claim and pod each, node heartbeats every 20-45 s), and the
same real gsb-tui in tmux at 160x48 measured the same way (bench_scale.run): one first
complete frame, RSS once settled, idle CPU with heartbeats arriving, 100 events/s and `why` on
a pod asking one device more than a node has. Not the keys and the selector tool (those are
the 10,000-device run's). The 50,000-device cluster is filled by the bench (bench/placement.py:
pods created bound, claims allocated by a status write); kube-scheduler would take ~30 minutes.

Growth is printed per figure as the exponent k of cost ∝ size^k between adjacent sizes and over
the whole range (1: linear, 0: flat); a step above GROWS_FASTER is called faster than linear.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import bench_scale
from harness import Figures, log, practice_cluster

from gsb_tui.cluster.control_plane import Settings

GROWS_FASTER = 1.15  # an exponent above this is more than noise over linear
PER_NODE = 8


@dataclass(frozen=True)
class Row:
    """One figure of the table: its name in a run (after the prefix) and its heading."""

    figure: str
    heading: str
    unit: str


ROWS = (
    Row("first_paint_s", "first complete frame", "s"),
    Row("kubectl_claims_pods_json_s", "kubectl get claims,pods -o json", "s"),
    Row("rss_settled_mb", "RSS settled", "MB"),
    Row("idle_cpu_pct", "idle CPU (heartbeats arriving)", "%"),
    Row("update_p95_ms", "event -> screen p95 at 100/s", "ms"),
    Row("repaint_p50_ms", "one repaint p50 (during the 100/s)", "ms"),
    Row("update_missing", "events not on screen 30 s after", "events"),
    Row("why_s", "gsb-tui why (whole process)", "s"),
)


def prefix_of(nodes: int) -> str:
    """By devices, whole: growth1000, growth50000 (never two sizes under one name)."""
    return f"growth{nodes * PER_NODE}"


def run_size(figures: Figures, nodes: int, heartbeats: tuple[float, float], qps: float) -> str:
    """One size's run; its figures' prefix."""
    prefix = prefix_of(nodes)
    claims = nodes * PER_NODE // 2
    large = nodes > 2000  # past what kube-scheduler fills within the bench's time
    scale = bench_scale.Scale(
        nodes=nodes, claims=claims, pods=claims, idle_s=20, rate_s=10, first_paint_runs=1,
        prefix=prefix, events_per_s=100.0, size=(160, 48), complete=True, keys=False,
        heartbeats=heartbeats, threads=16, settle_max_s=1500.0, placed_by_bench=large,
    )  # fmt: skip
    figures.note(
        prefix,
        f"{nodes} kwok nodes x {PER_NODE} devices ({nodes * PER_NODE}), {claims} claims and "
        f"pods, placed by {'the bench' if large else 'kube-scheduler'}",
    )
    settings = Settings(nodes=nodes, devices=PER_NODE, audit=False, scheduler_qps=qps)
    log(f"{prefix}: {nodes * PER_NODE} devices")
    with practice_cluster(settings) as cp:
        bench_scale.run(cp, figures, scale)
    return prefix


def exponent(low: float | None, high: float | None, small: int, big: int) -> float | None:
    """k in cost ∝ size^k between two sizes (None where a figure is missing or not positive)."""
    if not low or not high or low <= 0 or high <= 0 or big <= small:
        return None
    return math.log(high / low) / math.log(big / small)


def table(figures: Figures, sizes: list[tuple[int, str]]) -> list[str]:
    """The growth table (markdown) and the exponents, printed; sizes: (devices, prefix).

    One exponent per step between adjacent sizes and one over the whole range: a figure that is
    flat at first and steep later is faster than linear where it is steep, whatever its overall
    exponent says, so the steepest step decides."""
    sizes = sorted(sizes)
    steps = list(itertools.pairwise(sizes))
    heads = [f"k {a:,}->{b:,}" for (a, _), (b, _) in steps] + ["k overall"]
    lines = [
        "| figure | " + " | ".join(f"{d:,} devices" for d, _ in sizes) + " | "
        + " | ".join(heads) + " |",
        "|---" * (len(sizes) + len(heads) + 1) + "|",
    ]  # fmt: skip
    (small, _), (big, _) = sizes[0], sizes[-1]
    faster: list[str] = []
    for row in ROWS:
        values = [figures.get(f"{p}_{row.figure}") for _, p in sizes]
        shown = " | ".join("-" if v is None else f"{v:,.2f}" for v in values)
        ks = [exponent(values[i], values[i + 1], a, b) for i, ((a, _), (b, _)) in enumerate(steps)]
        overall = exponent(values[0], values[-1], small, big)
        if overall is not None:
            figures.add(f"growth_{row.figure}_exponent", overall, "", f"{small}->{big} devices")
        steepest = max((k for k in ks if k is not None), default=None)
        if steepest is not None and len(ks) > 1:
            figures.add(f"growth_{row.figure}_steepest_exponent", steepest, "", "adjacent sizes")
        if steepest is not None and steepest > GROWS_FASTER:
            faster.append(f"{row.heading} (k={steepest:.2f})")
        k = " | ".join("-" if e is None else f"{e:.2f}" for e in [*ks, overall])
        lines.append(f"| {row.heading} ({row.unit}) | {shown} | {k} |")
    lines.append("")
    lines.append(
        "faster than linear: " + (", ".join(faster) if faster else "nothing")
        + f" (cost ∝ size^k between adjacent sizes; k > {GROWS_FASTER})"
    )  # fmt: skip
    print("\n".join(lines), flush=True)
    for line in lines:
        figures.note("growth", line)
    return lines
