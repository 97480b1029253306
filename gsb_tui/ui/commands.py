"""Command palette entries for the dashboard's keys, made from the same Bindings (so the palette,
the footer and the help screen never disagree), plus "go to pane" entries."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

Entry = tuple[str, str, Callable[[], Any]]


def _bindings(node: DOMNode) -> list[Binding]:
    return [
        b
        for b in getattr(type(node), "BINDINGS", [])
        if isinstance(b, Binding) and b.id and b.id.startswith("gsb.")
    ]


class DashboardCommands(Provider):
    def _entries(self) -> list[Entry]:
        from gsb_tui.ui.screens.dashboard import PANES, DashboardScreen

        screen = self.screen
        out: list[Entry] = []
        for node in (screen, self.app):
            for binding in _bindings(node):
                if binding.action == "command_palette":
                    continue
                title = f"{binding.description} (key {binding.key_display or binding.key})"
                out.append((title, binding.tooltip, partial(node.run_action, binding.action)))
        if isinstance(screen, DashboardScreen):
            for pane, _column in PANES:
                label = screen.query_one(f"#{pane}").border_title or pane
                out.append((f"Go to pane: {label}", "", partial(screen.focus_pane, pane)))
        return out

    async def discover(self) -> Hits:
        for title, help_text, callback in self._entries():
            yield DiscoveryHit(title, callback, help=help_text or None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(title), callback, text=title, help=help_text or None
                )
