"""Where one repaint goes at scale: the real App headless over a recording, one claim changed
at a time; prints the median of each part (figures, not pass/fail).

    .venv/bin/python bench/repaint_split.py RECORDING [--changes 15] [--size 160x48] [--come-go]
        [--profile N] [--no-gc]

The recording is replayed as fast as it goes; then, per change, a copy of a claim with a new
resourceVersion goes into the Store (`--come-go`: a new claim with no pod is created, then
deleted, in turn: what bench/run.sh --scale writes at 100 events/s) and the parts are timed:
build_view, find_warnings, each pane's show, and show → the frame Textual writes (`_display`).
A 10,000-device recording comes from bench/scale_hold.py --record. `--profile N` prints the N
costliest calls (cumulative, cProfile) of the changes alone; `--no-gc` turns the cyclic collector
off for them (what of a repaint is its collections).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import cProfile
import gc
import pstats
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import NO_LAB_DIR, claim_body

from gsb_tui.dra.warnings import find_warnings
from gsb_tui.kube.source import ReplaySource
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import GsbApp

PANES = (("grid", "show"), ("claims", "show"), ("slices", "show"), ("details", "show"))


class ProbeApp(GsbApp):
    def __init__(self, recording: Path) -> None:
        super().__init__(ReplaySource(recording, speed=0), NO_LAB_DIR, watch_lab_dir=False)
        self.frame = asyncio.Event()

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            self.frame.set()


def _timed(parts: dict[str, list[float]], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            parts[name].append(1000 * (time.perf_counter() - started))

    return wrapper


def _change(claims: list[dict[str, Any]], i: int, come_go: bool) -> Change:
    if not come_go:
        claim = copy.deepcopy(claims[i * 7 % len(claims)])
        claim["metadata"]["resourceVersion"] = f"probe-{i}"
        return Change(Kind.CLAIMS, "MODIFIED", obj=claim)
    body = claim_body(f"0probe-{i // 2:04d}")
    body["metadata"].update(uid=f"probe-{i // 2}", resourceVersion=f"probe-{i}")
    return Change(Kind.CLAIMS, "ADDED" if i % 2 == 0 else "DELETED", obj=body)


async def measure(
    recording: Path,
    changes: int,
    size: tuple[int, int],
    come_go: bool = False,
    profile: cProfile.Profile | None = None,
    collect: bool = True,
) -> dict[str, list[float]]:
    app = ProbeApp(recording)
    parts: dict[str, list[float]] = defaultdict(list)
    async with app.run_test(size=size, headless=True):
        while app.view is None or not app.view.snapshot.synced:
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        gc.freeze()  # as the App does after its first synced frame
        if not collect:
            gc.disable()  # how much of a repaint the cyclic collector is
        for attr, method in PANES:
            pane = getattr(app.dashboard, attr)
            setattr(pane, method, _timed(parts, f"pane {attr}", getattr(pane, method)))
        claims = list(app.store.snapshot().items(Kind.CLAIMS))
        if profile is not None:
            profile.enable()
        for i in range(changes):
            app.store.apply(_change(claims, i, come_go))
            started = time.perf_counter()
            view = app.builder.build(app.store.snapshot())
            built = time.perf_counter()
            warnings = find_warnings(view)
            warned = time.perf_counter()
            app.frame.clear()
            app.dashboard.show(view, warnings)
            shown = time.perf_counter()
            try:
                await asyncio.wait_for(app.frame.wait(), 1.0)
            except TimeoutError:
                continue  # nothing on screen changed
            done = time.perf_counter()
            for name, a, b in (
                ("build_view", started, built),
                ("find_warnings", built, warned),
                ("panes", warned, shown),
                ("show_to_frame", shown, done),
                ("total", started, done),
            ):
                parts[name].append(1000 * (b - a))
            await asyncio.sleep(0.15)
        if profile is not None:
            profile.disable()
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("recording", type=Path)
    parser.add_argument("--changes", type=int, default=15)
    parser.add_argument("--size", default="160x48")
    parser.add_argument("--come-go", action="store_true", help="claims created and deleted")
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest calls")
    parser.add_argument("--no-gc", action="store_true", help="the cyclic collector off")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    profile = cProfile.Profile() if args.profile else None
    parts = asyncio.run(
        measure(
            args.recording, args.changes, (width, height), args.come_go, profile, not args.no_gc
        )
    )
    if profile is not None:  # the changes only, not the replay (cProfile's own cost included)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    for name, values in parts.items():
        print(f"repaint_{name.replace(' ', '_')}_ms {statistics.median(values):.1f} ms")


if __name__ == "__main__":
    main()
