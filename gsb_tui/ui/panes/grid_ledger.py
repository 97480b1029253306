"""The grid's ledger line: how many devices, in use, free, and why the rest cannot be
allocated ("79 tainted", "12 blocked"), then health, pending pods and unmet demand.

Each count is a way in: clicking it (or `l` in the grid) opens the list of the devices behind
it with their reasons (screens/ledger_list.py). The counts are dra/node_summary.py's, the
ledger's own facts, so the list always has as many rows as the count says.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from gsb_tui.dra.node_summary import Category, ledger_counts
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.flags import MARK, WarningIndex, short
from gsb_tui.words import text

# The unavailable states the line names, with their style; any other is "cannot be allocated".
NAMED: tuple[tuple[Category, str], ...] = (
    ("blocked", "dim red"),
    ("tainted", "red"),
    ("incomplete-pool", "yellow"),
    ("invalid-pool", "red"),
)
HEALTH: tuple[tuple[Category, str], ...] = (
    ("unhealthy", "bold red"),
    ("health-unknown", "bold yellow"),
)
# Where `l` opens the list: the first of these with devices in it, else the devices in use.
PROBLEMS: tuple[Category, ...] = (
    "blocked",
    "tainted",
    "unhealthy",
    "health-unknown",
    "incomplete-pool",
    "invalid-pool",
    "unavailable",
)

Spot = tuple[int, int, int, Category]  # line, first column, past the last, what it counts


class LedgerLine(Static):
    """Two lines of counts; a click on a count asks for its list."""

    class ListWanted(Message):
        def __init__(self, category: Category) -> None:
            super().__init__()
            self.category = category

    def __init__(self, lang: str, classes: str | None = None) -> None:
        super().__init__("", classes=classes)
        self.lang = lang
        self.spots: list[Spot] = []
        self._shown: tuple[object, ...] = ()

    def show(self, view: DraView, flags: WarningIndex) -> None:
        line, spots = ledger_text(view, flags, self.lang)
        shown = (line.plain, tuple(line.spans))
        self.spots = spots
        if shown != self._shown:  # the same line again would re-layout the pane
            self._shown = shown
            self.update(line, layout=False)  # fixed height

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for y, start, end, category in self.spots:
            if offset.y == y and start <= offset.x < end:
                event.stop()
                self.post_message(self.ListWanted(category))
                return


def first_problem(view: DraView) -> Category:
    """What `l` lists first: the first kind of trouble there is, else the devices in use."""
    counts = ledger_counts(view)
    return next((c for c in PROBLEMS if counts[c]), "in-use")


def ledger_text(view: DraView, flags: WarningIndex, lang: str) -> tuple[Text, list[Spot]]:
    """The two lines, and where each count is on them."""
    ledger = view.ledger()
    counts = ledger_counts(view)
    spots: list[Spot] = []
    first, second = Text(), Text()

    def counted(line: Text, words: str, style: str, category: Category) -> None:
        start = line.cell_len
        line.append(words, style=style)
        spots.append((0 if line is first else 1, start, line.cell_len, category))

    total = text(lang, "ledger", total=ledger.total, used=len(ledger.allocated), free=ledger.free)
    counted(first, total, "", "in-use")
    if ledger.unavailable:  # published, not held, and still not allocatable: say why
        for state, style in NAMED:
            if counts[state]:
                first.append(" · ")
                counted(first, text(lang, f"feat.ledger.{state}", n=counts[state]), style, state)
        if counts["unavailable"]:
            first.append(" · ")
            words = text(lang, "feat.ledger.unavailable", n=counts["unavailable"])
            counted(first, words, "dim red", "unavailable")
    for category, style in HEALTH:
        if counts[category]:  # as the kubelet reports them for the pods using them
            counted(
                second, text(lang, f"feat.ledger.{category}", n=counts[category]), style, category
            )
            second.append("  ")
    if ledger.pending_keys:
        pods = ", ".join(name for _, name in ledger.pending_keys)
        second.append(text(lang, "pending", pods=pods), style="bold yellow")
        second.append("  ")
    # Demand the devices do not meet: the unallocated claims pods wait for.
    for claim, wanted in ledger.waiting_claims[:3]:
        wants = text(lang, "ledger.wants", claim=claim.name, n=wanted)
        second.append(f"{wants}  ", style="yellow")
    for warning in flags.unattached[:2]:  # no cell to mark: the claim does not exist
        pod = warning.pods[0][1] if warning.pods else ""
        words = text(lang, "ledger.pod-warning", pod=pod, short=short([warning], lang))
        second.append(f"{MARK} {words}  ", style="bold red")
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append_text(first)
    line.append("\n")
    line.append_text(second)
    return line, spots
