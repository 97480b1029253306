"""SVG snapshots of binding conditions as the practice cluster recorded them
(tests/fixtures/profiles/binding*.jsonl), through the App with a SnapshotSource, at the smallest
and a large size, in English and Korean:

- `binding` at `binding-waiting`: the claim allocated, its pod waiting for the driver's
  condition: the grid's cell says "binding", the details say what it waits on and how long the
  scheduler still waits;
- `binding-fail` at `binding-failed`: the driver set the failure condition: the claim's device
  status section (status.devices) with the condition, its reason and message.

The scheduler's time left is counted from the allocation to the wall clock; the details take
`now` in describe.claim_details (default: datetime.now), so the clock there is pinned to a
moment just after the recorded allocation. At 80x24 the details are scrolled to the section
the snapshot is about. Accepted SVGs live in snapshots/test_feature_snapshots/.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.details import DetailsScroll
from gsb_tui.ui.render import describe
from gsb_tui.words import text
from tests.recorded import profile_snap, profile_view
from tests.ui.helpers import make_app, select_claim, wait_until
from tests.ui.scripted import NAMESPACE, SnapshotSource
from tests.ui.test_features import _painted, _screen_text

SnapCompare = Callable[..., bool]
Scene = Callable[[Pilot[Any]], Coroutine[Any, Any, None]]
CLAIM = (NAMESPACE, "bind-gpu")  # the recordings' claim (gsb_tui/cluster/profile_scenarios.py)
WAITED = 2  # seconds since the allocation at the pinned moment
SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


def _allocated_at(recording: str, mark: str) -> datetime:
    claim = profile_view(recording, mark).claims[CLAIM]
    return datetime.fromisoformat(claim.allocated_at.replace("Z", "+00:00"))


@pytest.fixture
def pinned(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """Pin the clock the details read (describe.claim_details' `now`) to a moment."""

    def pin(moment: datetime) -> None:
        class Frozen(datetime):
            @classmethod
            def now(cls, tz: tzinfo | None = None) -> Frozen:
                return cls.fromtimestamp(moment.timestamp(), tz)

        monkeypatch.setattr(describe, "datetime", Frozen)

    return pin


async def _details_from(pilot: Pilot[Any], heading: str) -> None:
    """Scroll the details so `heading` is their top line (as far as they scroll)."""
    app = pilot.app
    assert isinstance(app, GsbApp)
    body = app.dashboard.details.query_one(".details-text", Static)
    strips = body.render_lines(Region(0, 0, body.size.width, body.size.height))
    rows = ["".join(segment.text for segment in strip).strip() for strip in strips]
    assert heading in rows, rows
    app.dashboard.details.query_one(DetailsScroll).scroll_to(y=rows.index(heading), animate=False)
    await pilot.pause()


def _details_text(app: GsbApp) -> str:
    """The details text on screen: the screen's rows cropped to the details' scroll area
    (inside the border, without the scrollbar)."""
    area = app.dashboard.details.query_one(DetailsScroll).scrollable_content_region
    strips = app.screen._compositor.render_strips()[area.y : area.bottom]
    rows = ["".join(s.text for s in strip.crop(area.x, area.right)) for strip in strips]
    return "\n".join(rows)


def _scene(
    lang: str,
    heading: str,
    expected: list[str],
    above: list[str],
    claim: tuple[str, str] = CLAIM,
) -> Scene:
    """Painted, the recorded claim selected, the details scrolled to `heading` on a small
    screen; then what the snapshot must show is read off the screen: `expected` from the
    heading on, `above` (lines before it) on the large screen only."""

    async def run(pilot: Pilot[Any]) -> None:
        await _painted(pilot)
        app = pilot.app
        assert isinstance(app, GsbApp)
        await select_claim(pilot, app, claim)
        if app.size.height < 48:
            await _details_from(pilot, heading)
        await wait_until(pilot, lambda: heading in _screen_text(app))
        shown = " ".join(_details_text(app).split())
        for words in expected + (above if app.size.height >= 48 else []):
            assert " ".join(words.split()) in shown, (words, shown)

    return run


@SIZES
@LANGS
def test_binding_waiting(
    snap_compare: SnapCompare,
    pinned: Callable[[datetime], None],
    size: tuple[int, int],
    lang: str,
) -> None:
    recording, mark = "binding", "binding-waiting"
    pinned(_allocated_at(recording, mark) + timedelta(seconds=WAITED))
    view = profile_view(recording, mark)
    (device,) = view.claims[CLAIM].devices
    (condition,) = view.availability[device].binding_pending
    expected = [
        text(
            lang,
            "why.binding",
            device=device.device,
            conditions=condition,
            left=600 - WAITED,
        ),
        text(lang, "feat.binding.unbound", pod="bind-gpu"),
        text(lang, "feat.binding.pending", conditions=condition),
    ]
    app = make_app(SnapshotSource(profile_snap(recording, mark)), lang)
    scene = _scene(lang, text(lang, "h.why"), expected, [])
    assert snap_compare(app, terminal_size=size, run_before=scene)


@SIZES
@LANGS
def test_device_status_of_a_failed_binding(
    snap_compare: SnapCompare,
    pinned: Callable[[datetime], None],
    size: tuple[int, int],
    lang: str,
) -> None:
    recording, mark = "binding-fail", "binding-failed"
    pinned(_allocated_at(recording, mark) + timedelta(seconds=WAITED))
    (status,) = profile_view(recording, mark).claims[CLAIM].device_status
    (condition,) = [c for c in status.conditions if c.status == "True"]
    expected = [
        text(lang, "feat.h.device-status"),
        f"{condition.type}={condition.status} {condition.reason}: {condition.message}",
    ]
    above = [
        text(lang, "why.binding-failed", device=status.id.device, conditions=condition.type),
        text(lang, "feat.binding.unbound-failed", pod="bind-gpu"),
        text(lang, "feat.binding.failed", conditions=condition.type),
    ]
    app = make_app(SnapshotSource(profile_snap(recording, mark)), lang)
    scene = _scene(lang, text(lang, "feat.h.device-status"), expected, above)
    assert snap_compare(app, terminal_size=size, run_before=scene)


@SIZES
@LANGS
def test_a_claim_held_by_a_podgroup(
    snap_compare: SnapCompare, size: tuple[int, int], lang: str
) -> None:
    """1.37 (recorded on v1.37.2): a claim reserved for a PodGroup, its pods listed."""
    recording, mark = "workloads", "group-running"
    view = profile_view(recording, mark)
    (claim,) = [c for c in view.claims.values() if c.allocated]
    (group,) = claim.reserved_for
    members = [p.name for p in view.pods_of_claim(claim)]
    expected = ["reservedFor", f"podgroups/{group.name}", text(lang, "h.pods"), *members]
    app = make_app(SnapshotSource(profile_snap(recording, mark)), lang)
    scene = _scene(lang, "reservedFor", expected, [], claim.key)
    assert snap_compare(app, terminal_size=size, run_before=scene)


@SIZES
@LANGS
def test_pool_status_beside_the_ledger(
    snap_compare: SnapCompare, size: tuple[int, int], lang: str
) -> None:
    """1.37 (recorded on v1.37.2, tests/fixtures/poolstatus/busy.json): the Slices pane puts the
    resourcepoolstatusrequest-controller's counts beside gsb-tui's, with the reasons' codes."""
    from gsb_tui.ui.panes.slices import pool_status_lines
    from tests.unit.test_pool_status import recorded

    view, _status = recorded("busy")
    (first, *_others) = pool_status_lines(view, lang).values()
    # the recording keeps only the kinds the comparison reads: the others stay unlisted (said
    # as "connecting"), so nothing is judged missing from them (no ghost pods)
    snapshot = view.snapshot
    words = first.plain.split(":", 1)[0]  # "ResourcePoolStatusRequest <name>"

    async def run(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, GsbApp)
        await wait_until(pilot, lambda: bool(getattr(app.source, "done", False)))
        await wait_until(pilot, lambda: app.view is not None and bool(app.view.slices))
        app.dashboard.focus_pane("slices")
        await pilot.pause()
        await wait_until(pilot, lambda: words in _screen_text(app))
        assert "k8s v1.37.2" in _screen_text(app)

    app = make_app(SnapshotSource(snapshot, server=True), lang)
    assert snap_compare(app, terminal_size=size, run_before=run)


def test_the_pinned_clock_is_the_details_clock(pinned: Callable[[datetime], None]) -> None:
    """Both binding lines of the details read the one pinned clock."""
    view = profile_view("binding", "binding-waiting")
    claim = view.claims[CLAIM]
    moment = _allocated_at("binding", "binding-waiting") + timedelta(seconds=WAITED)
    pinned(moment)
    shown = describe.claim_details(view, claim).plain
    assert text("en", "feat.binding.left", left=600 - WAITED) in shown
    assert f"({600 - WAITED}s before the scheduler gives up)" in shown
    pinned(moment + timedelta(seconds=600))
    shown = describe.claim_details(view, claim).plain
    assert text("en", "feat.binding.expired", timeout=600) in shown
    assert "0s before" not in shown and shown.count("600s are up") == 2
    assert datetime.now(UTC) > moment  # the real clock is untouched
