"""Claim details at operator scale (tests/fixtures/profiles/operator.jsonl: 40 nodes, 960
devices): the allocator's verdict first, device lists folded to one line a group until `e`,
the scroll back at the top for another claim, the page keys; and recent events of this very
pod, not of an earlier one of the same name."""

from __future__ import annotations

import copy
from typing import Any

from textual.pilot import Pilot

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.model import Claim
from gsb_tui.dra.view import DraView
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.messages import ClaimSelected
from gsb_tui.ui.render.outcomes import outcome_groups
from gsb_tui.why_cli import answer as why_answer
from tests.recorded import profile_snap, snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource


def _operator() -> Snapshot:
    return profile_snap("operator", "filled")


def _waiting_claim(view: DraView) -> tuple[Claim, str]:
    """A claim a Pending pod waits for (the recording has some), and that pod's name."""
    for claim in sorted(view.claims.values(), key=lambda c: c.key):
        pending = [p for p in view.pods_of_claim(claim) if p.pending]
        if not claim.allocated and pending:
            return claim, pending[0].name
    raise AssertionError("the operator recording has no claim a pending pod waits for")


async def _pick(pilot: Pilot[Any], app: GsbApp, key: tuple[str, str]) -> list[str]:
    """Select a claim as the Claims table does, and give back the details' lines."""
    details = app.dashboard.details
    await wait_until(pilot, lambda: app.view is not None and details.previewed, timeout=30)
    app.dashboard.claims.post_message(ClaimSelected(key))
    await wait_until(pilot, lambda: details.key == key and details.previewed, timeout=30)
    return _lines(app)


def _lines(app: GsbApp) -> list[str]:
    content = app.dashboard.details.body.content
    plain = getattr(content, "plain", str(content))
    return str(plain).splitlines()


def _words(text: str) -> str:
    return " ".join(text.split())


async def test_a_pending_claim_leads_with_the_allocators_verdict() -> None:
    snapshot = _operator()
    view = build_view(snapshot)
    claim, pod = _waiting_claim(view)
    said = why_answer(view, claim.namespace, pod, "en")  # what `gsb-tui why` says
    assert said["fits"] is False and said["blockers"]
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        lines = await _pick(pilot, app, claim.key)
    why, requests = lines.index("Why pending"), lines.index("Requests")
    assert why <= 2 < requests  # under the claim's line (and its owner pod, if any)
    verdict = _words("\n".join(lines[why:requests]))
    for blocker in said["blockers"]:  # the allocator's words, before any device list
        assert _words(blocker["text"].replace(f"{claim.namespace}/{claim.name} ", "")) in verdict


async def test_device_lists_are_one_line_a_group_until_e() -> None:
    snapshot = _operator()
    view = build_view(snapshot)
    claim, _pod = _waiting_claim(view)
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        folded = await _pick(pilot, app, claim.key)
        details = app.dashboard.details
        preview = details.preview
        assert preview is not None and app.view is not None
        groups = [
            group
            for name, request_preview in preview.requests.items()
            for group in outcome_groups(
                app.view, request_preview, claim.devices, "en", preview.blockers.get(name)
            )
        ]
        biggest = max(groups, key=lambda g: len(g.devices))
        assert len(biggest.devices) > 100, "the recording's groups are at operator scale"
        marks = [line for line in folded if line.lstrip().startswith(("✓", "✗"))]
        assert len(marks) == len(groups)  # one line each: its mark, label and count
        for group, line in zip(groups, marks, strict=True):
            assert f"{group.mark} {group.label}" in line
            assert str(len(group.devices)) in line.split()
        assert sum(name in folded_line for folded_line in folded for name in biggest.devices) < 5
        assert details.border_subtitle == "e: every device"

        details.scroll.focus()
        await pilot.press("e")
        await wait_until(pilot, lambda: details.unfolded)
        unfolded = _words("\n".join(_lines(app)))
        missing = [name for name in biggest.devices if name not in unfolded.split()]
        assert not missing, missing[:5]
        assert details.border_subtitle == "e: fold device lists"
        await pilot.press("e")
        await wait_until(pilot, lambda: not details.unfolded)
        assert _lines(app) == folded


