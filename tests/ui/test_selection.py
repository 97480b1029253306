"""Selection that is right: details, `y` and `d` act on a claim the (filtered) table shows, Enter
on a single match selects it, a filter typed while scrolled shows its rows, and Tab's first stop
after start-up is always the same.

On the recorded lab (tests/fixtures/lab.jsonl, right after step 8); values come from the recorded
objects, never constants.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.claim_rows import claim_row
from gsb_tui.ui.panes.claim_table import ClaimTable
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, SnapshotSource, claim, resource_slice, synced


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


@pytest.fixture
def view8(step8: Snapshot) -> DraView:
    return build_view(step8)


def _matches(view: DraView, needle: str) -> list[tuple[str, str]]:
    """The claims a `/` filter keeps: the needle in any cell of the row (as the pane filters)."""
    show_pool = view.several_pools()
    return [
        key
        for key in sorted(view.claims)
        if any(
            needle.lower() in cell.lower() for cell in claim_row(view, view.claims[key], show_pool)
        )
    ]


def _lone_other(view: DraView) -> tuple[tuple[str, str], str]:
    """A claim other than the first (the one selected at start-up) that its own name filters
    down to alone, with that name."""
    first = sorted(view.claims)[0]
    for key in sorted(view.claims):
        if key != first and _matches(view, key[1]) == [key]:
            return key, key[1]
    raise AssertionError("the recording has no claim its name alone filters to")


async def test_filter_leaving_another_row_moves_details_y_and_d_to_it(
    step8: Snapshot, view8: DraView
) -> None:
    """The regression: `/` left one row, yet details, `y` and `d` acted on the claim selected
    before, which the table no longer showed."""
    app = make_app(SnapshotSource(step8))
    target, needle = _lone_other(view8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        before = dash.selected_claim
        assert before is not None and before != target
        await pilot.press("slash", *needle)
        await wait_until(pilot, lambda: dash.claims.visible_keys() == [target])
        assert dash.selected_claim == target
        assert dash.claims.table.cursor_key == "/".join(target)
        assert target[1] in str(dash.details.border_title)
        dash.focus_pane("details")  # d and y from the pane beside the table
        await pilot.pause()
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text == f"describe ResourceClaim {target[0]}/{target[1]}"
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text == f"ResourceClaim {target[0]}/{target[1]}"


async def test_a_filter_matching_nothing_selects_nothing(step8: Snapshot, view8: DraView) -> None:
    app = make_app(SnapshotSource(step8))
    names = "".join(sorted(key[1] for key in view8.claims))  # no single row holds all names
    assert _matches(view8, names) == []
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        await pilot.press("slash", *names)
        await wait_until(pilot, lambda: dash.claims.visible_keys() == [])
        assert dash.selected_claim is None
        assert dash.details.key is None
        dash.focus_pane("details")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)  # nothing to describe: said, not shown
        assert dash.selected_object() is None


async def test_enter_on_a_single_match_selects_it(step8: Snapshot, view8: DraView) -> None:
    app = make_app(SnapshotSource(step8))
    target, needle = _lone_other(view8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        await pilot.press("slash", *needle, "enter")
        await pilot.pause()
        assert dash.claims.visible_keys() == [target]
        assert dash.selected_claim == target
        assert isinstance(app.focused, ClaimTable)
        assert dash.grid.marked == frozenset(view8.claims[target].devices)


async def test_a_filter_typed_while_scrolled_down_shows_its_rows() -> None:
    source = ScriptedSource()
    names = [f"claim-{i:03d}" for i in range(80)]
    source.push(
        *synced(Kind.SLICES, [resource_slice("node-a", 4)]),
        *synced(Kind.CLAIMS, [claim(name) for name in names]),
    )
    for kind in Kind:
        if kind not in (Kind.SLICES, Kind.CLAIMS):
            source.push(*synced(kind))
    app = make_app(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == len(names))
        dash = app.dashboard
        table = dash.claims.table
        dash.focus_pane("claims")
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert table.scroll_offset.y > 0
        needle = names[1][:-1]  # claim-00: the first ten
        kept = [n for n in names if needle in n]
        assert len(kept) < table.scrollable_content_region.height - 1  # they fit on screen
        await pilot.press("slash", *needle)
        await wait_until(pilot, lambda: len(dash.claims.visible_keys()) == len(kept))
        await pilot.pause()
        assert table.scroll_offset.y == 0
        drawn = "".join(s.text for s in table.render_line(1))
        assert kept[0] in drawn
        assert dash.selected_claim == (source.info.namespace, kept[0])


async def test_tab_first_stop_after_start_up_is_the_slices(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("tab")  # as soon as the app runs, before the data
        await pilot.pause()
        assert app.dashboard._pane_of(app.focused) == "slices"


async def test_d_at_start_up_describes_what_the_grid_shows(step8: Snapshot, view8: DraView) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        assert dash.current_pane() == "grid"
        key = dash.selected_claim
        assert key is not None
        cursor = dash.grid.cursor
        held = view8.claims[key].devices
        assert (cursor in held) if held else cursor is None
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text == f"describe ResourceClaim {key[0]}/{key[1]}"


async def test_a_claim_deleted_while_filtered_selects_the_next_row_shown() -> None:
    source = ScriptedSource()
    names = ["alpha-1", "alpha-2", "beta-1"]
    source.push(
        *synced(Kind.SLICES, [resource_slice("node-a", 2)]),
        *synced(Kind.CLAIMS, [claim(name) for name in names]),
    )
    for kind in Kind:
        if kind not in (Kind.SLICES, Kind.CLAIMS):
            source.push(*synced(kind))
    app = make_app(source)
    ns = source.info.namespace
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == len(names))
        dash = app.dashboard
        await pilot.press("slash", *"alpha", "enter")
        await pilot.pause()
        assert dash.selected_claim == (ns, "alpha-1")
        source.push(Change(Kind.CLAIMS, "DELETED", obj=claim("alpha-1")))
        await wait_until(pilot, lambda: dash.claims.visible_keys() == [(ns, "alpha-2")])
        assert dash.selected_claim == (ns, "alpha-2")
        assert isinstance(app, GsbApp)
