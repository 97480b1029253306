"""Issue 24, item 8: the operator's keys at 10,000 devices and more, headless.

    .venv/bin/python bench/operator_keys.py [--devices 10000] [--idle 20] [--size 200x60]

The cluster is the operator's recording (tests/fixtures/profiles/operator.jsonl: 40 kwok nodes x
24 devices, placed by the real kube-scheduler and resourceclaim controller) copied side by side
to 10,000 devices and more (bench/operator_scale.py: 11 copies, 10,560 devices, 1,430 pods),
handed to the real GsbApp by an in-process source, and driven with Textual's Pilot at 200x60.
No practice cluster runs: on this 2-core machine one with 440 nodes would share the cores the
keys are timed on. Each frame Textual hands the driver is turned into terminal bytes (as a
real terminal's driver would) and stamped.

Figures (`name value unit`):
- selector_key_results_*: a key typed into the selector tool (one every 0.3 s, as a person
  reading the results) until the first frame showing the trial of the new text; `eval` keys
  turn one valid selector into another (every device evaluated), `all` keys are a selector
  typed from nothing (most states do not compile yet). The first trial on a fresh process
  builds every device's CEL context: selector_first_trial_ms, apart.
- grid_key_frame_*, jump_key_frame_*, filter_key_frame_*: key until the last frame it caused
  (frames stop for QUIET_S; ..._first_*: until its first frame, the screen answering): grid
  navigation (down, pagedown, end, home, ...), the jump box (`:` and typing a node's name),
  the claims filter (`/` and typing a claim's name). A key that gives no frame within a
  second (it does nothing) is said "not built", so is a key no binding has.
- selector_idle_cpu_pct: the process's CPU (every thread) over --idle seconds with the tool
  open on a selector and nothing changing; ..._retries_pct the same while the scheduler's
  FailedScheduling event of a pending pod is counted again every second (new views, the same
  devices and claims: the tool must not evaluate); dashboard_idle_cpu_pct the dashboard alone.
  Node heartbeats are not sent: the App drops a node change it cannot show (ui/pacing.py).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from typing import Any

from harness import NO_LAB_DIR, Figures, log, percentile
from operator_scale import scaled_changes
from textual.pilot import Pilot
from textual.widgets import Input

from gsb_tui.kube.source import ChangeSource, Emit, SourceInfo
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.selector import SelectorScreen

KEY_GAP_S = 0.3  # between two measured keys: above the tool's 0.15 s debounce


class ListSource:
    """Every change at once, then whatever the bench pushes (a live watch staying open)."""

    def __init__(self, changes: list[Change]) -> None:
        self.changes = changes
        self.queue: asyncio.Queue[Change] = asyncio.Queue()
        self.info = SourceInfo(context="bench", server="operator x copies", namespace="dra-lab")

    async def run(self, emit: Emit) -> None:
        for change in self.changes:
            emit(change)
        while True:
            emit(await self.queue.get())


class KeysApp(GsbApp):
    def __init__(self, source: ChangeSource) -> None:
        super().__init__(source, NO_LAB_DIR, "en", watch_lab_dir=False)
        self.frames: list[float] = []
        # effect_to_frame's question, asked of each frame: does it show the key's effect yet?
        self.shows: Callable[[], bool] | None = None
        self.shown_at: float | None = None

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is None or self._batch_count or not hasattr(renderable, "render_segments"):
            return
        renderable.render_segments(self.console)  # the bytes a terminal would be sent
        now = time.monotonic()
        self.frames.append(now)
        if self.shows is not None and self.shown_at is None and self.shows():
            self.shown_at = now


async def effect_to_frame(app: KeysApp, key: str, shows: Callable[[], bool]) -> float | None:
    """ms from a key sent (as a terminal's driver sends it: into the App's queue, nobody
    waiting for the App to go idle) to the first frame drawn once `shows()` holds — the
    key's effect is in the App's state, so a frame composed after it shows it. On a live
    cluster frames of other changes come and go: neither the first frame after the key nor
    the last before a quiet spell is the key's. None when no frame showed it within 10 s."""
    app.shows, app.shown_at = shows, None
    started = time.monotonic()
    task = asyncio.create_task(app._press_keys([key]))  # sends at once; its idle wait is moot
    await until(lambda: app.shown_at is not None, 10.0)
    at, app.shows = app.shown_at, None
    await task
    await asyncio.sleep(KEY_GAP_S)
    return None if at is None else 1000 * (at - started)


