"""The layout at 80x24 and on big screens: the checklist and the details scroll by keys, 1..4
switch tabs, the checklist opens at the first step not green (after a restart too), `L` and
config.toml's `[layout] lab = false` hide the Lab pane, and the panes share a wide screen
without cut titles or consumers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Tabs

from gsb_tui.dra.builder import build_view
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.checklist import first_not_green, step_title
from gsb_tui.ui.screens.dashboard import PANES
from gsb_tui.words import text
from tests.recorded import profile_snap, snap
from tests.ui.helpers import NO_LAB_DIR, wait_until
from tests.ui.scripted import SnapshotSource
from tests.unit.test_lab_checks import write_answers


def _app(snapshot: Snapshot, lab_dir: Path = NO_LAB_DIR, config: Path | None = None) -> GsbApp:
    return GsbApp(SnapshotSource(snapshot), lab_dir, "en", watch_lab_dir=False, config_file=config)


async def _judged(pilot: Pilot[Any], app: GsbApp) -> None:
    """Painted, and the checklist judged the view on screen."""
    await wait_until(
        pilot,
        lambda: app.view is not None and app.verdicts_view is app.view and app.dashboard.grid.cells,
        timeout=30,
    )
    await pilot.pause()


def _screen_text(app: GsbApp) -> str:
    # The composed screen as text (Textual has no public way to read it back).
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_number_keys_switch_tabs_at_80x24_and_go_to_panes_when_wide() -> None:
    app = _app(snap("step-8"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _judged(pilot, app)
        dash = app.dashboard
        tabs = dash.query_one("#narrow-tabs", Tabs)
        for number, group in reversed(list(enumerate(("devices", "slices", "claims", "lab"), 1))):
            await pilot.press(str(number))
            await wait_until(pilot, lambda g=group: dash.group == g)
            assert tabs.active == f"tab-{group}"
            first = next(pane for pane, pane_group in PANES if pane_group == group)
            await wait_until(pilot, lambda p=first: dash._pane_of(app.focused) == p)
    app = _app(snap("step-8"))
    async with app.run_test(size=(160, 48)) as pilot:
        await _judged(pilot, app)
        await pilot.press("3")
        await wait_until(pilot, lambda: app.dashboard._pane_of(app.focused) == "claims")
        assert all(app.dashboard.query_one(f"#{pane}").display for pane, _ in PANES)


async def test_the_checklist_scrolls_by_keys_at_80x24() -> None:
    app = _app(snap("step-8"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _judged(pilot, app)
        await pilot.press("4")
        await wait_until(pilot, lambda: app.dashboard._pane_of(app.focused) == "checklist")
        body = app.dashboard.checklist.body
        await wait_until(pilot, lambda: body.max_scroll_y > 0)  # the reason is below the fold
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: body.scroll_y > 0)
        await pilot.press("end")
        await wait_until(pilot, lambda: body.scroll_y == body.max_scroll_y)
        await pilot.press("home")
        await wait_until(pilot, lambda: body.scroll_y == 0)
        step = app.dashboard.checklist.cursor
        await pilot.press("down")  # up/down still choose the step
        await wait_until(pilot, lambda: app.dashboard.checklist.cursor == step + 1)


async def _opens_at_the_first_step_not_green(snapshot: Snapshot, lab: Path) -> int:
    app = _app(snapshot, lab)
    async with app.run_test(size=(80, 24)) as pilot:
        await _judged(pilot, app)
        pane = app.dashboard.checklist
        verdicts = pane.verdicts or []
        assert [v.step for v in verdicts if v.ok][:2] == [1, 2], "answered steps are green"
        wanted = first_not_green(verdicts)
        assert wanted >= 2 and not verdicts[wanted].ok
        assert pane.cursor == wanted and pane.current_step == verdicts[wanted].step
        await pilot.press("4")
        await wait_until(pilot, lambda: app.dashboard._pane_of(app.focused) == "checklist")
        body = pane.body
        line = sum(pane._line_counts[:wanted])
        shown = body.scroll_y <= line < body.scroll_y + body.scrollable_content_region.height
        assert shown, "the cursor's step is on screen"
        return wanted


async def test_the_checklist_opens_at_the_first_step_not_green(tmp_path: Path) -> None:
    """Steps 1 and 2 answered (the recorded cluster's own answers): the checklist opens at
    the first step not green, scrolled to it, and again so when gsb-tui is started anew."""
    snapshot = snap("step-8")
    lab = tmp_path / "gsb-dra"
    lab.mkdir()
    write_answers(lab, snapshot, range(1, 3))
    first = await _opens_at_the_first_step_not_green(snapshot, lab)
    assert await _opens_at_the_first_step_not_green(snapshot, lab) == first  # a restart


def _layout_config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    return path


async def test_L_hides_the_lab_pane_and_the_config_hides_it_at_start(tmp_path: Path) -> None:
    app = _app(snap("step-8"))
    async with app.run_test(size=(160, 48)) as pilot:
        await _judged(pilot, app)
        dash = app.dashboard
        width = dash.details.outer_size.width
        await pilot.press("L")
        await wait_until(pilot, lambda: not dash.checklist.display)
        await wait_until(pilot, lambda: dash.details.outer_size.width > width)  # takes the room
        await pilot.press("L")
        await wait_until(pilot, lambda: dash.checklist.display)

    config = _layout_config(tmp_path, "[layout]\nlab = false\n")
    app = _app(snap("step-8"), config=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await _judged(pilot, app)
        dash = app.dashboard
        assert app.config.problems == [] and not dash.lab_shown
        assert not dash.checklist.display
        tab = dash.query_one("#tab-lab")
        assert not tab.display  # no Lab tab at 80x24
        for _ in PANES:  # tab never lands on the hidden pane
            await pilot.press("tab")
            await pilot.pause()
            assert dash._pane_of(app.focused) != "checklist"
        await pilot.press("4")
        await pilot.pause()
        assert dash.group != "lab"
        await pilot.press("L")
        await wait_until(pilot, lambda: dash.query_one("#tab-lab").display)


def test_a_wrong_layout_setting_is_said_and_the_lab_pane_stays(tmp_path: Path) -> None:
    from gsb_tui.config import load_config

    config = load_config(_layout_config(tmp_path, '[layout]\nlab = "no"\nlabs = 1\n'))
    assert config.lab_pane is True
    said = [str(problem) for problem in config.problems]
    assert any("'labs'" in line for line in said)
    assert any("lab must be true or false" in line for line in said)


STEP_LINE = re.compile(r"[▶ ]\S \d+ ")  # "▶✓ 3 " or " · 4 ": a step's first line


async def test_wide_screens_give_the_checklist_more_and_titles_hang() -> None:
    widths = []
    for size in ((160, 48), (200, 60), (240, 70)):
        app = _app(snap("step-8"))
        async with app.run_test(size=size) as pilot:
            await _judged(pilot, app)
            pane = app.dashboard.checklist
            widths.append(pane.outer_size.width)
            steps = str(pane.query_one(".steps").render()).splitlines()
            verdicts = pane.verdicts or []
            joined = " ".join(" ".join(line.split()) for line in steps)
            for verdict in verdicts:
                assert step_title(verdict.step, "en") in joined
            # a title that wraps goes on under itself (a hanging indent), never under the mark
            for line in steps:
                assert STEP_LINE.match(line) or line.startswith(" " * len("▶✓ 1 ")), line
            room = pane.body.scrollable_content_region.width - len("▶✓ 1 ")
            if all(len(step_title(v.step, "en")) <= room for v in verdicts):
                assert len(steps) == len(verdicts)  # every title on one line
    assert widths[0] >= 44 and widths[0] <= widths[1] < widths[2]


async def test_consumers_are_not_cut_at_operator_scale() -> None:
    """At 160x48 the pending claims' consumers ("pod (waiting)") are shown whole."""
    snapshot = profile_snap("operator", "filled")
    view = build_view(snapshot)
    waiting = [
        text("en", "waiting-pod", pod=p.name)
        for c in view.claims.values()
        for p in view.pods_of_claim(c)
        if p.pending and not c.allocated
    ]
    assert waiting
    app = _app(snapshot)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells, 30)
        app.dashboard.focus_pane("claims")
        await pilot.press("slash", *"pending", "enter")  # the filter: the pending claims only
        await wait_until(pilot, lambda: any(w in _screen_text(app) for w in waiting))
        screen = _screen_text(app)
        shown = [w for w in waiting if w.split(" ")[0] in screen]
        assert shown and all(w in screen for w in shown)
