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

from gsb_tui.ui.footer import binding_words
from gsb_tui.words import text

HelpRow = tuple[str, str, str, str, str]  # key, description, tooltip, binding id, where
WIDE = 120  # columns from which the binding ids get a column of their own


def key_label(key: str) -> str:
    """A key as help shows it: "?" for question_mark, "/" for slash; other names stay."""
    shown = format_key(key)
    if len(shown) == 1 and shown.isascii() and shown.isprintable() and not shown.isspace():
        return shown
    return key


def help_rows(bindings: Iterable[tuple[str, Binding, str]], lang: str = "en") -> list[HelpRow]:
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
        description, tooltip = binding_words(binding, lang)
        rows[binding.id] = (shown, description, tooltip, binding.id, where)
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
        lang = getattr(self.app, "lang", "en")
        table.add_column(text(lang, "help.key"), style="bold cyan", no_wrap=True)
        where_head = text(lang, "help.where" if wide else "help.where-id")
        table.add_column(where_head, style="dim", no_wrap=True)
        table.add_column(text(lang, "help.what"))
        table.add_column("", style="dim")
        if wide:
            table.add_column("ID", style="dim", no_wrap=True)
        for key, description, tooltip, binding_id, where in self.rows:
            if wide:
                table.add_row(key, where, description, tooltip, binding_id)
            else:
                table.add_row(key, f"{where}\n{binding_id}", description, tooltip)
        with Vertical(id="help") as frame:
            frame.border_title = text(lang, "help.title")
            frame.border_subtitle = text(lang, "help.footer")
            with VerticalScroll():
                yield Static(table, id="help-table")

    def action_close(self) -> None:
        self.dismiss(None)