async def until(cond: Callable[[], object], timeout: float, step: float = 0.001) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(step)
    return True


def frame_after(app: KeysApp, moment: float) -> float | None:
    return next((t for t in app.frames if t >= moment), None)


QUIET_S = 0.15  # no frame for this long after a key was handled: its last frame was drawn


async def key_to_frame(pilot: Pilot[Any], app: KeysApp, key: str) -> float | None:
    """ms from the key to the last frame it caused: the screen showing all it did (a typed
    character may be echoed in one frame and its results drawn in a later one). Blinking
    cursors are off and nothing else changes meanwhile, so the frames are the key's; None
    when there was none."""
    started = time.monotonic()
    count = len(app.frames)
    await pilot.press(key)
    while True:  # until the frames stop coming
        seen = len(app.frames)
        await asyncio.sleep(QUIET_S)
        if len(app.frames) == seen:
            break
    at = app.frames[-1] if len(app.frames) > count else None
    if at is not None:
        FIRSTS.append(1000 * (app.frames[count] - started))
    await asyncio.sleep(KEY_GAP_S)
    return None if at is None else 1000 * (at - started)


FIRSTS: list[float] = []  # each key's first frame, ms (key_to_frame's figure is its last)


def report_firsts(figures: Figures, name: str, asked: int) -> None:
    """The keys' first frames: the screen answering the key at all (a verdict decided in a
    worker, or results drawn in a later frame, come after it)."""
    report(figures, f"{name}_first", list(FIRSTS), asked)
    FIRSTS.clear()


VERBOSE = False  # --verbose: every key's figure on stderr


def report(figures: Figures, name: str, values: list[float], asked: int) -> None:
    if VERBOSE:
        log(f"{name}: " + " ".join(f"{v:.0f}" for v in values))
    if not values:
        figures.add(name, "not built", "(no frame after any key)")
        return
    figures.add(f"{name}_p95_ms", percentile(values, 95), "ms")
    figures.add(f"{name}_p50_ms", percentile(values, 50), "ms")
    if len(values) < asked:
        figures.add(f"{name}_no_frame", asked - len(values), "keys")


def no_blink(app: KeysApp) -> None:
    """Blinking cursors draw a frame twice a second: off, so a blink is never the key's frame."""
    for box in app.screen.query(Input):
        box.cursor_blink = False


# --- the selector tool ----------------------------------------------------------------------


async def trial_shown(pilot: Pilot[Any], app: KeysApp, screen: SelectorScreen, key: str) -> float:
    """ms from the key to the first frame after the trial of the new text was put on screen
    (screen._show, stamped by `stamp_shows`)."""
    box = screen.query_one("#selector-input", Input)
    started = time.monotonic()
    await pilot.press(key)
    wanted = box.value.strip()  # as the trial keeps it

    def shown() -> bool:
        trial = screen.trial
        return trial is not None and trial.expression == wanted and SHOWN[-1] >= started

    if not await until(shown, 30):
        raise RuntimeError(f"no trial of {wanted!r} within 30 s")
    await until(lambda: frame_after(app, SHOWN[-1]) is not None, 5)
    at = frame_after(app, SHOWN[-1])
    if at is None:
        raise RuntimeError(f"no frame after the trial of {wanted!r}")
    await asyncio.sleep(KEY_GAP_S)
    return 1000 * (at - started)


SHOWN = [0.0]  # when the selector screen last showed a trial (time.monotonic)


def stamp_shows(screen: SelectorScreen) -> None:
    show = screen._show

    def stamped(trial: Any, view: Any, asked: int) -> None:
        show(trial, view, asked)
        if screen.trial is trial:
            SHOWN.append(time.monotonic())

    screen._show = stamped  # type: ignore[method-assign]


async def open_selector(pilot: Pilot[Any], app: KeysApp) -> tuple[SelectorScreen, Input]:
    """The selector tool opened (`s`), its trials stamped, its cursor not blinking."""
    await pilot.press("s")
    await until(lambda: isinstance(app.screen, SelectorScreen), 5)
    screen = app.screen
    assert isinstance(screen, SelectorScreen)
    no_blink(app)
    stamp_shows(screen)
    return screen, screen.query_one("#selector-input", Input)


