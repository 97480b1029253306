"""Explaining the scheduler's choice in the dashboard: the CEL preview and the shortfall in the
Claim details, the selector tool (`s`), and warning markers in the grid and the Claims pane.

Expectations are read from the recorded objects (tests/fixtures/lab.jsonl) as raw dicts: the
request count from the claim's spec, free devices as the published devices no allocation
result names, the scheduler's words from the FailedScheduling event. Warnings the lab never
produced (a leak, a ghost consumer, a missing claim or template) use scripted objects.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.render.explain import request_summary
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.selector import SelectorScreen
from gsb_tui.why_cli import answer as why_answer
from tests.ui.helpers import make_app, run_from_palette, select_claim, wait_for_preview, wait_until
from tests.ui.scripted import (
    NAMESPACE,
    ScriptedSource,
    SnapshotSource,
    claim,
    pod,
    resource_slice,
    synced,
)

Raw = dict[str, Any]


# --- reading the recording's raw objects ----------------------------------------------------


def _by_name(snapshot: Snapshot, kind: Kind, name: str) -> Raw:
    return next(o for o in snapshot.items(kind) if o["metadata"]["name"] == name)


def _published(snapshot: Snapshot) -> list[str]:
    """Device names in published order (slices by name, then the slice's order)."""
    slices = sorted(snapshot.items(Kind.SLICES), key=lambda s: s["metadata"]["name"])
    return [d["name"] for s in slices for d in s["spec"].get("devices", [])]


def _allocated(snapshot: Snapshot) -> set[str]:
    held = set()
    for obj in snapshot.items(Kind.CLAIMS):
        allocation = (obj.get("status") or {}).get("allocation") or {}
        for result in (allocation.get("devices") or {}).get("results") or []:
            held.add(result["device"])
    return held


def _driver(snapshot: Snapshot) -> str:
    return str(next(iter(snapshot.items(Kind.SLICES)))["spec"]["driver"])


def _claim_of_pod(snapshot: Snapshot, pod_name: str) -> Raw:
    pod_obj = _by_name(snapshot, Kind.PODS, pod_name)
    name = pod_obj["status"]["resourceClaimStatuses"][0]["resourceClaimName"]
    return _by_name(snapshot, Kind.CLAIMS, name)


def _plain(widget: Static) -> str:
    """What a Static shows, as plain text (Rich renderables rendered wide)."""
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def _words(text: str) -> str:
    return " ".join(text.split())


def _row_marked(app: GsbApp, key: tuple[str, str]) -> bool:
    """The CLAIM cell of the claim's row starts with the warning marker."""
    table = app.dashboard.claims.table
    return str(table.get_row(f"{key[0]}/{key[1]}").cells[0]).startswith("⚠")


async def _select_claim(pilot: Pilot[Any], app: GsbApp, key: tuple[str, str]) -> str:
    await select_claim(pilot, app, key)
    return _plain(app.dashboard.details.query_one(".details-text", Static))


# --- the Pending pod's explanation ----------------------------------------------------------


async def test_dra_big_preview_counts_come_from_the_recording(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    step8 = lab_snapshot("step-8")
    raw_claim = _claim_of_pod(step8, "dra-big")
    request = raw_claim["spec"]["devices"]["requests"][0]
    needed = request["exactly"]["count"]
    assert not request["exactly"].get("selectors"), "dra-big's request has no selectors"
    published = _published(step8)
    free = [d for d in published if d not in _allocated(step8)]
    # The class admits the devices of the driver its selector names.
    raw_class = _by_name(step8, Kind.CLASSES, request["exactly"]["deviceClassName"])
    (selector,) = [s["cel"]["expression"] for s in raw_class["spec"]["selectors"]]
    match = re.fullmatch(r"device\.driver == '([^']+)'", selector)
    assert match, f"the recorded class selects by driver: {selector}"
    admitted = [
        d["name"]
        for s in step8.items(Kind.SLICES)
        if s["spec"]["driver"] == match.group(1)
        for d in s["spec"].get("devices", [])
    ]
    assert needed > len(free), "step 8 asks for more than is free"

    events = [
        e
        for e in step8.items(Kind.EVENTS)
        if e["involvedObject"]["name"] == "dra-big" and e["reason"] == "FailedScheduling"
    ]
    assert events, "the recording has the scheduler's FailedScheduling event"

    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        key = (raw_claim["metadata"]["namespace"], raw_claim["metadata"]["name"])
        shown = _words(await _select_claim(pilot, app, key))
        summary = f"class admits {len(admitted)} devices, {len(free)} of them free"
        assert summary in shown
        node = step8.items(Kind.SLICES)[0]["spec"]["nodeName"]
        # the allocator's words: on the node, what is free there and who holds the rest
        assert f"needs {needed}, {len(free)} free on {node} ({', '.join(free)})" in shown
        assert f"✓ free {len(free)} {' '.join(free)}" in shown
        assert _words(events[-1]["message"]) in shown
        # `gsb-tui why` on the same cluster gives the pane's verdict, in the pane's words
        assert app.view is not None
        said = why_answer(app.view, key[0], "dra-big", "en")
        assert said["fits"] is False and said["blockers"]
        for blocker in said["blockers"]:
            assert _words(blocker["text"].replace(f"{key[0]}/{key[1]} ", "")) in shown
        preview = app.dashboard.details.preview
        assert preview is not None
        (request_preview,) = preview.requests.values()
        assert request_summary(request_preview) == summary


async def test_pick_seven_preview_names_its_device(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """A request with a selector: the class admits every device, the selector one."""
    step8 = lab_snapshot("step-8")
    raw_claim = _by_name(step8, Kind.CLAIMS, "pick-seven")
    held = [r["device"] for r in raw_claim["status"]["allocation"]["devices"]["results"]]
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        shown = _words(await _select_claim(pilot, app, ("dra-lab", "pick-seven")))
        assert f"selectors admit {len(held)}, 0 of them free" in shown
        assert f"✓ this claim {len(held)} {' '.join(held)}" in shown
        assert "Why pending" not in shown


# --- the selector tool ----------------------------------------------------------------------


async def _open_selector(pilot: Pilot[Any], app: GsbApp) -> SelectorScreen:
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
    screen = app.screen
    assert isinstance(screen, SelectorScreen)
    return screen


async def _type(pilot: Pilot[Any], screen: SelectorScreen, expression: str) -> None:
    box = screen.query_one("#selector-input", Input)
    box.value = ""
    await pilot.press(*expression)
    await wait_until(
        pilot, lambda: screen.trial is not None and screen.trial.expression == expression
    )


def _index_of(device: Raw) -> Any:
    return (device.get("attributes") or {}).get("index", {}).get("int")


async def test_selector_matches_exactly_the_recorded_index_7(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    step8 = lab_snapshot("step-8")
    driver = _driver(step8)
    sevens = [
        d["name"]
        for s in step8.items(Kind.SLICES)
        for d in s["spec"].get("devices", [])
        if _index_of(d) == 7
    ]
    assert len(sevens) == 1
    expression = f"device.attributes['{driver}'].index == 7"
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        screen = await _open_selector(pilot, app)
        await _type(pilot, screen, expression)
        trial = screen.trial
        assert trial is not None and not trial.error
        assert [d.device.name for d in trial.matches] == sevens
        assert len(trial.devices) == len(_published(step8))
        table = _plain(screen.query_one("#selector-devices", Static))
        marked = [line.split()[1] for line in table.splitlines() if line.startswith("✓")]
        assert marked == sevens
        # the occupancy beside it: the claim holding it, from the recording
        holder = next(
            c["metadata"]["name"]
            for c in step8.items(Kind.CLAIMS)
            for r in ((c.get("status") or {}).get("allocation") or {})
            .get("devices", {})
            .get("results", [])
            if r["device"] == sevens[0]
        )
        line = next(line for line in table.splitlines() if line.startswith("✓"))
        assert holder in line
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)


async def test_selector_explains_the_index_mistake_and_applies_the_fix(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    step8 = lab_snapshot("step-8")
    fix = f"device.attributes['{_driver(step8)}'].index == 7"
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_preview(pilot, app)
        screen = await _open_selector(pilot, app)
        await _type(pilot, screen, "device.attributes.index == 7")
        shown = _plain(screen.query_one("#selector-error", Static))
        assert "found no matching overload" in shown
        assert fix in shown
        assert screen.trial is not None and screen.trial.fix == fix
        assert not screen.trial.matches
        await pilot.press("ctrl+f")
        await wait_until(pilot, lambda: screen.trial is not None and screen.trial.expression == fix)
        assert screen.query_one("#selector-input", Input).value == fix
        assert len(screen.trial.matches) == 1


async def test_selector_typing_is_debounced(lab_snapshot: Callable[[str], Snapshot]) -> None:
    step8 = lab_snapshot("step-8")
    expression = f"device.attributes['{_driver(step8)}'].index >= 4"
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        screen = await _open_selector(pilot, app)
        before = screen.evaluations
        await _type(pilot, screen, expression)
        # one evaluation per pause in typing, not one per keystroke
        assert screen.evaluations - before < len(expression) // 2
        expected = [
            d["name"]
            for s in step8.items(Kind.SLICES)
            for d in s["spec"].get("devices", [])
            if _index_of(d) >= 4
        ]
        assert screen.trial is not None
        assert sorted(d.device.name for d in screen.trial.matches) == sorted(expected)


async def test_selector_answers_deep_and_costly_selectors_with_the_api_servers_words(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """Evaluated off the UI thread and bounded: the screen keeps answering keys, and a
    selector the API server refuses shows its rejection (no traceback, no hang)."""
    step8 = lab_snapshot("step-8")
    domain = f"device.attributes['{_driver(step8)}']"
    costly = f"{domain}.all(a, {domain}.all(b, {domain}.all(c, {domain}.all(d, true))))"
    cases = {
        " && ".join([f"{domain}.index >= 0"] * 200): "",
        "(" * 300 + "true" + ")" * 300: "expression recursion limit exceeded: 250",
        costly: "Forbidden: too complex, exceeds cost limit",
    }
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        screen = await _open_selector(pilot, app)
        box = screen.query_one("#selector-input", Input)
        for expression, rejection in cases.items():
            box.value = expression

            def shown(e: str = expression) -> bool:
                return screen.trial is not None and screen.trial.expression == e

            await wait_until(pilot, shown)
            trial = screen.trial
            assert trial is not None
            if rejection:
                assert rejection in trial.error
            else:
                assert not trial.error and len(trial.matches) == len(_published(step8))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)


async def test_selector_from_the_command_palette(lab_snapshot: Callable[[str], Snapshot]) -> None:
    app = make_app(SnapshotSource(lab_snapshot("step-8")))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        await run_from_palette(pilot, "Try selector")
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))


async def test_selector_follows_the_cluster_while_open(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """Step 4 -> step 5: the device with index 7 goes from free to pick-seven's."""
    before, after = lab_snapshot("step-4"), lab_snapshot("step-5")
    expression = f"device.attributes['{_driver(before)}'].index == 7"
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)

    def push(snapshot: Snapshot) -> None:
        for kind in Kind:
            source.push(Change(kind, "SYNCED", items=tuple(snapshot.items(kind))))
            source.push(Change(kind, "STATE", state=snapshot.state(kind)))

    pick = _by_name(after, Kind.CLAIMS, "pick-seven")
    (seven,) = [r["device"] for r in pick["status"]["allocation"]["devices"]["results"]]
    assert seven not in _allocated(before)
    async with app.run_test(size=(160, 48)) as pilot:
        push(before)
        await wait_for_preview(pilot, app)
        screen = await _open_selector(pilot, app)
        await _type(pilot, screen, expression)
        assert screen.trial is not None
        (match,) = screen.trial.matches
        assert match.occupancy is not None and match.occupancy.status == "free"
        push(after)

        def held() -> bool:
            trial = screen.trial
            if trial is None or not trial.matches:
                return False
            occ = trial.matches[0].occupancy
            return occ is not None and any(c.name == "pick-seven" for c in occ.claims)

        await wait_until(pilot, held)
        assert isinstance(app.screen, SelectorScreen)
        line = next(
            line
            for line in _plain(screen.query_one("#selector-devices", Static)).splitlines()
            if line.startswith("✓")
        )
        assert "pick-seven" in line


# --- warnings ---------------------------------------------------------------------------------


async def test_mistake_1_is_marked_on_the_cell_and_the_row(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """The pod whose container does not list its claim: found from the raw pod spec."""
    snapshot = lab_snapshot("mistake-1")
    culprit = next(
        p
        for p in snapshot.items(Kind.PODS)
        if {e["name"] for e in p["spec"].get("resourceClaims", [])}
        - {
            c["name"]
            for ctr in p["spec"]["containers"]
            for c in (ctr.get("resources") or {}).get("claims", [])
        }
    )
    raw_claim = _claim_of_pod(snapshot, culprit["metadata"]["name"])
    key = (raw_claim["metadata"]["namespace"], raw_claim["metadata"]["name"])
    devices = {r["device"] for r in raw_claim["status"]["allocation"]["devices"]["results"]}
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        grid = app.dashboard.grid
        warned = {d.device for d, cell in grid.cells.items() if cell.warned}
        assert warned == devices
        for device_id in grid.cells:
            title = grid.canvas.cell_text(device_id)[0]
            assert ("⚠" in title) == (device_id.device in devices)
        claims = app.dashboard.claims
        flagged = {k for k in claims.visible_keys() if claims.flag_of(k)}
        assert flagged == {key}
        assert {k for k in claims.visible_keys() if _row_marked(app, k)} == {key}
        assert claims.flag_of(key) == "not in container"
        shown = _words(await _select_claim(pilot, app, key))
        assert "⚠ claim-not-in-container:" in shown


def _leak_ghost_missing() -> list[Change]:
    """A leak, a ghost consumer, a missing claim and a missing template, in one namespace."""
    missing_template = pod("wants-template", "unused")
    entry = missing_template["spec"]["resourceClaims"][0]
    del entry["resourceClaimName"]
    entry["resourceClaimTemplateName"] = "no-such-template"
    running = pod("user", "ok", node="lab-node")
    return [
        *synced(Kind.SLICES, [resource_slice("lab-node", 4)]),
        *synced(
            Kind.CLAIMS,
            [
                claim("leaky", "lab-node", ["gpu-0"], pods=[]),
                claim("haunted", "lab-node", ["gpu-1"], pods=["gone"]),
                claim("ok", "lab-node", ["gpu-2"], pods=["user"]),
            ],
        ),
        *synced(Kind.TEMPLATES, []),
        *synced(
            Kind.PODS,
            [running, pod("wants-claim", "no-such-claim"), copy.deepcopy(missing_template)],
        ),
        *synced(Kind.EVENTS, []),
    ]


@pytest.mark.parametrize(
    ("claim_name", "device", "code", "label"),
    [
        ("leaky", "gpu-0", "leak", "leak"),
        ("haunted", "gpu-1", "ghost-consumer", "ghost pod"),
    ],
)
async def test_claim_warnings_are_marked_and_spelled_out(
    claim_name: str, device: str, code: str, label: str
) -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(*_leak_ghost_missing())
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == 3)
        await wait_for_preview(pilot, app)
        cells = {d.device: c for d, c in app.dashboard.grid.cells.items()}
        assert cells[device].warned
        assert f"⚠ {label}" in app.dashboard.grid.canvas.cell_text(cells[device].device_id)[0]
        assert not cells["gpu-2"].warned  # the healthy claim's device
        key = (NAMESPACE, claim_name)
        assert app.dashboard.claims.flag_of(key) == label
        assert app.dashboard.claims.flag_of((NAMESPACE, "ok")) == ""
        assert _row_marked(app, key) and not _row_marked(app, (NAMESPACE, "ok"))
        shown = _words(await _select_claim(pilot, app, key))
        assert f"⚠ {code}:" in shown
        (warning,) = [w for w in app.warnings if w.code == code]
        assert _words(warning.message) in shown


async def test_missing_claim_and_template_show_without_a_row_to_mark() -> None:
    source = ScriptedSource()
    app = make_app(source)
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(*_leak_ghost_missing())
        await wait_until(pilot, lambda: len(app.dashboard.claims.visible_keys()) == 3)
        await wait_for_preview(pilot, app)
        strip = _plain(app.dashboard.claims.query_one(".warn-strip", Static))
        assert "pod wants-claim: uses ResourceClaim no-such-claim" in strip
        assert "pod wants-template: uses ResourceClaimTemplate no-such-template" in strip
        ledger = _plain(app.dashboard.grid.query_one(".ledger", Static))
        assert "⚠ pod wants-claim: missing claim" in ledger
        assert "⚠ pod wants-template: missing template" in ledger
        shown = _words(await _select_claim(pilot, app, (NAMESPACE, "ok")))
        for code in ("missing-claim", "missing-template"):
            (warning,) = [w for w in app.warnings if w.code == code]
            assert f"⚠ {code}:" in shown
            assert _words(warning.message) in shown
