"""The namespace switch: `n` lists every namespace seen in claims and pods (and "all
namespaces"); choosing one leaves only its claims in the table, keeps the selection on a row shown,
says so in the header; a jump to another namespace's claim shows all namespaces again.

Claims in three namespaces, shaped as the practice driver's (tests/ui/scripted.py)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.jump import JumpScreen
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import NAMESPACE, ScriptedSource, claim, pod, resource_slice, synced

NODE = "node-a"


def _in(namespace: str, obj: dict[str, Any]) -> dict[str, Any]:
    obj["metadata"]["namespace"] = namespace
    return obj


def _objects() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Claims (and their pods) in three namespaces, one device each."""
    claims, pods = [], []
    for i, namespace in enumerate((NAMESPACE, "team-a", "team-b", "team-b")):
        name = f"{namespace}-claim-{i}"
        claims.append(_in(namespace, claim(name, NODE, [f"gpu-{i}"], [f"{name}-pod"])))
        pods.append(_in(namespace, pod(f"{name}-pod", name, NODE)))
    return claims, pods


def _app() -> tuple[GsbApp, list[dict[str, Any]]]:
    source = ScriptedSource()
    claims, pods = _objects()
    source.push(
        *synced(Kind.SLICES, [resource_slice(NODE, len(claims))]),
        *synced(Kind.CLAIMS, claims),
        *synced(Kind.PODS, pods),
    )
    for kind in Kind:
        if kind not in (Kind.SLICES, Kind.CLAIMS, Kind.PODS):
            source.push(*synced(kind))
    return make_app(source), claims


def _key(obj: dict[str, Any]) -> tuple[str, str]:
    return (obj["metadata"]["namespace"], obj["metadata"]["name"])


async def _choose(pilot: Pilot[int], app: GsbApp, typed: str) -> JumpScreen:
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))
    await pilot.press(*typed)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, JumpScreen)
    return screen


async def test_n_lists_the_namespaces_and_all() -> None:
    app, claims = _app()
    namespaces = sorted({_key(c)[0] for c in claims})
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == len(claims))
        screen = await _choose(pilot, app, "")
        assert [t.ref for t in screen.shown] == [None, *namespaces]


async def test_one_namespace_leaves_its_claims_and_says_so() -> None:
    app, claims = _app()
    wanted = "team-b"
    kept = sorted(_key(c) for c in claims if _key(c)[0] == wanted)
    async with app.run_test(size=(160, 48)) as pilot:
        dash = app.dashboard
        await wait_until(pilot, lambda: len(dash.claims.visible_keys()) == len(claims))
        assert dash.selected_claim is not None and dash.selected_claim[0] != wanted
        await _choose(pilot, app, wanted)
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.claims.visible_keys() == kept)
        assert dash.namespace_scope == wanted
        assert dash.selected_claim == kept[0]  # the selection is a row shown
        assert kept[0][1] in str(dash.details.border_title)
        header = dash.header.render().plain
        assert f"ns {wanted}" in header
        assert f"ns {wanted}" in str(dash.claims.border_title)
        # and back to every namespace
        await _choose(pilot, app, "all")
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(dash.claims.visible_keys()) == len(claims))
        assert dash.namespace_scope is None
        assert f"ns {NAMESPACE}" in dash.header.render().plain


async def test_a_jump_to_another_namespaces_claim_shows_every_namespace() -> None:
    app, claims = _app()
    other = next(_key(c) for c in claims if _key(c)[0] == "team-a")
    async with app.run_test(size=(160, 48)) as pilot:
        dash = app.dashboard
        await wait_until(pilot, lambda: len(dash.claims.visible_keys()) == len(claims))
        await _choose(pilot, app, "team-b")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.namespace_scope == "team-b")
        await pilot.press("colon")
        await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))
        await pilot.press(*f"claim {other[1]}", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        await wait_until(pilot, lambda: dash.selected_claim == other)
        assert dash.namespace_scope is None
        assert other in dash.claims.visible_keys()


async def test_a_device_of_another_namespace_keeps_the_tables_selection() -> None:
    app, claims = _app()
    outside = next(c for c in claims if _key(c)[0] == "team-a")
    device = outside["status"]["allocation"]["devices"]["results"][0]["device"]
    async with app.run_test(size=(160, 48)) as pilot:
        dash = app.dashboard
        await wait_until(pilot, lambda: len(dash.claims.visible_keys()) == len(claims))
        await _choose(pilot, app, "team-b")
        await pilot.press("enter")
        await wait_until(pilot, lambda: dash.namespace_scope == "team-b")
        selected = dash.selected_claim
        target = next(d for d in dash.grid.cells if d.device == device)
        dash.focus_pane("grid")
        dash.grid.select_device(target)
        await pilot.pause()
        assert dash.selected_claim == selected
        assert selected is not None and selected[0] == "team-b"


async def test_n_given_on_the_command_line_opens_on_that_namespace() -> None:
    """`gsb-tui -n team-b`: the dashboard opens on team-b's claims (cli.py passes the scope
    when -n was given; without it every namespace is shown)."""
    from gsb_tui.cli import build_parser

    args = build_parser().parse_args(["-n", "team-b"])
    assert args.namespace == "team-b"
    assert build_parser().parse_args([]).namespace is None  # not given: every namespace
    app, claims = _app()
    app.dashboard.start_scope = args.namespace
    kept = sorted(_key(c) for c in claims if _key(c)[0] == "team-b")
    async with app.run_test(size=(160, 48)) as pilot:
        dash = app.dashboard
        await wait_until(pilot, lambda: dash.claims.visible_keys() == kept)
        assert dash.namespace_scope == "team-b"
        assert dash.selected_claim == kept[0]
        assert "ns team-b" in dash.header.render().plain
