"""`:` the jump box, the palette's "Search everything…", and one key each between a claim, its
devices and its pods (g, u, o). On the recorded lab (right after step 8) and, for the matching at
scale, 10,000 devices made the way the practice driver publishes them; expected values come from
the objects, never constants."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.natural import natural_key
from gsb_tui.dra.view import DraView
from gsb_tui.kube.store import Store
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.jump_targets import LIMIT, TargetIndex, build_index, score
from gsb_tui.ui.panes.claim_table import ClaimTable
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.jump import JumpScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from tests.recorded import profile_snap
from tests.ui.helpers import click_device, make_app, run_from_palette, wait_until
from tests.ui.scripted import SnapshotSource, resource_slice, synced


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


@pytest.fixture
def view8(step8: Snapshot) -> DraView:
    return build_view(step8)


def _app(snapshot: Snapshot, lang: str = "en") -> GsbApp:
    return make_app(SnapshotSource(snapshot), lang)


async def _jump(pilot: Pilot[int], app: GsbApp, query: str) -> JumpScreen:
    """`:` and the query typed: the open jump box."""
    await pilot.press("colon")
    await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))
    await pilot.press(*query)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, JumpScreen)
    return screen


# --- matching ------------------------------------------------------------------------------


def test_an_index_built_from_the_last_views_parts_equals_a_fresh_one(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """The recorded lab step after step, each index built from the one before (the parts whose
    facts did not change taken over): the same targets, names, kinds, counts and answers."""
    previous, kept = None, 0
    for step in ("step-2", "step-4", "step-5", "step-6", "step-7", "step-8"):
        view = build_view(lab_snapshot(step))
        reused, fresh = build_index(view, "ko", previous), build_index(view, "ko")
        assert reused.targets == fresh.targets
        assert list(reused._names) == list(fresh._names)
        assert reused._by_kind == fresh._by_kind
        assert dict(reused.counts) == dict(fresh.counts)
        for query in ("", "gpu", "pod ", "ns dra", "claim"):
            assert reused.search(query) == fresh.search(query)
        if previous is not None:  # the devices' part kept exactly when the devices are equal
            same_devices = previous.parts[-1].facts == view.devices
            assert (reused.parts[-1] is previous.parts[-1]) == same_devices
            kept += same_devices
        previous = reused
    assert kept  # the recorded steps change claims and pods, mostly not the slices


def test_the_index_finds_every_kind_of_the_view(view8: DraView) -> None:
    index = build_index(view8)
    kinds = {t.kind for t in index.targets}
    assert kinds == {"pane", "namespace", "node", "pool", "device", "claim", "pod"}
    assert index.count("claim") == len(view8.claims)
    assert index.count("pod") == len(view8.pods)
    assert index.count("device") == len(view8.devices)
    assert index.count("node") == len(view8.nodes())


def test_a_whole_name_ranks_before_a_longer_one_and_a_subsequence_matches(
    view8: DraView,
) -> None:
    index = build_index(view8)
    device = min((d for d in view8.devices), key=lambda d: natural_key(d.name))
    found, _ = index.search(f"dev {device.name}")
    assert found[0].ref == device.id  # gpu-1 before gpu-10
    claim = sorted(view8.claims)[-1]
    letters = claim[1][0] + claim[1][-1]  # first and last letter: a subsequence, not a substring
    found, total = index.search(f"claim {letters}")
    assert claim in [t.ref for t in found]
    assert all(t.kind == "claim" for t in found) and total == len(found)


def test_narrowing_as_the_text_grows_matches_what_a_fresh_search_finds(view8: DraView) -> None:
    typed = build_index(view8)
    name = sorted(view8.pods)[0][1]
    for end in range(1, len(name) + 1):
        grown = typed.search(name[:end])
        fresh = build_index(view8).search(name[:end])
        assert grown == fresh
    # and back (backspace): not narrowed from the longer text's matches
    assert typed.search(name[:1]) == build_index(view8).search(name[:1])


def _subsequence(needle: str, name: str) -> bool:
    rest = iter(name.lower())
    return all(char in rest for char in needle)


def _big_view(nodes: int, per_node: int) -> DraView:
    store = Store()
    slices = [resource_slice(f"node-{i}", per_node) for i in range(nodes)]
    for change in synced(Kind.SLICES, slices):
        store.apply(change)
    for kind in Kind:
        if kind is not Kind.SLICES:
            for change in synced(kind):
                store.apply(change)
    return build_view(store.snapshot())


def test_at_10000_devices_results_are_capped_and_counted() -> None:
    view = _big_view(40, 250)
    assert len(view.devices) == 40 * 250
    index = build_index(view)
    shown, total = index.search("gpu-1")
    assert len(shown) == LIMIT
    assert total == sum(1 for t in index.targets if _subsequence("gpu-1", t.name))
    assert all(t.name.endswith("/gpu-1") for t in shown[:40])  # the whole name first, per node
    nodes = [t.name.split("/")[0] for t in shown[:40]]
    assert nodes == sorted(nodes, key=natural_key)  # node-2 before node-10


def test_one_word_ranks_as_scoring_every_match_would() -> None:
    # The one-word pass scores each name as it matches; it must rank as the rule says.
    view = build_view(profile_snap("operator", "filled"))
    device = max(view.devices, key=lambda d: (natural_key(d.node), natural_key(d.name)))
    names = [t.name.lower() for t in build_index(view).targets]
    for needle in ("g", "gpu-1", device.node[:3], device.id.device, "ndgp", "zzz"):
        index = build_index(view)
        shown, total = index.search(needle)
        held = [i for i, name in enumerate(names) if _subsequence(needle, name)]
        best = sorted(held, key=lambda i: (-score(needle, names[i]), i))[:LIMIT]
        assert total == len(held), needle
        assert [t.name for t in shown] == [index.targets[i].name for i in best], needle


def test_words_apart_match_apart_in_any_order() -> None:
    # An operator types the node, then the device ("lab-node-7 gpu-3"), or the other way round.
    view = build_view(profile_snap("operator", "filled"))
    device = max(view.devices, key=lambda d: (natural_key(d.node), natural_key(d.name)))
    index = build_index(view)
    for query in (f"{device.node} {device.id.device}", f"{device.id.device} {device.node}"):
        found, total = index.search(query)
        assert device.id in [t.ref for t in found], query
        assert all(
            _subsequence(device.node, t.name) and _subsequence(device.id.device, t.name)
            for t in found
        )
        assert total == len(
            [
                t
                for t in index.targets
                if _subsequence(device.node, t.name) and _subsequence(device.id.device, t.name)
            ]
        )


def test_a_kind_word_narrows_to_that_kind(view8: DraView) -> None:
    index = TargetIndex(build_index(view8).targets)
    found, total = index.search("ns ")
    assert {t.kind for t in found} == {"namespace"}
    assert total == 1 + len({ns for ns, _ in view8.claims} | {ns for ns, _ in view8.pods})
    assert found[0].ref is None  # "all namespaces" first


# --- going there ---------------------------------------------------------------------------


async def test_jump_to_a_device_puts_the_grid_cursor_on_it(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    held = next(d for d in reversed(view8.devices) if view8.occupancy[d.id].holders)
    holder = view8.occupancy[held.id].holders[0]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        dash.focus_pane("claims")
        screen = await _jump(pilot, app, f"dev {held.name}")
        assert screen.shown[0].ref == held.id
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        await pilot.pause()
        assert dash.grid.cursor == held.id
        assert dash.current_pane() == "grid"
        assert dash.selected_claim == holder.key


async def test_jump_to_a_claim_selects_it_and_shows_its_details(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    key = sorted(view8.claims)[-1]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        assert dash.selected_claim != key
        await _jump(pilot, app, f"claim {key[1]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        await pilot.pause()
        assert dash.selected_claim == key
        assert dash.claims.table.cursor_key == "/".join(key)
        assert key[1] in str(dash.details.border_title)
        assert isinstance(app.focused, ClaimTable)
        assert dash.grid.marked == frozenset(view8.claims[key].devices)


async def test_jump_to_a_pending_pod_selects_the_claim_it_waits_for(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    pending = next(k for k, c in view8.claims.items() if c.state == "pending")
    pod = view8.pods_of_claim(view8.claims[pending])[0]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        screen = await _jump(pilot, app, f"pod {pod.name}")
        assert screen.shown[0].ref == pod.key
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.dashboard.selected_claim == pending)
        assert pending[1] in str(app.dashboard.details.border_title)


async def test_jump_to_a_node_and_a_pane(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    node = view8.nodes()[0]
    first = next(d.id for d in view8.devices if d.node == node)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        dash.focus_pane("claims")
        await _jump(pilot, app, f"node {node}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.current_pane() == "grid")
        assert dash.grid.cursor == first
        await _jump(pilot, app, "pane slices")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash._pane_of(app.focused) == "slices")


async def test_escape_closes_and_changes_nothing(step8: Snapshot) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        before = (dash.selected_claim, dash.grid.cursor, dash.current_pane())
        await _jump(pilot, app, "x")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        assert (dash.selected_claim, dash.grid.cursor, dash.current_pane()) == before


async def test_jump_switches_tabs_at_80x24(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    key = sorted(view8.claims)[-1]
    device = view8.devices[-1]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        assert dash.narrow and dash.group == "devices"
        await _jump(pilot, app, f"claim {key[1]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.group == "claims")
        assert dash.selected_claim == key
        await _jump(pilot, app, f"dev {device.name}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.group == "devices")
        assert dash.grid.cursor == device.id


async def test_the_palette_searches_everything(step8: Snapshot) -> None:
    app = _app(step8)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await run_from_palette(pilot, "Search everything")
        await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))


# --- claim <-> devices <-> pods ------------------------------------------------------------


async def test_g_walks_the_claims_devices_and_u_comes_back(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    key = next(k for k, c in sorted(view8.claims.items()) if len(c.devices) >= 2)
    devices = view8.claims[key].devices
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        await _jump(pilot, app, f"claim {key[1]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.selected_claim == key)
        await pilot.press("g")
        await wait_until(pilot, lambda: dash.current_pane() == "grid")
        assert dash.grid.cursor == devices[0]
        await pilot.press("g")
        await pilot.pause()
        assert dash.grid.cursor == devices[1]
        assert dash.selected_claim == key
        await pilot.press("u")
        await wait_until(pilot, lambda: dash.current_pane() == "claims")
        assert dash.selected_claim == key


async def test_u_goes_to_a_claim_the_filter_hides(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    keys = sorted(view8.claims)
    shown = keys[0]
    hidden = next(k for k in keys if k != shown and view8.claims[k].devices)
    device = view8.claims[hidden].devices[0]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        dash = app.dashboard
        await pilot.press("slash", *shown[1], "enter")
        await wait_until(pilot, lambda: hidden not in dash.claims.visible_keys())
        await click_device(pilot, app, device)
        assert dash.selected_claim == shown  # the table's row stays selected
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert screen.title_text == f"describe ResourceClaim {hidden[0]}/{hidden[1]}"
        await pilot.press("escape", "u")
        await wait_until(pilot, lambda: dash.selected_claim == hidden)
        assert hidden in dash.claims.visible_keys()  # the filter was cleared
        assert dash.claims.filter == ""


async def test_o_lists_a_shared_claims_pods_and_describes_one(
    step8: Snapshot, view8: DraView
) -> None:
    app = _app(step8)
    key = next(k for k, c in sorted(view8.claims.items()) if len(view8.pods_of_claim(c)) >= 2)
    pods = view8.pods_of_claim(view8.claims[key])
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await _jump(pilot, app, f"claim {key[1]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.dashboard.selected_claim == key)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))
        screen = app.screen
        assert isinstance(screen, JumpScreen)
        assert [t.ref for t in screen.shown] == [p.key for p in pods]
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        viewer = app.screen
        assert isinstance(viewer, TextViewScreen)
        assert viewer.title_text == f"describe Pod {pods[1].namespace}/{pods[1].name}"


async def test_o_describes_a_lone_pod_at_once(step8: Snapshot, view8: DraView) -> None:
    app = _app(step8)
    key = next(k for k, c in sorted(view8.claims.items()) if len(view8.pods_of_claim(c)) == 1)
    pod = view8.pods_of_claim(view8.claims[key])[0]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await _jump(pilot, app, f"claim {key[1]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.dashboard.selected_claim == key)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        viewer = app.screen
        assert isinstance(viewer, TextViewScreen)
        assert viewer.title_text == f"describe Pod {pod.namespace}/{pod.name}"
        assert pod.name in viewer.plain
