"""The device grid's drawing surface: every device as a bordered cell, drawn line by line.

One widget draws all cells (Textual's Line API) and only the lines on screen, so 1,000 devices
cost what the visible rows cost: no widget per device to mount, lay out and compose. A cell's
four lines are kept until its device, its marks or the width change.

    ╭─ gpu-3 ────────────╮     border colour and the last word say the state
    │ claim gpu-claim    │     (free / allocated / reserved / shared, and where a DRA 1.36
    │ pod pod-a, pod-b   │     feature decides: blocked / tainted / full / binding /
    ╰──────── reserved ──╯     binding-failed); the title carries the warning marker, the
                               cursor and the mark of the selected claim

A device using a 1.36 feature says its key fact in the body: what blocks it, its taint, its
shares and the capacity left, the binding conditions it waits for or that failed. A device the
kubelet reports Unhealthy or Unknown carries "✚ Unhealthy" / "? Unknown" in its title, on a
colour of its own (cell.py says what a cell shows; this draws it).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gsb_tui.dra.model import DeviceId
from gsb_tui.ui.panes.cell import FEATURE_STATES, STATES, Cell
from gsb_tui.ui.panes.lines import text_segments

__all__ = ["CELL_HEIGHT", "CELL_MIN_WIDTH", "FEATURE_STATES", "STATES", "Cell", "DeviceCanvas"]

CELL_MIN_WIDTH = 24  # three cells across at 80 columns; claim names stay readable
CELL_HEIGHT = 4  # border, claim, pods, border
GUTTER = 1  # columns between cells
HEALTH_CLASSES = {"Unhealthy": "canvas--unhealthy", "Unknown": "canvas--health-unknown"}


@dataclass(frozen=True)
class Group:
    """Devices of one node and pool (or of one counter set: one physical device), under a
    one-line title."""

    title: Text
    devices: tuple[DeviceId, ...]


@dataclass
class Geometry:
    """Where every row, group title and cell sits for one width."""

    columns: int = 1
    cell_width: int = CELL_MIN_WIDTH
    starts: list[int] = field(default_factory=list)  # first line of each row
    rows: list[Group | tuple[DeviceId, ...]] = field(default_factory=list)
    places: dict[DeviceId, tuple[int, int]] = field(default_factory=dict)  # line, column
    height: int = 0

    @classmethod
    def lay_out(cls, groups: Sequence[Group], width: int) -> Geometry:
        columns = max(1, (width + GUTTER) // (CELL_MIN_WIDTH + GUTTER))
        cell_width = max(8, (width - GUTTER * (columns - 1)) // columns)
        geometry = cls(columns, cell_width)
        y = 0
        for group in groups:
            geometry.starts.append(y)
            geometry.rows.append(group)
            y += 1
            for first in range(0, len(group.devices), columns):
                row = group.devices[first : first + columns]
                geometry.starts.append(y)
                geometry.rows.append(row)
                for column, device in enumerate(row):
                    geometry.places[device] = (y, column)
                y += CELL_HEIGHT
        geometry.height = y
        return geometry

    def row_at(self, line: int) -> tuple[Group | tuple[DeviceId, ...], int] | None:
        """The row drawn on `line` and the line's offset inside it."""
        index = bisect.bisect_right(self.starts, line) - 1
        if index < 0 or line >= self.height:
            return None
        return self.rows[index], line - self.starts[index]

    def column_at(self, x: int) -> int | None:
        column, inside = divmod(x, self.cell_width + GUTTER)
        return column if inside < self.cell_width and column < self.columns else None

    def region(self, device: DeviceId) -> Region | None:
        place = self.places.get(device)
        if place is None:
            return None
        y, column = place
        return Region(column * (self.cell_width + GUTTER), y, self.cell_width, CELL_HEIGHT)


