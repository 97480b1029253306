"""The selector tool (`s`) on the operator's cluster (tests/fixtures/profiles/operator.jsonl: 960
devices, filled by the real scheduler): results appear, capped on screen with a count and the
matching devices first; a new view that changes nothing a trial shows costs no evaluation and
leaves no timer; the latest text wins over a stale evaluation; and the tool opens with the
selector of the lab step the checklist is on. Behaviour only: timings are bench/operator_keys.py's.

Expected matches are counted from the recorded slices' raw objects, never named here.
"""

from __future__ import annotations

import asyncio
import copy
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gsb_tui.dra.trial import DeviceVerdict, try_selector
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens import selector
from gsb_tui.ui.screens.selector import MAX_ROWS, SelectorScreen
from tests.recorded import profile_snap, snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, SnapshotSource

Raw = Mapping[str, Any]


def filled() -> Snapshot:
    return profile_snap("operator", "filled")


def _devices(snapshot: Snapshot) -> list[tuple[Raw, Raw]]:
    """(slice, device) of every published device, in the recording's raw objects."""
    return [(s, d) for s in snapshot.items(Kind.SLICES) for d in s["spec"].get("devices") or []]


def _driver(snapshot: Snapshot) -> str:
    return str(next(iter(snapshot.items(Kind.SLICES)))["spec"]["driver"])


def _index(device: Raw) -> Any:
    return ((device.get("attributes") or {}).get("index") or {}).get("int")


def _plain(widget: Static) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def _rows(screen: SelectorScreen) -> list[str]:
    """The device table's rows (after its header), and the count line under it."""
    lines = _plain(screen.query_one("#selector-devices", Static)).splitlines()
    return [line for line in lines[1:] if line.strip()]


async def _open(pilot: Pilot[Any], app: GsbApp) -> SelectorScreen:
    await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells, 30)
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
    screen = app.screen
    assert isinstance(screen, SelectorScreen)
    return screen


async def _type(pilot: Pilot[Any], screen: SelectorScreen, expression: str) -> None:
    screen.query_one("#selector-input", Input).value = expression
    await wait_until(
        pilot, lambda: screen.trial is not None and screen.trial.expression == expression, 30
    )


def _push(source: ScriptedSource, snapshot: Snapshot) -> None:
    for kind in Kind:
        source.push(Change(kind, "SYNCED", items=tuple(snapshot.items(kind))))
        source.push(Change(kind, "STATE", state=snapshot.state(kind)))


# --- results at scale -----------------------------------------------------------------------


