"""The device grid: one cell per published device, grouped by node and pool, or by counter set
where a pool shares counters out (the partitions of one physical device are one group).

A cell says its state in words (free / allocated / reserved / shared, or blocked / tainted /
full / binding / binding-failed where DraView.state says so) as well as colour, names the claim
holding the device and the pods using it, and the health a real node's kubelet reports for it
when that is not Healthy. Any number of devices scrolls; the cells are drawn by
one DeviceCanvas (device_canvas.py), only the rows on screen.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cached_property
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from gsb_tui.dra.availability import CounterLedger, format_quantity
from gsb_tui.dra.model import Claim, Device, DeviceId, Slice
from gsb_tui.dra.view import DraView
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.flags import MARK, NO_WARNINGS, WarningIndex, short
from gsb_tui.ui.messages import DeviceSelected
from gsb_tui.ui.panes.base import Pane, kind_notice, stale_note
from gsb_tui.ui.panes.device_canvas import Cell, DeviceCanvas, Group
from gsb_tui.words import text


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
        yield DeviceCanvas(lang=self.lang, classes="body cells")

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.view: DraView | None = None
        self.flags: WarningIndex = NO_WARNINGS
        self.cells: dict[DeviceId, Cell] = {}
        self.order: list[DeviceId] = []
        self.cursor: DeviceId | None = None
        self.marked: frozenset[DeviceId] = frozenset()
        self._scrolled_to: DeviceId | None = None
        self._ledger: tuple[object, ...] = ()
        self._groups_of: tuple[object, ...] = ()  # what the groups were made from
        self._cells_of: tuple[object, ...] = ()  # what the cells were made from
        # The cells whose marked or cursor flag is set: a new mark looks at these and the
        # newly marked, not at every cell (10,000 of them at scale).
        self._painted: set[DeviceId] = set()

    @cached_property
    def canvas(self) -> DeviceCanvas:
        return self.query_one(DeviceCanvas)

    @property
    def columns(self) -> int:
        return self.canvas.geometry.columns

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
        self.set_subtitle(
            stale_note(snap, Kind.SLICES, self.lang) or stale_note(snap, Kind.CLAIMS, self.lang)
        )
        self._show_ledger(view)
        canvas = self.canvas
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
        groups_of = (view.slices, _counter_use(view))
        if groups_of == self._groups_of:
            groups = canvas.groups
        else:
            groups, self._groups_of = self._groups(view), groups_of
        if groups != canvas.groups:
            canvas.set_groups(groups)  # devices came or went: every place may move
        if self.cursor not in self.cells:
            self.cursor = None
        self._paint_marks()

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
        self.order = [d.id for d in view.devices]
        self._painted &= cells.keys()
        canvas.redraw(changed)  # set_groups after this redraws every place anyway

    def _groups(self, view: DraView) -> tuple[Group, ...]:
        generations = {(s.driver, s.pool): s.generation for s in view.slices}
        slices = {s.name: s for s in view.slices}
        keyed: dict[tuple[str, ...], list[DeviceId]] = {}
        for device in view.devices:
            keyed.setdefault(_group_key(view, device, slices), []).append(device.id)
        groups = []
        for key, ids in keyed.items():
            title = Text(no_wrap=True, overflow="ellipsis")
            if key[0] == "counters":
                _, node, driver, pool, counter_set = key
                self._counter_title(title, view.counters[(driver, pool, counter_set)])
                title.append(" · node ", style="dim")
                title.append(node or "-")
                title.append(" pool ", style="dim")
                title.append(pool)
            else:
                _, node, driver, pool = key
                if node.startswith("@"):  # no node: where the slice's devices are reachable
                    where = node[1:]
                    title.append(text(self.lang, f"feat.where.{where}"), style="bold")
                else:
                    title.append("node ", style="dim")
                    title.append(node or "(network)", style="bold")
                if pool != node:
                    title.append(" pool ", style="dim")
                    title.append(pool)
            generation = generations.get((driver, pool), 0)
            count = text(self.lang, "grid.group-count", n=len(ids))
            title.append(f" · {driver} · gen {generation} · {count}", style="dim")
            groups.append(Group(title, tuple(ids)))
        return tuple(groups)

    def _counter_title(self, title: Text, ledger: CounterLedger) -> None:
        """The set and each counter's use: gpu-0-counters · memory 40Gi used · 40Gi left."""
        title.append(ledger.name, style="bold")
        for counter, total in ledger.total.items():
            used, left = ledger.used.get(counter, Fraction(0)), ledger.left(counter)
            words = text(
                self.lang,
                "feat.group.counter",
                counter=counter,
                used=format_quantity(used),
                left=format_quantity(left),
            )
            title.append(" · ", style="dim")
            title.append(words, style="red" if left <= 0 < total else "")

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
        if ledger.unavailable:  # published, not held, and still not allocatable: say why
            states = Counter(view.state(d) for d in ledger.unavailable)
            for state, style in (
                ("blocked", "dim red"),
                ("tainted", "red"),
                ("incomplete-pool", "yellow"),
                ("invalid-pool", "red"),
            ):
                count = states.pop(state, 0)
                if count:
                    line.append(" · ")
                    line.append(text(self.lang, f"feat.ledger.{state}", n=count), style=style)
            rest = sum(states.values())
            if rest:
                line.append(" · ")
                line.append(text(self.lang, "feat.ledger.unavailable", n=rest), style="dim red")
        line.append("\n")
        published = [d for d in view.health.devices if d in view.occupancy]
        unhealthy, unknown = view.health.counts(published)
        for key, count, style in (
            ("feat.ledger.unhealthy", unhealthy, "bold red"),
            ("feat.ledger.health-unknown", unknown, "bold yellow"),
        ):
            if count:  # as the kubelet reports them for the pods using them
                line.append(text(self.lang, key, n=count), style=style)
                line.append("  ")
        if ledger.pending_keys:
            pods = ", ".join(name for _, name in ledger.pending_keys)
            line.append(text(self.lang, "pending", pods=pods), style="bold yellow")
            line.append("  ")
        # Demand the devices do not meet: the unallocated claims pods wait for.
        for claim, wanted in ledger.waiting_claims[:3]:
            wants = text(self.lang, "ledger.wants", claim=claim.name, n=wanted)
            line.append(f"{wants}  ", style="yellow")
        for warning in self.flags.unattached[:2]:  # no cell to mark: the claim does not exist
            pod = warning.pods[0][1] if warning.pods else ""
            words = text(
                self.lang, "ledger.pod-warning", pod=pod, short=short([warning], self.lang)
            )
            line.append(f"{MARK} {words}  ", style="bold red")
        shown = (line.plain, tuple(line.spans))
        if shown != self._ledger:  # the same line again would re-layout the pane
            self._ledger = shown
            self.query_one(".ledger", Static).update(line, layout=False)  # fixed height

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
        if self.cursor in self.cells and (scroll or self.cursor != self._scrolled_to):
            self._scrolled_to = self.cursor
            # Laid out after this refresh: the canvas knows its width (and rows) only then.
            self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        if self.cursor is not None:
            self.canvas.scroll_to_device(self.cursor)

    def select_device(self, device: DeviceId) -> None:
        if device not in self.cells:
            return
        self.cursor = device
        self._paint_marks(scroll=True)
        self.post_message(DeviceSelected(device))

    def on_device_canvas_clicked(self, message: DeviceCanvas.Clicked) -> None:
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


def _counter_use(view: DraView) -> tuple[object, ...]:
    """What the counter-set titles say: each set's use."""
    return tuple((key, tuple(c.used.items())) for key, c in view.counters.items())


def _group_key(view: DraView, device: Device, slices: dict[str, Slice]) -> tuple[str, ...]:
    """("counters", node, driver, pool, set) for a device consuming a counter set its pool
    shares; else ("node", node, driver, pool), node "@<where>" for a slice with no node."""
    driver, pool = device.id.driver, device.id.pool
    for use in device.consumes:
        if (driver, pool, use.counter_set) in view.counters:
            return ("counters", device.node, driver, pool, use.counter_set)
    node = device.node
    if not node:
        found = slices.get(device.slice_name)
        where = found.where if found is not None else ""
        if device.all_nodes:
            where = "all-nodes"
        elif device.node_selector:
            where = "node-selector"
        node = f"@{where}" if where else ""
    return ("node", node, driver, pool)
