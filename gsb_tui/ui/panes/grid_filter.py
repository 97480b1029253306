"""The grid's node filter (`f`): part of a node's name, matched as typed (case aside); the grid
shows only the nodes whose name contains it, and its title says so. Enter keeps it and goes
back to the grid; Esc clears it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

from gsb_tui.ui.panes.grid_layout import NodeLine


def matching(lines: Sequence[NodeLine], wanted: str) -> tuple[NodeLine, ...]:
    """The lines whose node (or pool, for a pool of no node) contains `wanted`."""
    wanted = wanted.strip().casefold()
    if not wanted:
        return tuple(lines)
    return tuple(line for line in lines if wanted in line.label.casefold())


class NodeFilter(Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", "Clear filter", id="gsb.grid.filter-clear"),
    ]
    DEFAULT_CSS = """
    NodeFilter { display: none; height: 1; border: none; padding: 0 1; margin: 0; }
    NodeFilter:focus { border: none; }
    """

    class Done(Message):
        """The filter closed: kept (Enter) or cleared (Esc); the grid takes the focus back."""

    def action_clear(self) -> None:
        self.value = ""
        self._done()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._done()

    def _done(self) -> None:
        self.display = False
        self.post_message(self.Done())
