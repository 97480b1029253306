"""Scale: many kwok nodes x 8 devices, N claims and N pods (each pod names its own claim, so the
real kube-scheduler allocates a device per pod while there are devices left).

Figures: how long the cluster took to fill (creates in parallel on keep-alive connections; the
scheduler binding one DRA pod after another is the floor, and its pace is printed); the real
gsb-tui's first paint with everything synced (in tmux), its RSS and its idle CPU from /proc;
kubectl's wall time for the same lists; then the headless dashboard's update latency while
claims are created and deleted on a fixed schedule (50 or 100 events/s), beside kubectl -w,
with the app's message queue sampled.

The large runs (`bench/run.sh --scale`, Scale.complete) also wait for the first *complete*
frame (the ledger counting every published device and every allocation), keep the nodes'
status heartbeats coming as kwok's node-heartbeat stage would (each node every 20-45 s), and
put the API server's cost of gsb-tui's start beside kubectl listing the same kinds.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import placement
import scale_keys
from harness import (
    CLAIMS_PATH,
    PODS_PATH,
    Client,
    Figures,
    KubectlWatch,
    PeakRss,
    TmuxApp,
    all_synced,
    apiserver_metrics,
    apiserver_pid,
    claim_body,
    cpu_seconds,
    gsb_tui_args,
    idle_cpu_pct,
    kubectl_args,
    log,
    median,
    percentile,
    pod_body,
    rss_mb,
    wall_time,
)
from headless import SIZE, BenchApp, Sample, Samples, phase_split, settle, until

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.rest import RestError
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind

AFTER_FIRST_S = 30.0  # the CPU of this long after the first complete frame is printed
SETTLE_STALL_S = 30.0  # no pod bound or started for this long: it will not get better
LIFETIME_S = 1.0  # each rate claim is deleted this long after it was created
DRAIN_S = 30.0  # after the last write, how long the app may take to show everything
PREFIX = "0upd"  # sorts before bench-claim-*: the claims table shows it on its first rows
# What gsb-tui lists and watches, for kubectl to list the same (all namespaces).
KINDS = "resourceslices,deviceclasses,resourceclaims,resourceclaimtemplates,pods,events,nodes"
METRICS = ("go_memstats_alloc_bytes_total",)
SLICES_PATH = "/apis/resource.k8s.io/v1/resourceslices"
ALL_CLAIMS_PATH = "/apis/resource.k8s.io/v1/resourceclaims"


@dataclass
class Scale:
    nodes: int
    claims: int
    pods: int
    idle_s: float
    rate_s: float  # how long the events/s run lasts
    first_paint_runs: int
    prefix: str = "scale"  # figure names: <prefix>_first_paint_s ...
    events_per_s: float = 50.0
    size: tuple[int, int] = (200, 60)  # the tmux terminal of the real gsb-tui
    complete: bool = False  # first paint = the ledger counts every device and allocation
    apiserver: bool = False  # the API server's cost of gsb-tui's start beside kubectl's list
    heartbeats: tuple[float, float] | None = None  # each node's status patched every (a, b) s
    profiles: tuple[str, ...] = ("lab",)
    threads: int = 4  # parallel creates
    settle_max_s: float = 360.0  # the scheduler binds ~5-15 DRA pods/s here
    placed_by_bench: bool = False  # pods bound and claims allocated by the bench (placement.py)
    per_node: int = 8  # devices a node publishes
    keys: bool = True  # complete runs: the keys and the selector tool too (not the growth runs)

    def name(self, figure: str) -> str:
        if figure == "idle_cpu_pct" and self.prefix == "scale":
            return figure  # the figure's name from before there were several scale runs
        return f"{self.prefix}_{figure}"


def _claim_name(i: int) -> str:
    return f"bench-claim-{i:04d}"


class PodProgress:
    """Watches the lab namespace's pods in a thread: when each was first bound to a node and
    first Running (the scheduler's pace, without listing thousands of pods every second)."""

    def __init__(self, cp: ControlPlane) -> None:
        self.rest = cp.rest()
        self.bound: dict[str, float] = {}
        self.running: dict[str, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _see(self, pod: dict[str, Any], now: float) -> None:
        name = (pod.get("metadata") or {}).get("name", "")
        if (pod.get("spec") or {}).get("nodeName"):
            self.bound.setdefault(name, now)
        if (pod.get("status") or {}).get("phase") == "Running":
            self.running.setdefault(name, now)

    def _run(self) -> None:
        rv = ""
        while not self.stop.is_set():
            try:
                if not rv:
                    listed = self.rest.get(PODS_PATH)
                    now = time.monotonic()
                    for pod in listed.get("items") or []:
                        self._see(pod, now)
                    rv = str((listed.get("metadata") or {}).get("resourceVersion") or "")
                for event in self.rest.watch(PODS_PATH, rv, timeout_s=30):
                    obj = event.get("object") or {}
                    if event.get("type") == "ERROR":
                        rv = ""  # 410 Gone: list again
                        break
                    self._see(obj, time.monotonic())
                    rv = str((obj.get("metadata") or {}).get("resourceVersion") or rv)
                    if self.stop.is_set():
                        return
            except (OSError, RestError, ValueError):
                rv = ""
                time.sleep(1.0)

    def __enter__(self) -> PodProgress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()  # the watch ends within its 30 s; the thread is a daemon


def populate(cp: ControlPlane, scale: Scale, figures: Figures) -> None:
    """Claim i then pod i, on `scale.threads` keep-alive connections; then wait for the
    scheduler to place every pod (kwok marks them Running)."""
    client = Client(cp)
    failed: list[str] = []
    wanted = min(scale.claims, scale.pods)
    slots = placement.spread(placement.slots(client), wanted) if scale.placed_by_bench else []
    refused: list[str] = []

    def create(path: str, body: dict[str, Any]) -> bool:
        for _ in range(5):
            try:
                status = client.create(path, body)
            except OSError:
                status = 0
            if status < 300 or status == 409:
                return True
            time.sleep(0.5)  # 429 or 5xx: the API server is busy
        failed.append(body["metadata"]["name"])
        return False

    def make(i: int) -> tuple[bool, bool]:
        if i < len(slots) and i < min(scale.claims, scale.pods):
            claim_made, pod_made, refusal = placement.place(
                client,
                slots[i],
                CLAIMS_PATH,
                PODS_PATH,
                claim_body(_claim_name(i)),
                pod_body(f"bench-pod-{i:04d}", _claim_name(i)),
            )
            if refusal:
                refused.append(refusal)
            return claim_made, pod_made
        claim = create(CLAIMS_PATH, claim_body(_claim_name(i))) if i < scale.claims else False
        pod = (
            create(PODS_PATH, pod_body(f"bench-pod-{i:04d}", _claim_name(i % scale.claims)))
            if i < scale.pods
            else False
        )
        return claim, pod

    started = time.monotonic()
    with PodProgress(cp) as progress:
        with ThreadPoolExecutor(scale.threads) as pool:
            made = list(pool.map(make, range(max(scale.claims, scale.pods))))
        created = time.monotonic() - started
        made_claims = sum(c for c, _ in made)
        made_pods = sum(p for _, p in made)
        figures.add(
            scale.name("create_objects_s"), created, "s", f"{made_claims} claims, {made_pods} pods"
        )
        figures.add(
            scale.name("create_per_s"),
            (made_claims + made_pods) / created,
            "objects/s",
            f"{scale.threads} threads, keep-alive",
        )
        # Let the scheduler place every pod (it binds in bursts with pauses between them, so
        # "no change for a few seconds" is not the end), then give the watches a quiet moment.
        last, stable_since = (-1, -1), time.monotonic()
        deadline = time.monotonic() + scale.settle_max_s
        while time.monotonic() < deadline:
            now = (len(progress.running), len(progress.bound))
            if now != last:
                last, stable_since = now, time.monotonic()
            elif now[0] >= scale.pods or time.monotonic() - stable_since > SETTLE_STALL_S:
                break
            time.sleep(1.0)
        bound = sorted(progress.bound.values())
    time.sleep(5.0)
    figures.add(scale.name("settled_s"), time.monotonic() - started, "s")
    figures.add(scale.name("pods_running"), float(last[0]), "pods")
    if slots:
        placed = min(len(slots), scale.claims, scale.pods)
        figures.note(
            scale.prefix,
            f"{placed} pods bound and their claims allocated by the bench, not kube-scheduler "
            f"(bench/placement.py); {len(refused)} refused"
            + (f", first: {refused[0]}" if refused else ""),
        )
    elif len(bound) > 1:
        # Between the first and the last bind: how fast the scheduler placed DRA pods (the
        # creates were done long before it was; see create_per_s).
        figures.add(
            scale.name("scheduler_pods_per_s"),
            (len(bound) - 1) / max(1e-9, bound[-1] - bound[0]),
            "pods/s",
            f"{len(bound)} pods bound in {bound[-1] - bound[0]:.0f} s",
        )
    figures.note(
        scale.prefix,
        f"{scale.nodes} nodes, {made_claims} claims, {made_pods} pods created with "
        f"{scale.threads} threads in {created:.1f} s; {last[0]} pods Running, {last[1]} bound"
        + (f"; {len(failed)} creates failed" if failed else ""),
    )


class NodeHeartbeats:
    """What a kubelet (or kwok's node-heartbeat stage) keeps sending: every node's status
    conditions with a new lastHeartbeatTime, each node every `every` = (a, b) seconds (random
    in between). Nothing a DRA dashboard shows changes. Paused around the API server
    readings, so they measure gsb-tui and kubectl only."""

    def __init__(self, cp: ControlPlane, every: tuple[float, float]) -> None:
        self.client = Client(cp)
        self.every = every
        self.sent = 0
        self.errors = 0
        self.stop = threading.Event()
        self.running = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.started = 0.0
        self.active_s = 0.0  # time spent unpaused, for the rate
        self.paused_s = 0.0  # how long the last pause lasted: the schedule moves by as much
        self.paused_at = 0.0

    def _run(self) -> None:
        nodes = self.client.get("/api/v1/nodes").get("items") or []
        due: list[tuple[float, str, list[dict[str, Any]]]] = []
        now = time.monotonic()
        for node in nodes:
            name = (node.get("metadata") or {}).get("name", "")
            conditions = (node.get("status") or {}).get("conditions") or []
            due.append((now + random.uniform(0, self.every[1]), name, conditions))
        due.sort(key=lambda d: d[0])
        while not self.stop.is_set():
            if not self.running.is_set():
                self.running.wait(0.5)
                continue
            if self.paused_s:  # after a pause, go on where the schedule was, not in a burst
                shift, self.paused_s = self.paused_s, 0.0
                due = [(at + shift, name, conditions) for at, name, conditions in due]
            at, name, conditions = due.pop(0)
            wait = at - time.monotonic()
            if wait > 0:
                self.stop.wait(wait)
            stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            body = {
                "status": {"conditions": [{**c, "lastHeartbeatTime": stamp} for c in conditions]}
            }
            try:
                status = self.client.patch(f"/api/v1/nodes/{name}/status", body)
                self.sent += status < 300
                self.errors += status >= 300
            except OSError:
                self.errors += 1
            next_at = time.monotonic() + random.uniform(*self.every)
            index = next((i for i, d in enumerate(due) if d[0] > next_at), len(due))
            due.insert(index, (next_at, name, conditions))

    @contextlib.contextmanager
    def paused(self) -> Any:
        self.pause()
        try:
            yield
        finally:
            self.resume()

    def pause(self) -> None:
        if self.running.is_set():
            self.running.clear()
            self.paused_at = time.monotonic()
            self.active_s += self.paused_at - self.started

    def resume(self) -> None:
        if not self.running.is_set():
            self.started = time.monotonic()
            if self.active_s:
                self.paused_s = self.started - self.paused_at
            self.running.set()

    def cpu_seconds(self) -> float:
        """CPU spent so far by the sending thread: the bench's own, which figures of a
        gsb-tui running in this process (bench/scale_keys.py) take out."""
        ident = self.thread.ident
        if ident is None or not self.thread.is_alive():
            return 0.0
        return time.clock_gettime(time.pthread_getcpuclockid(ident))

    @property
    def rate(self) -> float:
        active = self.active_s + (time.monotonic() - self.started if self.running.is_set() else 0)
        return self.sent / max(1e-9, active)

    def __enter__(self) -> NodeHeartbeats:
        self.resume()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.pause()
        self.stop.set()
        self.running.set()
        self.thread.join(5)


class ChangeCounter:
    """Counts watch changes per kind and type in a background thread (what 'idle' really
    receives; STATE changes included: a retried watch is a change too)."""

    def __init__(self, cp: ControlPlane) -> None:
        self.cp = cp
        self.counts: dict[str, int] = {}
        self.counting = False
        self.synced: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _emit(self, change: Change) -> None:
        if (
            change.type == "STATE"
            and change.state is not None
            and change.state.phase != "connecting"
        ):
            self.synced.add(change.kind.value)  # listed (or failed): its first STATE is not idle
        if self.counting and change.type in ("ADDED", "MODIFIED", "DELETED", "STATE"):
            key = f"{change.kind.value} {change.type}"
            self.counts[key] = self.counts.get(key, 0) + 1

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
        deadline = time.monotonic() + 60  # listed and watching before counting starts
        while len(self.synced) < len(Kind) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)
        self.counting = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.counting = False
        if self.loop is not None and self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


def expected_ledger(cp: ControlPlane) -> tuple[int, int]:
    """(devices published in the current pool generations, distinct devices allocated): what
    the grid's ledger says once gsb-tui has everything ("10000 devices · 5000 in use")."""
    client = Client(cp)
    slices = client.get(SLICES_PATH).get("items") or []
    newest: dict[tuple[str, str], int] = {}
    for s in slices:
        spec = s.get("spec") or {}
        pool = (spec.get("driver", ""), (spec.get("pool") or {}).get("name", ""))
        newest[pool] = max(newest.get(pool, 0), int((spec.get("pool") or {}).get("generation", 0)))
    devices = set()
    for s in slices:
        spec = s.get("spec") or {}
        pool = (spec.get("pool") or {}).get("name", "")
        if (
            int((spec.get("pool") or {}).get("generation", 0))
            != newest[(spec.get("driver", ""), pool)]
        ):
            continue
        for d in spec.get("devices") or []:
            devices.add((spec.get("driver", ""), pool, d.get("name", "")))
    used = set()
    for claim in client.get(ALL_CLAIMS_PATH).get("items") or []:
        allocation = (claim.get("status") or {}).get("allocation") or {}
        for r in (allocation.get("devices") or {}).get("results") or []:
            key = (r.get("driver", ""), r.get("pool", ""), r.get("device", ""))
            if key in devices and not r.get("adminAccess"):
                used.add(key)
    return len(devices), len(used)


def _painted(scale: Scale, want: str) -> Any:
    def painted(screen: str) -> bool:
        if scale.complete:
            return all_synced(screen) and want in screen
        return all_synced(screen) and "bench-claim-" in screen

    return painted


def settled_rss(pid: int, limit_s: float = 30.0) -> float:
    """RSS once it stops moving (under 1 MB in 3 s), or after limit_s."""
    deadline = time.monotonic() + limit_s
    last = rss_mb(pid)
    while time.monotonic() < deadline:
        time.sleep(3.0)
        now = rss_mb(pid)
        if abs(now - last) < 1.0:
            return now
        last = now
    return last


def first_paint(
    cp: ControlPlane, scale: Scale, figures: Figures, want: str, beats: NodeHeartbeats | None
) -> None:
    times = []
    width, height = scale.size
    for run in range(scale.first_paint_runs):
        last = run == scale.first_paint_runs - 1
        with TmuxApp(gsb_tui_args(cp), width, height) as app:
            took = app.wait_for(_painted(scale, want), 180)
            if took is not None:
                times.append(took)
            else:
                figures.note(
                    scale.prefix, "no complete frame within 180 s; screen:\n" + app.screen()
                )
            if not last:
                continue
            pid = app.pid()
            painted_at, cpu_at_paint = time.monotonic(), cpu_seconds(pid)
            time.sleep(3.0)  # the checklist and first repaints done
            figures.add(scale.name("rss_mb"), rss_mb(pid), "MB", "3 s after first paint")
            if scale.complete:
                figures.add(
                    scale.name("rss_settled_mb"), settled_rss(pid), "MB", "once it stops growing"
                )
                # What follows a first frame, that keys typed then would wait behind.
                time.sleep(max(0.0, painted_at + AFTER_FIRST_S - time.monotonic()))
                spent = cpu_seconds(pid) - cpu_at_paint
                wall = time.monotonic() - painted_at
                figures.add(
                    scale.name("cpu_after_first_frame_pct"),
                    100 * spent / wall,
                    "%",
                    f"of a core, the {wall:.0f} s after the first complete frame, nothing typed",
                )
            if beats is not None:  # first with nothing arriving at all, for the floor
                log(f"{scale.prefix}: idle CPU over {scale.idle_s:.0f} s, no heartbeats")
                with beats.paused():
                    time.sleep(2.0)
                    quiet = idle_cpu_pct(pid, scale.idle_s)
                figures.add(
                    scale.name("idle_quiet_cpu_pct"),
                    quiet,
                    "%",
                    f"over {scale.idle_s:.0f} s, nothing arriving (heartbeats paused)",
                )
            log(f"{scale.prefix}: idle CPU over {scale.idle_s:.0f} s")
            with ChangeCounter(cp) as counter:
                cpu = idle_cpu_pct(pid, scale.idle_s)
            what = "node heartbeats arriving" if beats else "nothing changing"
            figures.add(scale.name("idle_cpu_pct"), cpu, "%", f"over {scale.idle_s:.0f} s, {what}")
            figures.add(scale.name("rss_after_idle_mb"), rss_mb(pid), "MB")
            per_s = {k: v / scale.idle_s for k, v in sorted(counter.counts.items())}
            figures.note(
                scale.prefix,
                "watch changes the idle dashboard received per second: "
                + (", ".join(f"{k} {v:.1f}" for k, v in per_s.items()) or "none"),
            )
        time.sleep(0.5)
    figures.add(
        scale.name("first_paint_s"),
        median(times),
        "s",
        f"median of {len(times)}"
        + (f", {width}x{height}, complete frame" if scale.complete else ""),
    )
    figures.note(scale.prefix, "first paint runs: " + ", ".join(f"{t:.2f} s" for t in times))


def apiserver_cost(cp: ControlPlane, scale: Scale, figures: Figures, want: str) -> None:
    """What the API server spends on gsb-tui's start (to its first complete frame) beside
    kubectl listing the same kinds: bytes it allocated (its go_memstats_alloc_bytes_total),
    CPU seconds (/proc) and its RSS (peak, sampled every 50 ms); and the same over a quiet
    window as long as kubectl's, for what the cluster does on its own. gsb-tui goes first, so
    any growth of the API server's heap is charged to it, not to kubectl."""
    pid = apiserver_pid(cp)
    if pid is None:
        figures.note(scale.prefix, "no API server pid: no API server readings")
        return
    width, height = scale.size

    def window(label: str, action: Any) -> float:
        time.sleep(3.0)
        before = apiserver_metrics(cp, METRICS)
        cpu, base = cpu_seconds(pid), rss_mb(pid)
        started = time.monotonic()
        with PeakRss(pid) as peak:
            action()
        took = time.monotonic() - started
        spent = cpu_seconds(pid) - cpu
        after = apiserver_metrics(cp, METRICS)
        alloc = after.get(METRICS[0], 0.0) - before.get(METRICS[0], 0.0)
        figures.add(
            scale.name(f"apiserver_{label}_alloc_mb"),
            alloc / 2**20,
            "MB",
            f"allocated by the API server over {took:.1f} s",
        )
        figures.add(scale.name(f"apiserver_{label}_cpu_s"), spent, "s", "API server CPU")
        figures.add(
            scale.name(f"apiserver_{label}_rss_peak_mb"),
            peak.peak,
            "MB",
            f"+{peak.peak - base:.0f} MB over {base:.0f} MB before",
        )
        return took

    def gsb_tui() -> None:
        with TmuxApp(gsb_tui_args(cp), width, height) as app:
            took = app.wait_for(_painted(scale, want), 180)
            if took is None:
                figures.note(scale.prefix, "API server reading: gsb-tui never painted")
            time.sleep(1.0)

    def kubectl() -> None:
        subprocess.run(kubectl_args(cp, "get", KINDS, "-A", "-o", "json"), capture_output=True)

    log(f"{scale.prefix}: the API server while gsb-tui starts, and while kubectl lists")
    window("gsb_tui", gsb_tui)
    took = window("kubectl", kubectl)
    window("quiet", lambda: time.sleep(took))


def _schedule(duration: float, per_s: float) -> list[tuple[float, str, str]]:
    """(offset s, ADDED|DELETED, name) at per_s writes a second."""
    creates = int(duration * per_s / 2)
    ops = []
    for i in range(creates):
        at = i * 2 / per_s
        name = f"{PREFIX}-{i:04d}"
        ops.append((at, "ADDED", name))
        ops.append((at + LIFETIME_S, "DELETED", name))
    return sorted(ops)


async def _update_latency(
    cp: ControlPlane, scale: Scale
) -> tuple[Samples, BenchApp, dict[str, float]]:
    client = Client(cp)
    app = BenchApp(cp.kubeconfig, appear_by_rows=True)
    samples = Samples()
    queue: list[int] = []
    async with app.run_test(size=SIZE, headless=True) as _pilot:
        if not await until(app.synced, 180):
            raise RuntimeError("the dashboard never synced every kind")
        await asyncio.sleep(2.0)
        with KubectlWatch(cp, watch_only=scale.claims > 1000) as watch:
            await asyncio.sleep(3.0)  # kubectl has listed (and printed) the existing claims
            ops = _schedule(scale.rate_s, scale.events_per_s)
            for _, event, name in ops:
                if event == "ADDED":
                    app.appear[name] = None
            loop = asyncio.get_running_loop()
            pool = ThreadPoolExecutor(max(4, int(scale.events_per_s / 12)))
            started = time.monotonic()
            futures = []

            def write(event: str, name: str) -> Sample:
                sample = Sample(event, name, time.monotonic())
                if event == "DELETED":
                    app.vanish[name] = None
                with contextlib.suppress(OSError):
                    if event == "ADDED":
                        client.create(CLAIMS_PATH, claim_body(name))
                    else:
                        client.delete(f"{CLAIMS_PATH}/{name}")
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
    log(
        f"{scale.prefix}: update latency under {scale.events_per_s:.0f} events/s "
        f"for {scale.rate_s:.0f} s"
    )
    samples, app, stats = asyncio.run(_update_latency(cp, scale))
    screen, kube = samples.ms("screen"), samples.ms("kubectl")
    name = scale.name
    figures.add(name("event_rate"), stats["rate"], "events/s", "achieved write rate")
    figures.add(name("update_p50_ms"), percentile(screen, 50), "ms")
    figures.add(name("update_p95_ms"), percentile(screen, 95), "ms")
    figures.add(name("kubectl_watch_p50_ms"), percentile(kube, 50), "ms")
    figures.add(name("kubectl_watch_p95_ms"), percentile(kube, 95), "ms")
    # Keeping up: the last third of the run is no slower than the first, nothing is missing,
    # and the app's message queue stays small.
    third = max(1, len(samples.items) // 3)
    head = [m for s in samples.items[:third] if (m := s.ms(s.screen)) is not None]
    tail = [m for s in samples.items[-third:] if (m := s.ms(s.screen)) is not None]
    missing = samples.missing("screen")
    figures.add(name("update_first_third_p95_ms"), percentile(head, 95), "ms")
    figures.add(name("update_last_third_p95_ms"), percentile(tail, 95), "ms")
    figures.add(name("update_missing"), float(missing), "events", "never on screen")
    figures.add(name("queue_max"), stats["queue_max"], "messages")
    keeps_up = (
        missing == 0
        and stats["queue_max"] < 50
        and percentile(tail, 95) <= 2 * percentile(head, 95) + 50
    )
    figures.add(name("keeps_up"), "yes" if keeps_up else "no", "")
    labels = ("store → repaint", "repaint", "repaint → frame")
    figures.note(
        scale.prefix,
        f"{len(samples.items)} events sent in {stats['sent_s']:.1f} s, all shown after "
        f"{stats['drained_s']:.1f} s; {app.repaints} repaints, {app.frames} frames; "
        "split p50/p95 ms: " + phase_split(samples, labels, 0, "/"),
    )
    if app.repaint_log:
        took = [1000 * (end - start) for start, end in app.repaint_log]
        figures.add(name("repaint_p50_ms"), percentile(took, 50), "ms", "one _repaint call")


def run(
    cp: ControlPlane,
    figures: Figures,
    scale: Scale,
    then: Callable[[], None] | None = None,
) -> None:
    """The figures above; `then` (the profiles) runs at the end, heartbeats still coming."""
    log(f"{scale.prefix}: filling the cluster ({scale.claims} claims, {scale.pods} pods)")
    populate(cp, scale, figures)
    total, used = expected_ledger(cp)
    want = f"{total} devices · {used} in use"
    figures.add(scale.name("devices"), float(total), "devices", f"{used} allocated")
    if scale.prefix == "scale":  # the figure from before, kept for comparison
        kube_s, code = wall_time(
            kubectl_args(cp, "get", "resourceslices,deviceclasses,resourceclaims,pods", "-A"), 3
        )
        figures.add(scale.name("kubectl_get_all_s"), kube_s, "s", f"exit {code}")
    kube_s, code = wall_time(kubectl_args(cp, "get", "resourceclaims,pods", "-A", "-o", "json"), 3)
    figures.add(
        scale.name("kubectl_claims_pods_json_s"),
        kube_s,
        "s",
        f"kubectl get resourceclaims,pods -A -o json, median of 3, exit {code}",
    )
    beats = NodeHeartbeats(cp, scale.heartbeats) if scale.heartbeats else None
    with beats if beats is not None else contextlib.nullcontext():
        log(f"{scale.prefix}: first paint of the real gsb-tui")
        first_paint(cp, scale, figures, want, beats)
        if beats is not None:
            figures.add(
                scale.name("node_heartbeats_per_s"),
                beats.rate,
                "updates/s",
                f"each of {scale.nodes} nodes every {scale.heartbeats[0]:.0f}-"  # type: ignore[index]
                f"{scale.heartbeats[1]:.0f} s; {beats.errors} failed",  # type: ignore[index]
            )
        if scale.complete:  # the large runs: keys, the selector tool and `why` at that size
            sender = beats.cpu_seconds if beats is not None else None
            scale_keys.run(
                cp, figures, scale.prefix, scale.size, scale.per_node, scale.keys, sender
            )
        update_latency(cp, scale, figures)
        if scale.apiserver:
            with beats.paused() if beats is not None else contextlib.nullcontext():
                apiserver_cost(cp, scale, figures, want)
        if then is not None:
            then()
