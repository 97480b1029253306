"""The node half through the App (Pilot): the grid's cells and ledger, describe (`d`) and the
Slices pane say what the kubelet reports, and a cell is drawn again when its health changes.

Objects RECORDED on a real node (tests/fixtures/realnode/lab.jsonl); the driver gone from its
node is DERIVED from it (tests/unit/node_half_objects.py: `driver_gone`).
"""

from __future__ import annotations

import pytest
from rich.text import Text

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.model import DeviceId
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.panes.vanished import VanishedDrivers
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text
from tests.ui.helpers import make_app, select_claim, wait_until
from tests.ui.scripted import NAMESPACE, ScriptedSource, SnapshotSource, synced
from tests.ui.test_features import _painted, _screen_text
from tests.unit import node_half_objects as objects

LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


def _device(snapshot: Snapshot, pod: str) -> DeviceId:
    claim = objects.claim_of(snapshot, pod)
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    return DeviceId(result["driver"], result["pool"], result["device"])


@LANGS
async def test_cells_say_the_health_and_describe_says_who_reported_it(lang: str) -> None:
    snapshot = objects.unhealthy()
    bad = _device(snapshot, "dra-1")
    app = make_app(SnapshotSource(snapshot), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        canvas = app.dashboard.grid.canvas
        assert canvas.cell_text(bad)[0].startswith(f"╭─ {bad.device} ✚ Unhealthy ")
        for device, found in app.view.health.devices.items() if app.view else ():
            if device != bad:  # Healthy: no mark
                assert found.health == "Healthy"
                assert canvas.cell_text(device)[0].startswith(f"╭─ {device.device} ─")
        assert text(lang, "feat.ledger.unhealthy", n=1) in _screen_text(app)
        claim = objects.claim_of(snapshot, "dra-1")
        await select_claim(pilot, app, (NAMESPACE, claim["metadata"]["name"]))
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        shown = _screen_text(app)
        (raw,) = objects.reported(snapshot, "dra-1")
        assert "allocatedResourcesStatus" in shown and raw["message"] in shown
        assert text(lang, "health.by", pod="dra-1", container="ctr") in shown


@LANGS
async def test_devices_the_kubelet_cannot_vouch_for_are_unknown(lang: str) -> None:
    """prepare-failed: the plugin stopped, the kubelet's health for its devices went Unknown."""
    snapshot = objects.prepare_failed()
    unknown = [d for d, h in build_view(snapshot).health.devices.items() if h.health == "Unknown"]
    app = make_app(SnapshotSource(snapshot), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        canvas = app.dashboard.grid.canvas
        for device in unknown:
            assert canvas.cell_text(device)[0].startswith(f"╭─ {device.device} ? Unknown ")
        if unknown:
            said = text(lang, "feat.ledger.health-unknown", n=len(unknown))
            assert said in _screen_text(app)


async def test_a_health_change_redraws_that_cell() -> None:
    """The recorded turn back: dra-1's pod as the kubelet wrote it at health-healthy."""
    source = ScriptedSource()
    app = make_app(source)
    snapshot = objects.unhealthy()
    bad = _device(snapshot, "dra-1")
    async with app.run_test(size=(160, 48)) as pilot:
        for kind in Kind:
            source.push(*synced(kind, snapshot.items(kind)))
        canvas = app.dashboard.grid.canvas
        await wait_until(pilot, lambda: bool(canvas.cells) and "✚" in _screen_text(app))
        healthy = objects.pod(objects.recorded("health-healthy"), "dra-1")
        source.push(Change(Kind.PODS, "MODIFIED", obj=healthy))
        await wait_until(pilot, lambda: "✚" not in "".join(canvas.cell_text(bad)))
        assert canvas.cell_text(bad)[0].startswith(f"╭─ {bad.device} ─")
        assert text("en", "feat.ledger.unhealthy", n=1) not in _screen_text(app)


@LANGS
async def test_the_slices_pane_says_a_driver_gone(lang: str) -> None:
    snapshot = objects.driver_gone()
    app = make_app(SnapshotSource(snapshot), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and bool(app.view.claims))
        note = app.dashboard.slices.query_one(VanishedDrivers)
        await wait_until(pilot, lambda: note.display)
        content = note.content
        assert isinstance(content, Text)
        node = objects.node_of(snapshot, "dra-1")
        held = sorted(
            (c["metadata"]["name"], objects.devices_of(c))
            for c in snapshot.items(Kind.CLAIMS)
            if (c.get("status") or {}).get("allocation")
        )
        names = ", ".join(name for name, _ in held)
        said = text(
            lang, "node.vanished", node=node, driver=objects.DRIVER, n=len(held), claims=names
        )
        gone = ", ".join(sorted((d for _, ds in held for d in ds), key=lambda d: int(d[4:])))
        assert content.plain.splitlines() == [
            said,
            "  " + text(lang, "node.vanished-devices", devices=gone),
        ]
        # and the notice that there are no slices left, above it
        assert app.dashboard.slices.notice_text == text(lang, "no-slices")
        assert " ".join(said.split()[:4]) in " ".join(_screen_text(app).split())
