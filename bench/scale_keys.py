"""Issue 27, goal 3: interactions on the large practice cluster, from the first frame on.

The real GsbApp on a LiveSource of the bench's cluster (headless, the scale run's size, each
frame turned into terminal bytes and stamped, bench/operator_keys.KeysApp) is started fresh;
the moment its first frame (every kind synced, the grid drawn) is written, keys are typed at
once — the work that follows a first frame must not make the first keys wait:
- key → the first frame showing its effect (operator_keys.effect_to_frame: the key sent as a
  terminal sends it, the frame drawn once the state it changes has changed — the cursor, the
  focus, the claims filter applied to the rows, the jump box's query or its closing), for grid
  navigation (down, pagedown, end, home), Tab between panes, the claims filter (`/` and typing
  a claim's name) and the jump box (`:`, a node's name, Enter):
  `<prefix>_key_to_frame_p50/p95_ms` over all of them, and per kind apart;
- the process's CPU over the 30 s after the first frame, keys and all
  (`<prefix>_keys_cpu_after_first_frame_pct`, every thread of the App's);
- the selector tool: a key turning one valid selector into another (every device evaluated)
  until the frame showing the new text's trial (`<prefix>_selector_keystroke_p95_ms`), then its
  CPU idle with the tool open (`<prefix>_idle_selector_cpu_pct`), and what the App did
  meanwhile (repaints, frames, trials, collections: logged);
- the CPU figures are the App's alone: in `bench/run.sh --scale` the node heartbeats are sent
  from this process (bench_scale.NodeHeartbeats, ~35 patches/s), and its thread's CPU is taken
  out (until 2026-12-07 it was counted: 2.9-9.5 % "idle with the tool open" that was the
  bench's, against 0.07 % for the App in the same state);
- `gsb-tui why` on a pending pod, the whole process (`<prefix>_why_s`, median of 3).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness import (
    CLAIMS_PATH,
    GSB_TUI,
    PODS_PATH,
    Figures,
    claim_body,
    log,
    percentile,
    pod_body,
    wall_time,
)
from operator_keys import (
    KeysApp,
    effect_to_frame,
    frame_after,
    no_blink,
    open_selector,
    text_put,
    trial_shown,
    until,
)

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.jump import JumpScreen
from gsb_tui.ui.screens.selector import SelectorScreen

AFTER_FIRST_S = 30.0
PENDING = "bench-too-big"  # asks one device more than any node has


def pending_pod(cp: ControlPlane, per_node: int) -> str:
    """A pod the scheduler cannot place: its claim asks per_node + 1 devices."""
    rest = cp.rest()
    claim = claim_body(PENDING)
    claim["spec"]["devices"]["requests"][0]["exactly"].update(
        {"allocationMode": "ExactCount", "count": per_node + 1}
    )
    rest.ensure(CLAIMS_PATH, claim)
    rest.ensure(PODS_PATH, pod_body(PENDING, PENDING))
    return f"{LAB_NAMESPACE}/{PENDING}"


@dataclass
class Measured:
    keys: dict[str, list[float]] = field(default_factory=dict)  # kind -> key to frame, ms
    selector: list[float] = field(default_factory=list)  # keystroke -> trial shown, ms
    cpu_after_first_frame: float = 0.0  # %, every thread
    after_first_s: float = 0.0
    idle_selector: float = 0.0  # %
    idle_seen: str = ""  # what the App did over that idle window


async def keys_shown(app: KeysApp, keys: list[str], state: Callable[[], object]) -> list[float]:
    """Each key until the first frame drawn once `state()` differs from before it."""
    out = []
    for key in keys:
        before = state()
        ms = await effect_to_frame(app, key, lambda was=before: state() != was)
        if ms is not None:
            out.append(ms)
    return out


def grid_state(app: KeysApp) -> object:
    grid = app.dashboard.grid
    return grid.cursor, grid.canvas.line_cursor, grid.canvas.scroll_offset


def jump_state(app: KeysApp) -> object:
    screen = app.screen
    return screen.query_text if isinstance(screen, JumpScreen) else type(screen)


async def _measure(
    kubeconfig: Path,
    size: tuple[int, int],
    idle_s: float,
    bench_cpu: Callable[[], float] | None = None,
) -> Measured:
    """`bench_cpu`: CPU seconds the bench's own threads in this process spent so far (the
    node heartbeats' sender): taken out of the CPU figures, which are the App's."""
    spent = bench_cpu or (lambda: 0.0)

    def app_cpu() -> float:
        return time.process_time() - spent()

    source = LiveSource(Target(kubeconfig=kubeconfig, namespace=LAB_NAMESPACE))
    app = KeysApp(source)
    got = Measured()
    async with app.run_test(size=size, headless=True) as pilot:

        def drawn() -> bool:
            view = app.view
            return view is not None and view.snapshot.synced and bool(app.dashboard.grid.cells)

        if not await until(drawn, 300, step=0.005):
            raise RuntimeError("the dashboard never drew the cluster")
        painted = time.monotonic()  # the repaint is done; its frame is composed next
        if not await until(lambda: frame_after(app, painted) is not None, 30, step=0.001):
            raise RuntimeError("the first complete frame was never written")
        first, cpu = time.monotonic(), app_cpu()
        view = app.view
        assert view is not None
        app.dashboard.focus_pane("grid")
        grid_keys = ["down"] * 8 + ["pagedown"] * 3 + ["end", "home"]
        got.keys["grid"] = await keys_shown(app, grid_keys, lambda: grid_state(app))
        got.keys["tab"] = await keys_shown(app, ["tab"] * 6, lambda: app.focused)
        app.dashboard.focus_pane("claims")
        claims = app.dashboard.claims
        claim = max(view.claims.values(), key=lambda c: c.name).name
        opened = await keys_shown(app, ["slash"], lambda: (app.focused, claims.filter_box.display))
        no_blink(app)
        typed = claim[: max(4, len(claim) // 2)]
        got.keys["filter"] = opened + await keys_shown(app, list(typed), lambda: claims.filter)
        await pilot.press("escape")
        node = sorted(view.nodes())[-1]
        jump = await keys_shown(app, ["colon"], lambda: jump_state(app))
        if jump and isinstance(app.screen, JumpScreen):
            no_blink(app)
            jump += await keys_shown(app, [*node, "enter"], lambda: jump_state(app))
        got.keys["jump"] = jump
        if not isinstance(app.screen, DashboardScreen):
            await pilot.press("escape")
        rest = AFTER_FIRST_S - (time.monotonic() - first)
        if rest > 0:
            await asyncio.sleep(rest)
        wall = time.monotonic() - first
        got.cpu_after_first_frame = 100 * (app_cpu() - cpu) / wall
        got.after_first_s = wall
        screen, box = await open_selector(pilot, app)
        await text_put(screen, box, f"device.attributes['{view.lab_driver()}'].index == 0", 60)
        got.selector = [
            await trial_shown(pilot, app, screen, key)
            for key in ["1", "backspace", "2", "backspace", "3", "backspace"] * 2
        ]
        await pilot.pause(3.0)  # the last trial's frame and its collections done
        cpu, wall0, sender = app_cpu(), time.monotonic(), spent()
        before = _doings(app, screen)
        await asyncio.sleep(idle_s)
        wall = time.monotonic() - wall0
        got.idle_selector = 100 * (app_cpu() - cpu) / wall
        done = ", ".join(f"{k} {n - before[k]}" for k, n in _doings(app, screen).items())
        got.idle_seen = (
            f"{wall:.0f} s, the tool open; meanwhile {done}; the bench's heartbeat sender's "
            f"{100 * (spent() - sender) / wall:.2f} % taken out"
        )
    return got


def _doings(app: KeysApp, screen: SelectorScreen) -> dict[str, int]:
    """Counters of the App's work: what an idle window spent its CPU on."""
    collections = {f"gc{n} runs": int(s["collections"]) for n, s in enumerate(gc.get_stats())}
    return {
        "repaints": app.repaints,
        "frames": len(app.frames),
        "trials": screen.evaluations,
        "changes dropped": app.dropped_changes,
        **collections,
    }


