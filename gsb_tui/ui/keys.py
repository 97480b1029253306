"""The gsb bindings as one list: the ids a user's keymap may name, and every binding with the keys
in effect and where it works (what `?` shows). Apart from the App because it reads every screen's
and pane's BINDINGS, not the App's state."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding, BindingsMap
from textual.keys import _character_to_key

from gsb_tui.config import KeyHolder
from gsb_tui.ui.panes.checklist import ChecklistPane
from gsb_tui.ui.panes.claim_table import ClaimTable
from gsb_tui.ui.panes.claims import ClaimFilter
from gsb_tui.ui.panes.details import DetailsScroll
from gsb_tui.ui.panes.grid import DeviceGrid
from gsb_tui.ui.panes.grid_filter import NodeFilter
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.help import HelpScreen
from gsb_tui.ui.screens.jump import JumpScreen
from gsb_tui.ui.screens.ledger_list import LedgerListScreen
from gsb_tui.ui.screens.selector import SelectorScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text


def binding_classes(app_class: type[Any]) -> tuple[type[Any], ...]:
    """Every class whose BINDINGS hold gsb bindings (the App's class first)."""
    return (
        app_class,
        DashboardScreen,
        DeviceGrid,
        ClaimTable,
        ChecklistPane,
        DetailsScroll,
        ClaimFilter,
        TextViewScreen,
        SelectorScreen,
        HelpScreen,
        JumpScreen,
        NodeFilter,
        LedgerListScreen,
    )


# Where each class's bindings work, as the keymap's clash check sees it: the App's everywhere,
# the dashboard's in each of its panes, a pane's only when it has focus, a modal's on it alone.
_PANES = ("grid", "claims", "details", "checklist", "filter", "grid-filter", "other")
_CONTEXTS: dict[type[Any], frozenset[str]] = {
    DashboardScreen: frozenset(f"dashboard:{pane}" for pane in _PANES),
    DeviceGrid: frozenset({"dashboard:grid"}),
    ClaimTable: frozenset({"dashboard:claims"}),
    ChecklistPane: frozenset({"dashboard:checklist"}),
    DetailsScroll: frozenset({"dashboard:details"}),
    ClaimFilter: frozenset({"dashboard:filter"}),
    TextViewScreen: frozenset({"view"}),
    SelectorScreen: frozenset({"selector"}),
    HelpScreen: frozenset({"help"}),
    JumpScreen: frozenset({"jump"}),
    NodeFilter: frozenset({"dashboard:grid-filter"}),
    LedgerListScreen: frozenset({"ledger-list"}),
}
_EVERYWHERE = frozenset().union(*_CONTEXTS.values())


def normalize_key(key: str) -> str:
    """A key as Textual names it in bindings and keymaps ("?" -> "question_mark")."""
    key = key.strip()
    return _character_to_key(key) if len(key) == 1 else key


def key_holders(app_class: type[Any]) -> dict[str, KeyHolder]:
    """Every gsb binding's default keys and where it works: what config.py needs to refuse a
    keymap entry that would take another binding's key."""
    holders: dict[str, KeyHolder] = {}
    for cls in binding_classes(app_class):
        contexts = _CONTEXTS.get(cls, _EVERYWHERE)
        for binding in Binding.make_bindings(cls.BINDINGS):
            if binding.id and binding.id.startswith("gsb."):
                old = holders.get(binding.id, KeyHolder((), contexts))
                keys = (*old.keys, normalize_key(binding.key))
                holders[binding.id] = KeyHolder(keys, old.contexts | contexts)
    return holders


def binding_ids(app_class: type[Any]) -> frozenset[str]:
    """The id of every gsb binding: the ids a user's keymap may name."""
    return frozenset(
        b.id
        for c in binding_classes(app_class)
        for b in Binding.make_bindings(c.BINDINGS)
        if b.id and b.id.startswith("gsb.")
    )


def all_bindings(
    app: App[Any], dashboard: DashboardScreen, lang: str, keymap: dict[str, str]
) -> list[tuple[str, Binding, str]]:
    """Every gsb binding with where it works: App and dashboard first, then each pane.

    With the keys in effect: the user's keymap applied the way Textual applies it to the
    bindings of the focused chain (a remapped binding loses its default keys; an entry that
    would take another binding's key was refused by config.refuse_clashes, see key_holders).
    """
    nodes: list[tuple[Any, str]] = [
        (app, text(lang, "help.anywhere")),
        (dashboard, text(lang, "help.dashboard")),
    ]
    for pane in dashboard.query(".pane"):
        nodes.append((pane, text(lang, getattr(pane, "title_key", "")) or str(pane.id)))
    nodes += [
        (ClaimTable, text(lang, "claims")),
        (DetailsScroll, text(lang, "details")),
        (ClaimFilter, text(lang, "help.claims-filter")),
        (TextViewScreen, text(lang, "help.view")),
        (SelectorScreen, text(lang, "help.selector")),
        (HelpScreen, text(lang, "help.this")),
        (JumpScreen, text(lang, "help.jump")),
        (NodeFilter, text(lang, "help.grid-filter")),
        (LedgerListScreen, text(lang, "help.ledger-list")),
    ]
    out: list[tuple[str, Binding, str]] = []
    for node, where in nodes:
        cls = node if isinstance(node, type) else type(node)
        defaults = [b for b in getattr(cls, "BINDINGS", []) if isinstance(b, Binding)]
        bindings = BindingsMap(defaults)
        if keymap:
            bindings.apply_keymap(keymap)
        in_effect = list(bindings)
        kept = {binding.id for _key, binding in in_effect}
        # A binding whose only key went to another one (a keymap not checked for clashes,
        # as config.load_config without holders reads it): listed, with no key.
        in_effect += [("", b.with_key("", "(no key)")) for b in defaults if b.id not in kept]
        order = {binding.id: index for index, binding in enumerate(defaults)}
        in_effect.sort(key=lambda kb: order.get(kb[1].id, len(order)))
        out += [(key, binding, where) for key, binding in in_effect]
    return out
