"""What the first frame of a view holds, so the frames right after it have nothing left to do
(at 10,000 devices the first key waited for them): the grid drawn at its width with the
cursor's row in view, the slices' one-line form composed with the pane (not mounted during the
first repaint), and the footer's first keys composed without waiting for a refresh.

Objects RECORDED: the operator profile (tests/fixtures/profiles/operator.jsonl: 40 nodes);
the slices test uses the scripted source (a count of slices no recording has).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets._footer import FooterKey

from gsb_tui.snapshot import Kind
from gsb_tui.ui.footer import LocalFooter
from gsb_tui.ui.panes.device_canvas import DeviceCanvas
from gsb_tui.ui.panes.slices import DETAILED_SLICES_MAX, SliceLines
from tests.recorded import profile_snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, SnapshotSource, resource_slice, synced


async def test_the_first_drawn_grid_already_shows_the_cursor_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cursor starts on the selected claim's first device; the grid's first drawing with
    the devices is at the scroll that shows it, not at the top with a scroll a frame later."""
    drawn: list[tuple[int, int]] = []  # (scroll y, canvas width) of each drawing with devices
    real = DeviceCanvas.render_lines

    def recording(canvas: DeviceCanvas, crop: Any) -> Any:
        strips = real(canvas, crop)
        if canvas.geometry.stops:
            drawn.append((canvas.scroll_offset.y, canvas.geometry.width))
        return strips

    monkeypatch.setattr(DeviceCanvas, "render_lines", recording)
    app = make_app(SnapshotSource(profile_snap("operator", "filled")))
    async with app.run_test(size=(80, 24)) as pilot:  # a learner's terminal
        grid = app.dashboard.grid
        await wait_until(pilot, lambda: grid.cursor is not None and bool(drawn))
        await pilot.pause(0.3)
        canvas = grid.canvas
        stop = canvas.geometry.stop_of(grid.cursor, canvas.line_cursor)
        assert stop is not None
        row = canvas.geometry.stop_region(canvas.geometry.stops[stop], canvas.geometry.width)
        top, height = canvas.scroll_offset.y, canvas.scrollable_content_region.height
        assert top > 0, "the recording's cursor row is below the first screen at this size"
        assert top <= row.y and row.bottom <= top + height  # in view now
        assert canvas.vertical_scrollbar.position == top  # the scrollbar says so too
        # ...and in the very first drawing, at the width it has now.
        assert drawn[0] == (top, canvas.geometry.width)


async def test_the_compact_slice_list_is_composed_with_the_pane() -> None:
    """Past DETAILED_SLICES_MAX slices the one-line form is shown, back under it hidden: the
    same widget each time, composed before any view (nothing to mount in a repaint)."""
    source = ScriptedSource()
    app = make_app(source)
    many = [f"node-{i:02d}" for i in range(DETAILED_SLICES_MAX + 1)]
    async with app.run_test(size=(140, 40)) as pilot:
        pane = app.dashboard.slices
        (composed,) = pane.query(SliceLines)
        assert not composed.display
        source.push(*synced(Kind.SLICES, [resource_slice(n, 2) for n in many]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 2 * len(many))
        assert list(pane.query(".slices-text").results(SliceLines)) == [composed]
        assert composed.display and len(composed.lines) == 1 + len(many)
        source.push(*synced(Kind.SLICES, [resource_slice(n, 2) for n in many[:2]]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 4)
        assert not composed.display and not composed.lines
        assert not list(pane.query(".slices-text").results(SliceLines))
        source.push(*synced(Kind.SLICES, [resource_slice(n, 2) for n in many]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 2 * len(many))
        assert list(pane.query(SliceLines)) == [composed] and composed.display


async def test_the_footers_first_keys_do_not_wait_for_a_refresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no refresh coming (a busy start), the first keys are composed all the same; a
    recompose asked for the keys already composed does nothing."""
    waiting: list[object] = []
    monkeypatch.setattr(LocalFooter, "call_after_refresh", lambda self, cb, *a: waiting.append(cb))
    composed = 0
    real = LocalFooter.compose

    def counting(footer: LocalFooter) -> Any:
        nonlocal composed
        composed += 1
        return real(footer)

    monkeypatch.setattr(LocalFooter, "compose", counting)
    app = make_app(SnapshotSource(profile_snap("operator", "filled")))
    async with app.run_test(size=(120, 30)) as pilot:
        footer = app.screen.query_one(LocalFooter)
        await wait_until(pilot, lambda: bool(footer.query(FooterKey)))
        assert waiting, "Textual's own recompose waits for a refresh"
        keys = len(footer.query(FooterKey))
        before = composed
        await footer.recompose()  # what the refresh would run: the same keys
        assert composed == before and len(footer.query(FooterKey)) == keys