async def text_put(screen: SelectorScreen, box: Input, value: str, timeout: float) -> float:
    """The whole text put in at once and its trial awaited (the ms until it was, returned), then
    KEY_GAP_S as after every measured key: the first key typed next comes after a person's
    pause, as the others do, not within the debounce of this change."""
    started = time.monotonic()
    box.value = value
    await until(lambda: screen.trial is not None and screen.trial.expression == value, timeout)
    ms = 1000 * (time.monotonic() - started)
    box.cursor_position = len(value)
    await asyncio.sleep(KEY_GAP_S)
    return ms


async def selector(pilot: Pilot[Any], app: KeysApp, figures: Figures, driver: str) -> None:
    screen, box = await open_selector(pilot, app)
    domain = f"device.attributes['{driver}']"
    first_trial = await text_put(screen, box, f"{domain}.index == 0", 60)
    figures.add("selector_first_trial_ms", first_trial, "ms")
    evaluating: list[float] = []
    for key in ["1", "backspace", "2", "backspace", "3", "backspace"] * 3:
        evaluating.append(await trial_shown(pilot, app, screen, key))
    await text_put(screen, box, f"{domain}.uuid == 'gpu-0'", 30)  # every device apart
    box.cursor_position = len(box.value) - 1
    for key in ["1", "backspace", "2", "backspace"] * 3:
        evaluating.append(await trial_shown(pilot, app, screen, key))
    report(figures, "selector_eval_key_results", evaluating, len(evaluating))
    await text_put(screen, box, "", 10)
    typed: list[float] = []
    for ch in f"{domain}.model != 'x'":
        typed.append(await trial_shown(pilot, app, screen, ch))
    report(figures, "selector_all_key_results", typed, len(typed))


async def idle_cpu(seconds: float, beat: Callable[[], None] | None = None) -> float:
    cpu, wall = time.process_time(), time.monotonic()
    deadline = wall + seconds
    while time.monotonic() < deadline:
        if beat is not None:
            beat()
        await asyncio.sleep(1.0)
    return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)


def retries(app: KeysApp, source: ListSource) -> Callable[[], None]:
    """The scheduler trying a pending pod again, each call: its FailedScheduling event counted
    once more (a change the App keeps, unlike a node's heartbeat, which it drops unseen)."""
    assert app.view is not None
    events = [dict(e) for e in app.view.snapshot.items(Kind.EVENTS)]
    failed = [e for e in events if e.get("reason") == "FailedScheduling"] or events
    count = [0]

    def beat() -> None:
        event = failed[count[0] % len(failed)]
        count[0] += 1
        metadata = {**event["metadata"], "resourceVersion": f"9{count[0]:08d}"}
        seen = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        again = {**event, "metadata": metadata, "lastTimestamp": seen}
        again["count"] = int(event.get("count") or 1) + count[0]
        source.queue.put_nowait(Change(Kind.EVENTS, "MODIFIED", obj=again))

    return beat


# --- the dashboard's keys -------------------------------------------------------------------


async def presses(pilot: Pilot[Any], app: KeysApp, keys: list[str]) -> list[float]:
    out = []
    for key in keys:
        ms = await key_to_frame(pilot, app, key)
        if ms is not None:
            out.append(ms)
    return out


async def grid(pilot: Pilot[Any], app: KeysApp, figures: Figures) -> None:
    FIRSTS.clear()
    app.dashboard.focus_pane("grid")
    await pilot.pause(0.3)
    if VERBOSE:
        log(f"grid: screen {type(app.screen).__name__}, focused {app.focused!r}")
    keys = ["down"] * 20 + ["pagedown"] * 5 + ["end", "home"] + ["right"] * 5 + ["pageup"]
    # The compact grid's toggle, wherever the focused chain binds it (if it is built yet).
    compact = [key for key, a in app.active_bindings.items() if "compact" in a.binding.action]
    keys += compact[:1] * 4
    figures.note("keys", f"grid: {len(keys)} keys; compact toggle: {compact[:1] or 'not built'}")
    got = {k: await presses(pilot, app, [k] * keys.count(k)) for k in dict.fromkeys(keys)}
    for key, values in got.items():
        if not values:
            figures.add(f"grid_{key}", "not built", "(no frame)")
    report(figures, "grid_key_frame", [v for vs in got.values() for v in vs], len(keys))
    report_firsts(figures, "grid_key_frame", len(keys))