def run(
    cp: ControlPlane,
    figures: Figures,
    prefix: str,
    size: tuple[int, int],
    per_node: int,
    keys: bool = True,
    bench_cpu: Callable[[], float] | None = None,
) -> None:
    """The keys and the selector tool (unless not `keys`: the growth runs), then `why`."""
    if keys:
        log(f"{prefix}: keys from the first frame on, the selector tool, `gsb-tui why`")
        got = asyncio.run(_measure(cp.kubeconfig, size, 20.0, bench_cpu))
        report(got, figures, prefix)
    pod = pending_pod(cp, per_node)
    time.sleep(5.0)  # the scheduler has tried it and said why
    why = [str(GSB_TUI), "why", pod, f"--kubeconfig={cp.kubeconfig}", "--lang=en"]
    seconds, code = wall_time(why, 3)
    figures.add(f"{prefix}_why_s", seconds, "s", f"gsb-tui why {pod}, median of 3, exit {code}")


def report(got: Measured, figures: Figures, prefix: str) -> None:
    every: list[float] = []
    for kind, values in got.keys.items():
        every += values
        if values:
            figures.add(f"{prefix}_{kind}_key_to_frame_p95_ms", percentile(values, 95), "ms")
        else:
            figures.add(f"{prefix}_{kind}_key_to_frame", "no frame", "")
    figures.add(f"{prefix}_key_to_frame_p50_ms", percentile(every, 50), "ms")
    figures.add(f"{prefix}_key_to_frame_p95_ms", percentile(every, 95), "ms", f"{len(every)} keys")
    figures.add(  # bench_scale's `<prefix>_cpu_after_first_frame_pct` is the same, nothing typed
        f"{prefix}_keys_cpu_after_first_frame_pct",
        got.cpu_after_first_frame,
        "%",
        f"the {got.after_first_s:.0f} s after the first frame, keys typed",
    )
    selector = got.selector
    figures.add(f"{prefix}_selector_keystroke_p50_ms", percentile(selector, 50), "ms")
    figures.add(f"{prefix}_selector_keystroke_p95_ms", percentile(selector, 95), "ms")
    figures.add(
        f"{prefix}_idle_selector_cpu_pct",
        got.idle_selector,
        "%",
        got.idle_seen,
    )
    log(f"{prefix}: idle with the selector tool open: {got.idle_seen}")


def main() -> None:
    """Probe a held cluster (bench/scale_hold.py's kubeconfig): the keys and the selector."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("kubeconfig")
    parser.add_argument("--size", default="200x60")
    parser.add_argument("--idle", type=float, default=20.0)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    got = asyncio.run(_measure(Path(args.kubeconfig), (width, height), args.idle))
    report(got, Figures(), "held")
    for kind, values in got.keys.items():
        log(f"{kind}: " + " ".join(f"{v:.0f}" for v in values))
    log("selector: " + " ".join(f"{v:.0f}" for v in got.selector))


if __name__ == "__main__":
    main()