async def test_another_claim_starts_at_the_top_and_page_keys_scroll() -> None:
    snapshot = _operator()
    view = build_view(snapshot)
    claim, _pod = _waiting_claim(view)
    other = next(c for c in sorted(view.claims.values(), key=lambda c: c.key) if c is not claim)
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(80, 24)) as pilot:
        await _pick(pilot, app, claim.key)
        app.dashboard.focus_pane("details")
        await pilot.pause()
        scroll = app.dashboard.details.scroll
        assert scroll.max_scroll_y > 0, "the verdict is longer than the pane at 80x24"
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: scroll.scroll_y > 0)
        await pilot.press("home")
        await wait_until(pilot, lambda: scroll.scroll_y == 0)
        await pilot.press("end")
        await wait_until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        await _pick(pilot, app, other.key)
        await wait_until(pilot, lambda: scroll.scroll_y == 0)
        assert _lines(app)[0].startswith(f"{other.namespace}/{other.name}")


def _with_an_earlier_pod_of_the_same_name() -> tuple[Snapshot, str, str]:
    """Step 8 as recorded, plus one event about an earlier pod of the same name as dra-1 (a
    copy of a recorded event of dra-1 with another uid and its own reason): what a pod deleted
    and made again leaves behind."""
    base = snap("step-8")
    pod = next(p for p in base.items(Kind.PODS) if p["metadata"]["name"] == "dra-1")
    mine = [e for e in base.items(Kind.EVENTS) if e["involvedObject"]["name"] == "dra-1"]
    assert mine and all(e["involvedObject"].get("uid") == pod["metadata"]["uid"] for e in mine)
    earlier = copy.deepcopy(dict(mine[0]))
    earlier["metadata"] = {**earlier["metadata"], "name": "dra-1.earlier", "uid": "earlier"}
    earlier["involvedObject"] = {**earlier["involvedObject"], "uid": "an-earlier-dra-1"}
    earlier["reason"] = "EarlierPodsOwnEvent"
    events = [*base.items(Kind.EVENTS), earlier]
    return _replaced(base, Kind.EVENTS, events), pod["metadata"]["uid"], earlier["reason"]


def _replaced(base: Snapshot, kind: Kind, items: list[Any]) -> Snapshot:
    from gsb_tui.kube.store import Store

    store = Store()
    for k in Kind:
        store.apply(Change(k, "SYNCED", items=tuple(items if k is kind else base.items(k))))
        store.apply(Change(k, "STATE", state=base.state(k)))
    return store.snapshot()


async def test_recent_events_are_this_pods_not_an_earlier_ones() -> None:
    snapshot, uid, earlier_reason = _with_an_earlier_pod_of_the_same_name()
    view = build_view(snapshot)
    pods_of = view.pods_of_claim
    claim = next(c for c in view.claims.values() if any(p.uid == uid for p in pods_of(c)))
    assert any(e.reason == earlier_reason for e in view.events_for("Pod", "dra-lab", "dra-1"))
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        lines = await _pick(pilot, app, claim.key)
    events = _words("\n".join(lines[lines.index("Recent events") :]))
    recorded = [e for e in view.events_for("Pod", "dra-lab", "dra-1") if e.object_uid == uid]
    assert all(e.reason in events for e in recorded[-3:])
    assert earlier_reason not in events


async def test_a_large_clusters_verdict_is_decided_off_the_frame(monkeypatch: Any) -> None:
    """Past `inline_devices` the pane draws at once with "deciding", and the worker's
    verdict then replaces it with the allocator's words (the same as `gsb-tui why`)."""
    from gsb_tui.ui.panes.details import DetailsPane
    from gsb_tui.words import text

    snapshot = _operator()
    view = build_view(snapshot)
    claim, pod = _waiting_claim(view)
    said = why_answer(view, claim.namespace, pod, "en")
    monkeypatch.setattr(DetailsPane, "inline_devices", 0)
    shown: list[str] = []
    original = DetailsPane._update_body

    def keep(self: DetailsPane, content: Any) -> None:
        shown.append(str(getattr(content, "plain", content)))
        original(self, content)

    monkeypatch.setattr(DetailsPane, "_update_body", keep)
    deciding = text("en", "why.deciding")
    app = make_app(SnapshotSource(snapshot))
    async with app.run_test(size=(160, 48)) as pilot:
        details = app.dashboard.details
        await wait_until(pilot, lambda: app.view is not None and details.previewed, timeout=30)
        app.dashboard.claims.post_message(ClaimSelected(claim.key))
        await wait_until(
            pilot,
            lambda: details.key == claim.key and deciding not in _words("\n".join(_lines(app))),
            timeout=60,
        )
        lines = _lines(app)
    assert any(deciding in _words(body) and claim.name in body for body in shown)
    verdict = _words("\n".join(lines))
    for blocker in said["blockers"]:
        assert _words(blocker["text"].replace(f"{claim.namespace}/{claim.name} ", "")) in verdict
