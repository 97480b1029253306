"""Keys that arrive in one burst while a screen opens or closes never crash the dashboard
(issue 26, part 5): `q` and `s` read in one go (typed fast, or an unbracketed paste) used to
stop it with "NoMatches: No nodes match '#selector-input'", as the selector screen was pushed
while the app quit and never composed.

Pilot's press() waits for the app between keys, so it cannot make a burst: the bytes go
through Textual's own terminal parser and into the driver, as the terminal driver's input
thread hands them over from one read.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual._xterm_parser import XTermParser

from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.selector import SelectorScreen
from tests.ui.helpers import click_device, make_app, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


def burst(app: GsbApp, data: str) -> None:
    """`data` as one read from the terminal: parsed into events, all posted before any runs."""
    driver = app._driver
    assert driver is not None
    for event in XTermParser(False).feed(data):
        driver.process_message(event)


async def _ready(pilot: object, app: GsbApp) -> None:
    await wait_until(pilot, lambda: app.dashboard.grid.cells)  # type: ignore[arg-type]
    await click_device(pilot, app, next(iter(app.dashboard.grid.cells)))  # type: ignore[arg-type]


async def _run_burst(snapshot: Snapshot, data: str) -> GsbApp:
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        burst(app, data)
        await pilot.pause()
        await wait_until(pilot, lambda: not app.is_running or app.screen is not None)
    return app


@pytest.mark.parametrize("data", ["qs", "qy", "qd", "q?", "qsqs", "q/"])
async def test_quit_with_a_screen_opening_in_the_same_burst(step8: Snapshot, data: str) -> None:
    app = await _run_burst(step8, data)
    assert app.crash_line == ""
    assert app.return_code == 0  # a clean quit, not the internal-error exit (1)


@pytest.mark.parametrize(
    "data",
    [
        "s\x1bs\x1bs",  # open, close, open ... as fast as the terminal sends them
        "y\x1by\x1b",
        "d\x1bd",
        "?\x1b?",
        "s\x1bq",
        "sq",  # q typed into the selector's box
        "yq",  # q closes the view it opened
        "sdevice.attributes['gpu.example.com'].index == 7\r",  # typed before the box has focus
    ],
    ids=["selector", "yaml", "describe", "help", "s-esc-q", "sq", "yq", "typing-at-once"],
)
async def test_screens_opened_and_closed_in_one_burst(step8: Snapshot, data: str) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        burst(app, data)
        await pilot.pause()
        await pilot.pause()
        assert app.crash_line == ""
        if app.is_running:  # and it still answers: escape back to the dashboard, then quit
            for _ in range(len(app.screen_stack)):
                if isinstance(app.screen, DashboardScreen):
                    break
                await pilot.press("escape")
            assert isinstance(app.screen, DashboardScreen)
            await pilot.press("q")
    assert app.crash_line == ""
    assert app.return_code in (0, None)


async def test_an_unbracketed_paste_onto_the_dashboard(step8: Snapshot) -> None:
    """A terminal without bracketed paste types the pasted text: every key at once."""
    app = await _run_burst(step8, "kubectl get resourceslices -o yaml | less; exit 0\r")
    assert app.crash_line == ""
    assert app.return_code in (0, None)


async def test_a_bracketed_paste_is_not_a_key_burst(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        burst(app, "\x1b[200~qs\x1b[201~")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, DashboardScreen)
        burst(app, "s\x1b[200~device.attributes['gpu.example.com'].index == 7\x1b[201~")
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
        assert app.crash_line == ""


async def test_a_selector_pushed_while_quitting_is_never_filled(step8: Snapshot) -> None:
    """The screen Textual mounts but never composes as the app quits asks for nothing."""
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        screen = SelectorScreen(app.view, "en")
        app.exit()
        await app.push_screen(screen)
        assert not screen.composed
        assert app.view is not None
        screen.show_view(app.view)  # what the App's repaint does with every open selector
        screen.evaluate()
        screen.action_apply_fix()
    assert app.crash_line == ""
