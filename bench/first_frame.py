"""First complete frame of the real gsb-tui in tmux against a cluster that is already up,
runs of several configurations interleaved (figures, not pass/fail).

    .venv/bin/python bench/first_frame.py KUBECONFIG [--runs 6] [--want TEXT] [CONFIG ...]

A CONFIG is `-` (gsb-tui as installed) or comma-separated VAR=value settings for its
environment, e.g. `PYTHONPATH=/tmp/base` for a worktree of another commit. "Complete" is what
`bench/run.sh --scale` waits for: the header names all seven kinds synced and the screen shows
`--want` (default: the ledger line of bench/scale_hold.py's cluster). Hold the 10,000-device
cluster with `bench/scale_hold.py`; each run takes a few seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import (
    GSB_TUI,
    LAB_NAMESPACE,
    NO_LAB_DIR,
    TmuxApp,
    all_synced,
    cpu_seconds,
    rss_mb,
)

WANT = "10000 devices · 5000 in use"
SIZE = (160, 48)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("kubeconfig")
    parser.add_argument("configs", nargs="*", default=["-"])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--want", default=WANT)
    parser.add_argument(
        "--rss-after", type=float, default=0.0, help="also RSS this many seconds after the frame"
    )
    args = parser.parse_intermixed_args()
    configs = [[c for c in config.split(",") if c != "-"] for config in args.configs]
    times: list[list[float]] = [[] for _ in configs]
    cpu: list[list[tuple[float, float]]] = [[] for _ in configs]
    rss: list[list[float]] = [[] for _ in configs]
    command = [
        str(GSB_TUI),
        f"--kubeconfig={args.kubeconfig}",
        "-n",
        LAB_NAMESPACE,
        f"--lab-dir={NO_LAB_DIR}",
        "--lang=en",
    ]
    for _ in range(args.runs):
        for settings, taken, spent, held in zip(configs, times, cpu, rss, strict=True):
            with TmuxApp(["env", *settings, *command], *SIZE) as app:
                took = app.wait_for(lambda s: all_synced(s) and args.want in s, 60)
                pid = app.pid()  # its CPU once the frame is seen, and its reaped children's
                spent.append((cpu_seconds(pid), cpu_seconds(pid, children=True)))
                if args.rss_after:
                    time.sleep(args.rss_after)
                    held.append(rss_mb(pid))
            taken.append(took if took is not None else float("nan"))
            time.sleep(1.0)
    for config, taken, spent, held in zip(args.configs, times, cpu, rss, strict=True):
        runs = " ".join(f"{t:.2f}" for t in taken)
        print(f"first_frame_s[{config}] median {statistics.median(taken):.2f} s  runs {runs}")
        own = statistics.median(c[0] for c in spent)
        children = statistics.median(c[1] for c in spent)
        print(f"first_frame_cpu_s[{config}] median {own:.2f} s, its children {children:.2f} s")
        if held:
            runs = " ".join(f"{r:.0f}" for r in held)
            print(f"rss_after_mb[{config}] median {statistics.median(held):.0f} MB  runs {runs}")


if __name__ == "__main__":
    main()