async def jump(pilot: Pilot[Any], app: KeysApp, figures: Figures, target: str) -> None:
    FIRSTS.clear()
    first = await key_to_frame(pilot, app, "colon")
    if first is None or isinstance(app.screen, DashboardScreen):
        figures.add("jump_key_frame", "not built", "(`:` opens nothing)")
        await pilot.press("escape")
        return
    no_blink(app)
    values = [first] + await presses(pilot, app, list(target))
    enter = await key_to_frame(pilot, app, "enter")
    values += [enter] if enter is not None else []
    report(figures, "jump_key_frame", values, len(target) + 2)
    report_firsts(figures, "jump_key_frame", len(target) + 2)
    if not isinstance(app.screen, DashboardScreen):
        await pilot.press("escape")


async def claims_filter(pilot: Pilot[Any], app: KeysApp, figures: Figures, name: str) -> None:
    FIRSTS.clear()
    app.dashboard.focus_pane("claims")
    await pilot.pause(0.3)
    first = await key_to_frame(pilot, app, "slash")
    no_blink(app)
    values = ([first] if first is not None else []) + await presses(pilot, app, list(name))
    report(figures, "filter_key_frame", values, len(name) + 1)
    report_firsts(figures, "filter_key_frame", len(name) + 1)
    await pilot.press("escape")


# --- the run --------------------------------------------------------------------------------


async def run(devices: int, idle_s: float, size: tuple[int, int], figures: Figures) -> None:
    changes, copies = scaled_changes(devices)
    source = ListSource(changes)
    app = KeysApp(source)
    async with app.run_test(size=size, headless=True) as pilot:
        ok = await until(
            lambda: app.view is not None and app.view.snapshot.synced and app.dashboard.grid.cells,
            120,
        )
        if not ok or app.view is None:
            raise RuntimeError("the dashboard never drew the cluster")
        view = app.view
        figures.add("devices", len(view.devices), f"(operator recording x {copies})")
        figures.add("pods", len(view.pods), "")
        await pilot.pause(2.0)
        figures.add("dashboard_idle_cpu_pct", await idle_cpu(idle_s), "%")
        repaints = app.repaints
        pct = await idle_cpu(idle_s, retries(app, source))
        figures.add("dashboard_idle_cpu_retries_pct", pct, "%")
        figures.add("dashboard_idle_repaints", app.repaints - repaints, "(1 event change/s)")
        await pilot.pause(2.0)
        nodes = sorted(view.nodes())
        await jump(pilot, app, figures, nodes[-1])
        claim = max(view.claims.values(), key=lambda c: c.name).name
        await claims_filter(pilot, app, figures, claim[: max(4, len(claim) // 2)])
        await grid(pilot, app, figures)
        await selector(pilot, app, figures, view.lab_driver())
        await pilot.pause(3.0)  # the last trial's frame and its collections done
        figures.add("selector_idle_cpu_pct", await idle_cpu(idle_s), "%")
        screen = app.screen
        assert isinstance(screen, SelectorScreen)
        evaluations, repaints = screen.evaluations, app.repaints
        pct = await idle_cpu(idle_s, retries(app, source))
        figures.add("selector_idle_cpu_retries_pct", pct, "%")
        figures.add("selector_idle_repaints", app.repaints - repaints, "(1 event change/s)")
        figures.add("selector_idle_evaluations", screen.evaluations - evaluations, "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--devices", type=int, default=10_000)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of each idle figure")
    parser.add_argument("--size", default="200x60")
    parser.add_argument("--verbose", action="store_true", help="every key's figure on stderr")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    width, height = (int(v) for v in args.size.split("x"))
    log(f"operator keys: {args.devices} devices, {args.size}")
    asyncio.run(run(args.devices, args.idle, (width, height), Figures()))


if __name__ == "__main__":
    main()
