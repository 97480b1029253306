"""`?`: the keys, generated from the bindings that are active on the dashboard (never a
hand-written list that drifts from them), with the user's keymap applied, and each binding's id
(what config.toml's [keymap] names)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.keys import format_key
from textual.screen import ModalScreen
from textual.widgets import Static

HelpRow = tuple[str, str, str, str, str]  # key, description, tooltip, binding id, where
WIDE = 120  # columns from which the binding ids get a column of their own


def key_label(key: str) -> str:
    """A key as help shows it: "?" for question_mark, "/" for slash; other names stay."""
    shown = format_key(key)
    if len(shown) == 1 and shown.isascii() and shown.isprintable() and not shown.isspace():
        return shown
    return key


def help_rows(bindings: Iterable[tuple[str, Binding, str]]) -> list[HelpRow]:
    """One row per binding that has an id (ours), in the order given, keys merged by id."""
    rows: dict[str, HelpRow] = {}
    for key, binding, where in bindings:
        if not binding.id or not binding.id.startswith("gsb."):
            continue
        shown = binding.key_display or key_label(key)
        if binding.id in rows:
            old = rows[binding.id]
            if shown not in old[0].split(" / "):
                rows[binding.id] = (f"{old[0]} / {shown}", *old[1:])
            continue
        rows[binding.id] = (shown, binding.description, binding.tooltip, binding.id, where)
    return list(rows.values())


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="gsb.help.close")
    ]

    def __init__(self, rows: list[HelpRow]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_edge=False, header_style="bold")
        # The ids are what config.toml's [keymap] names; narrower, under WHERE (no room left).
        wide = self.app.size.width >= WIDE
        table.add_column("KEY", style="bold cyan", no_wrap=True)
        table.add_column("WHERE" if wide else "WHERE / ID", style="dim", no_wrap=True)
        table.add_column("WHAT")
        table.add_column("", style="dim")
        if wide:
            table.add_column("ID", style="dim", no_wrap=True)
        for key, description, tooltip, binding_id, where in self.rows:
            if wide:
                table.add_row(key, where, description, tooltip, binding_id)
            else:
                table.add_row(key, f"{where}\n{binding_id}", description, tooltip)
        with Vertical(id="help") as frame:
            frame.border_title = "keys"
            frame.border_subtitle = "Esc close · ctrl+p command palette"
            with VerticalScroll():
                yield Static(table, id="help-table")

    def action_close(self) -> None:
        self.dismiss(None)
