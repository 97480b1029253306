"""Event → screen latency beside `kubectl get resourceclaims -w`, in the same run.

ResourceClaims are created and deleted one at a time through the API (a claim with no pod is
never allocated, so each write causes exactly one watch event). For every write: the time
until the headless dashboard composed a frame showing it (see headless.py), until its store
had it, and until kubectl's watch printed the line. A pause between writes keeps events apart,
so the figures are per-event latency, not the repaint throttle under a burst.

The writes come from a process of their own and kubectl's lines are timestamped by another
(bench/outside.py), as a learner's kubectl in a second terminal would be: until 2026-12-01
both ran as threads of the dashboard's process and waited for its interpreter lock, which
added up to a switch interval (5 ms) to either side. All processes stamp with CLOCK_MONOTONIC.

The busy-core variant (`run_busy`) is the same measurement while the bench keeps one core busy
with a CPU-bound process of its own (pinned to core 0, bounded, stopped at the end, also on
error): what a learner's small VM running k3s and the driver beside gsb-tui looks like.
Its figures are prefixed `busy_`.
"""

from __future__ import annotations

import asyncio
import random
import time

from harness import (
    Figures,
    busy_core,
    log,
    percentile,
)
from headless import SIZE, BenchApp, Sample, Samples, phase_split, settle, until
from outside import StampedWatch, Writer
from textual_floor import measure as floor_measure

from gsb_tui.cluster.control_plane import ControlPlane

GAP_S = (0.15, 0.25)  # quiet time between writes: above the app's 0.1 s repaint throttle
WAIT_S = 5.0  # a write nobody shows within this is counted as missing


async def _measure(cp: ControlPlane, events: int, prefix: str) -> tuple[Samples, BenchApp]:
    app = BenchApp(cp.kubeconfig)
    samples = Samples()
    server = cp.rest().server
    # The writes and kubectl's arrival times in processes of their own (bench/outside.py).
    async with app.run_test(size=SIZE, headless=True) as _pilot, Writer(server, cp.pki) as rest:
        if not await until(app.synced, 30):
            raise RuntimeError("the dashboard never synced every kind")
        with StampedWatch(cp) as watch:
            # Warm-up: both watches established and one event through each.
            warm = f"{prefix}-warm"
            app.appear[warm] = None
            await rest.write("ADDED", warm)
            await until(lambda: bool(app.appear[warm]) and bool(watch.when("ADDED", warm)), 15)
            await rest.write("DELETED", warm)
            await asyncio.sleep(0.5)
            for i in range(events // 2):
                name = f"{prefix}-{i:04d}"
                for event in ("ADDED", "DELETED"):
                    sample = await _one(app, rest, watch, name, event)
                    samples.items.append(sample)
                    await asyncio.sleep(random.uniform(*GAP_S))
    return samples, app


async def _one(app: BenchApp, rest: Writer, watch: StampedWatch, name: str, event: str) -> Sample:
    board = app.appear if event == "ADDED" else app.vanish
    board[name] = None
    written = await rest.write(event, name)
    sample = Sample(event, name, written)
    await until(lambda: board.get(name) is not None and watch.when(event, name) is not None, WAIT_S)
    settle(app, sample, watch.when)
    return sample


def floor(figures: Figures, samples: Samples, prefix: str, updates: int) -> None:
    """The physical floor in the same conditions (the busy core still spinning when busy):
    kubectl's delivery plus a bare Textual app's own update → frame (bench/textual_floor.py).
    gsb-tui's event → screen p95 over that sum is the ratio issue 27 sets goals on."""
    took = asyncio.run(floor_measure(updates))
    figures.add(f"{prefix}textual_floor_p50_ms", percentile(took, 50), "ms", "a bare Textual app")
    figures.add(f"{prefix}textual_floor_p95_ms", percentile(took, 95), "ms", f"{len(took)} frames")
    screen, kube = samples.ms("screen"), samples.ms("kubectl")
    if screen and kube and took:
        ratio = percentile(screen, 95) / (percentile(kube, 95) + percentile(took, 95))
        figures.add(
            f"{prefix}event_to_screen_p95_floor_ratio",
            ratio,
            "x floor",
            "gsb-tui's p95 over (kubectl p95 + bare-Textual p95), same run",
        )


def report(figures: Figures, samples: Samples, prefix: str, label: str) -> None:
    screen, kube, store = samples.ms("screen"), samples.ms("kubectl"), samples.ms("store")
    figures.add(f"{prefix}_events", float(len(samples.items)), "events")
    figures.add(f"{prefix}_p50_ms", percentile(screen, 50), "ms")
    figures.add(f"{prefix}_p95_ms", percentile(screen, 95), "ms")
    figures.add(f"{prefix}_store_p50_ms", percentile(store, 50), "ms")
    figures.add(f"{prefix}_store_p95_ms", percentile(store, 95), "ms")
    figures.add(f"{label}_p50_ms", percentile(kube, 50), "ms")
    figures.add(f"{label}_p95_ms", percentile(kube, 95), "ms")
    if kube and screen:
        figures.add(
            f"{prefix}_p95_ratio", percentile(screen, 95) / percentile(kube, 95), "x kubectl"
        )
    labels = (
        "store → repaint start",
        "repaint (build_view + panes)",
        "repaint end → frame composed",
    )
    figures.note(
        prefix,
        "screen latency split (p50 / p95 ms): " + phase_split(samples, labels, 1, " / "),
    )
    missing = samples.missing("screen")
    figures.add(f"{prefix}_missing", float(missing), "events")
    figures.add(f"{label}_missing", float(samples.missing("kubectl")), "events")


def run(cp: ControlPlane, figures: Figures, events: int, busy: bool = False) -> None:
    """busy: the same beside a CPU-bound process on core 0 (figures `busy_...`)."""
    if busy:
        # Bounded: the events take ~0.25 s each plus set-up; the load ends with the run anyway.
        with busy_core(0, limit_s=300 + 2 * events) as load:
            log(f"busy core: pid {load.pid} spinning on core {load.core}")
            _run(cp, figures, events, "busy_", "latency-busy")
        figures.add(
            "busy_load_cpu_pct", load.cpu_pct, "%", f"of core {load.core}, the bench's own load"
        )
        return
    _run(cp, figures, events, "", "latency")


def _run(cp: ControlPlane, figures: Figures, events: int, prefix: str, section: str) -> None:
    what = " with one core busy" if prefix else ""
    log(f"event → screen: {events} claim create/delete events beside kubectl -w{what}")
    started = time.monotonic()
    samples, app = asyncio.run(_measure(cp, events, f"{prefix.rstrip('_') or 'lat'}"))
    report(figures, samples, f"{prefix}event_to_screen", f"{prefix}kubectl_watch")
    floor(figures, samples, prefix, max(60, events))
    per_frame = 1000 * app.render_s / max(1, app.frames)
    figures.note(
        section,
        f"{len(samples.items)} events in {time.monotonic() - started:.0f} s; "
        f"{app.frames} frames, {per_frame:.2f} ms each to encode for a terminal; "
        f"{app.repaints} repaints",
    )
    by_event = {
        e: percentile(
            [m for s in samples.items if s.event == e and (m := s.ms(s.screen)) is not None], 95
        )
        for e in ("ADDED", "DELETED")
    }
    figures.note(
        section,
        f"screen p95 by event: created {by_event['ADDED']:.1f} ms, "
        f"deleted {by_event['DELETED']:.1f} ms",
    )
