"""Where the time goes: pyinstrument over the same scenarios the figures measure.

Each profile runs separately from the timed runs (sampling slows things down) and is boiled
down to two short lists for docs/PERFORMANCE.md: functions by self time, and the project's own
functions (gsb_tui) by total time.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import CLAIMS_PATH, PYTHON, claim_body, delete_quietly, log
from headless import SIZE, BenchApp, until

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.rest import RestError

try:
    from pyinstrument import Profiler as _Profiler

    Profiler: type[_Profiler] | None = _Profiler
except ImportError:  # run.sh installs it; without it the figures still come out
    Profiler = None


@dataclass
class Hotspots:
    title: str
    seconds: float
    flat: list[str] = field(default_factory=list)  # pyinstrument's flat self-time list
    tree: list[str] = field(default_factory=list)  # its call tree, library frames grouped
    widgets: list[str] = field(default_factory=list)  # per-widget render cost table rows


def available() -> bool:
    return Profiler is not None


def _trim(text: str, lines: int) -> list[str]:
    out = [line.rstrip() for line in text.splitlines() if line.strip()]
    # Drop pyinstrument's banner (a box of underscores and "Recorded: ..." lines).
    body = [line for line in out if not line.lstrip().startswith(("_", "Recorded", "/_/", "/"))]
    return body[:lines]


def summarize(title: str, session: Any, flat_lines: int = 15, tree_lines: int = 45) -> Hotspots:
    from pyinstrument.renderers import ConsoleRenderer

    flat = ConsoleRenderer(
        flat=True, flat_time="self", time="percent_of_total", unicode=False, color=False
    ).render(session)
    tree = ConsoleRenderer(
        time="percent_of_total",
        unicode=False,
        color=False,
        processor_options={"filter_threshold": 0.02},
    ).render(session)
    return Hotspots(title, session.duration, _trim(flat, flat_lines), _trim(tree, tree_lines))


async def _profiled(title: str, body: Callable[[], Awaitable[None]]) -> Hotspots | None:
    if Profiler is None:
        return None
    profiler = Profiler(interval=0.001, async_mode="disabled")
    profiler.start()
    try:
        await body()
    finally:
        profiler.stop()
    return summarize(title, profiler.last_session)


class GcTimer:
    """Garbage collections while inside: how many per generation, and the time they took
    (gc.callbacks; the collector runs on whichever thread allocates)."""

    def __init__(self) -> None:
        self.spent: dict[int, list[float]] = {}
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            took = time.perf_counter() - self._started
            self.spent.setdefault(int(info.get("generation", -1)), []).append(took)

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def line(self) -> str:
        parts = [
            f"gen{g} {len(t)} × (max {1000 * max(t):.0f} ms, total {1000 * sum(t):.0f} ms)"
            for g, t in sorted(self.spent.items())
        ]
        return "gc collections: " + ("; ".join(parts) or "none")


async def _app_scenario(
    cp: ControlPlane, idle_s: float, rate_s: float, size: tuple[int, int] = SIZE
) -> list[Hotspots]:
    """First paint, then (optionally) writes at 50/s, then idle; one profile each."""
    rest = cp.rest()
    out: list[Hotspots] = []
    app = BenchApp(cp.kubeconfig)
    profiler = Profiler(interval=0.001, async_mode="disabled") if Profiler is not None else None
    if profiler is not None:
        profiler.start()
    async with app.run_test(size=size, headless=True) as _pilot:
        started = time.monotonic()
        with GcTimer() as collected:
            await until(lambda: app.first_synced_frame is not None, 180)
            await until(lambda: app.repaints >= 2, 5)
        if profiler is not None:
            profiler.stop()
            hot = summarize(
                f"start → first synced frame ({time.monotonic() - started:.1f} s)",
                profiler.last_session,
            )
            hot.flat.insert(0, collected.line())
            out.append(hot)
        await asyncio.sleep(2.0)

        if rate_s > 0:

            async def writes() -> None:
                loop = asyncio.get_running_loop()
                begun = time.monotonic()
                pending = []
                for i in range(int(rate_s * 25)):
                    name = f"0prof-{i:04d}"
                    delay = begun + i * 0.04 - time.monotonic()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    pending.append(loop.run_in_executor(None, _create_then_delete, rest, name))
                await asyncio.gather(*pending)

            hot = await _profiled(f"{rate_s:.0f} s of 50 events/s", writes)
            if hot:
                out.append(hot)
        if idle_s > 0:
            repaints = app.repaints
            with GcTimer() as collected:
                hot = await _profiled(f"{idle_s:.0f} s idle", lambda: asyncio.sleep(idle_s))
            if hot:
                hot.flat.insert(0, f"{app.repaints - repaints} repaints; " + collected.line())
                out.append(hot)
    return out


def _create_then_delete(rest: Any, name: str) -> None:
    with contextlib.suppress(RestError):
        rest.create(CLAIMS_PATH, claim_body(name))
    time.sleep(0.5)
    delete_quietly(rest, f"{CLAIMS_PATH}/{name}")


def profile_app(
    cp: ControlPlane, label: str, idle_s: float, rate_s: float, size: tuple[int, int] = SIZE
) -> list[Hotspots]:
    if Profiler is None:
        return []
    log(f"profiling the dashboard ({label})")
    found = asyncio.run(_app_scenario(cp, idle_s, rate_s, size))
    for hot in found:
        hot.title = f"{label}: {hot.title}"
    return found


def profile_call(title: str, fn: Callable[[], object]) -> Hotspots | None:
    if Profiler is None:
        return None
    profiler = Profiler(interval=0.0005, async_mode="disabled")
    profiler.start()
    try:
        fn()
    finally:
        profiler.stop()
    return summarize(title, profiler.last_session)


def profile_process(title: str, args: list[str]) -> Hotspots | None:
    """A whole Python process (imports included) under `python -m pyinstrument`."""
    if Profiler is None:
        return None
    from pyinstrument.session import Session

    with tempfile.TemporaryDirectory(prefix="gsb-bench-prof-") as tmp:
        out = Path(tmp) / "run.pyisession"
        subprocess.run(
            [
                str(PYTHON),
                "-m",
                "pyinstrument",
                "-i",
                "0.0005",
                "-r",
                "pyisession",
                "-o",
                str(out),
                *args,
            ],
            capture_output=True,
            check=False,
        )
        if not out.is_file():
            return None
        return summarize(title, Session.load(str(out)))


def _widget_path(widget: Any) -> str:
    """id or class of the widget and two ancestors: enough to tell the panes apart."""
    from textual.widget import Widget

    names: list[str] = []
    node = widget
    while isinstance(node, Widget) and len(names) < 3:
        label = node.id or type(node).__name__
        if not node.id and node.classes:
            label += "." + ".".join(sorted(node.classes))
        names.append(label)
        node = node.parent
    return "/".join(reversed(names))


@contextlib.contextmanager
def widget_timer() -> Iterator[dict[tuple[str, str], list[float]]]:
    """Time Widget.render_lines and get_content_height per widget while inside."""
    from textual.widget import Widget

    costs: dict[tuple[str, str], list[float]] = {}
    originals = {m: getattr(Widget, m) for m in ("render_lines", "get_content_height")}

    def timed(method: str) -> Callable[..., Any]:
        original = originals[method]

        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(self, *args, **kwargs)
            finally:
                entry = costs.setdefault((method, _widget_path(self)), [0.0, 0.0])
                entry[0] += time.perf_counter() - started
                entry[1] += 1

        return wrapper

    for method in originals:
        setattr(Widget, method, timed(method))
    try:
        yield costs
    finally:
        for method, original in originals.items():
            setattr(Widget, method, original)


async def _widget_scenario(cp: ControlPlane, events: int) -> tuple[list[str], int]:
    rest = cp.rest()
    app = BenchApp(cp.kubeconfig)
    async with app.run_test(size=SIZE, headless=True) as _pilot:
        await until(app.synced, 60)
        await asyncio.sleep(2.0)
        repaints = app.repaints
        with widget_timer() as costs:
            for i in range(events // 2):
                name = f"0wid-{i:04d}"
                await asyncio.to_thread(rest.create, CLAIMS_PATH, claim_body(name))
                await asyncio.sleep(0.3)
                await asyncio.to_thread(delete_quietly, rest, f"{CLAIMS_PATH}/{name}")
                await asyncio.sleep(0.3)
        repaints = max(1, app.repaints - repaints)
    rows = [
        f"| `{where}` | {method} | {1000 * spent / repaints:.1f} | {int(calls)} |"
        for (method, where), (spent, calls) in sorted(costs.items(), key=lambda kv: -kv[1][0])[:10]
    ]
    return rows, repaints


def widget_costs(cp: ControlPlane, label: str, events: int = 20) -> Hotspots:
    """Which widgets the frames spend their time in while claims come and go."""
    log(f"timing widget renders ({label})")
    started = time.monotonic()
    rows, repaints = asyncio.run(_widget_scenario(cp, events))
    hot = Hotspots(
        f"{label}: render time per widget, {events} claim events ({repaints} repaints)",
        time.monotonic() - started,
    )
    hot.widgets = rows
    return hot
