"""gsb-tui's allocator against upstream's (the Go oracle, cluster/oracle) on many generated
shapes: every judged pod's verdict and node set must be the oracle's. Prints figures.

    .venv/bin/python bench/alloc_differential.py [--seed N] [--shapes 2000] [--start 0]

Prints one line per disagreement, then: shapes, pods judged, fits / refused, disagreements,
and the time each side took (the oracle's includes its process start per shape).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.alloc_oracle import for_release, judge_all, run_oracle
from tests.alloc_shapes import generate, snapshot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--shapes", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument(
        "--kube", default="1.36", help="the release whose oracle judges (1.36, 1.37)"
    )
    args = parser.parse_args()
    seen: Counter[str] = Counter()
    ours = theirs = 0.0
    bad = 0
    for index in range(args.start, args.start + args.shapes):
        snap = for_release(snapshot(generate(args.seed, index)), args.kube)
        started = time.perf_counter()
        want = run_oracle(snap, release=args.kube)["pods"]
        theirs += time.perf_counter() - started
        started = time.perf_counter()
        _inputs, judged_pods = judge_all(snap, args.kube)
        for key, judged in judged_pods.items():
            oracle = want[key]
            seen["pods"] += 1
            seen["fits" if oracle["fits"] else "refused"] += 1
            if judged.fits is not oracle["fits"] or sorted(judged.nodes) != oracle["nodes"]:
                bad += 1
                print(
                    f"DISAGREE {args.seed}/{index} {key}: gsb-tui {judged.fits} "
                    f"{sorted(judged.nodes)}, oracle {oracle['fits']} {oracle['nodes']}"
                )
        ours += time.perf_counter() - started
    print(
        f"shapes {args.shapes} (seed {args.seed}, from {args.start})  pods {seen['pods']}  "
        f"fits {seen['fits']}  refused {seen['refused']}  disagreements {bad}"
    )
    print(f"time: gsb-tui {ours:.1f} s  oracle {theirs:.1f} s (a process per shape)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
