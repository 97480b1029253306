"""The Slices pane's first lines when a driver went away from a node: its ResourceSlices are
gone while claims allocated from its pool stay (dra/node_side.py). Hidden while there is none;
shown beside the pane's notice too (with no slice left, "no slices" is the notice)."""

from __future__ import annotations

from textual.widgets import Static

from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.node_half import vanished_text


class VanishedDrivers(Static):
    DEFAULT_CSS = "VanishedDrivers { display: none; height: auto; }"

    def __init__(self) -> None:
        super().__init__("")
        self._shown = ""

    def show(self, view: DraView, lang: str) -> None:
        found = vanished_text(view, lang)
        plain = found.plain if found is not None else ""
        if plain == self._shown:
            return  # unchanged: an update would lay the pane out again
        self._shown = plain
        self.update(found or "")
        self.display = found is not None
