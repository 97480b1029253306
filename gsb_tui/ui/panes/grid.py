"""The device grid: one cell per published device, grouped by node and pool, or by counter set
where a pool shares counters out (the partitions of one physical device are one group), each
group under its title and a summary line (in use, free, blocked, tainted, unhealthy, model).

A cell says its state in words (free / allocated / reserved / shared, or blocked / tainted /
full / binding / binding-failed where DraView.state says so) as well as colour, names the claim
holding the device and the pods using it, and the health a real node's kubelet reports for it
when that is not Healthy. More devices than a few panes of cells hold, and the grid is compact
(or `z`): a line per node with its counts and a mark per device; Enter opens a node as cells.
`f` filters nodes by name; `l` (or a click on a ledger count) lists the devices behind a count.
Any number of devices scrolls; one DeviceCanvas (device_canvas.py) draws the lines on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input

from gsb_tui.dra.model import Claim, DeviceId
from gsb_tui.dra.node_summary import Category, DeviceCounts, by_model, count, merged
from gsb_tui.dra.view import DraView
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.messages import DeviceSelected, LedgerListWanted
from gsb_tui.ui.panes import grid_groups
from gsb_tui.ui.panes.base import Pane, kind_notice, stale_note
from gsb_tui.ui.panes.device_canvas import Cell, DeviceCanvas
from gsb_tui.ui.panes.grid_filter import NodeFilter, matching
from gsb_tui.ui.panes.grid_keys import GridKeys
from gsb_tui.ui.panes.grid_layout import Group, NodeLine
from gsb_tui.ui.panes.grid_ledger import LedgerLine, first_problem
from gsb_tui.ui.render.flags import NO_WARNINGS, WarningIndex
from gsb_tui.words import text


class DeviceGrid(GridKeys, Pane, can_focus=True):
    title_key = "grid"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous device", show=False, id="gsb.grid.left"),
        Binding("right", "move(1)", "Next device", show=False, id="gsb.grid.right"),
        Binding("up", "move_row(-1)", "Device above", show=False, id="gsb.grid.up"),
        Binding("down", "move_row(1)", "Device below", show=False, id="gsb.grid.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="gsb.grid.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="gsb.grid.pagedown"),
        Binding("home", "edge(0)", "First device", show=False, id="gsb.grid.home"),
        Binding("end", "edge(1)", "Last device", show=False, id="gsb.grid.end"),
        Binding(
            "enter",
            "open",
            "Open node",
            show=False,
            tooltip="Compact: show the node's devices as cells (again: a line again)",
            id="gsb.grid.open",
        ),
        Binding(
            "z",
            "compact",
            "Compact",
            show=False,  # in `?`: the footer keeps room for y, d, / and ? at 80 columns
            tooltip="A line per node with a mark per device, or the cells (boxes)",
            id="gsb.grid.compact",
        ),
        Binding(
            "f",
            "filter_nodes",
            "Nodes",
            show=False,  # in `?`: the footer keeps room for y, d, / and ? at 80 columns
            tooltip="Show only the nodes whose name contains what you type",
            id="gsb.grid.filter",
        ),
        Binding(
            "l",
            "ledger_list",
            "List",
            show=False,  # in `?`: the footer keeps room for y, d, / and ? at 80 columns
            tooltip="The devices behind the ledger's counts (blocked, tainted, …) and why",
            id="gsb.grid.list",
        ),
    ]

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        yield NodeFilter(placeholder=text(self.lang, "grid.filter.placeholder"))
        yield LedgerLine(self.lang, classes="body ledger")
        yield DeviceCanvas(lang=self.lang, classes="body cells")

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.view: DraView | None = None
        self.flags: WarningIndex = NO_WARNINGS
        self.cells: dict[DeviceId, Cell] = {}
        self.order: list[DeviceId] = []  # the devices shown, in the order ←/→ go
        self.cursor: DeviceId | None = None
        self.marked: frozenset[DeviceId] = frozenset()
        self.node_filter = ""
        self.all_groups: tuple[Group, ...] = ()
        self.all_lines: tuple[NodeLine, ...] = ()
        self._index: dict[DeviceId, int] = {}  # place in `order`
        self._line_of: dict[DeviceId, str] = {}  # device -> its node line's key
        self._models: Mapping[str, tuple[str, ...]] = {}
        self._groups_of: tuple[object, ...] = ()  # what the groups were made from
        self._cells_of: tuple[object, ...] = ()  # what the cells were made from
        self._counts_of: tuple[object, ...] = ()  # what the counts were made from
        # The cells whose marked or cursor flag is set: a new mark looks at these and the
        # newly marked, not at every cell (10,000 of them at scale).
        self._painted: set[DeviceId] = set()

    @cached_property
    def canvas(self) -> DeviceCanvas:
        return self.query_one(DeviceCanvas)

    @cached_property
    def filter_input(self) -> NodeFilter:
        return self.query_one(NodeFilter)

    @property
    def columns(self) -> int:
        return self.canvas.geometry.columns

    @property
    def line_cursor(self) -> str | None:
        """The compact node line the keyboard is on (None: on a device, or boxes)."""
        return self.canvas.line_cursor

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
            self.set_notice(self._filter_notice())
        self.set_subtitle(
            stale_note(snap, Kind.SLICES, self.lang) or stale_note(snap, Kind.CLAIMS, self.lang)
        )
        self.query_one(LedgerLine).show(view, flags)
        # The cells follow the devices, their occupancy and availability and the warnings:
        # unchanged, those are the very same objects (dra/ keeps them from build to build).
        made_of = (view.devices, view.occupancy, view.availability, view.health)
        same = len(self._cells_of) == 5 and all(
            a is b for a, b in zip(made_of, self._cells_of[:4], strict=True)
        )
        if not same or flags.by_device != self._cells_of[4]:
            self._make_cells(view, flags)
            self._cells_of = (*made_of, flags.by_device)
        # The groups follow the slices (and counter use): at 10,000 devices making their
        # titles again costs more than the rest of a repaint. Unchanged slices are the very
        # same objects, so the tuple compares by identity, element by element.
        groups_of = (view.slices, grid_groups.counter_use(view))
        if groups_of != self._groups_of:
            self._groups_of = groups_of
            groups = grid_groups.make_groups(view, self.lang)
            if groups != self.all_groups:
                self.all_groups = groups
                self.all_lines = grid_groups.make_lines(groups, self.lang)
                self._models = grid_groups.line_models(view, self.all_lines)
                self._line_of = {d: line.key for line in self.all_lines for d in line.devices}
                self._counts_of = ()
                self._show_groups()  # devices came or went: every place may move
        counts_of = (*made_of, self.all_groups)
        if len(counts_of) != len(self._counts_of) or any(
            a is not b for a, b in zip(counts_of, self._counts_of, strict=True)
        ):
            self._counts_of = counts_of
            self._show_counts(view)
        if self.cursor not in self.cells:
            self.cursor = None
        self._paint_marks()

    def _show_counts(self, view: DraView) -> None:
        """Each group's, node line's and model's counts: the ledger's facts, split."""
        summaries = {g.key: count(view, g.devices) for g in self.all_groups}
        lines: dict[str, DeviceCounts] = {
            line.key: merged(summaries[g.key] for g in line.groups) for line in self.all_lines
        }
        self.canvas.set_counts(summaries, lines, by_model(view))

    def _show_groups(self) -> None:
        """The groups the node filter keeps, to the canvas; the title says what is shown."""
        lines = matching(self.all_lines, self.node_filter)
        groups = tuple(g for line in lines for g in line.groups)
        self.order = [d for g in groups for d in g.devices]
        self._index = {d: i for i, d in enumerate(self.order)}
        canvas = self.canvas
        if canvas.line_cursor is not None and canvas.line_cursor not in {n.key for n in lines}:
            canvas.line_cursor = None
        canvas.set_groups(groups, lines, self._models)
        self._show_title()
        if self.view is not None and self.view.devices:
            self.set_notice(self._filter_notice())

    def _filter_notice(self) -> str | None:
        """What the body says when the node filter leaves no node (None: the grid)."""
        if not self.node_filter or self.order or not self.all_lines:
            return None
        return text(self.lang, "grid.filter.none", filter=self.node_filter)

    def _show_title(self) -> None:
        title = text(self.lang, "grid")
        if self.canvas.compact:
            title = text(self.lang, "grid.title.compact", title=title)
        if self.node_filter:
            shown = len(matching(self.all_lines, self.node_filter))
            title = text(
                self.lang,
                "grid.title.filter",
                title=title,
                filter=self.node_filter,
                shown=shown,
                total=len(self.all_lines),
            )
        self.set_title(title)

    def _make_cells(self, view: DraView, flags: WarningIndex) -> None:
        """Each device's cell, the old one kept and updated; the changed ones redrawn."""
        canvas = self.canvas
        changed: list[DeviceId] = []
        cells: dict[DeviceId, Cell] = {}
        for device in view.devices:
            occ = view.occupancy[device.id]
            avail = view.availability.get(device.id)
            warned = flags.by_device.get(device.id, ())
            health = view.health.devices.get(device.id)
            cell = self.cells.get(device.id)
            if cell is None:
                cell = Cell(occ, warned, availability=avail, health=health)
            elif (
                occ is not cell.occupancy
                or warned != cell.warnings
                or avail is not cell.availability
                or health is not cell.health
            ):
                if (occ, warned, avail, health) != (
                    cell.occupancy,
                    cell.warnings,
                    cell.availability,
                    cell.health,
                ):
                    changed.append(device.id)
                cell.occupancy, cell.warnings, cell.availability = occ, warned, avail
                cell.health = health
            cells[device.id] = cell
        self.cells = canvas.cells = cells
        self._painted &= cells.keys()
        canvas.redraw(changed)  # set_groups after this redraws every place anyway

    # --- selection ----------------------------------------------------------------------

    def mark_claim(self, claim: Claim | None, move_cursor: bool = True) -> None:
        """Highlight the devices of a claim (the claim the Claims pane has selected)."""
        self.marked = frozenset(claim.devices) if claim is not None else frozenset()
        # On a node's line the keyboard stays there: a repaint must not pull it to a device.
        if move_cursor and claim is not None and self.canvas.line_cursor is None:
            first = next((d for d in self.order if d in self.marked), None)
            if first is not None and self.cursor not in self.marked:
                self.cursor = first
        self._paint_marks()

    def _paint_marks(self, scroll: bool = False) -> None:
        """Set the marked and cursor flags on the cells whose marks changed, and redraw them."""
        touched = []
        wanted = {*self.marked, self.cursor} if self.cursor is not None else set(self.marked)
        for device_id in self._painted | wanted:
            cell = self.cells.get(device_id)
            if cell is None:
                continue
            marked, cursor = device_id in self.marked, device_id == self.cursor
            if cell.marked != marked or cell.cursor != cursor:
                cell.marked, cell.cursor = marked, cursor
                touched.append(device_id)
        self._painted = {d for d in wanted if d in self.cells}
        self.canvas.redraw(touched)
        anchor = self.canvas.line_cursor or self.cursor
        if anchor is not None and (scroll or anchor != self.canvas.keep_in_view):
            self.canvas.keep_in_view = anchor
            # Laid out after this refresh: the canvas knows its width (and rows) only then.
            self.call_after_refresh(self._reveal)

    def _reveal(self) -> None:
        """The cursor's row in view, with its group's title and summary for a first row."""
        canvas = self.canvas
        geometry = canvas.geometry
        stop = geometry.stop_of(self.cursor, canvas.line_cursor)
        if stop is None:
            return
        region = geometry.stop_region(geometry.stops[stop], geometry.width)
        canvas.show_region(region, canvas.line_cursor or self.cursor)

    def select_device(self, device: DeviceId, open_node: bool = True) -> None:
        """The cursor on the device, scrolled into view: its node opened in compact mode and
        the node filter cleared if either hides it."""
        if device not in self.cells:
            return
        if device not in self._index and self.node_filter:
            self.node_filter = ""
            self.filter_input.value = ""
            self._show_groups()
            self.app.notify(text(self.lang, "grid.filter.cleared", device=device.device))
        canvas = self.canvas
        line = self._line_of.get(device)
        if canvas.compact and device not in canvas.geometry.places:
            if open_node and line is not None:
                canvas.set_mode(canvas.choice, canvas.expanded | {line})
            else:  # a mark in a closed node's strip: the keyboard on its line
                canvas.set_line_cursor(line)
        if device in canvas.geometry.places:
            canvas.set_line_cursor(None)
        self.cursor = device
        self._paint_marks(scroll=True)
        self.post_message(DeviceSelected(device))

    def on_device_canvas_clicked(self, message: DeviceCanvas.Clicked) -> None:
        message.stop()
        self.focus()
        self.select_device(message.device, open_node=False)

    def on_device_canvas_line_clicked(self, message: DeviceCanvas.LineClicked) -> None:
        message.stop()
        self.focus()
        self._go_line(message.key)

    def on_device_canvas_relaid(self, message: DeviceCanvas.Relaid) -> None:
        message.stop()
        self._show_title()

    def action_filter_nodes(self) -> None:
        found = self.filter_input
        found.display = True
        found.focus()

    @on(Input.Changed, "NodeFilter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != self.node_filter:
            self.node_filter = event.value
            self._show_groups()
            self._paint_marks(scroll=True)

    @on(NodeFilter.Done)
    def _filter_done(self, event: NodeFilter.Done) -> None:
        event.stop()
        if self.node_filter != self.filter_input.value:
            self.node_filter = self.filter_input.value
            self._show_groups()
        self.focus()

    def action_ledger_list(self, category: Category | None = None) -> None:
        if self.view is None:
            return
        wanted = category or first_problem(self.view)
        self.post_message(LedgerListWanted(self.view, wanted, self._listed))

    def _listed(self, device: DeviceId | None) -> None:
        if device is not None:
            self.focus()
            self.select_device(device)

    def on_ledger_line_list_wanted(self, message: LedgerLine.ListWanted) -> None:
        message.stop()
        self.action_ledger_list(message.category)