class DeviceCanvas(ScrollView, can_focus=False):
    """Draws the cells; the grid pane owns the data, the cursor and the keys."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *(f"canvas--{status}" for status in STATES),
        *(f"canvas--{status}-edge" for status in STATES),
        "canvas--title",
        "canvas--warned",
        "canvas--cursor",
        "canvas--marked",
        *HEALTH_CLASSES.values(),
    }
    # The kubelet's health marks: colours no state, warning or mark uses (gsb.tcss has those).
    DEFAULT_CSS = """
    DeviceCanvas > .canvas--unhealthy { color: white; background: $error; text-style: bold; }
    DeviceCanvas > .canvas--health-unknown {
        color: $background; background: $foreground-darken-2; text-style: bold;
    }
    """

    class Clicked(Message):
        def __init__(self, device: DeviceId) -> None:
            super().__init__()
            self.device = device

    def __init__(self, *, lang: str = "en", classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.lang = lang
        self.cells: dict[DeviceId, Cell] = {}
        self.groups: tuple[Group, ...] = ()
        self.geometry = Geometry()
        self._drawn: dict[DeviceId, tuple[int, list[list[Segment]]]] = {}  # width, lines
        self._base = Style()

    # --- what to draw -------------------------------------------------------------------

    def set_groups(self, groups: Sequence[Group]) -> None:
        """New groups (devices came or went, or a title changed): lay out again."""
        self.groups = tuple(groups)
        self._lay_out()

    def redraw(self, devices: Sequence[DeviceId]) -> None:
        """These cells changed: forget their drawing and refresh the lines they are on."""
        for device in devices:
            self._drawn.pop(device, None)
            region = self.geometry.region(device)
            if region is not None:
                self.refresh(region.translate(-self.scroll_offset))

    def _lay_out(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        self.geometry = Geometry.lay_out(self.groups, max(width, CELL_MIN_WIDTH))
        self._drawn.clear()
        self.virtual_size = Size(width, self.geometry.height)
        self.refresh()

    def on_resize(self, _event: events.Resize) -> None:
        self._fit()

    def on_show(self, _event: events.Show) -> None:
        self._fit()

    def _fit(self) -> None:
        width = self.scrollable_content_region.width
        if width and width != self.virtual_size.width:
            self._lay_out()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()  # a theme change recolours every cell

    # --- drawing ------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The base style walks every ancestor's styles: look it up once per render, not per line.
        self._base = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self._base
        found = self.geometry.row_at(y + self.scroll_offset.y)
        if found is None:
            return Strip.blank(width, base)
        row, offset = found
        if isinstance(row, Group):
            text = row.title.copy()
            text.truncate(width, overflow="ellipsis", pad=True)
            return Strip(self._segments(text, base), width)
        segments: list[Segment] = []
        for column, device in enumerate(row):
            if column:
                segments.append(Segment(" " * GUTTER, base))
            cell = self.cells.get(device)
            if cell is None:
                segments.append(Segment(" " * self.geometry.cell_width, base))
            else:
                segments.extend(self._cell_lines(cell)[offset])
        used = sum(segment.cell_length for segment in segments)
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        return Strip(segments).crop(0, width)

    def _cell_lines(self, cell: Cell) -> list[list[Segment]]:
        width = self.geometry.cell_width
        kept = self._drawn.get(cell.device_id)
        if kept is not None and kept[0] == width:
            return kept[1]
        lines = self._draw(cell, width)
        self._drawn[cell.device_id] = (width, lines)
        return lines

    def _segments(self, text: Text, base: Style) -> list[Segment]:
        return text_segments(self.app.console, text, base)

    def _style(self, *names: str) -> Style:
        return self.get_component_rich_style(*names)

    def _draw(self, cell: Cell, width: int) -> list[list[Segment]]:
        status = cell.status if cell.status in STATES else "free"
        body = self._style(f"canvas--{status}")
        edge = self._style(f"canvas--{status}-edge")
        if cell.marked:
            marked = self._style("canvas--marked")
            body, edge = body + marked, edge + Style(bgcolor=marked.bgcolor)
        title_style = edge + self._style("canvas--title")
        if cell.warned:
            title_style += self._style("canvas--warned")
        if cell.cursor:
            title_style += self._style("canvas--cursor")
        inner = max(0, width - 4)
        whole, badge = cell.title(self.lang), cell.badge
        title = Text(whole, style=title_style)
        if badge and cell.health is not None:  # its own colour, not the title's (nor cursor's)
            name = cell.occupancy.device.name
            title = Text()  # no style of its own: it would reach the badge too
            title.append(name, style=title_style)
            title.append(" ", style=edge)
            title.append(badge, style=edge + self._style(HEALTH_CLASSES[cell.health.health]))
            title.append(whole[len(name) + 1 + len(badge) :], style=title_style)
        title.truncate(max(0, width - 6), overflow="ellipsis")
        top = [Segment("╭─ ", edge), *self._segments(title, Style())]
        top.append(Segment(" " + "─" * max(0, width - 5 - title.cell_len) + "╮", edge))
        word_text = Text(cell.word(self.lang))
        word_text.truncate(max(0, width - 6))
        word = word_text.plain
        bottom = [Segment("╰" + "─" * max(0, width - 5 - cell_len(word)) + " ", edge)]
        bottom += [Segment(word, edge + Style(bold=True)), Segment(" ─╯"[: width - 1], edge)]
        lines = [top]
        for body_line in cell.body(self.lang, inner):
            body_line.truncate(inner, overflow="ellipsis", pad=True)
            middle = [Segment("│ ", edge), *self._segments(body_line, body), Segment(" │", edge)]
            lines.append(middle)
        lines.append(bottom)
        return [list(Segment.adjust_line_length(line, width, edge)) for line in lines]

    def cell_segments(self, device: DeviceId) -> list[list[Segment]]:
        """The four lines drawn for a device, with their styles."""
        cell = self.cells.get(device)
        return self._cell_lines(cell) if cell is not None else []

    def cell_text(self, device: DeviceId) -> list[str]:
        """The four lines drawn for a device, as plain text (what a reader of the screen sees)."""
        return ["".join(s.text for s in line) for line in self.cell_segments(device)]

    # --- pointing -----------------------------------------------------------------------

    def device_at(self, x: int, y: int) -> DeviceId | None:
        """The device drawn at content offset (x, y), scrolling included."""
        found = self.geometry.row_at(y + self.scroll_offset.y)
        column = self.geometry.column_at(x + self.scroll_offset.x)
        if found is None or column is None or isinstance(found[0], Group):
            return None
        row = found[0]
        return row[column] if column < len(row) else None

    def offset_of(self, device: DeviceId) -> tuple[int, int] | None:
        """Where a device's cell is on screen, relative to this widget (None: scrolled off)."""
        region = self.geometry.region(device)
        if region is None:
            return None
        x, y = region.x + 2, region.y + 1 - self.scroll_offset.y
        return (x, y) if 0 <= y < self.size.height else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        device = self.device_at(offset.x, offset.y) if offset is not None else None
        if device is not None:
            event.stop()
            self.post_message(self.Clicked(device))

    def scroll_to_device(self, device: DeviceId) -> None:
        region = self.geometry.region(device)
        if region is not None:
            self.scroll_to_region(region, animate=False, immediate=True)
