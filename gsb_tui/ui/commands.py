"""Command palette entries for the dashboard's keys, made from the same Bindings (so the palette,
the footer and the help screen never disagree), plus "go to pane" entries and "Search
everything…" (the `:` jump box)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

from gsb_tui.ui.footer import binding_words
from gsb_tui.words import text

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
        lang = getattr(self.app, "lang", "en")
        out: list[Entry] = []
        for node in (screen, self.app):
            for binding in _bindings(node):
                if binding.action == "command_palette":
                    continue
                words, tip = binding_words(binding, lang)  # in the app's language
                key = binding.key_display or binding.key
                title = text(lang, "palette.key", title=words, key=key)
                out.append((title, tip, partial(node.run_action, binding.action)))
        if isinstance(screen, DashboardScreen):
            # The jump box over everything (`/` searches only the focused pane).
            lang = screen.lang
            out.append(
                (
                    text(lang, "palette.search-all"),
                    text(lang, "palette.search-all.tip"),
                    partial(screen.action_jump),
                )
            )
            for pane, _column in PANES:
                if not screen.pane_shown(pane):  # the Lab pane, hidden for operators
                    continue
                title_key = getattr(screen.query_one(f"#{pane}"), "title_key", "")
                label = text(lang, title_key) if title_key else pane
                go = text(lang, "palette.go-to-pane", pane=label)
                out.append((go, "", partial(screen.focus_pane, pane)))
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
