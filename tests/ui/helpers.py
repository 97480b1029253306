"""Small helpers shared by the UI tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from textual.pilot import Pilot

from gsb_tui.dra.model import DeviceId
from gsb_tui.kube.source import ChangeSource
from gsb_tui.ui.app import REPAINT_INTERVAL, RETRY_DELAYS, GsbApp
from gsb_tui.ui.panes.device_canvas import DeviceCanvas

NO_LAB_DIR = Path("/nonexistent-gsb-dra")  # fixed, so checklist texts do not vary per run


def make_app(
    source: ChangeSource,
    lang: str = "en",
    *,
    repaint_interval: float = REPAINT_INTERVAL,
    retry_delays: Sequence[float] = RETRY_DELAYS,
    first_frame: Callable[[], None] | None = None,
) -> GsbApp:
    return GsbApp(
        source,
        NO_LAB_DIR,
        lang,
        repaint_interval=repaint_interval,
        retry_delays=retry_delays,
        watch_lab_dir=False,
        first_frame=first_frame,
    )


async def wait_until(
    pilot: Pilot[int], predicate: Callable[[], object], timeout: float = 5.0
) -> None:
    """Let the app run until `predicate()` holds; fail naming the predicate if it never does."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out waiting for {getattr(predicate, '__name__', predicate)}"
            )
        await pilot.pause(0.02)
    await pilot.pause()


async def click_device(pilot: Pilot[int], app: GsbApp, device: DeviceId) -> None:
    """Click a device's cell in the grid as a user would (scrolling it into view first)."""
    canvas = app.dashboard.grid.canvas
    canvas.scroll_to_device(device)
    await pilot.pause()
    offset = canvas.offset_of(device)
    assert offset is not None, f"{device.device} is not on screen"
    await pilot.click(DeviceCanvas, offset=offset)
    await pilot.pause()


async def wait_for_preview(pilot: Pilot[int], app: GsbApp) -> None:
    """The grid is drawn and the selected claim has its selector preview."""
    await wait_until(pilot, lambda: app.dashboard.grid.cells and app.dashboard.details.previewed)


async def select_claim(pilot: Pilot[int], app: GsbApp, key: tuple[str, str]) -> None:
    """Select a claim the way a user does: the Claims pane, then down until it is the one."""
    app.dashboard.focus_pane("claims")
    await pilot.pause()
    for _ in range(len(app.dashboard.claims.visible_keys())):
        if app.dashboard.selected_claim == key:
            break
        await pilot.press("down")
    assert app.dashboard.selected_claim == key
    await wait_until(pilot, lambda: app.dashboard.details.previewed)


async def run_from_palette(pilot: Pilot[int], command: str) -> None:
    """Open the command palette (ctrl+p), type a command's name and run the first match."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*command)
    await pilot.pause(0.3)  # the palette searches in the background
    await pilot.press("enter")
