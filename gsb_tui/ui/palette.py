"""The command palette in the app's language: Textual's own commands (Theme, Quit, Keys,
Maximize / Minimize, Screenshot, from App.get_system_commands) and the palette's placeholder.
Mixed into the App (its methods come first in the MRO); the commands keep Textual's callbacks,
only their words change, so a Textual release that adds a command shows it in its English."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from textual.app import App, SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen

from gsb_tui.words import text

# Textual 8's (title, help) of each system command -> the catalog's (title, help) keys.
_WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("Theme", "Change the current theme"): ("palette.theme", "palette.theme.tip"),
    ("Quit", "Quit the application as soon as possible"): ("palette.quit", "palette.quit.tip"),
    ("Keys", "Show help for the focused widget and a summary of available keys"): (
        "palette.keys-show",
        "palette.keys-show.tip",
    ),
    ("Keys", "Hide the keys and widget help panel"): ("palette.keys-hide", "palette.keys-hide.tip"),
    ("Maximize", "Maximize the focused widget"): ("palette.maximize", "palette.maximize.tip"),
    ("Minimize", "Minimize the widget and restore to normal size"): (
        "palette.minimize",
        "palette.minimize.tip",
    ),
    ("Screenshot", "Save an SVG 'screenshot' of the current screen"): (
        "palette.screenshot",
        "palette.screenshot.tip",
    ),
}


def localized(command: SystemCommand, lang: str) -> SystemCommand:
    """The same command in `lang` (one the catalog does not know keeps Textual's words)."""
    keys = _WORDS.get((command.title, command.help))
    if keys is None:
        return command
    return command._replace(title=text(lang, keys[0]), help=text(lang, keys[1]))


class LocalPalette:
    """The App's palette methods, worded in `self.lang`."""

    lang: str

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        app = cast("App[Any]", self)
        for command in App.get_system_commands(app, screen):
            yield localized(command, self.lang)

    def action_command_palette(self) -> None:
        """App.action_command_palette with the placeholder in the app's language."""
        app = cast("App[Any]", self)
        if app.use_command_palette and not CommandPalette.is_open(app):
            placeholder = text(self.lang, "palette.placeholder")
            app.push_screen(CommandPalette(placeholder=placeholder, id="--command-palette"))
