"""`"gsb.quit" = "s"` (a key the selector holds) used to be silently ignored while q no longer
quit (issue 26, part 6): now the entry is refused with one line, and both keep working."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.config import load_config
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui import keys
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.selector import SelectorScreen
from tests.ui.helpers import NO_LAB_DIR, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text("[keymap]\n" + body, encoding="utf-8")
    return path


def _real(path: Path) -> Any:
    return load_config(path, holders=keys.key_holders(GsbApp), normalize=keys.normalize_key)


async def test_quit_onto_the_selectors_key_is_refused_and_both_still_work(
    step8: Snapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _config(tmp_path, '"gsb.quit" = "s"\n')
    app = GsbApp(SnapshotSource(step8), NO_LAB_DIR, "en", watch_lab_dir=False, config_file=path)
    notes: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **_kw: notes.append(str(message)))
    assert app.keymap == {}
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        assert len(notes) == 1
        assert "'gsb.quit' asks for 's', which gsb.selector already uses" in notes[0]
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


def test_the_defaults_clash_with_nothing_and_readmes_example_is_accepted(tmp_path: Path) -> None:
    assert _real(_config(tmp_path, "")).problems == []
    body = '"gsb.yaml" = "Y"\n"gsb.quit" = "q,ctrl+q"\n"gsb.grid.left" = "left,h"\n'
    config = _real(_config(tmp_path, body))
    assert config.problems == [] and set(config.keymap) == {"gsb.yaml", "gsb.quit", "gsb.grid.left"}


def test_every_binding_has_its_keys_and_where_it_works() -> None:
    holders = keys.key_holders(GsbApp)
    assert set(holders) == keys.binding_ids(GsbApp)
    assert holders["gsb.help"].keys == ("question_mark",)
    assert holders["gsb.quit"].contexts >= holders["gsb.selector"].contexts  # the App's: all
    assert not holders["gsb.view.copy"].contexts & holders["gsb.yaml"].contexts


@pytest.mark.parametrize(
    ("body", "taken_from"),
    [
        ('"gsb.yaml" = "d"\n', "gsb.describe"),  # the dashboard's own two
        ('"gsb.selector" = "q"\n', "gsb.quit"),  # onto the App's, which works everywhere
        ('"gsb.view.copy" = "escape"\n', "gsb.view.close"),  # inside one modal
        ('"gsb.help" = "s"\n', "gsb.selector"),
    ],
)
def test_each_clash_with_the_real_bindings_names_the_holder(
    tmp_path: Path, body: str, taken_from: str
) -> None:
    config = _real(_config(tmp_path, body))
    assert config.keymap == {}
    assert len(config.problems) == 1 and f"which {taken_from} already uses" in config.problems[0]
