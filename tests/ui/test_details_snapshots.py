"""SVG snapshots of the Claim details leading with the answer: the recorded lab at step 8 with
dra-big's Pending claim selected (the allocator's verdict, then what it holds, then its
requests with one line a device group), at 80x24 and 160x48, in English and Korean.

Accepted SVGs live in snapshots/test_details_snapshots/ (see conftest.py); after a deliberate
change, regenerate with `--snapshot-update` and look at them before keeping them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from tests.ui.helpers import make_app, select_claim, wait_until
from tests.ui.scripted import SnapshotSource

SnapCompare = Callable[..., bool]


def _claim_of_pod(snapshot: Snapshot, pod_name: str) -> tuple[str, str]:
    """The claim a pod waits for, from its status.resourceClaimStatuses."""
    pod = next(p for p in snapshot.items(Kind.PODS) if p["metadata"]["name"] == pod_name)
    return (
        pod["metadata"]["namespace"],
        pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"],
    )


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_details_lead_with_the_verdict(
    snap_compare: SnapCompare,
    lab_snapshot: Callable[[str], Snapshot],
    size: tuple[int, int],
    lang: str,
) -> None:
    step8 = lab_snapshot("step-8")
    key = _claim_of_pod(step8, "dra-big")

    async def dra_big_selected(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, GsbApp)
        await wait_until(
            pilot,
            lambda: (
                app.view is not None
                and app.verdicts_view is app.view
                and app.dashboard.details.previewed
            ),
            timeout=30,
        )
        await select_claim(pilot, app, key)
        app.dashboard.focus_pane("details")
        await pilot.pause()

    app = make_app(SnapshotSource(step8), lang)
    assert snap_compare(app, terminal_size=size, run_before=dra_big_selected)
