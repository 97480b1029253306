"""Keys a user remaps in config.toml's [keymap]: the loader (pure, bounded, never raises) and the
App applying it (the new key works, the old one no longer does, `?` shows the keys in effect, a
bad file is one warning and the defaults)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gsb_tui
from gsb_tui.config import CONFIG_LIMIT, config_path, load_config
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.help import HelpScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from tests.ui.helpers import NO_LAB_DIR, click_device, wait_until
from tests.ui.scripted import SnapshotSource

IDS = frozenset({"gsb.yaml", "gsb.quit", "gsb.help"})


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


def _write(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


def _app(snapshot: Snapshot, config_file: Path | None) -> GsbApp:
    return GsbApp(
        SnapshotSource(snapshot), NO_LAB_DIR, "en", watch_lab_dir=False, config_file=config_file
    )


def _record_notes(app: GsbApp, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    notes: list[tuple[str, Any]] = []
    monkeypatch.setattr(app, "notify", lambda message, **kw: notes.append((str(message), kw)))
    return notes


async def _select_a_device(pilot: Any, app: GsbApp) -> None:
    await wait_until(pilot, lambda: app.dashboard.grid.cells)
    await click_device(pilot, app, next(iter(app.dashboard.grid.cells)))


# --- the loader -----------------------------------------------------------------------------


def test_a_missing_file_is_no_config_and_no_problem(tmp_path: Path) -> None:
    config = load_config(tmp_path / "nothing" / "config.toml", IDS)
    assert config.keymap == {} and config.problems == []


def test_valid_entries_are_read_and_keys_tidied(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.toml", '[keymap]\n"gsb.yaml" = "Y"\n"gsb.quit" = "x , ctrl+q"\n')
    config = load_config(path, IDS)
    assert config.problems == []
    assert config.keymap == {"gsb.yaml": "Y", "gsb.quit": "x,ctrl+q"}


def test_the_default_path_follows_xdg_config_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert config_path() == tmp_path / "cfg" / "gsb-tui" / "config.toml"
    _write(config_path(), '[keymap]\n"gsb.help" = "h"\n')
    assert load_config(known_ids=IDS).keymap == {"gsb.help": "h"}
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")  # not absolute: ignored (XDG spec)
    assert config_path() == Path.home() / ".config" / "gsb-tui" / "config.toml"


@pytest.mark.parametrize(
    ("body", "wanted"),
    [
        ('[keymap]\n"gsb.yaml" = \n', "not valid TOML"),
        ('[keymap]\n"gsb.yam" = "Y"\n', "'gsb.yam' is not a binding id"),
        ('[keymap]\n"gsb.yaml" = 3\n', "'gsb.yaml' must be a string of keys"),
        ('[keymap]\n"gsb.yaml" = ["y"]\n', "not an array"),
        ('[keymap]\n"gsb.yaml" = ""\n', "'gsb.yaml' is empty"),
        ('[keymap]\n"gsb.yaml" = "y,"\n', "has an empty key"),
        ('[keymap]\n"gsb.yaml" = "ctrl + y"\n', "'ctrl + y', not a key"),
        ('keymap = "y"\n', "keymap must be a table"),
        ("[keymaps]\n", "unknown setting 'keymaps'"),
        ("a = " + "[" * 30000, "nested too deeply"),
    ],
)
def test_each_bad_entry_is_one_line_naming_the_file(tmp_path: Path, body: str, wanted: str) -> None:
    path = _write(tmp_path / "c.toml", body)
    config = load_config(path, IDS)
    assert config.keymap == {}
    assert len(config.problems) == 1
    (problem,) = config.problems
    assert problem.startswith(f"{path}: ") and wanted in problem
    assert "\n" not in problem
    assert "default" in problem or "ignored" in problem


def test_valid_entries_apply_beside_bad_ones(tmp_path: Path) -> None:
    body = '[keymap]\n"gsb.nope" = "n"\n"gsb.quit" = true\n"gsb.yaml" = "Y"\n'
    config = load_config(_write(tmp_path / "c.toml", body), IDS)
    assert config.keymap == {"gsb.yaml": "Y"}
    assert len(config.problems) == 2
    assert "'gsb.nope'" in config.problems[0] and "a boolean" in config.problems[1]


def test_not_utf8_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_bytes(b'[keymap]\n"gsb.yaml" = "\xff"\n')
    (problem,) = load_config(path, IDS).problems
    assert problem.startswith(f"{path}: not UTF-8")


def test_the_size_cap(tmp_path: Path) -> None:
    entry = '[keymap]\n"gsb.yaml" = "Y"\n'
    at_limit = _write(tmp_path / "ok.toml", entry + "#" * (CONFIG_LIMIT - len(entry) - 1) + "\n")
    assert at_limit.stat().st_size == CONFIG_LIMIT
    assert load_config(at_limit, IDS).keymap == {"gsb.yaml": "Y"}
    over = _write(tmp_path / "big.toml", entry + "#" * CONFIG_LIMIT + "\n")
    config = load_config(over, IDS)
    assert config.keymap == {}
    (problem,) = config.problems
    assert problem.startswith(f"{over}: is {over.stat().st_size} bytes, over the 64 KiB limit")


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)  # nobody writes: opening it for reading would block
    config = load_config(fifo, IDS)
    assert config.keymap == {}
    (problem,) = config.problems
    assert problem == f"{fifo}: is a FIFO, not a regular file; using the default keys"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "config.toml"
    directory.mkdir()
    (problem,) = load_config(directory, IDS).problems
    assert problem == f"{directory}: is a directory, not a regular file; using the default keys"


def test_the_loader_imports_without_textual() -> None:
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'textual' or name.startswith('textual.'):\n"
        "            raise ImportError('textual imported by gsb_tui.config')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import gsb_tui.config\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_every_binding_id_in_the_source_can_be_remapped() -> None:
    source = Path(gsb_tui.__file__).parent / "ui"
    written = {
        match
        for path in source.rglob("*.py")
        for match in re.findall(r'id="(gsb\.[^"]+)"', path.read_text(encoding="utf-8"))
    }
    assert written and GsbApp.binding_ids() == written


# --- the App --------------------------------------------------------------------------------


async def test_a_remapped_key_runs_the_action_and_the_old_key_does_not(
    step8: Snapshot, tmp_path: Path
) -> None:
    path = _write(tmp_path / "c.toml", '[keymap]\n"gsb.yaml" = "Y"\n"gsb.quit" = "x"\n')
    app = _app(step8, path)
    async with app.run_test(size=(160, 48)) as pilot:
        await _select_a_device(pilot, app)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)
        await pilot.press("Y")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running
        await pilot.press("x")
        await pilot.pause()
        assert not app.is_running


async def test_help_shows_the_keys_in_effect(step8: Snapshot, tmp_path: Path) -> None:
    body = '[keymap]\n"gsb.yaml" = "Y"\n"gsb.quit" = "x,ctrl+q"\n"gsb.help" = "h,?"\n'
    app = _app(step8, _write(tmp_path / "c.toml", body))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        keys = {row[3]: row[0] for row in screen.rows}
        assert keys["gsb.yaml"] == "Y"
        assert keys["gsb.quit"] == "x / ctrl+q"
        assert keys["gsb.help"] == "h / ?"
        assert keys["gsb.describe"] == "d" and keys["gsb.filter"] == "/"  # not remapped


async def test_help_shows_two_bindings_that_swapped_keys(step8: Snapshot, tmp_path: Path) -> None:
    # d may go to YAML once describe has let go of it (a clash is refused: test_edges_keymap.py).
    body = '[keymap]\n"gsb.yaml" = "d"\n"gsb.describe" = "Y"\n'
    app = _app(step8, _write(tmp_path / "c.toml", body))
    async with app.run_test(size=(160, 48)) as pilot:
        await _select_a_device(pilot, app)
        await pilot.press("d")  # now YAML, not describe
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        assert not screen.title_text.startswith("describe ")
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = {row[3]: row[0] for row in app.screen.rows}
        assert keys["gsb.yaml"] == "d" and keys["gsb.describe"] == "Y"


async def test_a_bad_config_warns_once_and_keeps_the_defaults(
    step8: Snapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path / "c.toml", '[keymap]\n"gsb.yaml" = "Y\n')  # unterminated string
    app = _app(step8, path)
    notes = _record_notes(app, monkeypatch)
    async with app.run_test(size=(160, 48)) as pilot:
        await _select_a_device(pilot, app)
        await pilot.press("y")  # the default still works
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
    assert len(notes) == 1
    message, kw = notes[0]
    assert message.startswith(f"{path}: not valid TOML") and "default keys" in message
    assert kw["severity"] == "warning"


async def test_unknown_ids_and_wrong_types_are_reported_and_the_rest_applies(
    step8: Snapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read from $XDG_CONFIG_HOME (tests/ui/conftest.py points it into tmp_path), as the CLI does.
    body = '[keymap]\n"gsb.nope" = "n"\n"gsb.quit" = 1\n"gsb.help" = "h"\n'
    _write(config_path(), body)
    app = _app(step8, config_path())
    notes = _record_notes(app, monkeypatch)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        lines = notes[0][0].splitlines()
        assert len(notes) == 1 and len(lines) == 2
        assert "'gsb.nope' is not a binding id" in lines[0]
        assert "'gsb.quit' must be a string" in lines[1]
        await pilot.press("h")  # the valid entry applies
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("q")  # gsb.quit keeps its default
        await pilot.pause()
        assert not app.is_running


async def test_no_config_file_means_the_default_keys(step8: Snapshot) -> None:
    app = _app(step8, None)
    assert app.keymap == {}
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.grid.cells)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


def test_every_binding_is_worded_in_the_catalog_as_it_is_in_english() -> None:
    """The footer and `?` word bindings from the catalog: its English must be the binding's
    own, and no gsb binding may be missing from it."""
    from textual.binding import Binding

    from gsb_tui.ui.footer import binding_words
    from gsb_tui.words import CATALOG

    checked: set[str] = set()
    for cls in GsbApp.binding_classes():
        for binding in Binding.make_bindings(cls.BINDINGS):
            if not (binding.id or "").startswith("gsb."):
                continue
            assert f"key.{binding.id}" in CATALOG, binding.id
            assert binding_words(binding, "en") == (binding.description, binding.tooltip)
            korean = binding_words(binding, "ko")
            assert korean[0] != binding.description or binding.description == ""
            checked.add(binding.id or "")
    assert checked == GsbApp.binding_ids()
