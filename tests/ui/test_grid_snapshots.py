"""SVG snapshots of the grid at operator scale (tests/fixtures/profiles/operator.jsonl, 40
nodes, 960 devices), in English and Korean at 80x24, 160x48 and 200x60:

- the compact grid (chosen by size): the model line, the legend, the columns, a line per node
  with its counts and a mark per device;
- the node summary: `z` for cells, each group under its title and summary line;
- the list behind a ledger count (`l`: the blocked devices and the counters that block them).

Accepted SVGs live in snapshots/test_grid_snapshots/. After a deliberate change to the look,
regenerate with `pytest tests/ui/test_grid_snapshots.py --snapshot-update` and look at them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.ledger_list import LedgerListScreen
from tests.recorded import profile_snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource
from tests.ui.test_snapshots import _settled

SnapCompare = Callable[..., bool]
SIZES = pytest.mark.parametrize(
    "size", [(80, 24), (160, 48), (200, 60)], ids=["80x24", "160x48", "200x60"]
)
LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


def _operator(lang: str) -> GsbApp:
    return make_app(SnapshotSource(profile_snap("operator", "filled")), lang)


async def _compact(pilot: Pilot[Any]) -> None:
    await _settled(pilot)
    app = pilot.app
    assert isinstance(app, GsbApp)
    grid = app.dashboard.grid
    grid.focus()
    await pilot.press("home")  # the first node's line, the view at the top
    await wait_until(pilot, lambda: grid.canvas.compact and grid.line_cursor is not None)


async def _summary(pilot: Pilot[Any]) -> None:
    await _compact(pilot)
    app = pilot.app
    assert isinstance(app, GsbApp)
    grid = app.dashboard.grid
    await pilot.press("z", "home")
    await wait_until(pilot, lambda: not grid.canvas.compact and grid.cursor == grid.order[0])


async def _ledger_list(pilot: Pilot[Any]) -> None:
    await _compact(pilot)
    await pilot.press("l")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LedgerListScreen))
    await pilot.pause()


@SIZES
@LANGS
def test_compact_grid(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    assert snap_compare(_operator(lang), terminal_size=size, run_before=_compact)


@SIZES
@LANGS
def test_node_summary(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    assert snap_compare(_operator(lang), terminal_size=size, run_before=_summary)


@LANGS
def test_ledger_list_160x48(snap_compare: SnapCompare, lang: str) -> None:
    assert snap_compare(_operator(lang), terminal_size=(160, 48), run_before=_ledger_list)
