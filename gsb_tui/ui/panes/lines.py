"""Turning one line of Rich Text into segments for the Line-API widgets (grid cells, claims)."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text


def text_segments(console: Console, text: Text, base: Style) -> list[Segment]:
    """A one-line Text as segments over `base`: the Text's own style, then its spans'.

    (Text.render applies only the spans: the Text's own style is what console.render adds.)
    """
    if text.style:
        base = base + console.get_style(text.style)
    return [
        Segment(s.text, base + s.style if s.style else base)
        for s in text.render(console, end="")
        if s.text
    ]
