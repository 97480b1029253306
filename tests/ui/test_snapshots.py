"""SVG snapshots of the recorded lab right after step 8, at the smallest and a large size.

Accepted SVGs live in snapshots/test_snapshots/ (see conftest.py). After a deliberate change
to the look, regenerate with `pytest tests/ui/test_snapshots.py --snapshot-update` and look at
the new SVGs (e.g. `rsvg-convert -w 1600 file.svg -o file.png`) before keeping them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource

SnapCompare = Callable[..., bool]


def _step8_app(lab_snapshot: Callable[[str], Snapshot], lang: str = "en") -> GsbApp:
    return make_app(SnapshotSource(lab_snapshot("step-8")), lang)


async def _settled(pilot: Pilot[Any]) -> None:
    """Everything painted: the source played out and the checklist judged that last view."""
    app = pilot.app
    assert isinstance(app, GsbApp)

    def painted() -> bool:
        view = app.view
        return (
            bool(getattr(app.source, "done", False))
            and view is not None
            and view.snapshot.revision == app.store.revision
            and app.verdicts_view is view
        )

    await wait_until(pilot, painted)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_step8_dashboard(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot], size: tuple[int, int]
) -> None:
    assert snap_compare(_step8_app(lab_snapshot), terminal_size=size, run_before=_settled)


def test_step8_claims_tab_korean_80x24(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot]
) -> None:
    """Korean pane titles and tabs stay aligned with the English object names."""

    async def claims_tab(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        app = pilot.app
        assert isinstance(app, GsbApp)
        app.dashboard.focus_pane("claims")

    app = _step8_app(lab_snapshot, lang="ko")
    assert snap_compare(app, terminal_size=(80, 24), run_before=claims_tab)


def test_step8_yaml_modal_160x48(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot]
) -> None:
    async def open_yaml(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        await pilot.press("tab", "tab", "y")

    assert snap_compare(_step8_app(lab_snapshot), terminal_size=(160, 48), run_before=open_yaml)
