"""A screen whose focus moves without repainting all of it."""

from __future__ import annotations

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class QuietFocusScreen(Screen[None]):
    # Textual's `focused` repaints the whole screen when focus moves; the widgets whose focus
    # style changes repaint themselves, so Tab need not render all of 200x60 (issue 27).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
