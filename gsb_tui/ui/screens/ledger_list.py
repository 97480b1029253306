"""The devices behind a ledger count ("79 tainted", "12 blocked", "122 in use" …): node, pool,
device and why, one row each, by node in natural order. ←/→ shows another count's devices;
Enter closes the list with the device chosen, and the grid goes to it.

Opened by `l` in the grid (on the first kind of trouble there is) or a click on a count of the
ledger line. The rows are dra/node_summary.ledger_entries: as many as the count says.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static, Tab, Tabs

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.node_summary import CATEGORIES, Category, LedgerEntry, ledger_counts
from gsb_tui.dra.node_summary import ledger_entries as entries_of
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.features import STATUSES
from gsb_tui.words import text

ALWAYS: tuple[Category, ...] = ("in-use", "free")  # shown as tabs even when none


def state_words(state: str, lang: str) -> str:
    return state if state in STATUSES else text(lang, f"feat.state.{state}")


def why(entry: LedgerEntry, lang: str) -> str:
    """Why the device is counted where it is, in the words of the ledger and the cells."""
    category = entry.category
    if category == "tainted" and entry.taints:
        return text(lang, "ledger-list.why.taints", taints=", ".join(map(str, entry.taints)))
    if category == "blocked":
        counters = _by_set(entry.short_counters)
        if entry.blocked_by:
            devices = ", ".join(d.device for d in entry.blocked_by)
            return text(lang, "ledger-list.why.counters", counters=counters, devices=devices)
        return text(lang, "ledger-list.why.counters-only", counters=counters)
    if category in ("incomplete-pool", "invalid-pool") and entry.pool_problem is not None:
        state, reason = entry.pool_problem
        return text(lang, "ledger-list.why.pool", state=state_words(state, lang), reason=reason)
    if category in ("unhealthy", "health-unknown") and entry.health is not None:
        health = entry.health
        return text(
            lang,
            "ledger-list.why.health",
            health=health.health,
            message=health.message or "-",
            by=health.said_by,
        )
    if category == "in-use" and entry.holders:
        claims = ", ".join(f"{c.namespace}/{c.name}" for c in entry.holders)
        return text(lang, "ledger-list.why.held", claims=claims)
    if category == "free":
        return text(lang, "ledger-list.why.free")
    return state_words(entry.state, lang)


def _by_set(short: tuple[str, ...]) -> str:
    """ "<set>/<counter>" grouped by set: gpu-0-counters (compute, memory)."""
    sets: dict[str, list[str]] = {}
    for found in short:
        counter_set, _, counter = found.rpartition("/")
        sets.setdefault(counter_set, []).append(counter)
    return "; ".join(f"{s} ({', '.join(c)})" if s else ", ".join(c) for s, c in sets.items())


class LedgerListScreen(ModalScreen[DeviceId | None]):
    DEFAULT_CSS = """
    LedgerListScreen { align: center middle; background: $background 60%; }
    #ledger-list {
        width: 90%; height: 90%; border: round $accent; border-title-style: bold;
        background: $surface; padding: 0 1;
    }
    #ledger-list-tabs { height: 2; }
    #ledger-list-table { height: 1fr; }
    #ledger-list-empty { height: auto; padding: 1; color: $text-muted; text-style: italic; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="gsb.ledger-list.close"),
        # Priority: the table would take ←/→ to scroll sideways.
        Binding("right", "step(1)", "Next count", priority=True, id="gsb.ledger-list.next"),
        Binding("left", "step(-1)", "Previous count", priority=True, id="gsb.ledger-list.previous"),
        # Priority too: the table's own Home and End go sideways, not to the first or last row.
        Binding("home", "edge(0)", "First device", priority=True, id="gsb.ledger-list.home"),
        Binding("end", "edge(1)", "Last device", priority=True, id="gsb.ledger-list.end"),
    ]

    def __init__(self, view: DraView, category: Category, lang: str) -> None:
        super().__init__()
        self.view = view
        self.lang = lang
        counts = ledger_counts(view)
        self.counts = counts
        self.categories = [c for c in CATEGORIES if counts[c] or c in ALWAYS or c == category]
        self.category: Category = category
        self.entries: tuple[LedgerEntry, ...] = ()

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(id="ledger-list") as frame:
            frame.border_subtitle = text(lang, "ledger-list.footer")
            yield Tabs(
                *(
                    Tab(f"{self._what(c)} {self.counts[c]}", id=f"list-{c}")
                    for c in self.categories
                ),
                active=f"list-{self.category}",
                id="ledger-list-tabs",
            )
            yield Static("", id="ledger-list-empty")
            yield DataTable(id="ledger-list-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("node", "pool", "device", "why"):
            table.add_column(text(self.lang, f"ledger-list.col.{key}"), key=key)
        self._fill()
        table.focus()

    def _what(self, category: Category) -> str:
        return text(self.lang, f"ledger-list.what.{category}")

    def _fill(self) -> None:
        lang = self.lang
        self.entries = entries_of(self.view, self.category)
        frame = self.query_one("#ledger-list", Vertical)
        what = self._what(self.category)
        frame.border_title = text(lang, "ledger-list.title", what=what, n=len(self.entries))
        table = self.query_one(DataTable)
        table.clear()
        no_node = text(lang, "ledger-list.no-node")
        table.add_rows(
            (e.node or no_node, e.device.pool, e.device.device, why(e, lang)) for e in self.entries
        )
        empty = self.query_one("#ledger-list-empty", Static)
        empty.update(text(lang, "ledger-list.empty", what=what))
        empty.display = not self.entries
        table.display = bool(self.entries)
        if self.entries:
            table.move_cursor(row=0)

    def show_category(self, category: Category) -> None:
        if category == self.category:
            return
        self.category = category
        tabs = self.query_one(Tabs)
        if tabs.active != f"list-{category}":
            tabs.active = f"list-{category}"
        self._fill()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        found = (event.tab.id or "").removeprefix("list-")
        for category in self.categories:
            if category == found:
                self.show_category(category)
        self.query_one(DataTable).focus()

    def action_step(self, step: int) -> None:
        index = self.categories.index(self.category) + step
        self.show_category(self.categories[index % len(self.categories)])

    def action_edge(self, end: int) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            table.move_cursor(row=table.row_count - 1 if end else 0)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = event.cursor_row
        if 0 <= row < len(self.entries):
            self.dismiss(self.entries[row].device)

    def action_close(self) -> None:
        self.dismiss(None)
