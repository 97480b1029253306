"""`:` the jump box: type part of a name, pick a target, Enter goes there (the dashboard does
the going: ui/screens/jumps.py). The targets are built once per view (jump_targets.py); each
keystroke ranks them again, and only the rows shown get their hints worded."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from gsb_tui.dra.view import DraView
from gsb_tui.ui.jump_targets import Target, TargetIndex, hint, split_kind
from gsb_tui.words import text

KIND_WIDTH = 13  # the kind column: the longest kind word, Korean included, and a space


def matched(name: str, needle: str) -> list[int]:
    """Where the needle's characters are in the name (for bold), as score() finds them."""
    hay = name.lower()
    at = hay.find(needle)
    if at >= 0:
        return list(range(at, at + len(needle)))
    out, last = [], -1
    for char in needle:
        last = hay.find(char, last + 1)
        if last < 0:
            return []
        out.append(last)
    return out


def runs(places: list[int]) -> list[tuple[int, int]]:
    """Consecutive places as (start, end) ranges: one style span per run, not per character."""
    out: list[tuple[int, int]] = []
    for at in places:
        if out and out[-1][1] == at:
            out[-1] = (out[-1][0], at + 1)
        else:
            out.append((at, at + 1))
    return out


OPAQUE_DEVICES = 2_000


class JumpScreen(ModalScreen[Target | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="gsb.jump.close"),
        Binding("down", "move(1)", "Next match", show=False, id="gsb.jump.down"),
        Binding("up", "move(-1)", "Previous match", show=False, id="gsb.jump.up"),
        Binding("pagedown", "move(10)", "Page down", show=False, id="gsb.jump.pagedown"),
        Binding("pageup", "move(-10)", "Page up", show=False, id="gsb.jump.pageup"),
    ]
    DEFAULT_CSS = """
    JumpScreen { align: center top; background: $background 60%; }
    JumpScreen.opaque { background: $background; }
    #jump {
        width: 90%; max-width: 110; height: auto; max-height: 80%; margin-top: 2;
        border: round $accent; border-title-style: bold; background: $surface; padding: 0 1;
    }
    #jump-results { height: auto; max-height: 24; border: none; background: $surface; }
    #jump-count { color: $text-muted; height: 1; padding: 0 1; }
    """

    def __init__(
        self,
        view: DraView,
        index: TargetIndex,
        lang: str,
        *,
        query: str = "",
        title: str = "",
    ) -> None:
        super().__init__()
        self.view = view
        self.index = index
        self.lang = lang
        self.query_text = query
        self.title_text = title or text(lang, "jump.title")
        self.shown: list[Target] = []
        self.total = 0
        # At scale, blending the dashboard beneath into every frame of the box costs each key
        # a re-render of that screen (Textual draws the screen under a translucent one).
        self.set_class(len(view.devices) > OPAQUE_DEVICES, "opaque")

    def compose(self) -> ComposeResult:
        with Vertical(id="jump") as frame:
            frame.border_title = self.title_text
            frame.border_subtitle = text(self.lang, "jump.footer")
            yield Input(
                self.query_text, placeholder=text(self.lang, "jump.placeholder"), id="jump-input"
            )
            # The count above the list: at 80x24 the list's foot is below the box's.
            yield Static("", id="jump-count")
            yield OptionList(id="jump-results")

    def on_mount(self) -> None:
        box = self.query_one(Input)
        box.focus()
        box.cursor_position = len(box.value)
        self._show(self.query_text)

    @property
    def results(self) -> OptionList:
        return self.query_one(OptionList)

    def _show(self, query: str) -> None:
        self.query_text = query
        self.shown, self.total = self.index.search(query)
        _, needle = split_kind(query)
        options = [Option(self._prompt(target, needle)) for target in self.shown]
        results = self.results
        results.clear_options()
        results.add_options(options)
        if options:
            results.highlighted = 0
        results.display = bool(options)
        count = self.query_one("#jump-count", Static)
        if not options:
            count.update(text(self.lang, "jump.none", query=query.strip()))
        else:
            count.update(text(self.lang, "jump.count", shown=len(options), n=self.total))

    def _prompt(self, target: Target, needle: str) -> Text:
        kind = text(self.lang, f"jump.kind.{target.kind}")
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(kind + " " * max(1, KIND_WIDTH - cell_len(kind)), style="dim cyan")
        name = Text(target.name)
        for start, end in runs(matched(target.name, needle)):
            name.stylize("bold underline", start, end)
        line.append_text(name)
        words = hint(self.view, self.index, target, self.lang)
        if words:
            line.append(f"  {words}", style="dim")
        return line

    @on(Input.Changed, "#jump-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._show(event.value)

    @on(Input.Submitted, "#jump-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        at = self.results.highlighted
        if self.shown:
            self.dismiss(self.shown[at if at is not None else 0])

    @on(OptionList.OptionSelected, "#jump-results")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.shown):
            self.dismiss(self.shown[event.option_index])

    def action_move(self, step: int) -> None:
        results = self.results
        if not self.shown:
            return
        at = results.highlighted if results.highlighted is not None else 0
        results.highlighted = max(0, min(len(self.shown) - 1, at + step))

    def action_close(self) -> None:
        self.dismiss(None)
