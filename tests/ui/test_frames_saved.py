"""Frames a key or a tick does not need (issue 27): moving focus repaints the panes whose style
changes, not the whole screen; the footer is composed again only when the keys it shows
change; the header's age does not tick beneath a modal screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.footer import LocalFooter, shown_bindings
from gsb_tui.ui.panes.header import StatusHeader
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.selector import SelectorScreen
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


async def test_tab_repaints_the_panes_it_restyles_not_the_screen(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells)
        dash = app.screen
        assert isinstance(dash, DashboardScreen)
        dash.focus_pane("grid")
        await pilot.pause()
        whole: list[bool] = []
        refresh = dash.refresh

        def spy(*regions: object, **kwargs: object) -> object:
            whole.append(not regions)
            return refresh(*regions, **kwargs)  # type: ignore[arg-type]

        dash.refresh = spy  # type: ignore[method-assign]
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and dash.active_pane != "grid"
        assert not any(whole)  # Textual's own `focused` would repaint all of 200x60


async def test_the_footer_is_composed_again_only_when_its_keys_change(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells)
        dash = app.screen
        footer = dash.query_one(LocalFooter)
        dash.focus_pane("grid")
        await pilot.pause()
        keys = list(footer.children)
        before = shown_bindings(dash)
        dash.refresh_bindings()  # the same keys looked at again
        await pilot.press("tab")  # to the slices pane, which shows the grid's keys
        await pilot.pause()
        assert dash.active_pane == "slices" and shown_bindings(dash) == before
        assert list(footer.children) == keys
        dash.focus_pane("checklist")  # binds keys of its own
        await wait_until(pilot, lambda: list(footer.children) != keys)
        assert shown_bindings(dash) != before
        shown = [key.key for key in footer.children if hasattr(key, "key")]
        assert shown[: len(shown) - 1] == [b[0] for b in shown_bindings(dash)]  # and the palette


async def test_the_header_age_waits_beneath_a_modal(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells)
        header = app.screen.query_one(StatusHeader)
        looked: list[int] = []
        look = header._refresh_if_changed

        def spy() -> None:
            looked.append(1)
            look()

        header._refresh_if_changed = spy  # type: ignore[method-assign]
        header._tick()
        assert looked  # on top: the age is looked at
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
        looked.clear()
        header._tick()
        await pilot.pause(1.3)  # the header's own once-a-second tick comes too
        assert not looked  # beneath the selector tool: not
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        header._tick()
        assert looked
