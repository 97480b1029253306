"""The Claims table sorts by a column with k9s's keys (shift+n name, shift+s state, shift+a age,
shift+d devices, shift+c consumers), the same key again reverses, the header shows the sort and
the selected claim stays selected. On the recorded lab (right after step 8)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.natural import natural_key
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.claim_rows import claim_row
from gsb_tui.ui.panes.claim_sort import Sort, next_sort
from gsb_tui.ui.screens.help import HelpScreen
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


@pytest.fixture
def view8(step8: Snapshot) -> DraView:
    return build_view(step8)


def _name(key: tuple[str, str]) -> tuple[object, ...]:
    return natural_key("/".join(key))


def _header(app: GsbApp) -> str:
    return "".join(s.text for s in app.dashboard.claims.table.render_line(0))


async def _ready(pilot: Pilot[int], app: GsbApp) -> None:
    await wait_until(pilot, lambda: app.dashboard.grid.cells)
    app.dashboard.focus_pane("claims")
    await pilot.pause()


def test_the_same_key_again_reverses_and_another_starts_ascending() -> None:
    assert next_sort(None, "name") == Sort("name", reverse=True)  # unsorted is name ascending
    assert next_sort(None, "state") == Sort("state")
    assert next_sort(Sort("state"), "state") == Sort("state", reverse=True)
    assert next_sort(Sort("state", reverse=True), "age") == Sort("age")


async def test_shift_n_reverses_the_names_and_again_restores_them(
    step8: Snapshot, view8: DraView
) -> None:
    app = make_app(SnapshotSource(step8))
    names = sorted(view8.claims, key=_name)
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        claims = app.dashboard.claims
        selected = app.dashboard.selected_claim
        assert "↑" not in _header(app) and "↓" not in _header(app)  # unsorted: no arrow
        await pilot.press("N")
        await pilot.pause()
        assert claims.visible_keys() == names[::-1]
        assert "CLAIM ↓" in _header(app)
        assert app.dashboard.selected_claim == selected  # the selection stays
        assert claims.table.cursor_key == "/".join(selected or ("", ""))
        await pilot.press("N")
        await pilot.pause()
        assert claims.visible_keys() == names
        assert "CLAIM ↑" in _header(app)


async def test_shift_s_sorts_by_state(step8: Snapshot, view8: DraView) -> None:
    app = make_app(SnapshotSource(step8))
    by_state = sorted(view8.claims, key=lambda k: (view8.claims[k].state, _name(k)))
    assert by_state != sorted(view8.claims)  # the recording tells the two orders apart
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        await pilot.press("S")
        await pilot.pause()
        assert app.dashboard.claims.visible_keys() == by_state
        assert "STATE ↑" in _header(app)
        await pilot.press("S")
        await pilot.pause()
        assert app.dashboard.claims.visible_keys() == by_state[::-1]


async def test_shift_a_sorts_newest_first_and_shift_d_by_devices(
    step8: Snapshot, view8: DraView
) -> None:
    app = make_app(SnapshotSource(step8))
    claims = view8.claims
    newest = sorted(claims, key=lambda k: (claims[k].created, _name(k)), reverse=True)
    fewest = sorted(claims, key=lambda k: (len(claims[k].devices), _name(k)))
    assert all(c.created for c in claims.values())
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        await pilot.press("A")
        await pilot.pause()
        assert app.dashboard.claims.visible_keys() == newest
        assert "↑AGE" in _header(app)
        await pilot.press("D")
        await pilot.pause()
        assert app.dashboard.claims.visible_keys() == fewest
        assert "DEVICES ↑" in _header(app)


async def test_a_filter_keeps_the_sort(step8: Snapshot, view8: DraView) -> None:
    app = make_app(SnapshotSource(step8))
    state = "allocated"
    pool = view8.several_pools()
    kept = sorted(
        (k for k, c in view8.claims.items() if any(state in x for x in claim_row(view8, c, pool))),
        key=_name,
    )
    assert len(kept) >= 2
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        await pilot.press("N", "slash", *state)
        await pilot.pause()
        assert app.dashboard.claims.visible_keys() == kept[::-1]
        assert app.dashboard.selected_claim in kept


async def test_help_lists_the_sort_keys(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await _ready(pilot, app)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        keys = {row[3]: row[0] for row in screen.rows}
        for column in ("name", "state", "age", "devices", "consumers"):
            assert keys[f"gsb.claims.sort.{column}"] == f"shift+{column[0]}"
        for binding_id, key in (("gsb.jump", ":"), ("gsb.namespace", "n")):
            assert keys[binding_id] == key
