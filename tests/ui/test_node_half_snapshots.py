"""SVG snapshots of the node half of DRA (what a real kubelet says), at the smallest and a
large size, in English and Korean:

- an unhealthy device (RECORDED, tests/fixtures/realnode/lab.jsonl at health-unhealthy): the
  practice driver marked dra-1's device bad; the grid's cell carries "✚ Unhealthy", the ledger
  counts it, the details say the health under the result with the driver's message and who
  reported it;
- a prepare failure (RECORDED, at prepare-failed): pod after-driver placed, ContainerCreating,
  the kubelet's FailedPrepareDynamicResources: the details' "Why not running" quotes it (and
  at 160x48 the grid shows the running pods' devices the kubelet now says are Unknown);
- a driver gone from its node (DERIVED from the recording, tests/unit/node_half_objects.py:
  the slices removed): the Slices pane says it beside its "no slices" notice.

At 80x24 the panes are tabs: the grid's tab for the device, the claims' for the details
(scrolled to the section), the slices' for the vanished driver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from gsb_tui.dra.model import DeviceId
from gsb_tui.ui.app import GsbApp
from gsb_tui.words import text
from tests.ui.helpers import click_device, make_app, select_claim, wait_until
from tests.ui.scripted import NAMESPACE, SnapshotSource
from tests.ui.test_feature_snapshots import _details_from, _details_text
from tests.ui.test_features import _painted, _screen_text
from tests.unit import node_half_objects as objects

SnapCompare = Callable[..., bool]
SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


@SIZES
@LANGS
def test_an_unhealthy_device(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    snapshot = objects.unhealthy()
    claim = objects.claim_of(snapshot, "dra-1")
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    device = DeviceId(result["driver"], result["pool"], result["device"])
    (raw,) = objects.reported(snapshot, "dra-1")

    async def run(pilot: Pilot[Any]) -> None:
        await _painted(pilot)
        app = pilot.app
        assert isinstance(app, GsbApp)
        app.dashboard.focus_pane("grid")
        await pilot.pause()
        await click_device(pilot, app, device)
        key = (NAMESPACE, claim["metadata"]["name"])
        await wait_until(pilot, lambda: app.dashboard.selected_claim == key)
        shown = _screen_text(app)
        assert f"{device.device} ✚ Unhealthy" in shown
        assert text(lang, "feat.ledger.unhealthy", n=1) in shown
        if app.size.height >= 48:  # the details beside the grid
            details = " ".join(_details_text(app).split())
            assert "✚ Unhealthy" in details and " ".join(raw["message"].split()) in details

    app = make_app(SnapshotSource(snapshot), lang)
    assert snap_compare(app, terminal_size=size, run_before=run)


@SIZES
@LANGS
def test_a_prepare_failure(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    snapshot = objects.prepare_failed()
    heading = text(lang, "kubelet.h.why")
    pod = objects.ORPHAN_POD
    (event,) = objects.events_of(snapshot, pod, "FailedPrepareDynamicResources")

    async def run(pilot: Pilot[Any]) -> None:
        await _painted(pilot)
        app = pilot.app
        assert isinstance(app, GsbApp)
        await select_claim(
            pilot, app, (NAMESPACE, objects.claim_of(snapshot, pod)["metadata"]["name"])
        )
        if app.size.height < 48:
            await _details_from(pilot, heading)
        await wait_until(pilot, lambda: heading in _screen_text(app))
        shown = " ".join(_details_text(app).split())
        node = objects.node_of(snapshot, pod)
        said = text(lang, "kubelet.prepare-failed", pod=pod, node=node)
        quoted = event["message"].split(" desc = ")[0]  # the rest may be below, or folded
        for words in (said, "FailedPrepareDynamicResources", quoted):
            assert " ".join(words.split()) in shown, (words, shown)

    app = make_app(SnapshotSource(snapshot), lang)
    assert snap_compare(app, terminal_size=size, run_before=run)


@SIZES
@LANGS
def test_a_driver_gone_from_its_node(
    snap_compare: SnapCompare, size: tuple[int, int], lang: str
) -> None:
    snapshot = objects.driver_gone()
    node = objects.node_of(snapshot, "dra-1")

    async def run(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, GsbApp)
        await wait_until(pilot, lambda: bool(getattr(app.source, "done", False)))
        await wait_until(pilot, lambda: app.view is not None and bool(app.view.claims))
        app.dashboard.focus_pane("slices")
        await pilot.pause()
        first = text(lang, "node.vanished", node=node, driver=objects.DRIVER, n=4, claims="")
        words = " ".join(first.split()[:4])  # "node <node>: driver gpu.example.com"
        await wait_until(pilot, lambda: words in " ".join(_screen_text(app).split()))

    app = make_app(SnapshotSource(snapshot), lang)
    assert snap_compare(app, terminal_size=size, run_before=run)
