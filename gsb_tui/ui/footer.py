"""Bindings in the user's language: the footer and `?` word each gsb binding from the catalog
(`key.<id>`, `key.<id>.tip`); the bindings themselves keep their English, which a test keeps
equal to the catalog's."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from gsb_tui.words import CATALOG, text


def binding_words(binding: Binding, lang: str) -> tuple[str, str]:
    """(description, tooltip) of a binding in `lang`; a binding the catalog does not know (not
    ours) keeps its own words."""
    key = f"key.{binding.id}"
    if not binding.id or key not in CATALOG:
        return binding.description, binding.tooltip
    tip = text(lang, f"{key}.tip") if f"{key}.tip" in CATALOG else ""
    return text(lang, key), tip


def _by_description(lang: str) -> dict[str, str]:
    """English description -> the same in `lang`, for the footer, whose keys carry only the
    description and the action."""
    out: dict[str, str] = {}
    for key, (en, _) in CATALOG.items():
        if key.startswith("key.gsb.") and not key.endswith(".tip"):
            out.setdefault(en, text(lang, key))
    return out


def shown_bindings(screen: Screen[object]) -> tuple[tuple[object, ...], ...]:
    """What the footer draws of the screen's bindings."""
    return tuple(
        (binding.key, binding.description, binding.action, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class LocalFooter(Footer):
    """Textual's footer with the descriptions in the app's language. It is composed again
    only when what it shows changed: Textual's recomposes (mounting a widget per key, then a
    layout pass) whenever the bindings are looked at again."""

    _composed: tuple[tuple[object, ...], ...] | None = None  # the keys asked for
    _drawn: tuple[tuple[object, ...], ...] | None = None  # the keys composed

    def bindings_changed(self, screen: Screen[object]) -> None:
        will_compose = screen.app.app_focus and self.is_attached and screen is self.screen
        first = False
        if will_compose:
            shown = shown_bindings(screen)
            if shown == self._composed:
                return
            first, self._composed = self._composed is None, shown
        super().bindings_changed(screen)  # composes after the next refresh
        if first:
            # The first keys at once: at 10,000 devices the next refresh is the first view's
            # frame, and the first key then waited for the footer's mounting and layout.
            self.call_later(self.recompose)

    async def recompose(self) -> None:
        if self._drawn is not None and self._drawn == self._composed:
            return  # composed already (the first keys, at once)
        await super().recompose()

    def compose(self) -> ComposeResult:
        lang = getattr(self.app, "lang", "en")
        words = _by_description(lang)
        if self._composed is not None:
            self._drawn = self._composed
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                widget.description = text(lang, "palette.label")  # Textual's own "palette"
            elif isinstance(widget, FooterKey) and widget.description in words:
                widget.description = words[widget.description]
            yield widget
