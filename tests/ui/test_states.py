"""Waiting states and the watch pipeline, driven by a scripted source that emits STATE changes.

These are the states a recording of a healthy lab cannot show: before the first sync, a kind
the user may not read, no driver yet, an unreachable server, a source that fails, 64 devices.
"""

from __future__ import annotations

from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind
from gsb_tui.words import text
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import (
    ScriptedSource,
    claim,
    pod,
    resource_slice,
    state,
    synced,
)


async def test_before_first_sync_every_pane_says_connecting() -> None:
    source = ScriptedSource(server="https://10.0.0.9:6443")
    app = make_app(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        dash = app.dashboard
        expected = "connecting to https://10.0.0.9:6443"
        assert dash.grid.notice_text == expected
        assert dash.claims.notice_text == expected
        assert dash.slices.notice_text == expected
        assert not dash.grid.cells


async def test_forbidden_kind_says_so_and_the_rest_works() -> None:
    source = ScriptedSource()
    app = make_app(source)
    message = 'resourceclaims.resource.k8s.io is forbidden: User "learner" cannot list'
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("lab-node", 8)]))
        source.push(state(Kind.CLAIMS, "forbidden", message))
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        assert dash.claims.notice_text == f"forbidden (RBAC): {message}"
        assert dash.details.notice_text == f"forbidden (RBAC): {message}"
        # The grid still works: every published device has its cell, all free.
        assert len(dash.grid.cells) == 8
        assert {c.occupancy.status for c in dash.grid.cells.values()} == {"free"}
        assert dash.grid.notice_text == ""


async def test_connected_without_slices_waits_for_a_driver() -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(80, 24)) as pilot:
        source.push(*synced(Kind.SLICES, []))
        source.push(*synced(Kind.CLAIMS, []))
        await wait_until(pilot, lambda: app.view is not None)
        assert app.dashboard.grid.notice_text == "waiting for a DRA driver to publish devices"
        assert not app.dashboard.grid.cells
        # and as soon as the driver publishes, the grid appears
        source.push(*synced(Kind.SLICES, [resource_slice("lab-node", 3)]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 3)
        assert app.dashboard.grid.notice_text == ""


async def test_waiting_state_in_korean() -> None:
    source = ScriptedSource()
    app = make_app(source, lang="ko")
    async with app.run_test(size=(80, 24)) as pilot:
        source.push(*synced(Kind.SLICES, []))
        await wait_until(pilot, lambda: app.view is not None)
        assert app.dashboard.grid.notice_text == text("ko", "no-slices")
        assert app.dashboard.grid.border_title == "장치"


async def test_unreachable_server_shows_a_retrying_banner() -> None:
    source = ScriptedSource(server="https://192.0.2.1:6443")
    app = make_app(source)
    async with app.run_test(size=(80, 24)) as pilot:
        for kind in Kind:
            source.push(state(kind, "reconnecting", "connection refused", attempts=3))
        await wait_until(pilot, lambda: app.view is not None)
        banner = app.dashboard.query_one("#banner")
        assert banner.display
        shown = str(banner.render())
        assert "cannot reach https://192.0.2.1:6443" in shown
        assert "connection refused" in shown and "attempt 3" in shown
        assert "reconnecting 3" in str(app.dashboard.query_one("#header").render())
        # recovery clears it
        for kind in Kind:
            source.push(*synced(kind))
        await wait_until(pilot, lambda: not banner.display)


async def test_a_failing_source_becomes_a_banner_and_is_retried() -> None:
    source = ScriptedSource(fail=ConnectionError("no route to host"))
    app = make_app(source, retry_delays=(0.05,))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: source.runs >= 3)
        banner = app.dashboard.query_one("#banner")
        assert banner.display
        assert "ConnectionError: no route to host" in str(banner.render())
        assert app.is_running  # no traceback, no exit


async def test_sixty_four_devices_scroll_and_all_have_cells() -> None:
    source = ScriptedSource()
    app = make_app(source)
    slices = [resource_slice("node-a", 32), resource_slice("node-b", 32)]
    async with app.run_test(size=(80, 24)) as pilot:
        source.push(*synced(Kind.SLICES, slices))
        source.push(
            *synced(Kind.CLAIMS, [claim("last", "node-b", ["gpu-31"], ["user"])]),
            *synced(Kind.PODS, [pod("user", "last", "node-b")]),
        )
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 64)
        grid = app.dashboard.grid
        scroll = grid.canvas
        assert len(scroll.groups) == 2
        assert sum(len(g.devices) for g in scroll.groups) == 64
        # Boxes would be many panes tall at 80x24: a line per node, until `z` asks for boxes.
        assert scroll.compact and scroll.max_scroll_y == 0
        grid.focus()
        await pilot.press("z")
        await wait_until(pilot, lambda: not scroll.compact)
        assert scroll.max_scroll_y > 0  # more cells than fit: it scrolls
        await pilot.press("right")
        for _ in range(70):
            await pilot.press("down")
        await pilot.pause()
        last = grid.order[-1]
        assert grid.cursor == last and last.pool == "node-b" and last.device == "gpu-31"
        assert scroll.scroll_y > 0
        cell = grid.cells[last]
        assert cell.occupancy.status == "reserved"
        assert scroll.offset_of(last) is not None  # scrolled into view
        assert "last" in "".join(scroll.cell_text(last))
        # selecting that cell selected its claim
        assert app.dashboard.selected_claim == ("dra-lab", "last")


