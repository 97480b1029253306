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

from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.selector import SelectorScreen
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
            and app.dashboard.details.previewed
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


def _pending_claim_of(snapshot: Snapshot, pod_name: str) -> tuple[str, str]:
    """The claim the Pending pod waits for, from its status.resourceClaimStatuses."""
    pod = next(p for p in snapshot.items(Kind.PODS) if p["metadata"]["name"] == pod_name)
    statuses = pod["status"]["resourceClaimStatuses"]
    return (pod["metadata"]["namespace"], statuses[0]["resourceClaimName"])


def test_step8_pending_pod_explanation_160x48(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot]
) -> None:
    """dra-big selected: the preview, the shortfall and the scheduler's own message."""
    key = _pending_claim_of(lab_snapshot("step-8"), "dra-big")

    async def select_dra_big(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        app = pilot.app
        assert isinstance(app, GsbApp)
        app.dashboard.focus_pane("claims")
        await pilot.pause()
        while app.dashboard.selected_claim != key:
            await pilot.press("down")
        await wait_until(pilot, lambda: app.dashboard.details.previewed)

    app = _step8_app(lab_snapshot)
    assert snap_compare(app, terminal_size=(160, 48), run_before=select_dra_big)


def _selector_script(expression: str) -> Callable[[Pilot[Any]], Any]:
    async def run(pilot: Pilot[Any]) -> None:
        await _settled(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SelectorScreen))
        await pilot.press(*expression)
        screen = pilot.app.screen
        assert isinstance(screen, SelectorScreen)
        await wait_until(
            pilot, lambda: screen.trial is not None and screen.trial.expression == expression
        )

    return run


def _driver(snapshot: Snapshot) -> str:
    return str(next(iter(snapshot.items(Kind.SLICES)))["spec"]["driver"])


def test_step8_selector_tool_160x48(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot]
) -> None:
    expression = f"device.attributes['{_driver(lab_snapshot('step-8'))}'].index == 7"
    app = _step8_app(lab_snapshot)
    assert snap_compare(app, terminal_size=(160, 48), run_before=_selector_script(expression))


def test_step8_selector_mistake_80x24(
    snap_compare: SnapCompare, lab_snapshot: Callable[[str], Snapshot]
) -> None:
    """Lab mistake 2 at the smallest size: the API server's message, the hint and the fix."""
    app = _step8_app(lab_snapshot)
    script = _selector_script("device.attributes.index == 7")
    assert snap_compare(app, terminal_size=(80, 24), run_before=script)
