"""Streaming lists (WatchList) against the lists gsb-tui makes, on one cluster, interleaved:
what the API server spends on each and how long the client waits (figures, not pass/fail).

    .venv/bin/python bench/watch_list.py [--nodes 417] [--rounds 4]

Fills a partitions-profile cluster (the bench binds pods and allocates claims itself:
bench/placement.py; 417 nodes are 10,008 devices, 3,336 claims and pods, ~1 minute), then per
kind and round asks the same objects two ways, in turn:
- list: `GET ...?limit=500&resourceVersion=0`, as gsb-tui does (one answer from the watch cache);
- watch-list: `GET ...?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&
  allowWatchBookmarks=true`, read to the bookmark annotated `k8s.io/initial-events-end`.
For each: the API server's CPU seconds (/proc), the bytes it allocated (its
go_memstats_alloc_bytes_total), the client's wall time to the last object and the bytes read.
Nothing is decoded: the client's own cost is the same JSON either way.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

import bench_scale
from harness import (
    LAB_NAMESPACE,
    Client,
    Figures,
    apiserver_metrics,
    apiserver_pid,
    cpu_seconds,
    log,
    practice_cluster,
)

from gsb_tui.cluster.control_plane import ControlPlane, Settings

KINDS = {
    "pods": f"/api/v1/namespaces/{LAB_NAMESPACE}/pods",
    "resourceclaims": "/apis/resource.k8s.io/v1/resourceclaims",
    "resourceslices": "/apis/resource.k8s.io/v1/resourceslices",
}
STREAM = (
    "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
    "&allowWatchBookmarks=true&timeoutSeconds=120"
)
END = b"k8s.io/initial-events-end"


def _list(client: Client, path: str) -> tuple[int, int]:
    status, body = client.request("GET", f"{path}?limit=500&resourceVersion=0")
    return status, len(body)


def _watch_list(client: Client, path: str) -> tuple[int, int]:
    conn = http.client.HTTPSConnection(client.host, client.port, context=client.ctx, timeout=120)
    try:
        headers = {"Authorization": f"Bearer {client.token}", "Accept": "application/json"}
        conn.request("GET", path + STREAM, headers=headers)
        resp = conn.getresponse()
        size = 0
        while resp.status < 300:
            line = resp.readline()
            size += len(line)
            if not line or (b'"BOOKMARK"' in line[:40] and END in line):
                break
        return resp.status, size
    finally:
        conn.close()


def measure(cp: ControlPlane, rounds: int) -> None:
    client = Client(cp)
    pid = apiserver_pid(cp)
    if pid is None:
        raise RuntimeError("no API server pid")
    alloc = "go_memstats_alloc_bytes_total"
    got: dict[tuple[str, str], list[tuple[float, float, float, int]]] = defaultdict(list)
    ways: dict[str, Callable[[Client, str], tuple[int, int]]] = {
        "list": _list,
        "watch_list": _watch_list,
    }
    for _ in range(rounds):
        for kind, path in KINDS.items():
            for way, ask in ways.items():
                time.sleep(1.0)
                before, cpu = apiserver_metrics(cp, (alloc,))[alloc], cpu_seconds(pid)
                started = time.monotonic()
                status, size = ask(client, path)
                wall = time.monotonic() - started
                spent = cpu_seconds(pid) - cpu
                grew = apiserver_metrics(cp, (alloc,))[alloc] - before
                if status >= 300:
                    raise RuntimeError(f"{way} {kind}: HTTP {status}")
                got[(kind, way)].append((spent, grew / 2**20, wall, size))
    for (kind, way), runs in got.items():
        cpu = statistics.median(r[0] for r in runs)
        mb = statistics.median(r[1] for r in runs)
        wall = statistics.median(r[2] for r in runs)
        size = runs[-1][3] / 1e6
        print(f"watchlist_{kind}_{way}_apiserver_cpu_s {cpu:.3f} s")
        print(f"watchlist_{kind}_{way}_apiserver_alloc_mb {mb:.1f} MB")
        print(f"watchlist_{kind}_{way}_wall_s {wall:.3f} s  ({size:.1f} MB read)")
        print("#   runs: " + ", ".join(f"{r[0]:.2f} s cpu / {r[2]:.3f} s wall" for r in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=417)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    settings = Settings(nodes=args.nodes, devices=8, audit=False, profiles=("partitions",))
    claims = args.nodes * 8
    scale = bench_scale.Scale(
        nodes=args.nodes, claims=claims, pods=claims, idle_s=0, rate_s=0, first_paint_runs=0,
        prefix="watchlist", threads=16, placed_by_bench=True,
    )  # fmt: skip
    with practice_cluster(settings) as cp:
        figures = Figures()
        bench_scale.populate(cp, scale, figures)
        log("lists and watch-lists, interleaved")
        measure(cp, args.rounds)


if __name__ == "__main__":
    main()
