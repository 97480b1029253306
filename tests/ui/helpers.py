"""Small helpers shared by the UI tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from textual.pilot import Pilot

from gsb_tui.kube.source import ChangeSource
from gsb_tui.ui.app import REPAINT_INTERVAL, RETRY_DELAYS, GsbApp

NO_LAB_DIR = Path("/nonexistent-gsb-dra")  # fixed, so checklist texts do not vary per run


def make_app(
    source: ChangeSource,
    lang: str = "en",
    *,
    repaint_interval: float = REPAINT_INTERVAL,
    retry_delays: Sequence[float] = RETRY_DELAYS,
) -> GsbApp:
    return GsbApp(
        source,
        NO_LAB_DIR,
        lang,
        repaint_interval=repaint_interval,
        retry_delays=retry_delays,
        watch_lab_dir=False,
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