async def test_first_change_is_painted_at_once_and_bursts_coalesce() -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        source.push(*synced(Kind.SLICES, [resource_slice("lab-node", 8)]))
        await wait_until(pilot, lambda: app.repaints >= 1)
        assert app.deferred_repaints == 0  # the first change is not held by the throttle
        before = app.repaints
        burst = [
            Change(Kind.PODS, "ADDED", obj=pod(f"p{i}", "none", "lab-node")) for i in range(400)
        ]
        source.push(*burst)
        await wait_until(pilot, lambda: len(app.view.pods) == 400 if app.view else False)
        # 400 changes, a handful of repaints (at most ~10 a second)
        assert app.repaints - before <= 10


async def test_changes_right_after_a_repaint_wait_for_the_throttle() -> None:
    source = ScriptedSource()
    app = make_app(source, repaint_interval=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("lab-node", 8)]))
        await wait_until(pilot, lambda: app.repaints == 1)
        source.push(Change(Kind.PODS, "ADDED", obj=pod("late", "none", "lab-node")))
        await wait_until(pilot, lambda: app.deferred_repaints == 1)
        assert app.view is not None and "late" not in {name for _, name in app.view.pods}
        await wait_until(pilot, lambda: app.repaints == 2, timeout=5.0)
        assert ("dra-lab", "late") in app.view.pods


async def test_an_error_that_retrying_will_not_fix_is_said_as_is() -> None:
    source = ScriptedSource(server="-")
    app = make_app(source)
    message = "no kubeconfig found. Tried: /nonexistent.yaml (--kubeconfig): not found."
    async with app.run_test(size=(100, 30)) as pilot:
        for kind in Kind:
            source.push(state(kind, "error", message))
        await wait_until(pilot, lambda: app.view is not None)
        banner = app.dashboard.query_one("#banner")
        assert banner.display
        assert str(banner.render()) == f"error: {message}"
        assert app.dashboard.grid.notice_text == f"error: {message}"


async def test_many_slices_get_one_line_each() -> None:
    """Past DETAILED_SLICES_MAX slices the pane lists them one per line (no device tables),
    drawn line by line (SliceLines, the Line API)."""
    from textual.widgets import Static

    from gsb_tui.ui.panes.slices import DETAILED_SLICES_MAX, SliceLines

    source = ScriptedSource()
    app = make_app(source)
    nodes = [f"node-{i:02d}" for i in range(DETAILED_SLICES_MAX + 1)]
    async with app.run_test(size=(140, 40)) as pilot:  # the narrowest wide layout
        source.push(*synced(Kind.SLICES, [resource_slice(n, 2) for n in nodes]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 2 * len(nodes))
        shown = list(app.dashboard.slices.query(".slices-text").results(SliceLines))
        assert len(shown) == 1
        lines = [line.plain for line in shown[0].lines]
        assert f"{len(nodes)} slices" in lines[0]
        assert len(lines) == 1 + len(nodes)
        for node, line in zip(nodes, lines[1:], strict=True):
            assert f"node {node}" in line and "devices 2" in line
        # On screen too: one row per slice, cut with an ellipsis rather than wrapped.
        drawn = shown[0].render_lines(shown[0].region.reset_offset)
        assert len(drawn) >= 1 + len(nodes)
        assert all(f"node {n}" in strip.text for n, strip in zip(nodes, drawn[1:], strict=False))
        # Back to a few slices: the device tables return.
        source.push(*synced(Kind.SLICES, [resource_slice(n, 2) for n in nodes[:2]]))
        await wait_until(pilot, lambda: len(app.dashboard.grid.cells) == 4)
        shown = list(app.dashboard.slices.query(".slices-text").results(Static))
        assert len(shown) == 2


async def test_ledger_names_the_claims_pods_wait_for_not_unused_ones() -> None:
    """The ledger's demand line: a pending claim a pod waits for, not a claim no pod uses."""
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(200, 60)) as pilot:
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 2)]))
        source.push(
            *synced(Kind.CLAIMS, [claim("waited-for"), claim("unused")]),
            *synced(Kind.PODS, [pod("needs-it", "waited-for")]),
        )
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == 2)
        ledger = str(app.dashboard.grid.query_one(".ledger").render())
        assert "waited-for wants 1" in ledger
        assert "unused" not in ledger
        assert {k[1] for k in app.dashboard.claims.visible_keys()} == {"waited-for", "unused"}


async def test_the_header_names_the_servers_kubernetes_and_how_it_is_judged() -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(120, 24)) as pilot:
        for kind in Kind:
            source.push(*synced(kind))
        source.push(Change(Kind.NODES, "SERVER", label="v1.37.2"))
        header = app.dashboard.query_one("#header")
        await wait_until(pilot, lambda: "k8s v1.37.2" in str(header.render()))
        assert "judged as" not in str(header.render())  # a release mirrored as it is
        source.push(Change(Kind.NODES, "SERVER", label="v1.38.0-beta.0"))
        await wait_until(
            pilot, lambda: "v1.38.0-beta.0 (judged as v1.37.2)" in str(header.render())
        )
