"""The device grid: one cell per published device, grouped by node and pool.

A cell says its state in words (free / allocated / reserved / shared) as well as colour, names
the claim holding the device and the pods using it. Any number of devices scrolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from gsb_tui.dra.model import Claim, DeviceId
from gsb_tui.dra.occupancy import Occupancy
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.flags import MARK, NO_WARNINGS, WarningIndex, short
from gsb_tui.ui.messages import DeviceSelected
from gsb_tui.ui.panes.base import Pane, kind_notice, stale_note
from gsb_tui.ui.text import text

CELL_MIN_WIDTH = 24  # three cells across at 80 columns; claim names stay readable


def holders(occ: Occupancy) -> tuple[Claim, ...]:
    """Claims that really hold the device (adminAccess claims only watch it)."""
    admin = {c.key for c in occ.admin_claims}
    return tuple(c for c in occ.claims if c.key not in admin)


def _pod_names(occ: Occupancy) -> str:
    return ", ".join(c.split("/", 1)[-1] for c in occ.consumers)


class DeviceCell(Widget):
    """One device. Clicking it selects it (and, through the dashboard, its claim)."""

    class Clicked(Message):
        def __init__(self, device: DeviceId) -> None:
            super().__init__()
            self.device = device

    def __init__(self, occupancy: Occupancy, warnings: tuple[DraWarning, ...] = ()) -> None:
        # The classes go in at once: each set_class before mounting re-applies the CSS.
        classes = f"cell -{occupancy.status}" + (" -warned" if warnings else "")
        super().__init__(classes=classes)
        self.occupancy = occupancy
        self.warnings = warnings
        self._titles(occupancy, warnings)

    @property
    def device_id(self) -> DeviceId:
        return self.occupancy.device.id

    def _titles(self, occupancy: Occupancy, warnings: tuple[DraWarning, ...]) -> None:
        # The marker and a word or two in the title; the Claim details spell it out.
        flag = f" {MARK} {short(warnings)}" if warnings else ""
        title = f"{occupancy.device.name}{flag}"
        if self.border_title != title:
            self.border_title = title
        if self.border_subtitle != occupancy.status:
            self.border_subtitle = occupancy.status

    def set_occupancy(self, occupancy: Occupancy, warnings: tuple[DraWarning, ...] = ()) -> None:
        self.occupancy = occupancy
        self.warnings = warnings
        status = occupancy.status
        # One batch, applied only when a class really changes (each change re-applies CSS).
        wanted = {f"-{name}": name == status for name in ("free", "allocated", "reserved")}
        wanted["-shared"] = status == "shared"
        wanted["-warned"] = bool(warnings)
        self.update_classes(wanted)
        self._titles(occupancy, warnings)
        self.refresh()

    def set_marks(self, marked: bool, cursor: bool) -> None:
        if self.has_class("-marked") != marked or self.has_class("-cursor") != cursor:
            self.update_classes({"-marked": marked, "-cursor": cursor})

    def render(self) -> Text:
        occ = self.occupancy
        out = Text(no_wrap=True, overflow="ellipsis")
        held = holders(occ)
        if not held:
            memory = occ.device.capacity.get("memory", "")
            out.append("free", style="bold")
            if memory:
                out.append(f" · {memory}", style="dim")
            out.append("\n")
            if occ.admin_claims:
                out.append(f"admin: {occ.admin_claims[0].name}", style="dim")
            return out
        claim_names = ", ".join(c.name for c in held)
        out.append("claim ", style="dim")
        out.append(claim_names, style="bold")
        out.append("\n")
        pods = _pod_names(occ)
        if pods:
            out.append("pod ", style="dim")
            out.append(pods)
        else:
            out.append("no pod yet", style="dim italic")
        return out

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.device_id))


class CellScroll(VerticalScroll, can_focus=False):
    """Scrolls the cells; the grid pane itself takes focus and the arrow keys."""


class DeviceGrid(Pane, can_focus=True):
    title_key = "grid"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous device", show=False, id="gsb.grid.left"),
        Binding("right", "move(1)", "Next device", show=False, id="gsb.grid.right"),
        Binding("up", "move_row(-1)", "Device above", show=False, id="gsb.grid.up"),
        Binding("down", "move_row(1)", "Device below", show=False, id="gsb.grid.down"),
    ]

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        yield Static("", classes="body ledger")
        yield CellScroll(classes="body cells")

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.view: DraView | None = None
        self.flags: WarningIndex = NO_WARNINGS
        self.cells: dict[DeviceId, DeviceCell] = {}
        self.order: list[DeviceId] = []
        self.layout_key: tuple[object, ...] = ()
        self.cursor: DeviceId | None = None
        self.marked: frozenset[DeviceId] = frozenset()
        self.columns = 1
        # What the cells show as marked and as cursor, so a repaint touches only the changes.
        self._painted: frozenset[DeviceId] = frozenset()
        self._painted_cursor: DeviceId | None = None
        self._scrolled_to: DeviceId | None = None
        self._ledger: tuple[object, ...] = ()

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "connecting", server=self.info.server))

    # --- data ---------------------------------------------------------------------------

    def show(self, view: DraView, flags: WarningIndex = NO_WARNINGS) -> None:
        self.view = view
        self.flags = flags
        snap = view.snapshot
        if not view.devices:
            notice = kind_notice(snap, Kind.SLICES, self.info, self.lang, has_data=False)
            self.set_notice(notice or text(self.lang, "no-slices"))
        else:
            self.set_notice(None)
        self.set_subtitle(stale_note(snap, Kind.SLICES) or stale_note(snap, Kind.CLAIMS))
        self._show_ledger(view)
        groups = [
            (key, [d.id for d in devs])
            for key, devs in groupby(view.devices, key=lambda d: (d.node, d.id.driver, d.id.pool))
        ]
        layout_key = tuple((k, tuple(ids)) for k, ids in groups)
        if layout_key != self.layout_key:
            self._rebuild(view, groups)
            self.layout_key = layout_key
        else:
            for device_id, cell in self.cells.items():
                occ = view.occupancy.get(device_id)
                warned = flags.by_device.get(device_id, ())
                if occ is None or (occ is cell.occupancy and warned == cell.warnings):
                    continue
                if occ != cell.occupancy or warned != cell.warnings:
                    cell.set_occupancy(occ, warned)
        if self.cursor not in self.cells:
            self.cursor = None
        self._paint_marks()

    def _show_ledger(self, view: DraView) -> None:
        ledger = view.ledger()
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(
            text(
                self.lang,
                "ledger",
                total=ledger.total,
                used=len(ledger.allocated),
                free=ledger.free,
            )
        )
        pending_claims = [c for c in view.claims.values() if not c.allocated and not c.deleting]
        line.append("\n")
        if ledger.pending_pods:
            pods = ", ".join(p.split("/", 1)[-1] for p in ledger.pending_pods)
            line.append(text(self.lang, "pending", pods=pods), style="bold yellow")
            line.append("  ")
        for claim in pending_claims[:3]:
            wanted = sum(r.count for r in claim.requests)
            line.append(f"{claim.name} wants {wanted}  ", style="yellow")
        for warning in self.flags.unattached[:2]:  # no cell to mark: the claim does not exist
            pod = warning.subject.split("/", 1)[-1]
            line.append(f"{MARK} pod {pod}: {short([warning])}  ", style="bold red")
        shown = (line.plain, tuple(line.spans))
        if shown != self._ledger:  # the same line again would re-layout the pane
            self._ledger = shown
            self.query_one(".ledger", Static).update(line)

    def _rebuild(
        self, view: DraView, groups: Sequence[tuple[tuple[str, str, str], list[DeviceId]]]
    ) -> None:
        box = self.query_one(CellScroll)
        box.remove_children()
        self.cells = {}
        self.order = []
        self._painted, self._painted_cursor, self._scrolled_to = frozenset(), None, None
        widgets: list[Widget] = []
        for (node, driver, pool), ids in groups:
            generation = next(
                (s.generation for s in view.slices if s.pool == pool and s.driver == driver), 0
            )
            title = Text(no_wrap=True, overflow="ellipsis")
            title.append("node ", style="dim")
            title.append(node or "(network)", style="bold")
            if pool != node:
                title.append(" pool ", style="dim")
                title.append(pool)
            title.append(f" · {driver} · gen {generation} · {len(ids)} devices", style="dim")
            widgets.append(Static(title, classes="group-title"))
            cells = []
            for device_id in ids:
                cell = DeviceCell(
                    view.occupancy[device_id], self.flags.by_device.get(device_id, ())
                )
                self.cells[device_id] = cell
                self.order.append(device_id)
                cells.append(cell)
            grid = Grid(*cells, classes="cellgrid")
            grid.styles.grid_size_columns = self.columns
            widgets.append(grid)
        box.mount_all(widgets)

    def on_resize(self, event: events.Resize) -> None:
        # Cells are at least CELL_MIN_WIDTH wide; the grid takes as many columns as fit.
        width = max(1, self.content_size.width - 2)
        columns = max(1, width // CELL_MIN_WIDTH)
        if columns != self.columns:
            self.columns = columns
            for grid in self.query(".cellgrid").results(Grid):
                grid.styles.grid_size_columns = columns

    # --- selection ----------------------------------------------------------------------

    def mark_claim(self, claim: Claim | None, move_cursor: bool = True) -> None:
        """Highlight the devices of a claim (the claim the Claims pane has selected)."""
        self.marked = frozenset(claim.devices) if claim is not None else frozenset()
        if move_cursor and claim is not None:
            first = next((d for d in self.order if d in self.marked), None)
            if first is not None and self.cursor not in self.marked:
                self.cursor = first
        self._paint_marks()

    def _paint_marks(self, scroll: bool = False) -> None:
        """Set -marked and -cursor on the cells whose marks changed, not on every cell."""
        touched = self._painted ^ self.marked
        if self._painted_cursor != self.cursor:
            touched |= {d for d in (self._painted_cursor, self.cursor) if d is not None}
        for device_id in touched:
            cell = self.cells.get(device_id)
            if cell is not None:
                cell.set_marks(device_id in self.marked, device_id == self.cursor)
        self._painted, self._painted_cursor = self.marked, self.cursor
        if self.cursor in self.cells and (scroll or self.cursor != self._scrolled_to):
            self._scrolled_to = self.cursor
            if self.cells[self.cursor].is_mounted:
                self._scroll_to_cursor()
            else:  # mounted just now: it has no place to scroll to until the next refresh
                self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        cell = self.cells.get(self.cursor) if self.cursor is not None else None
        if cell is None or not cell.is_mounted or not cell.region.area:
            self._scrolled_to = None  # not laid out yet: the next repaint tries again
            return
        self.query_one(CellScroll).scroll_to_widget(cell, animate=False)

    def select_device(self, device: DeviceId) -> None:
        if device not in self.cells:
            return
        self.cursor = device
        self._paint_marks(scroll=True)
        self.post_message(DeviceSelected(device))

    def on_device_cell_clicked(self, message: DeviceCell.Clicked) -> None:
        message.stop()
        self.focus()
        self.select_device(message.device)

    def action_move(self, step: int) -> None:
        if not self.order:
            return
        index = self.order.index(self.cursor) + step if self.cursor in self.order else 0
        self.select_device(self.order[max(0, min(len(self.order) - 1, index))])

    def action_move_row(self, step: int) -> None:
        self.action_move(step * self.columns)
