"""A repaint touches only what changed (issue 6): claim and pod changes leave the slices alone,
the claims table is updated row by row in claim order, grid marks move cell by cell, and the
App tells a frame hook which store revision reached the screen."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from textual._styles_cache import StylesCache
from textual.widgets import Static

from gsb_tui.dra.model import DeviceId
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import COST_FACTOR
from gsb_tui.ui.pacing import AFTER_FRAME_WAIT_S
from gsb_tui.words import text
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, claim, pod, resource_slice, synced


def added(kind: Kind, obj: dict[str, object]) -> Change:
    return Change(kind, "ADDED", obj=obj)


def deleted(kind: Kind, obj: dict[str, object]) -> Change:
    return Change(kind, "DELETED", obj=obj)


async def test_claim_changes_update_rows_in_place_and_leave_slices_alone() -> None:
    source = ScriptedSource()
    frames: list[int] = []
    app = make_app(source, repaint_interval=0.0)
    app.frame_hook = frames.append
    first = claim("m-claim", "node-a", ["gpu-1"], ["user"])
    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        source.push(*synced(Kind.CLAIMS, [first]), *synced(Kind.PODS, [pod("user", "m-claim")]))
        await wait_until(pilot, lambda: app.dashboard.claims.rows)
        dash = app.dashboard
        table = dash.claims.table
        slice_widgets = list(dash.slices.query(".slices-text").results(Static))
        assert len(slice_widgets) == len(app.view.slices) if app.view else False
        slice_content = [w.content for w in slice_widgets]
        row_key = f"{first['metadata']['namespace']}/m-claim"
        kept_row = table.get_row(row_key)

        # One claim sorts before, one after the existing row; neither is appended out of order.
        source.push(added(Kind.CLAIMS, claim("a-claim")), added(Kind.CLAIMS, claim("z-claim")))
        await wait_until(pilot, lambda: len(dash.claims.rows) == 3)
        await wait_until(pilot, lambda: table.row_count == 3)
        names = [
            str(table.get_row_at(i).cells[0]).rsplit("/", 1)[-1] for i in range(table.row_count)
        ]
        assert names == sorted(names) == ["a-claim", "m-claim", "z-claim"]
        # The unchanged row kept its cells; the slices kept their widgets and their content.
        assert table.get_row(row_key) is kept_row
        assert list(dash.slices.query(".slices-text").results(Static)) == slice_widgets
        assert [w.content for w in slice_widgets] == slice_content

        source.push(deleted(Kind.CLAIMS, claim("a-claim")))
        await wait_until(pilot, lambda: table.row_count == 2)
        assert [k[1] for k in dash.claims.visible_keys()] == ["m-claim", "z-claim"]

        # The hook heard of the revision the screen shows.
        revision = app.store.revision
        await wait_until(pilot, lambda: app.painted_revision == revision)
        await wait_until(pilot, lambda: frames and frames[-1] == revision)
        assert frames == sorted(frames)


async def test_grid_marks_move_only_between_the_cells_involved() -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        source.push(
            *synced(
                Kind.CLAIMS,
                [claim("one", "node-a", ["gpu-1"], ["p1"]), claim("two", "node-a", ["gpu-2"])],
            ),
            *synced(Kind.PODS, [pod("p1", "one", "node-a")]),
        )
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        grid = dash.grid
        assert app.view is not None
        two = app.view.claims[next(k for k in app.view.claims if k[1] == "two")]
        touched: list[object] = []
        original = grid.canvas.redraw

        def spy(devices: Sequence[DeviceId]) -> None:
            touched.extend(devices)
            original(devices)

        grid.canvas.redraw = spy  # type: ignore[method-assign]
        grid.mark_claim(two)
        assert 0 < len(set(touched)) <= 4  # old mark, old cursor, new mark, new cursor
        marked = {d for d, c in grid.cells.items() if c.marked}
        assert marked == set(two.devices)
        assert all("".join(grid.canvas.cell_text(d)) for d in marked)
        touched.clear()
        grid.mark_claim(two)  # the same marks again: no cell is redrawn
        assert touched == []


async def test_a_costly_repaint_widens_the_throttle() -> None:
    app = make_app(ScriptedSource())
    assert app.throttle_interval() == app.repaint_interval
    app.paint_cost = 1.5
    assert app.throttle_interval() == COST_FACTOR * 1.5


async def test_claim_names_widen_with_the_pane_after_a_resize() -> None:
    source = ScriptedSource()
    app = make_app(source)
    name = "a-very-long-claim-name-that-goes-on-and-on"
    long = claim(name, "node-a", ["gpu-1"], ["user"])
    full = f"{long['metadata']['namespace']}/{long['metadata']['name']}"
    async with app.run_test(size=(80, 24)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        source.push(
            *synced(Kind.CLAIMS, [long, claim(f"b-{name}")]),
            *synced(Kind.PODS, [pod("user", name, "node-a")]),
        )
        await wait_until(pilot, lambda: app.dashboard.claims.rows)
        await pilot.pause(0.3)  # drawn at 80 columns first
        await pilot.resize_terminal(200, 60)
        await pilot.pause(0.3)
        await pilot.pause()
        assert full in app.export_screenshot()  # the whole name, namespace and all


async def test_claims_rows_patched_by_key_equal_a_whole_fill() -> None:
    """Claims coming, going and changing (seeded, in random order; long names move the column
    widths, a leak adds a warning marker, a pod waiting changes a pending row, a filter comes
    and goes): after each repaint the rows the pane patched by key are what filling every row
    afresh gives, and the table shows them."""
    rng = random.Random(1336)
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)
    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        source.push(*synced(Kind.CLAIMS, [claim("c-00")]), *synced(Kind.PODS, []))
        pane = app.dashboard.claims
        await wait_until(pilot, lambda: pane.rows)
        present: dict[str, dict[str, object]] = {"c-00": claim("c-00")}
        for step in range(40):
            roll = rng.random()
            name = f"c-{rng.randrange(12):02d}" + ("-a-much-longer-name" * rng.randrange(2))
            if roll < 0.45 or not present:
                device = f"gpu-{rng.randrange(8)}"
                made = claim(name, "node-a", [device]) if rng.random() < 0.5 else claim(name)
                present[name] = made
                source.push(added(Kind.CLAIMS, made))
            elif roll < 0.8:
                gone = present.pop(rng.choice(sorted(present)))
                source.push(deleted(Kind.CLAIMS, gone))
            elif roll < 0.9:
                source.push(added(Kind.PODS, pod(f"p-{step}", rng.choice(sorted(present)))))
            else:
                pane.filter = "" if pane.filter else "c-0"
                pane._fill()
            revision = app.store.revision
            await wait_until(pilot, lambda r=revision: app.painted_revision == r)  # type: ignore[misc]
            patched = (list(pane.rows), list(pane._keys), list(pane.table.widths))
            shown = [pane.table.get_row_at(i) for i in range(pane.table.row_count)]
            pane._fill(force=True)
            assert patched == (list(pane.rows), list(pane._keys), list(pane.table.widths))
            assert [r.key for r in shown] == [f"{ns}/{n}" for ns, n in pane._keys]
            assert [r.cells for r in shown] == [
                pane.table.get_row_at(i).cells for i in range(pane.table.row_count)
            ]


async def test_the_first_claim_coming_and_the_last_going_lay_nothing_out() -> None:
    """A whole-screen layout costs 6-10 ms at lab size: a claim coming into an empty table (a
    long name, so a column widens) and going again changes text, never which widget shows."""
    source = ScriptedSource()
    frames: list[int] = []
    app = make_app(source, repaint_interval=0.0)
    app.frame_hook = frames.append
    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        source.push(*synced(Kind.CLAIMS, []), *synced(Kind.PODS, []))
        dash = app.dashboard
        table = dash.claims.table
        no_claims = text("en", "no-claims")
        await wait_until(pilot, lambda: table.empty_text == no_claims)
        assert dash.claims.notice_text == ""  # said in the table, under its header
        assert no_claims in table.render_line(1).text
        await wait_until(pilot, lambda: frames and frames[-1] == app.store.revision)
        screen = app.screen
        layouts: list[bool] = []
        relayout = screen._refresh_layout

        def counted(*args: object, **kwargs: object) -> None:
            layouts.append(True)
            relayout(*args, **kwargs)  # type: ignore[arg-type]

        screen._refresh_layout = counted  # type: ignore[method-assign]
        long_name = "a-claim-with-a-name-longer-than-any-column-so-far"
        source.push(added(Kind.CLAIMS, claim(long_name, "node-a", ["gpu-1"])))
        await wait_until(pilot, lambda: table.row_count == 1)
        await wait_until(pilot, lambda: frames[-1] == app.store.revision)
        assert long_name in table.render_line(1).text
        assert dash.details.key is not None and dash.details.key[1] == long_name
        widths = list(table.widths)
        assert widths[0] >= len(long_name)
        source.push(deleted(Kind.CLAIMS, claim(long_name, "node-a", ["gpu-1"])))
        await wait_until(pilot, lambda: table.row_count == 0)
        await wait_until(pilot, lambda: frames[-1] == app.store.revision)
        assert table.widths == widths  # the columns stay for the next claim: no whole redraw
        assert no_claims in table.render_line(1).text
        assert dash.details.notice_text == ""
        body = dash.details.query_one(".details-text", Static)
        assert str(body.content) == text("en", "no-selection")
        assert layouts == []


async def test_the_source_hears_when_the_first_synced_frame_is_drawn() -> None:
    """LiveSource holds its first watches until then (kube/live.py): told once, after the
    frame with every kind listed, not before."""
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0, first_frame=source.drawn)
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        await wait_until(pilot, lambda: app.view is not None)
        await pilot.pause()
        assert source.drawn_calls == 0  # other kinds still listing
        source.push(*(c for k in Kind if k is not Kind.SLICES for c in synced(k, [])))
        await wait_until(pilot, lambda: source.drawn_calls == 1)
        source.push(added(Kind.CLAIMS, claim("one")))
        await wait_until(pilot, lambda: app.dashboard.claims.rows)
        await pilot.pause()
        assert source.drawn_calls == 1


async def test_jobs_after_a_repaint_wait_for_its_frame_or_a_bound() -> None:
    """The first watches, the checks and the CEL library start once the repaint's frame is
    written (Textual's call_after_refresh ran them before it was composed); a repaint that
    writes nothing runs them after AFTER_FRAME_WAIT_S."""
    source = ScriptedSource()
    log: list[str] = []

    def drawn() -> None:
        log.append("drawn")
        source.drawn()

    app = make_app(source, repaint_interval=0.0, first_frame=drawn)
    async with app.run_test(size=(160, 48)) as pilot:
        written = app._display

        def display(screen: Any, renderable: Any) -> None:
            written(screen, renderable)
            if renderable is not None and app.view is not None and app.view.snapshot.synced:
                log.append("frame")

        app._display = display  # type: ignore[method-assign]
        source.push(*(c for k in Kind for c in synced(k, [])))
        await wait_until(pilot, lambda: "drawn" in log)
        assert log.index("frame") < log.index("drawn")
        ran: list[float] = []
        started = time.monotonic()
        app.after_frame.add("probe", lambda: ran.append(time.monotonic() - started))
        await wait_until(pilot, lambda: bool(ran))  # no repaint, no frame: the bound
        assert ran[0] >= AFTER_FRAME_WAIT_S * 0.9


async def test_a_claim_coming_and_a_new_selection_redraw_only_their_lines() -> None:
    """What the compositor draws again is the frame's cost (at lab size a whole claims table
    and details pane were ~4 of its ~11 ms, measured): a claim coming redraws its own table
    line, and selecting another claim redraws the two cursor lines and the details pane's
    top border (its title), not every line of the table and the pane."""
    source = ScriptedSource()
    frames: list[int] = []
    app = make_app(source, repaint_interval=0.0)
    app.frame_hook = frames.append
    drawn: list[tuple[int, int]] = []  # (id of the widget's styles, line) per line drawn
    original = StylesCache.render_line

    def counted(self: StylesCache, styles: Any, y: int, *args: Any) -> Any:
        drawn.append((id(styles), y))
        return original(self, styles, y, *args)

    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 8)]))
        claims = [claim(n, "node-a", [f"gpu-{i}"]) for i, n in enumerate(("c-a", "c-b", "c-c"))]
        source.push(*synced(Kind.CLAIMS, claims), *synced(Kind.PODS, []))
        dash = app.dashboard
        table, details = dash.claims.table, dash.details
        await wait_until(pilot, lambda: table.row_count == 3 and details.key is not None)
        await wait_until(pilot, lambda: frames and frames[-1] == app.store.revision)
        assert details.key == ("dra-lab", "c-a")
        StylesCache.render_line = counted  # type: ignore[method-assign]
        try:
            source.push(added(Kind.CLAIMS, claim("c-d", "node-a", ["gpu-3"])))
            await wait_until(pilot, lambda: table.row_count == 4)
            await wait_until(pilot, lambda: frames[-1] == app.store.revision)
            await pilot.pause()
            assert "c-d" in table.render_line(4).text
            assert [y for s, y in drawn if s == id(table.styles)] == [4]  # its line, no other
            assert [y for s, y in drawn if s == id(details.styles)] == []
            drawn.clear()
            table.focus()
            await pilot.pause()
            drawn.clear()
            await pilot.press("down")
            await wait_until(pilot, lambda: details.key == ("dra-lab", "c-b"))
            await pilot.pause(0.1)
            assert sorted({y for s, y in drawn if s == id(table.styles)}) == [1, 2]
            assert sorted({y for s, y in drawn if s == id(details.styles)}) == [0]
        finally:
            StylesCache.render_line = original  # type: ignore[method-assign]
        assert details.border_title is not None and "c-b" in details.border_title
