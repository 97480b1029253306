"""Keys and selection on the recorded lab (tests/fixtures/lab.jsonl, right after step 8).

Expected values come from the recorded objects (through dra/), never from constants.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from textual.widgets import Tabs

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import find_warnings
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.claim_table import ClaimTable
from gsb_tui.ui.render.describe import claim_warnings, to_yaml
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.help import HelpScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from tests.ui.helpers import click_device, make_app, run_from_palette, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


@pytest.fixture
def view8(step8: Snapshot) -> DraView:
    return build_view(step8)


def _app(snapshot: Snapshot, lang: str = "en") -> GsbApp:
    return make_app(SnapshotSource(snapshot), lang)


def _shared_claim(view: DraView) -> tuple[str, str]:
    """The claim two pods use (step 6), found from the objects."""
    return next(k for k, c in view.claims.items() if len(c.reserved_for) >= 2)


async def test_clicking_a_device_selects_its_claim(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        for device_id, occ in view8.occupancy.items():
            if occ.status == "free":
                continue
            holder = occ.claims[0]
            await click_device(pilot, app, device_id)
            await pilot.pause()
            assert dash.grid.cursor == device_id
            assert dash.selected_claim == holder.key
            table = dash.query_one(ClaimTable)
            assert table.cursor_key == f"{holder.namespace}/{holder.name}"
            assert holder.name in str(dash.details.border_title)
            assert dash.grid.marked == frozenset(holder.devices)


async def test_moving_in_the_claims_table_marks_that_claims_devices(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        dash.focus_pane("claims")
        await pilot.pause()
        keys = sorted(view8.claims)
        assert dash.claims.visible_keys() == keys
        for index, key in enumerate(keys):
            if index:
                await pilot.press("down")
                await pilot.pause()
            claim = view8.claims[key]
            assert dash.selected_claim == key
            assert dash.grid.marked == frozenset(claim.devices)
            for device_id in claim.devices:
                assert dash.grid.cells[device_id].marked
            if claim.devices:
                assert dash.grid.cursor in claim.devices


async def test_filter_narrows_the_claims_and_escape_clears_it(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    shared = _shared_claim(view8)
    consumer = view8.claims[shared].reserved_for[0].name
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await pilot.press("slash")
        await pilot.press(*consumer)
        await pilot.pause()
        claims = app.dashboard.claims
        assert claims.visible_keys() == [shared]
        assert app.dashboard.query_one(ClaimTable).row_count == 1
        await pilot.press("enter")
        assert claims.visible_keys() == [shared]  # Enter keeps the filter
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert claims.visible_keys() == sorted(view8.claims)


async def test_filter_works_at_80x24_under_tabs(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    pending = [k for k, c in view8.claims.items() if c.state == "pending"]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        assert app.dashboard.narrow
        await pilot.press("slash", *"pending")  # 'd' types into the filter, no describe
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)
        assert app.dashboard.group == "claims"
        assert app.dashboard.claims.visible_keys() == pending


async def test_y_opens_the_selected_claims_raw_yaml(
    step8: Snapshot, view8: DraView, tmp_path: Path
) -> None:
    app = _app(step8)
    shared = _shared_claim(view8)
    raw = view8.claims[shared].raw
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        device = view8.claims[shared].devices[0]
        await click_device(pilot, app, device)
        await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text == f"ResourceClaim {shared[0]}/{shared[1]}"
        assert screen.plain == to_yaml(raw)
        assert yaml.safe_load(screen.plain) == raw  # exactly what the server sent
        # `c` copies: the file is always written, under XDG_DATA_HOME, never the lab dir
        await pilot.press("c")
        await pilot.pause()
        saved = list((tmp_path / "data" / "gsb-tui" / "examples").glob("*.yaml"))
        assert len(saved) == 1 and yaml.safe_load(saved[0].read_text()) == raw
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)


async def test_y_on_a_free_device_shows_the_device_and_s_its_slice(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    free = next(d for d, occ in view8.occupancy.items() if occ.status == "free")
    slice_name = view8.occupancy[free].device.slice_name
    raw_slice = next(s.raw for s in view8.slices if s.name == slice_name)
    entry = next(d for d in raw_slice["spec"]["devices"] if d["name"] == free.device)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await click_device(pilot, app, free)
        await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert yaml.safe_load(screen.plain) == entry  # that device only, as the server sent it
        assert slice_name in screen.plain.splitlines()[0]  # its slice named on the first line
        await pilot.press("s")  # the whole slice, a key away
        await pilot.pause()
        assert yaml.safe_load(screen.plain)["metadata"]["name"] == slice_name
        assert screen.title_text == f"ResourceSlice {slice_name}"
        await pilot.press("s")  # and back
        await pilot.pause()
        assert yaml.safe_load(screen.plain) == entry


async def test_d_describes_with_events(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    # the pending claim: its pod's FailedScheduling event must be in the describe text
    key = next(k for k, c in view8.claims.items() if c.state == "pending")
    pod = view8.pods_of_claim(view8.claims[key])[0]
    events = view8.events_for("Pod", pod.namespace, pod.name)
    assert events, "the recording has events for the pending pod"
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        app.dashboard.focus_pane("claims")
        await pilot.pause()
        while app.dashboard.selected_claim != key:
            await pilot.press("down")
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, TextViewScreen)
        body = app.screen.plain
        assert f"Name:       {key[1]}" in body
        for event in events:
            assert event.reason in body
        assert pod.unschedulable_message.split(".")[0] in body


async def test_help_lists_every_binding(step8: Snapshot) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        ids = {row[3] for row in screen.rows}
        expected = {b.id for _key, b, _where in app.all_bindings()}
        assert expected <= ids
        for wanted in ("gsb.yaml", "gsb.describe", "gsb.filter", "gsb.help", "gsb.quit"):
            assert wanted in ids
        keys = {row[3]: row[0] for row in screen.rows}
        assert keys["gsb.yaml"] == "y" and keys["gsb.filter"] == "/"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
async def test_tab_walks_the_panes_in_both_layouts(step8: Snapshot, size: tuple[int, int]) -> None:
    app = _app(step8)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        seen = []
        for _ in range(5):
            seen.append(dash._pane_of(app.focused))
            await pilot.press("tab")
            await pilot.pause()
        assert seen == ["grid", "slices", "claims", "details", "checklist"]
        assert dash._pane_of(app.focused) == "grid"
        await pilot.press("shift+tab")
        await pilot.pause()
        assert dash._pane_of(app.focused) == "checklist"


async def test_command_palette_runs_the_same_actions(step8: Snapshot) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        app.dashboard.focus_pane("claims")
        await run_from_palette(pilot, "YAML")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text.startswith("ResourceClaim ")


async def test_q_quits(step8: Snapshot) -> None:
    app = _app(step8)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_grid_cells_name_claims_and_pods(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    colours: dict[str, set[object]] = defaultdict(set)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        canvas = app.dashboard.grid.canvas
        for device_id, occ in view8.occupancy.items():
            cell = app.dashboard.grid.cells[device_id]
            drawn = canvas.cell_text(device_id)
            shown = "\n".join(drawn)
            assert drawn[-1].split()[-2] == occ.status  # the state in words, bottom border
            assert device_id.device in drawn[0]
            colours[occ.status].add(canvas.cell_segments(device_id)[0][0].style.color)
            assert cell.status == occ.status
            for claim in occ.claims:
                assert claim.name in shown
            for consumer in occ.consumers:
                assert consumer.split("/", 1)[1] in shown
    # and in colour: one border colour per state, a different one for each
    assert len(colours) >= 2
    assert all(len(found) == 1 for found in colours.values())
    assert len({next(iter(found)) for found in colours.values()}) == len(colours)


async def test_claims_table_matches_kubectl_state(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        table = app.dashboard.query_one(ClaimTable)
        assert table.row_count == len(view8.claims)
        for key, claim in view8.claims.items():
            row = table.get_row(f"{key[0]}/{key[1]}").cells
            assert str(row[1]) == claim.state
            for device_id in claim.devices:
                assert device_id.device in str(row[2])
            drawn = table.render_line(1 + table.rows.index(table.get_row(f"{key[0]}/{key[1]}")))
            assert claim.name in drawn.text and claim.state in drawn.text  # what is on screen
        assert len(app.dashboard.grid.cells) == len(view8.devices)


async def test_details_show_the_warnings_about_a_claim(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """After common mistake 1 the pod's claim is allocated but no container uses it."""
    snapshot = lab_snapshot("mistake-1")
    view = build_view(snapshot)
    warnings = find_warnings(view)
    flagged = {
        key: found
        for key, claim in view.claims.items()
        if (found := claim_warnings(claim, view.pods_of_claim(claim), warnings))
    }
    assert flagged, "the recorded mistake produces a warning about some claim"
    key, found = next(iter(flagged.items()))
    app = _app(snapshot)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        device = view.claims[key].devices[0]
        await click_device(pilot, app, device)
        await pilot.pause()
        assert app.dashboard.selected_claim == key
        shown = str(app.dashboard.details.query_one(".details-text").render())
        shown = " ".join(shown.split())
        for warning in found:
            assert warning.code in shown
            assert " ".join(warning.message.split()) in shown


async def test_quick_pane_switches_under_tabs_settle(step8: Snapshot) -> None:
    """Two pane switches before the first tab activation arrives (tab, tab typed fast at
    80x24) must not make the tabs switch back and forth forever."""
    app = _app(step8)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        shown: list[str] = []
        original = dash._show_group

        def counting(group: str) -> None:
            shown.append(group)
            original(group)

        dash._show_group = counting  # type: ignore[method-assign]
        dash.focus_pane("slices")
        dash.focus_pane("claims")
        await pilot.pause(0.5)
        settled = len(shown)
        await pilot.pause(0.5)
        assert len(shown) == settled <= 4, shown
        assert dash.group == "claims"
        assert dash.query_one("#narrow-tabs", Tabs).active == "tab-claims"
