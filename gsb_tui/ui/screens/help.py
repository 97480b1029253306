"""`?`: the keys, generated from the bindings that are active on the dashboard (never a
hand-written list that drifts from them), with the user's keymap applied, and each binding's id
(what config.toml's [keymap] names)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.keys import format_key
from textual.screen import ModalScreen
from textual.widgets import Static

from gsb_tui.ui.footer import binding_words
from gsb_tui.ui.render.explain import wrap
from gsb_tui.words import text

HelpRow = tuple[str, str, str, str, str]  # key, description, tooltip, binding id, where
WIDE = 120  # columns from which the keys are a table, the binding ids a column of their own
KEY_CELLS = 14  # the key column of the narrow layout ("escape / q / ?")


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
        # The ids are what config.toml's [keymap] names; narrower, under WHERE (no room left).
        wide = self.app.size.width >= WIDE
        lang = getattr(self.app, "lang", "en")
        body = self._table(lang) if wide else self._stacked(lang, self.app.size.width)
        with Vertical(id="help") as frame:
            frame.border_title = text(lang, "help.title")
            frame.border_subtitle = text(lang, "help.footer")
            with VerticalScroll():
                yield Static(body, id="help-table")

    def _table(self, lang: str) -> Table:
        table = Table(box=None, show_edge=False, header_style="bold")
        table.add_column(text(lang, "help.key"), style="bold cyan", no_wrap=True)
        table.add_column(text(lang, "help.where"), style="dim", no_wrap=True)
        table.add_column(text(lang, "help.what"))
        table.add_column("", style="dim")
        table.add_column("ID", style="dim", no_wrap=True)
        for key, description, tooltip, binding_id, where in self.rows:
            table.add_row(key, where, description, tooltip, binding_id)
        return table

    def _stacked(self, lang: str, screen_width: int) -> Text:
        """Below WIDE columns: a binding's words on one line after its key, wrapped as
        sentences under themselves (a column of a four-column table wrapped a Korean tooltip
        word by word at 80 columns), then where it works and its id, dimmed."""
        # #help: 90% of the screen, less its border, padding and scrollbar
        width = max(40, screen_width * 9 // 10 - 6)
        keys = min(KEY_CELLS, max((cell_len(row[0]) for row in self.rows), default=1))
        pad = " " * (keys + 2)
        out = Text()
        head = f"{text(lang, 'help.key')}"
        out.append(head + " " * max(1, keys + 2 - cell_len(head)), style="bold")
        out.append(f"{text(lang, 'help.what')} · {text(lang, 'help.where-id')}\n", style="bold")
        for key, description, tooltip, binding_id, where in self.rows:
            shown_key = key if cell_len(key) <= keys else key.replace(" / ", "/")
            out.append(shown_key + " " * max(1, keys + 2 - cell_len(shown_key)), style="bold cyan")
            words = f"{description} — {tooltip}" if tooltip else description
            for i, line in enumerate(wrap(words, width, pad, pad) or [pad]):
                if i:
                    out.append("\n" + pad)
                piece = line[len(pad) :]
                if i == 0 and piece.startswith(description):
                    out.append(description, style="bold")
                    out.append(piece[len(description) :])
                else:
                    out.append(piece)
            out.append(f"\n{pad}{where} · {binding_id}\n", style="dim")
        out.rstrip()
        return out

    def action_close(self) -> None:
        self.dismiss(None)
