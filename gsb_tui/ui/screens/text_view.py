"""A modal that shows one text (an object's YAML, a describe, an example): highlighted,
scrollable, and copyable with `c`. It may hold a second text a key away (`s`: a device's YAML
and its whole slice's)."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.syntax import Syntax
from rich.text import Span, Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from gsb_tui.words import text as words


def highlighted(code: str, lexer: str) -> Text:
    """Token colours only: the theme's backgrounds would paint boxes on the modal."""
    text = Syntax(code, lexer, theme="monokai").highlight(code)
    spans = []
    for span in text.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
        plain = Style(color=style.color, bold=style.bold, italic=style.italic)
        spans.append(Span(span.start, span.end, plain))
    text.spans = spans
    text.style = ""
    text.rstrip()
    return text


class TextBody(VerticalScroll):
    """Takes focus so the arrow keys and PageUp/PageDown scroll at once."""


class TextViewScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss_view", "Close", id="gsb.view.close"),
        Binding(
            "c", "copy", "Copy", tooltip="Copy the text and save it to a file", id="gsb.view.copy"
        ),
        Binding(
            "s",
            "swap",
            "Slice / device",
            tooltip="Switch between the device and its whole slice",
            id="gsb.view.swap",
        ),
    ]

    def __init__(
        self,
        title: str,
        content: str | Text,
        *,
        syntax: str | None = None,
        copy_name: str = "gsb-tui.txt",
        other: tuple[str, str | Text, str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.content = content
        self.syntax = syntax
        self.copy_name = copy_name
        self.other = other  # (title, content, copy name) of the text `s` switches to

    @property
    def plain(self) -> str:
        return self.content.plain if isinstance(self.content, Text) else self.content

    def _body(self) -> Text | str:
        if self.syntax and isinstance(self.content, str):
            return highlighted(self.content, self.syntax)
        return self.content

    def _keys(self) -> str:
        lang = getattr(self.app, "lang", "en")
        return words(lang, "view.keys-swap" if self.other else "view.keys")

    def compose(self) -> ComposeResult:
        with Vertical(id="text-view") as frame:
            frame.border_title = self.title_text
            frame.border_subtitle = self._keys()
            with TextBody():
                yield Static(self._body(), id="text-view-body")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `s` only where there is a second text to switch to.
        return self.other is not None if action == "swap" else True

    def action_swap(self) -> None:
        if self.other is None:
            return
        title, content, copy_name = self.other
        self.other = (self.title_text, self.content, self.copy_name)
        self.title_text, self.content, self.copy_name = title, content, copy_name
        self.query_one("#text-view", Vertical).border_title = title
        self.query_one("#text-view-body", Static).update(self._body())
        self.query_one(TextBody).scroll_home(animate=False)

    def on_mount(self) -> None:
        for body in self.query(TextBody):  # none when pushed as the app quits (`q` `y` in a burst)
            body.focus()

    def action_dismiss_view(self) -> None:
        self.dismiss(None)

    def action_copy(self) -> None:
        from gsb_tui.ui.clipboard import copy_text

        copy_text(self.app, self.plain, self.copy_name)