async def test_results_appear_capped_with_a_count_and_the_matches_first() -> None:
    snapshot = filled()
    published = _devices(snapshot)
    assert len(published) > MAX_ROWS
    domain = f"device.attributes['{_driver(snapshot)}']"
    # Many matches: one index value; few, published last: the last device's uuid.
    index = _index(published[0][1])
    many = sum(1 for _, d in published if _index(d) == index)
    last = max(
        published, key=lambda sd: (sd[0]["spec"].get("nodeName") or "", sd[0]["metadata"]["name"])
    )
    uuid = last[1]["attributes"]["uuid"]["string"]
    few = sum(1 for _, d in published if d["attributes"]["uuid"]["string"] == uuid)
    assert few < MAX_ROWS
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _open(pilot, app)
        for expression, matches in (
            (f"{domain}.index == {index}", many),
            (f"{domain}.uuid == '{uuid}'", few),
        ):
            await _type(pilot, screen, expression)
            trial = screen.trial
            assert trial is not None and not trial.error
            assert len(trial.devices) == len(published) and len(trial.matches) == matches
            for d in trial.devices[:: len(published) // 7]:  # made slot by slot: the same
                assert d == DeviceVerdict(*(getattr(d, f) for f in DeviceVerdict.__slots__))
            summary = _plain(screen.query_one("#selector-summary", Static))
            assert f"{matches} of {len(published)} devices match" in summary
            rows = _rows(screen)
            listed, more = rows[:-1], rows[-1]
            assert len(listed) == MAX_ROWS
            marked = [line for line in listed if line.startswith("✓")]
            assert len(marked) == min(matches, MAX_ROWS)
            assert listed[: len(marked)] == marked  # the matching devices first
            hidden = len(published) - MAX_ROWS
            assert f"{hidden} more devices not listed ({matches - len(marked)} of them" in more


# --- no work while idle -----------------------------------------------------------------------


async def test_a_view_that_changes_nothing_shown_costs_no_evaluation_and_no_timer() -> None:
    snapshot = filled()
    source = ScriptedSource()
    app = make_app(source, repaint_interval=0.0)
    async with app.run_test(size=(160, 48)) as pilot:
        _push(source, snapshot)
        screen = await _open(pilot, app)
        # Opaque: the dashboard is not drawn through it, so its redraws do not redraw the tool.
        assert screen.styles.background.a == 1
        expression = f"device.driver == '{_driver(snapshot)}'"
        await _type(pilot, screen, expression)
        await pilot.pause(2 * selector.DEBOUNCE)
        evaluations, repaints = screen.evaluations, app.repaints
        # A node's status heartbeat and a new event: new views, the same devices and claims.
        node: dict[str, Any] = copy.deepcopy(dict(next(iter(snapshot.items(Kind.NODES)))))
        node["metadata"]["resourceVersion"] = "1" + str(node["metadata"].get("resourceVersion"))
        node["metadata"].setdefault("labels", {})["heartbeat"] = "1"
        event: dict[str, Any] = copy.deepcopy(dict(next(iter(snapshot.items(Kind.EVENTS)))))
        event["metadata"]["name"] += "-again"
        event["metadata"]["uid"] = "again"
        source.push(Change(Kind.NODES, "MODIFIED", obj=node))
        source.push(Change(Kind.EVENTS, "ADDED", obj=event))
        await wait_until(pilot, lambda: app.repaints > repaints and app.view is screen.view)
        await pilot.pause(2 * selector.DEBOUNCE)
        assert screen.evaluations == evaluations
        assert screen._timer is None and not screen._trying  # nothing left to fire
        # A claim let go: the trial follows (the device it held is free in the new view).
        held = next(
            c for c in snapshot.items(Kind.CLAIMS) if (c.get("status") or {}).get("allocation")
        )
        (result, *_) = held["status"]["allocation"]["devices"]["results"]
        source.push(Change(Kind.CLAIMS, "DELETED", obj=held))

        def freed() -> bool:
            trial = screen.trial
            return trial is not None and any(
                d.device.name == result["device"]
                and d.device.id.pool == result["pool"]
                and d.occupancy is not None
                and not d.occupancy.claims
                for d in trial.devices
            )

        await wait_until(pilot, freed, 30)
        assert screen.evaluations == evaluations + 1


# --- the latest text wins -------------------------------------------------------------------


async def test_the_latest_text_wins_over_a_stale_evaluation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    snapshot = filled()
    domain = f"device.attributes['{_driver(snapshot)}']"
    stale, latest = f"{domain}.index == 0", f"{domain}.index == 1"
    gates = {stale: threading.Event(), latest: threading.Event()}
    calls: list[str] = []
    overtaken: list[bool] = []

    def held_back(view: Any, expression: str, *args: Any, stop: Any = None, **kw: Any) -> Any:
        calls.append(expression)
        gate = gates.get(expression)
        if gate is not None:
            assert gate.wait(10)
        if expression == stale:
            overtaken.append(stop())
            return try_selector(view, expression, *args, **kw)  # finished, all the same
        kw["stop"] = stop
        return try_selector(view, expression, *args, **kw)

    monkeypatch.setattr(selector, "try_selector", held_back)
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _open(pilot, app)
        box = screen.query_one("#selector-input", Input)
        box.value = ""
        await pilot.pause(2 * selector.DEBOUNCE)
        box.value = stale
        await wait_until(pilot, lambda: calls[-1:] == [stale])
        box.value = latest  # typed while the stale one runs
        await pilot.pause(2 * selector.DEBOUNCE)
        assert calls[-1] == stale  # one trial at a time
        gates[stale].set()
        await wait_until(pilot, lambda: calls[-1:] == [latest])
        assert overtaken == [True]  # the stale trial was told it was overtaken
        assert screen.trial is None or screen.trial.expression != stale  # and never shown
        gates[latest].set()
        await wait_until(
            pilot, lambda: screen.trial is not None and screen.trial.expression == latest
        )
        await pilot.pause(2 * selector.DEBOUNCE)
        assert screen.trial is not None and screen.trial.expression == latest
        assert calls[-1] == latest


async def test_a_key_after_a_pause_starts_its_trial_at_once_and_a_burst_waits() -> None:
    """A key DEBOUNCE after the change before (a person who read the last result) starts its
    trial at once, with no timer; the next one right after it is a burst and waits for the
    pause. A trial on screen is no pause: typing at a steady pace evaluates once it stops."""
    snapshot = filled()
    domain = f"device.attributes['{_driver(snapshot)}']"
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _open(pilot, app)
        box = screen.query_one("#selector-input", Input)
        box.value = f"{domain}.index == 0"
        await wait_until(
            pilot, lambda: screen.trial is not None and screen.trial.expression == box.value, 30
        )
        evaluations = screen.evaluations
        await asyncio.sleep(selector.DEBOUNCE)
        box.value = f"{domain}.index == 1"
        await pilot.pause()  # Input.Changed handled; no timer could have fired yet
        assert screen.evaluations == evaluations + 1
        assert screen._timer is None
        box.value = f"{domain}.index == 2"  # within DEBOUNCE of the change before
        await pilot.pause()
        assert screen._timer is not None
        await wait_until(
            pilot, lambda: screen.trial is not None and screen.trial.expression == box.value, 30
        )
        assert screen.evaluations == evaluations + 2


# --- opening on the lab step's selector -----------------------------------------------------


async def _open_on_step(pilot: Pilot[Any], app: GsbApp, step: int) -> SelectorScreen:
    await wait_until(pilot, lambda: app.dashboard.checklist.verdicts, 30)
    checklist = app.dashboard.checklist
    assert checklist.verdicts is not None
    checklist.cursor = [v.step for v in checklist.verdicts].index(step)
    return await _open(pilot, app)


async def test_it_opens_with_the_learners_selector_of_the_current_step(tmp_path: Path) -> None:
    snapshot = snap("step-4")  # before step 5: the learner is writing pick.yaml
    written = f"device.attributes['{_driver(snapshot)}'].index >= 6"
    (tmp_path / "pick.yaml").write_text(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: pick-seven}\n"
        "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
        f"        deviceClassName: {_driver(snapshot)}\n"
        f'        selectors:\n        - cel: {{expression: "{written}"}}\n'
    )
    app = GsbApp(SnapshotSource(snapshot), tmp_path, "en", watch_lab_dir=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _open_on_step(pilot, app, 5)
        box = screen.query_one("#selector-input", Input)
        assert box.value == written
        assert "pick.yaml" in _plain(screen.query_one("#selector-origin", Static))
        await wait_until(
            pilot, lambda: screen.trial is not None and screen.trial.expression == written
        )
        sixes = [d for _, d in _devices(snapshot) if (_index(d) or 0) >= 6]
        assert screen.trial is not None and sixes
        assert len(screen.trial.matches) == len(sixes)
        await pilot.press("t", "r", "u", "e")  # the first key replaces it all
        assert box.value == "true"
        assert not screen.query_one("#selector-origin", Static).display


async def test_without_the_file_it_opens_with_the_claim_as_created_or_nothing() -> None:
    snapshot = snap("step-5")
    (pick,) = [c for c in snapshot.items(Kind.CLAIMS) if c["metadata"]["name"] == "pick-seven"]
    (request,) = pick["spec"]["devices"]["requests"]
    (created,) = [s["cel"]["expression"] for s in request["exactly"]["selectors"]]
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _open_on_step(pilot, app, 5)
        assert screen.query_one("#selector-input", Input).value == created
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SelectorScreen))
        screen = await _open_on_step(pilot, app, 1)  # reading slices: no selector
        assert screen.query_one("#selector-input", Input).value == ""
        assert not screen.query_one("#selector-origin", Static).display
