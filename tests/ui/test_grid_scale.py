"""The grid at operator scale (Pilot): summaries per group, compact lines chosen by size and
toggled by `z`, navigation by node line, Enter to open a node, PageUp/PageDown/Home/End, the
node filter, natural order, and cells that follow the width after Maximize.

Objects RECORDED: the operator profile (tests/fixtures/profiles/operator.jsonl: 40 nodes,
partitions, taints, shares, claims in several namespaces) and the lab (tests/fixtures/lab.jsonl).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from gsb_tui.dra.natural import natural_sorted
from gsb_tui.dra.node_summary import count, merged
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.grid_layout import GUTTER, CellRow, Geometry, LineRow, SummaryRow
from gsb_tui.words import text
from tests.recorded import profile_snap
from tests.ui.helpers import make_app, run_from_palette, wait_until
from tests.ui.scripted import SnapshotSource

LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


def _operator(lang: str = "en") -> GsbApp:
    return make_app(SnapshotSource(profile_snap("operator", "filled")), lang)


async def _painted(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, GsbApp)
    grid = app.dashboard.grid
    await wait_until(
        pilot,
        lambda: (
            getattr(app.source, "done", False)
            and app.view is not None
            and app.view.snapshot.revision == app.store.revision
            and bool(grid.cells)
            and bool(grid.canvas.geometry.stops)
        ),
    )


def _line_keys(app: GsbApp) -> list[str]:
    return [n.key for n in app.dashboard.grid.canvas.nodes]


@LANGS
async def test_every_group_has_a_summary_line_with_the_ledgers_counts(lang: str) -> None:
    app = _operator(lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        view = app.view
        assert view is not None
        await pilot.press("z")  # boxes: each group under its title and summary
        await wait_until(pilot, lambda: not grid.canvas.compact)
        canvas = grid.canvas
        geometry = canvas.geometry
        summaries = [
            (i, row.group) for i, row in enumerate(geometry.rows) if isinstance(row, SummaryRow)
        ]
        assert len(summaries) == len(canvas.groups) == len(grid.all_groups)
        for index, group in summaries:
            counts = count(view, group.devices)
            assert canvas.summaries[group.key] == counts
            shown = canvas.text_at(geometry.starts[index])
            assert text(lang, "grid.sum.in-use", n=counts.in_use) in shown
            assert text(lang, "grid.sum.free", n=counts.free) in shown
            if counts.blocked:
                assert text(lang, "feat.ledger.blocked", n=counts.blocked) in shown
            if counts.tainted:
                assert text(lang, "feat.ledger.tainted", n=counts.tainted) in shown
            assert text(lang, "grid.sum.model", model=counts.models[0]) in shown
        # Split by group, the counts still add up to the ledger's.
        ledger = view.ledger()
        whole = merged(canvas.summaries.values())
        assert (whole.devices, whole.in_use, whole.free) == (
            ledger.total,
            len(ledger.allocated),
            ledger.free,
        )


@LANGS
async def test_operator_scale_is_compact_a_line_per_node_and_z_toggles(lang: str) -> None:
    app = _operator(lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        canvas = grid.canvas
        view = app.view
        assert view is not None
        assert canvas.compact  # its boxes would be many panes tall: chosen by size
        nodes = {d.node for d in view.devices}
        assert _line_keys(app) == natural_sorted(nodes)  # lab-node-2 before lab-node-10
        assert text(lang, "grid.title.compact", title=text(lang, "grid")) == grid.border_title
        lines = [r for r in canvas.geometry.rows if isinstance(r, LineRow)]
        assert len(lines) == len(nodes)
        for row in lines:
            devices = [d for d in view.devices if d.node == row.node.key]
            counts = canvas.line_counts[row.node.key]
            assert counts == count(view, (d.id for d in devices))
            first = canvas.text_at(canvas.geometry.starts[canvas.geometry.lines[row.node.key]])
            numbers = first.split()[1:4]
            assert numbers == [str(counts.devices), str(counts.in_use), str(counts.free)]
            # one mark per device, in its line (wrapped lines included)
            assert all(d.id in canvas.geometry.marks for d in devices)
        models = text(lang, "grid.head.model", model=view.devices[0].attributes["model"])
        assert canvas.text_at(0).startswith(models)
        await pilot.press("z")
        await wait_until(pilot, lambda: not canvas.compact)
        assert len(canvas.geometry.places) == len(view.devices)
        assert grid.border_title == text(lang, "grid")
        await pilot.press("z")
        await wait_until(pilot, lambda: canvas.compact)


async def test_the_lab_stays_cells() -> None:
    app = make_app(SnapshotSource(profile_snap("taints", "untolerated-pending")))
    async with app.run_test(size=(80, 24)) as pilot:
        await _painted(pilot)
        canvas = app.dashboard.grid.canvas
        assert not canvas.compact
        assert set(canvas.geometry.places) == set(app.dashboard.grid.cells)


async def test_compact_moves_by_node_line_and_enter_opens_the_node() -> None:
    app = _operator()
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        canvas = grid.canvas
        grid.focus()
        keys = _line_keys(app)
        await pilot.press("home")
        assert grid.line_cursor == keys[0] and grid.cursor is None
        before = canvas.geometry
        steps = min(10, len(keys) - 1)
        for _ in range(steps):
            await pilot.press("down")
        assert grid.line_cursor == keys[steps]
        assert canvas.geometry is before  # moving does not lay the grid out again
        await pilot.press("enter")
        opened = keys[steps]
        first = next(n for n in canvas.nodes if n.key == opened).devices[0]
        await wait_until(pilot, lambda: grid.cursor == first)
        assert opened in canvas.expanded and grid.line_cursor is None
        assert first in canvas.geometry.places  # shown as a cell now, under its line
        assert canvas.offset_of(first) is not None  # and on screen
        assert (
            app.dashboard.selected_claim in {c.key for c in app.view.occupancy[first].holders}
            or not app.view.occupancy[first].holders
        )
        await pilot.press("down")  # within the opened node: the row of cells below
        row = canvas.geometry.rows[canvas.geometry.row_index(canvas.geometry.places[first][0])]
        assert isinstance(row, CellRow) and grid.cursor not in row.devices
        await pilot.press("enter")  # closed again: the keyboard on its line
        await wait_until(pilot, lambda: grid.line_cursor == opened)
        assert opened not in canvas.expanded and first not in canvas.geometry.places
        await pilot.press("end")
        assert grid.line_cursor == keys[-1]
        await pilot.press("home")
        await pilot.press("pagedown")
        height = canvas.scrollable_content_region.height
        at = canvas.geometry.starts[canvas.geometry.lines[grid.line_cursor]]
        assert keys.index(grid.line_cursor) > 1  # a page, not a line
        assert at >= height - max(r.height for r in canvas.geometry.rows)
        assert canvas.scroll_offset.y <= at < canvas.scroll_offset.y + height  # in view
        await pilot.press("pageup")
        assert grid.line_cursor == keys[0]


async def test_cells_page_home_and_end() -> None:
    app = _operator()
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        canvas = grid.canvas
        grid.focus()
        await pilot.press("z")
        await wait_until(pilot, lambda: not canvas.compact)
        await pilot.press("home")
        assert grid.cursor == grid.order[0]
        await pilot.press("end")
        assert grid.cursor == grid.order[-1]
        assert canvas.offset_of(grid.order[-1]) is not None
        await pilot.press("home")
        y0 = canvas.geometry.places[grid.order[0]][0]
        await pilot.press("pagedown")
        assert grid.cursor is not None
        y1 = canvas.geometry.places[grid.cursor][0]
        assert y1 - y0 >= canvas.scrollable_content_region.height - 8  # about a pane down
        assert canvas.offset_of(grid.cursor) is not None
        await pilot.press("pageup")
        assert canvas.geometry.places[grid.cursor][0] == y0


@LANGS
async def test_the_node_filter_keeps_the_nodes_whose_name_matches(lang: str) -> None:
    app = _operator(lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        grid.focus()
        every = _line_keys(app)
        wanted = every[1][-2:]  # part of one node's name, as a user would type it
        expect = [k for k in every if wanted in k]
        assert 0 < len(expect) < len(every)
        await pilot.press("f")
        await wait_until(pilot, lambda: grid.filter_input.has_focus)
        await pilot.press(*wanted)
        await wait_until(pilot, lambda: _line_keys(app) == expect)
        shown = text(
            lang,
            "grid.title.filter",
            title=text(lang, "grid.title.compact", title=text(lang, "grid")),
            filter=wanted,
            shown=len(expect),
            total=len(every),
        )
        assert grid.border_title == shown
        assert set(grid.order) == {d for n in grid.canvas.nodes for d in n.devices}
        await pilot.press("enter")  # kept; the keys are the grid's again
        await wait_until(pilot, lambda: grid.has_focus)
        assert _line_keys(app) == expect
        await pilot.press("down")
        assert grid.line_cursor in expect
        await pilot.press("f", "z", "z", "z")  # typed over the old one: no name has it
        await wait_until(pilot, lambda: not grid.order)
        assert grid.notice_text == text(lang, "grid.filter.none", filter="zzz")
        await pilot.press("escape")
        await wait_until(pilot, lambda: _line_keys(app) == every and grid.has_focus)
        assert grid.notice_text == "" and not grid.filter_input.display


async def test_going_to_a_device_the_filter_hides_clears_it() -> None:
    app = _operator()
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        grid.focus()
        every = _line_keys(app)
        await pilot.press("f", *every[0])
        await wait_until(pilot, lambda: every[-1] not in _line_keys(app))
        await pilot.press("enter")
        hidden = next(n for n in app.dashboard.grid.all_lines if n.key == every[-1]).devices[0]
        grid.select_device(hidden)
        await pilot.pause()
        assert grid.node_filter == "" and _line_keys(app) == every
        assert grid.cursor == hidden and hidden in grid.canvas.geometry.places


async def test_a_click_on_a_mark_selects_its_device() -> None:
    app = _operator()
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        canvas = grid.canvas
        view = app.view
        assert view is not None
        held = next(d for d in grid.order if view.occupancy[d].holders)
        canvas.scroll_to_device(held)
        await pilot.pause()
        offset = canvas.offset_of(held)
        assert offset is not None
        await pilot.click(type(canvas), offset=offset)
        await wait_until(pilot, lambda: grid.cursor == held)
        assert app.dashboard.selected_claim == view.occupancy[held].holders[0].key
        assert held not in canvas.geometry.places  # a click selects; it opens nothing


def _fits(app: GsbApp) -> bool:
    canvas = app.dashboard.grid.canvas
    geometry = canvas.geometry
    used = geometry.columns * geometry.cell_width + GUTTER * (geometry.columns - 1)
    width = canvas.scrollable_content_region.width
    return geometry.width == width and used <= width


async def test_cells_follow_the_width_after_maximize_and_escape(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """Palette -> Maximize, a key, Esc: the cells are laid out for the pane again. Before, they
    often kept the maximized width and the right column was cut: Textual does not always send
    the canvas a Resize when the screen is minimized, so this goes round a few times."""
    app = make_app(SnapshotSource(lab_snapshot("step-8")))
    async with app.run_test(size=(200, 60)) as pilot:
        await _painted(pilot)
        canvas = app.dashboard.grid.canvas
        app.dashboard.grid.focus()
        before = canvas.geometry.columns
        for keys in ((), ("down",), ("right",), ("pagedown",)):
            await run_from_palette(pilot, "Maximize")
            await wait_until(pilot, lambda: canvas.geometry.columns > before)
            await pilot.pause(0.5)  # it went wrong with the app idle a moment, not at once
            assert _fits(app)  # 200 columns fit more cells across: the width decides
            wide = canvas.scrollable_content_region.width
            assert canvas.geometry.columns == Geometry.fit_columns(wide)[0]
            await pilot.press(*keys)
            await pilot.pause(0.3)
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen.maximized is None)
            await pilot.pause(0.1)
            assert _fits(app), keys
            assert canvas.geometry.columns == before
            drawn = canvas.render_line(1).cell_length
            assert drawn == canvas.scrollable_content_region.width
