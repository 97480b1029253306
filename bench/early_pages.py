"""When each kind's first list page arrives while our main thread works, read by daemon threads
of ours or by the child process (kube/page_reader.py), runs interleaved (figures, not
pass/fail).

    .venv/bin/python bench/early_pages.py KUBECONFIG [--runs 3]

What the main thread does meanwhile, as gsb-tui's start does in turn: nothing (`idle`),
Python bytecode (`python`: importing, parsing, building the view), and long calls into C that
hold the interpreter lock throughout (`decode`: orjson decoding a 2 MB body again and again).
Hold the 10,000-device cluster with `bench/scale_hold.py`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import orjson

from gsb_tui.kube import pages
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource

LIMIT_S = 30.0
BLOB = orjson.dumps([{"a": i, "b": "x" * 20, "c": [1, 2, 3]} for i in range(60_000)])


def _python() -> None:
    total = 0
    for i in range(200_000):
        total += i % 7


def _decode() -> None:
    orjson.loads(BLOB)


WORK: dict[str, Callable[[], None]] = {
    "idle": lambda: time.sleep(0.001),
    "python": _python,
    "decode": _decode,
}


def arrivals(kubeconfig: Path, readers: str, work: Callable[[], None]) -> dict[str, float]:
    """Seconds from begin_lists to each kind's answer (path's last part)."""
    start_child = pages.ChildPages.start
    if readers == "threads":
        pages.ChildPages.start = classmethod(lambda _cls, *_a: None)  # type: ignore[assignment,method-assign]
    try:
        source = LiveSource(Target(kubeconfig=kubeconfig, namespace="dra-lab"))
        started = time.perf_counter()
        source.begin_lists()
    finally:
        pages.ChildPages.start = start_child  # type: ignore[method-assign]
    api = source._early_api
    if api is None:
        raise RuntimeError("nothing was begun (an exec plugin or an unusable kubeconfig?)")
    got: dict[str, float] = {}
    early: Any = api._early
    for key, answer in list(early._answers.items()):
        future: Future[Any] = answer[0] if isinstance(answer, tuple) else answer
        name = key.split("?")[0].rsplit("/", 1)[-1]
        future.add_done_callback(
            lambda _f, name=name: got.__setitem__(name, time.perf_counter() - started)
        )
    wanted = len(early._answers)
    while len(got) < wanted and time.perf_counter() - started < LIMIT_S:
        work()
    early.close()
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("kubeconfig", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    seen: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.runs):
        for mode, work in WORK.items():
            for readers in ("threads", "child"):
                seen.setdefault((mode, readers), []).append(
                    arrivals(args.kubeconfig, readers, work)
                )
                time.sleep(1.0)
    for (mode, readers), runs in seen.items():
        kinds = sorted({k for r in runs for k in r}, key=lambda k: -max(r.get(k, 0) for r in runs))
        last = [max(r.values()) if r else LIMIT_S for r in runs]
        slowest = kinds[0] if kinds else "-"
        print(
            f"early_pages_{mode}_{readers}_all_in_s {statistics.median(last):.3f} s  "
            f"(last: {slowest}; runs " + " ".join(f"{x:.2f}" for x in last) + ")"
        )


if __name__ == "__main__":
    main()
