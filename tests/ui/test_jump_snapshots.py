"""SVG snapshots of the jump box (`:`) on the operator-sized recording
(tests/fixtures/profiles/operator.jsonl: many nodes, claims in several namespaces), in English and
Korean, at the smallest size and a big one.

Accepted SVGs live in snapshots/test_jump_snapshots/ (see conftest.py). After a deliberate change
to the look, regenerate with `pytest tests/ui/test_jump_snapshots.py --snapshot-update` and look
at the new SVGs before keeping them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.jump import JumpScreen
from tests.recorded import profile_snap, profile_view
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource

SnapCompare = Callable[..., bool]
RECORDING, MARK = "operator", "filled"


def _query() -> str:
    """A device name every node publishes: the box lists it node by node, with its state."""
    return profile_view(RECORDING, MARK).devices[0].name


async def _open_jump(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, GsbApp)

    def painted() -> bool:
        view = app.view
        return (
            bool(getattr(app.source, "done", False))
            and view is not None
            and view.snapshot.revision == app.store.revision
            and app.verdicts_view is view
            and app.dashboard.details.previewed
        )

    await wait_until(pilot, painted, timeout=30)
    await pilot.press("colon")
    await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen))
    await pilot.press(*_query())
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_jump_box(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    app = make_app(SnapshotSource(profile_snap(RECORDING, MARK)), lang)
    assert snap_compare(app, terminal_size=size, run_before=_open_jump)
