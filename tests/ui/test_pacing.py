"""What does not reach a repaint (issue 13): a node's status heartbeat and a retry of an API
that is not served change nothing on screen, so they cost no repaint; a change the screen
shows still does. At scale the panes wait for the first lists; small clusters paint as before.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from gsb_tui.kube.store import Change
from gsb_tui.snapshot import REQUIRED_KINDS, Kind
from gsb_tui.ui import app as app_module
from gsb_tui.ui import pacing
from gsb_tui.ui.pacing import HOLD_OBJECTS
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, claim, resource_slice, state, synced


def node(name: str, heartbeat: str, allocatable: str = "4") -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "uid": f"uid-{name}", "labels": {"type": "kwok"}},
        "status": {
            "allocatable": {"cpu": allocatable},
            "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": heartbeat}],
        },
    }


def others_synced(*done: Kind) -> list[Change]:
    """Every required kind not in `done`, synced empty."""
    return [c for kind in REQUIRED_KINDS if kind not in done for c in synced(kind)]


async def test_heartbeats_and_same_retries_cost_no_repaint() -> None:
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(
            *synced(Kind.SLICES, [resource_slice("node-a", 4)]),
            *synced(Kind.NODES, [node("node-a", "t0")]),
            *others_synced(Kind.SLICES, Kind.NODES),
            state(Kind.TAINT_RULES, "not-served", "off", 1),
        )
        await wait_until(pilot, lambda: app.view is not None and app.view.snapshot.synced)
        await pilot.pause(0.3)
        repaints, revision = app.repaints, app.store.revision
        for i in range(20):
            source.push(Change(Kind.NODES, "MODIFIED", obj=node("node-a", f"t{i + 1}")))
        for attempts in range(2, 6):
            source.push(state(Kind.TAINT_RULES, "not-served", "off", attempts))
        await wait_until(pilot, lambda: app.dropped_changes == 24)
        await pilot.pause(0.3)
        assert (app.repaints, app.store.revision) == (repaints, revision)

        # What the slices pane reads of a node (its allocatable) still goes through.
        source.push(Change(Kind.NODES, "MODIFIED", obj=node("node-a", "t99", allocatable="8")))
        await wait_until(pilot, lambda: app.store.revision == revision + 1)
        await wait_until(pilot, lambda: app.painted_revision == revision + 1)
        assert app.view is not None
        assert app.view.node_allocatable("node-a") == {"cpu": "8"}


async def test_panes_wait_for_the_first_lists_at_scale_only() -> None:
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)
    many = [claim(f"c-{i:04d}") for i in range(HOLD_OBJECTS)]
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: not gc.isenabled())  # held for the first lists
        source.push(*synced(Kind.CLASSES))
        await wait_until(pilot, lambda: app.repaints >= 1)  # little data: painted at once
        source.push(*synced(Kind.CLAIMS, many))
        await pilot.pause(0.3)
        held = app.repaints
        assert app.view is not None and not app.view.claims  # the panes wait ...
        source.push(*synced(Kind.SLICES, [resource_slice("node-a", 4)]))
        await pilot.pause(0.3)
        assert app.repaints == held
        source.push(*others_synced(Kind.CLASSES, Kind.CLAIMS, Kind.SLICES))
        await wait_until(pilot, lambda: app.view is not None and len(app.view.claims) == len(many))
        assert app.view.snapshot.synced  # ... and paint once, with every list in
        await wait_until(pilot, lambda: gc.isenabled())
    await asyncio.sleep(0)
    assert gc.isenabled()


async def test_the_first_checks_at_scale_wait_for_a_still_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A small first view's checks run after its frame; the first view at scale's wait for a
    still screen all the same: their verdicts re-lay the screen out, and at 10,000 devices the
    first keys waited behind that frame. Stillness is held off here, then given."""
    monkeypatch.setattr(pacing, "STILL_S", 60.0)
    monkeypatch.setattr(app_module, "FIRST_WORK_WITHIN_S", 60.0)
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)
    many = [claim(f"c-{i:04d}") for i in range(HOLD_OBJECTS)]
    async with app.run_test(size=(160, 48)) as pilot:
        source.push(*synced(Kind.CLASSES))
        await wait_until(pilot, lambda: app.verdicts_view is not None)  # small: at once
        source.push(*synced(Kind.CLAIMS, many), *others_synced(Kind.CLASSES, Kind.CLAIMS))
        await wait_until(pilot, lambda: app.view is not None and len(app.view.claims) == len(many))
        await pilot.pause(0.5)  # the repaint's frame and what follows it
        assert app.verdicts_view is not app.view
        assert "lab" in app.still_jobs.jobs  # waiting for the user's first pause
        job, _ = app.still_jobs.jobs.pop("lab")
        job()  # the screen is still now
        await wait_until(pilot, lambda: app.verdicts_view is app.view)
