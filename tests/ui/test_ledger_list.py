"""The list behind each ledger count (Pilot): `l` in the grid or a click on "76 tainted" opens
the devices it counts with their reasons; ←/→ another count; Enter goes to the device.

Objects RECORDED: the operator profile (tests/fixtures/profiles/operator.jsonl) and the real
node's unhealthy device (tests/fixtures/realnode/lab.jsonl).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from gsb_tui.dra.node_summary import ledger_counts, ledger_entries
from gsb_tui.ui.panes.grid_ledger import LedgerLine, first_problem
from gsb_tui.ui.screens.ledger_list import LedgerListScreen
from gsb_tui.words import text
from tests.recorded import profile_snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource
from tests.ui.test_grid_scale import _painted
from tests.unit import node_half_objects as objects

LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


def _rows(screen: LedgerListScreen) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def _opened(pilot: Pilot[int]) -> LedgerListScreen:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LedgerListScreen))
    screen = pilot.app.screen
    assert isinstance(screen, LedgerListScreen)
    await wait_until(pilot, lambda: screen.query_one(DataTable).row_count == len(screen.entries))
    return screen


@LANGS
async def test_l_lists_the_first_trouble_with_reasons_and_arrows_switch(lang: str) -> None:
    app = make_app(SnapshotSource(profile_snap("operator", "filled")), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        view = app.view
        assert view is not None
        counts = ledger_counts(view)
        app.dashboard.grid.focus()
        await pilot.press("l")
        screen = await _opened(pilot)
        first = first_problem(view)
        assert screen.category == first == "blocked"  # the operator cluster has blocked ones
        rows = _rows(screen)
        assert len(rows) == counts["blocked"] > 0
        for row, entry in zip(rows, ledger_entries(view, "blocked"), strict=True):
            assert row[:3] == [entry.node, entry.device.pool, entry.device.device]
            for short in entry.short_counters:  # which counters block it, by counter set
                counter_set, _, counter = short.rpartition("/")
                assert counter_set in row[3] and counter in row[3]
            assert all(d.device in row[3] for d in entry.blocked_by)
        what = text(lang, "ledger-list.what.blocked")
        assert screen.query_one("#ledger-list").border_title == text(
            lang, "ledger-list.title", what=what, n=counts["blocked"]
        )
        await pilot.press("right")
        await wait_until(pilot, lambda: screen.category == "tainted")
        await wait_until(pilot, lambda: len(_rows(screen)) == counts["tainted"])
        for row, entry in zip(_rows(screen), ledger_entries(view, "tainted"), strict=True):
            assert all(str(t) in row[3] for t in entry.taints)  # key=value:effect
        await pilot.press("left", "left")
        await wait_until(pilot, lambda: screen.category == "free")
        assert len(_rows(screen)) == counts["free"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, LedgerListScreen))
        assert app.dashboard.grid.has_focus


async def test_enter_goes_to_the_device_in_the_grid() -> None:
    app = make_app(SnapshotSource(profile_snap("operator", "filled")))
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        view = app.view
        assert view is not None
        grid = app.dashboard.grid
        grid.focus()
        await pilot.press("l", "right")  # tainted
        screen = await _opened(pilot)
        await wait_until(pilot, lambda: screen.category == "tainted")
        chosen = ledger_entries(view, "tainted")[-1].device  # the last node's, far down
        await pilot.press("end", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, LedgerListScreen))
        await wait_until(pilot, lambda: grid.cursor == chosen)
        assert chosen in grid.canvas.geometry.places  # its node opened as cells
        await wait_until(pilot, lambda: grid.canvas.offset_of(chosen) is not None)  # in view


async def test_a_click_on_a_ledger_count_lists_its_devices() -> None:
    app = make_app(SnapshotSource(profile_snap("operator", "filled")))
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        view = app.view
        assert view is not None
        line = app.dashboard.grid.query_one(LedgerLine)
        y, start, _end, category = next(s for s in line.spots if s[3] == "tainted")
        await pilot.click(LedgerLine, offset=(start + 1, y))
        screen = await _opened(pilot)
        assert screen.category == category
        assert len(_rows(screen)) == ledger_counts(view)["tainted"]


async def test_unhealthy_devices_say_what_the_kubelet_said() -> None:
    app = make_app(SnapshotSource(objects.unhealthy()))
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        view = app.view
        assert view is not None
        line = app.dashboard.grid.query_one(LedgerLine)
        y, start, _end, category = next(s for s in line.spots if s[3] == "unhealthy")
        await pilot.click(LedgerLine, offset=(start, y))
        screen = await _opened(pilot)
        assert screen.category == category
        (entry,) = ledger_entries(view, "unhealthy")
        assert entry.health is not None
        (row,) = _rows(screen)
        assert entry.health.message in row[3] and entry.health.said_by in row[3]


async def test_a_count_with_no_device_says_so() -> None:
    app = make_app(SnapshotSource(objects.unhealthy()))
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        assert app.view is not None
        app.push_screen(LedgerListScreen(app.view, "tainted", "en"))
        screen = await _opened(pilot)
        assert not screen.entries
        empty = screen.query_one("#ledger-list-empty")
        what = text("en", "ledger-list.what.tainted")
        assert empty.display and str(empty.render()) == text("en", "ledger-list.empty", what=what)
