"""Scale: many kwok nodes x 8 devices, N claims and N pods (each pod names its own claim, so the
real kube-scheduler allocates a device per pod while there are devices left).

Figures: how long the cluster took to fill; the real gsb-tui's first paint with everything
synced (in tmux), its RSS and its idle CPU from /proc; kubectl's wall time for the same lists;
then the headless dashboard's update latency while 50 events/s arrive (claims created and
deleted on a fixed schedule), beside kubectl -w, with the app's message queue sampled.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from harness import (
    CLAIMS_PATH,
    PODS_PATH,
    Figures,
    KubectlWatch,
    TmuxApp,
    all_synced,
    claim_body,
    delete_quietly,
    gsb_tui_args,
    idle_cpu_pct,
    kubectl_args,
    log,
    median,
    percentile,
    rss_mb,
    wall_time,
)
from headless import SIZE, BenchApp, Sample, Samples, phase_split, settle, until

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change

THREADS = 4
SETTLE_MAX_S = 360.0  # the scheduler binds ~5-10 DRA pods/s here; 1000 pods take minutes
SETTLE_STALL_S = 30.0  # no pod bound or started for this long: it will not get better
EVENTS_PER_S = 50.0
LIFETIME_S = 1.0  # each rate claim is deleted this long after it was created
DRAIN_S = 30.0  # after the last write, how long the app may take to show everything
PREFIX = "0upd"  # sorts before bench-claim-*: the claims table shows it on its first rows


@dataclass
class Scale:
    nodes: int
    claims: int
    pods: int
    idle_s: float
    rate_s: float  # how long the 50 events/s run lasts
    first_paint_runs: int


def pod_body(name: str, claim: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": LAB_NAMESPACE},
        "spec": {
            "terminationGracePeriodSeconds": 0,
            "containers": [
                {
                    "name": "ctr",
                    "image": "ubuntu:22.04",
                    "command": ["sleep", "infinity"],
                    "resources": {"claims": [{"name": "gpu"}]},
                }
            ],
            "resourceClaims": [{"name": "gpu", "resourceClaimName": claim}],
        },
    }


def _create_all(rest: Rest, path: str, bodies: list[dict[str, Any]]) -> int:
    def create(body: dict[str, Any]) -> bool:
        for _ in range(3):
            try:
                rest.create(path, body)
                return True
            except RestError as exc:
                if exc.status == 409:
                    return True
                time.sleep(0.2)
            except OSError:
                time.sleep(0.2)
        return False

    with ThreadPoolExecutor(THREADS) as pool:
        return sum(pool.map(create, bodies))


def populate(cp: ControlPlane, scale: Scale, figures: Figures) -> None:
    rest = cp.rest()
    started = time.monotonic()
    made = _create_all(
        rest, CLAIMS_PATH, [claim_body(f"bench-claim-{i:04d}") for i in range(scale.claims)]
    )
    made_pods = _create_all(
        rest,
        PODS_PATH,
        [
            pod_body(f"bench-pod-{i:04d}", f"bench-claim-{i % scale.claims:04d}")
            for i in range(scale.pods)
        ],
    )
    created = time.monotonic() - started
    figures.add("scale_create_objects_s", created, "s", f"{made} claims, {made_pods} pods")
    # Let the scheduler place every pod (it binds in bursts with pauses between them, so
    # "no change for a few seconds" is not the end), then give the watches a quiet moment.
    last, stable_since, deadline = (-1, -1), time.monotonic(), time.monotonic() + SETTLE_MAX_S
    while time.monotonic() < deadline:
        pods = rest.get(PODS_PATH).get("items", [])
        running = sum(1 for p in pods if (p.get("status") or {}).get("phase") == "Running")
        bound = sum(1 for p in pods if (p.get("spec") or {}).get("nodeName"))
        if (running, bound) != last:
            last, stable_since = (running, bound), time.monotonic()
        elif running == scale.pods or time.monotonic() - stable_since > SETTLE_STALL_S:
            break
        time.sleep(1.0)
    time.sleep(5.0)
    figures.add("scale_settled_s", time.monotonic() - started, "s")
    figures.add("scale_pods_running", float(last[0]), "pods")
    figures.note(
        "scale",
        f"{scale.nodes} nodes x 8 devices, {made} claims, {made_pods} pods created with "
        f"{THREADS} threads in {created:.1f} s; {last[0]} pods Running, {last[1]} bound",
    )


class ChangeCounter:
    """Counts watch events per kind in a background thread (what 'idle' really receives)."""

    def __init__(self, cp: ControlPlane) -> None:
        self.cp = cp
        self.counts: dict[str, int] = {}
        self.counting = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _emit(self, change: Change) -> None:
        if self.counting and change.type in ("ADDED", "MODIFIED", "DELETED"):
            self.counts[change.kind.value] = self.counts.get(change.kind.value, 0) + 1

    def _run(self) -> None:
        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            source = LiveSource(Target(kubeconfig=self.cp.kubeconfig, namespace=LAB_NAMESPACE))
            self.task = asyncio.create_task(source.run(self._emit))
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

        asyncio.run(main())

    def __enter__(self) -> ChangeCounter:
        self.thread.start()
        time.sleep(3.0)  # listed and watching before counting starts
        self.counting = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.counting = False
        if self.loop is not None and self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


def first_paint(cp: ControlPlane, scale: Scale, figures: Figures) -> None:
    def painted(screen: str) -> bool:
        return all_synced(screen) and "bench-claim-" in screen

    times = []
    for run in range(scale.first_paint_runs):
        last = run == scale.first_paint_runs - 1
        with TmuxApp(gsb_tui_args(cp)) as app:
            took = app.wait_for(painted, 60)
            if took is not None:
                times.append(took)
            if not last:
                continue
            pid = app.pid()
            time.sleep(3.0)  # the checklist and first repaints done
            figures.add("scale_rss_mb", rss_mb(pid), "MB", "after first paint")
            log(f"scale: idle CPU over {scale.idle_s:.0f} s")
            with ChangeCounter(cp) as counter:
                cpu = idle_cpu_pct(pid, scale.idle_s)
            figures.add("idle_cpu_pct", cpu, "%", f"over {scale.idle_s:.0f} s, of one core")
            figures.add("scale_rss_after_idle_mb", rss_mb(pid), "MB")
            per_s = {k: v / scale.idle_s for k, v in sorted(counter.counts.items())}
            figures.note(
                "scale",
                "watch events the idle dashboard received per second: "
                + (", ".join(f"{k} {v:.1f}" for k, v in per_s.items()) or "none"),
            )
        time.sleep(0.5)
    figures.add("scale_first_paint_s", median(times), "s", f"median of {len(times)}")
    figures.note("scale", "first paint runs: " + ", ".join(f"{t:.2f} s" for t in times))


def _schedule(duration: float) -> list[tuple[float, str, str]]:
    """(offset s, ADDED|DELETED, name) at EVENTS_PER_S writes a second."""
    creates = int(duration * EVENTS_PER_S / 2)
    ops = []
    for i in range(creates):
        at = i * 2 / EVENTS_PER_S
        name = f"{PREFIX}-{i:04d}"
        ops.append((at, "ADDED", name))
        ops.append((at + LIFETIME_S, "DELETED", name))
    return sorted(ops)


async def _update_latency(
    cp: ControlPlane, duration: float
) -> tuple[Samples, BenchApp, dict[str, float]]:
    rest = cp.rest()
    app = BenchApp(cp.kubeconfig, appear_by_rows=True)
    samples = Samples()
    queue: list[int] = []
    async with app.run_test(size=SIZE, headless=True) as _pilot:
        if not await until(app.synced, 60):
            raise RuntimeError("the dashboard never synced every kind")
        await asyncio.sleep(2.0)
        with KubectlWatch(cp) as watch:
            await asyncio.sleep(3.0)  # kubectl has printed the initial list
            ops = _schedule(duration)
            for _, event, name in ops:
                if event == "ADDED":
                    app.appear[name] = None
            loop = asyncio.get_running_loop()
            pool = ThreadPoolExecutor(THREADS)
            started = time.monotonic()
            futures = []

            def write(event: str, name: str) -> Sample:
                sample = Sample(event, name, time.monotonic())
                if event == "DELETED":
                    app.vanish[name] = None
                if event == "ADDED":
                    with contextlib.suppress(RestError):
                        rest.create(CLAIMS_PATH, claim_body(name))
                else:
                    delete_quietly(rest, f"{CLAIMS_PATH}/{name}")
                return sample

            for at, event, name in ops:
                delay = started + at - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                queue.append(app.message_queue_size)
                futures.append(loop.run_in_executor(pool, write, event, name))
            written = await asyncio.gather(*futures)
            sent_s = time.monotonic() - started
            await until(
                lambda: all(v is not None for v in (*app.appear.values(), *app.vanish.values())),
                DRAIN_S,
                0.01,
            )
            drained_s = time.monotonic() - started
            await asyncio.sleep(1.0)
            for sample in written:
                settle(app, sample, watch.when)
                samples.items.append(sample)
            pool.shutdown()
    stats = {
        "sent_s": sent_s,
        "drained_s": drained_s,
        "queue_max": float(max(queue, default=0)),
        "rate": len(ops) / sent_s,
    }
    return samples, app, stats


def update_latency(cp: ControlPlane, scale: Scale, figures: Figures) -> None:
    log(f"scale: update latency under {EVENTS_PER_S:.0f} events/s for {scale.rate_s:.0f} s")
    samples, app, stats = asyncio.run(_update_latency(cp, scale.rate_s))
    screen, kube = samples.ms("screen"), samples.ms("kubectl")
    figures.add("scale_event_rate", stats["rate"], "events/s", "achieved write rate")
    figures.add("scale_update_p50_ms", percentile(screen, 50), "ms")
    figures.add("scale_update_p95_ms", percentile(screen, 95), "ms")
    figures.add("scale_kubectl_watch_p50_ms", percentile(kube, 50), "ms")
    figures.add("scale_kubectl_watch_p95_ms", percentile(kube, 95), "ms")
    # Keeping up: the last third of the run is no slower than the first, nothing is missing,
    # and the app's message queue stays small.
    third = max(1, len(samples.items) // 3)
    head = [m for s in samples.items[:third] if (m := s.ms(s.screen)) is not None]
    tail = [m for s in samples.items[-third:] if (m := s.ms(s.screen)) is not None]
    missing = samples.missing("screen")
    figures.add("scale_update_first_third_p95_ms", percentile(head, 95), "ms")
    figures.add("scale_update_last_third_p95_ms", percentile(tail, 95), "ms")
    figures.add("scale_update_missing", float(missing), "events", "never on screen")
    figures.add("scale_queue_max", stats["queue_max"], "messages")
    keeps_up = (
        missing == 0
        and stats["queue_max"] < 50
        and percentile(tail, 95) <= 2 * percentile(head, 95) + 50
    )
    figures.add("scale_keeps_up", "yes" if keeps_up else "no", "")
    labels = ("store → repaint", "repaint", "repaint → frame")
    figures.note(
        "scale",
        f"{len(samples.items)} events sent in {stats['sent_s']:.1f} s, all shown after "
        f"{stats['drained_s']:.1f} s; {app.repaints} repaints, {app.frames} frames; "
        "split p50/p95 ms: " + phase_split(samples, labels, 0, "/"),
    )
    if app.repaint_log:
        took = [1000 * (end - start) for start, end in app.repaint_log]
        figures.add("scale_repaint_p50_ms", percentile(took, 50), "ms", "one _repaint call")


def run(cp: ControlPlane, figures: Figures, scale: Scale) -> None:
    log(f"scale: filling the cluster ({scale.claims} claims, {scale.pods} pods)")
    populate(cp, scale, figures)
    kube_s, code = wall_time(
        kubectl_args(cp, "get", "resourceslices,deviceclasses,resourceclaims,pods", "-A"), 3
    )
    figures.add("scale_kubectl_get_all_s", kube_s, "s", f"exit {code}")
    log("scale: first paint of the real gsb-tui")
    first_paint(cp, scale, figures)
    update_latency(cp, scale, figures)
