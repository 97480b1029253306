"""The device grid's drawing surface: every device as a bordered cell, or (compact) every node
as one line with a mark per device, drawn line by line.

One widget draws it all (Textual's Line API) and only the lines on screen, so 10,000 devices
cost what the visible lines cost: no widget per device to mount, lay out and compose. A cell's
four lines are kept until its device, its marks or the width change; a title, summary or
node line until its group's counts or the layout change (grid_layout.py says where lines go).

    node lab-node-1 · gpu.example.com · gen 1 · 8 devices      a group's title
    5 in use · 3 free · model LATEST-GPU-MODEL                 its summary
    ╭─ gpu-3 ────────────╮     border colour and the last word say the state
    │ claim gpu-claim    │     (free / allocated / reserved / shared, and where a DRA 1.36
    │ pod pod-a, pod-b   │     feature decides: blocked / tainted / full / binding /
    ╰──────── reserved ──╯     binding-failed); the title carries the warning marker, the
                               cursor and the mark of the selected claim

Compact: `lab-node-1   24    3   17 …  ●●○○○○ ×××▲`, the marks coloured as the cells are
(grid_summary.py). A device the kubelet reports Unhealthy or Unknown carries "✚ Unhealthy" /
"? Unknown" in its cell's title, on a colour of its own, and ✚ / ? as its mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.node_summary import DeviceCounts
from gsb_tui.ui.panes import grid_rows, grid_summary
from gsb_tui.ui.panes.cell import FEATURE_STATES, STATES, Cell
from gsb_tui.ui.panes.cell_draw import HEALTH_CLASSES, draw_cell
from gsb_tui.ui.panes.grid_layout import (
    CELL_HEIGHT,
    CELL_MIN_WIDTH,
    GUTTER,
    CellRow,
    Geometry,
    Group,
    LineRow,
    NodeLine,
)
from gsb_tui.ui.panes.lines import text_segments

__all__ = [
    "CELL_HEIGHT",
    "CELL_MIN_WIDTH",
    "FEATURE_STATES",
    "STATES",
    "Cell",
    "DeviceCanvas",
    "Geometry",
    "Group",
]

AUTO_COMPACT = 2  # boxes taller than this many panes: a line per node instead


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

    class Relaid(Message):
        """Boxes became lines or lines boxes (the pane's title says which)."""

    class LineClicked(Message):
        """A node's line clicked where no device's mark is (its name, its counts)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *, lang: str = "en", classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.lang = lang
        self.cells: dict[DeviceId, Cell] = {}
        self.groups: tuple[Group, ...] = ()
        self.nodes: tuple[NodeLine, ...] = ()  # the compact lines (of the groups shown)
        self.models: Mapping[str, tuple[str, ...]] = {}  # node line -> the models it has
        self.summaries: Mapping[tuple[str, ...], DeviceCounts] = {}  # group key -> counts
        self.line_counts: Mapping[str, DeviceCounts] = {}  # node line -> counts
        self.model_counts: Mapping[str, DeviceCounts] = {}  # model -> counts, every device
        self.choice: bool | None = None  # compact chosen by the user (None: by size)
        self.expanded: frozenset[str] = frozenset()  # compact: nodes shown as boxes too
        self.line_cursor: str | None = None  # compact: the node line the keyboard is on
        # What to keep in view when the layout changes: the cursor's device or node line.
        self.keep_in_view: DeviceId | str | None = None
        self.geometry = Geometry()
        self._unsized = False  # groups came while it had no size: laid out when drawn
        self.columns = grid_summary.Columns(0, (), 0)
        self._drawn: dict[DeviceId, tuple[int, list[list[Segment]]]] = {}  # width, lines
        self._lines: dict[tuple[int, int], Strip] = {}  # (row, offset) -> a text row's line
        self._base = Style()

    # --- what to draw -------------------------------------------------------------------

    @property
    def compact(self) -> bool:
        return self.geometry.compact

    def set_groups(
        self,
        groups: Sequence[Group],
        nodes: Sequence[NodeLine] = (),
        models: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        """New groups (devices came or went, a title changed, the filter): lay out again."""
        self.groups = tuple(groups)
        self.nodes = tuple(nodes)
        self.models = models if models is not None else {}
        self._lay_out()

    def set_counts(
        self,
        summaries: Mapping[tuple[str, ...], DeviceCounts],
        lines: Mapping[str, DeviceCounts],
        models: Mapping[str, DeviceCounts],
    ) -> None:
        """New counts: the summaries, node lines and model lines are drawn again."""
        if (summaries, lines, models) == (self.summaries, self.line_counts, self.model_counts):
            return
        self.summaries, self.line_counts, self.model_counts = summaries, lines, models
        self._lines.clear()
        self.refresh()

    def set_mode(self, choice: bool | None, expanded: frozenset[str]) -> None:
        if (choice, expanded) != (self.choice, self.expanded):
            self.choice, self.expanded = choice, expanded
            self._lay_out()

    def set_line_cursor(self, key: str | None) -> None:
        old, self.line_cursor = self.line_cursor, key
        if old != key:
            self._forget_line(old)
            self._forget_line(key)

    def redraw(self, devices: Sequence[DeviceId]) -> None:
        """These cells changed: forget their drawing and refresh the lines they are on."""
        geometry = self.geometry
        for device in devices:
            self._drawn.pop(device, None)
            if geometry.compact and device in geometry.marks:
                self._forget_line(geometry.node_of(device))
            region = geometry.region(device)
            if region is not None:
                self.refresh(region.translate(-self.scroll_offset))

    def _forget_line(self, key: str | None) -> None:
        index = self.geometry.lines.get(key) if key is not None else None
        if index is None:
            return
        row, top = self.geometry.rows[index], self.geometry.starts[index]
        for offset in range(row.height):
            self._lines.pop((index, offset), None)
        width = self.scrollable_content_region.width or self.size.width
        self.refresh(Region(0, top - self.scroll_offset.y, width, row.height))

    def wants_compact(self, width: int, height: int) -> bool:
        """Compact when the user said so, else when the boxes need many panes to scroll."""
        if self.choice is not None:
            return self.choice
        if not height:
            return False
        return Geometry.boxes_height(self.groups, width) > AUTO_COMPACT * height

    def _lay_out(self, rendering: bool = False) -> None:
        was = self.geometry.compact
        region = self.scrollable_content_region
        if not (region.width or self.size.width):
            # Not on screen yet (a notice until the first view, or another tab): laid out when
            # drawn, not as boxes at the narrowest width (24 ms at 10,000 devices, thrown away).
            self.geometry, self._unsized = Geometry(), True
            return
        self._unsized = False
        width = max(region.width or self.size.width, CELL_MIN_WIDTH)
        compact = bool(self.nodes) and self.wants_compact(width, region.height)
        if compact:
            self.columns = grid_summary.fit_columns(self.nodes, self.models, self.lang)
            x = self.columns.strip_x
            shown = list(self.model_counts)[: grid_summary.MODELS_SHOWN]
            heads = [f"model:{m}" for m in shown]
            if len(self.model_counts) > len(shown):
                heads.append("more-models")
            heads += ["legend", "columns"]
            self.geometry = Geometry.lay_out(
                self.groups,
                width,
                nodes=self.nodes,
                heads=heads,
                strip=(x, width - x),
                expanded=self.expanded,
            )
        else:
            self.geometry = Geometry.lay_out(self.groups, width)
        self._drawn.clear()
        self._lines.clear()
        if self.geometry.compact != was:
            self.post_message(self.Relaid())
        if rendering:  # no refresh from inside a render: the sizes follow once it is done
            self.call_later(self._sized)
        else:
            self._sized()

    def _sized(self) -> None:
        self.virtual_size = Size(self.geometry.width, self.geometry.height)
        self.vertical_scrollbar.position = self.scroll_y  # _anchor_now bypassed its watcher
        self.refresh()
        if self.keep_in_view is not None:
            self.call_after_refresh(self._keep_anchor)

    def _keep_anchor(self) -> None:
        """The cursor's row (or node line) in view again, wherever the new layout put it."""
        region = self.geometry.anchor_region(self.keep_in_view)
        if region is not None:
            self.scroll_to_region(region, animate=False, immediate=True)

    def on_resize(self, _event: events.Resize) -> None:
        self._fit()

    def on_show(self, _event: events.Show) -> None:
        self._fit()

    def _fit(self) -> None:
        region = self.scrollable_content_region
        if not region.width:
            return
        moved = self._unsized or region.width != self.geometry.width
        if moved or self.wants_compact(region.width, region.height) != self.compact:
            self._lay_out()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()  # a theme change recolours every cell
        self._lines.clear()

    # --- drawing ------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The base style walks every ancestor's styles: look it up once per render, not per line.
        self._base = self.rich_style
        width = self.scrollable_content_region.width
        if width and (self._unsized or width != self.geometry.width):
            # First drawn, or a new width with no Resize (Textual 8.2 after palette ->
            # Maximize, then minimized: tests/ui/test_grid_scale.py). Laid out now, so this
            # very frame has cells that fit and shows the cursor's row.
            self._lay_out(rendering=True)
            self._anchor_now()
        return super().render_lines(crop)

    def _anchor_now(self) -> None:
        """The anchor's row in view for the render under way, not a frame later (at
        10,000 devices the first key waited for that frame). Set without its watchers: no
        refresh from inside a render; `_sized` refreshes next."""
        region = self.geometry.anchor_region(self.keep_in_view)
        if region is None:
            return
        window = self.scrollable_content_region.at_offset(self.scroll_offset)
        delta = Region.get_scroll_to_visible(window, region)  # as scroll_to_region moves
        if not delta.y:
            return
        y = max(0, min(window.y + delta.y, self.geometry.height - window.height))
        for name in (ScrollView.scroll_y, ScrollView.scroll_target_y):
            self.set_reactive(name, float(y))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self._base
        geometry = self.geometry
        line = y + self.scroll_offset.y
        index = geometry.row_index(line)
        if index is None:
            return Strip.blank(width, base)
        row, offset = geometry.rows[index], line - geometry.starts[index]
        if not isinstance(row, CellRow):
            kept = self._lines.get((index, offset))
            if kept is None or kept.cell_length != width:
                kept = self._text_line(row, index, offset, width, base)
                self._lines[(index, offset)] = kept
            return kept
        segments: list[Segment] = []
        for column, device in enumerate(row.devices):
            if column:
                segments.append(Segment(" " * GUTTER, base))
            cell = self.cells.get(device)
            if cell is None:
                segments.append(Segment(" " * geometry.cell_width, base))
            else:
                segments.extend(self._cell_lines(cell)[offset])
        used = sum(segment.cell_length for segment in segments)
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        return Strip(segments).crop(0, width)

    def _text_line(self, row: object, index: int, offset: int, width: int, base: Style) -> Strip:
        shown = grid_rows.row_text(self, row, index, offset)
        shown.no_wrap = True
        shown.truncate(width, overflow="ellipsis", pad=True)
        return Strip(self._segments(shown, base), width)

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
        return draw_cell(cell, width, self.lang, self._style, self._segments)

    def cell_segments(self, device: DeviceId) -> list[list[Segment]]:
        """The four lines drawn for a device, with their styles."""
        cell = self.cells.get(device)
        return self._cell_lines(cell) if cell is not None else []

    def cell_text(self, device: DeviceId) -> list[str]:
        """The four lines drawn for a device, as plain text (what a reader of the screen sees)."""
        return ["".join(s.text for s in line) for line in self.cell_segments(device)]

    def text_at(self, line: int) -> str:
        """Line `line` of the whole grid (not only what is on screen), as plain text."""
        index = self.geometry.row_index(line)
        if index is None:
            return ""
        row, offset = self.geometry.rows[index], line - self.geometry.starts[index]
        if isinstance(row, CellRow):
            return " ".join(self.cell_text(d)[offset] for d in row.devices if d in self.cells)
        return self._text_line(row, index, offset, self.geometry.width, Style()).text

    # --- pointing -----------------------------------------------------------------------

    def device_at(self, x: int, y: int) -> DeviceId | None:
        """The device drawn at content offset (x, y), scrolling included."""
        line = y + self.scroll_offset.y
        found = self.geometry.row_at(line)
        if found is None:
            return None
        row = found[0]
        if isinstance(row, LineRow):
            return next(
                (d for d in row.node.devices if self.geometry.marks.get(d) == (line, x)), None
            )
        column = self.geometry.column_at(x + self.scroll_offset.x)
        if column is None or not isinstance(row, CellRow):
            return None
        return row.devices[column] if column < len(row.devices) else None

    def line_at(self, y: int) -> str | None:
        found = self.geometry.row_at(y + self.scroll_offset.y)
        return found[0].node.key if found is not None and isinstance(found[0], LineRow) else None

    def offset_of(self, device: DeviceId) -> tuple[int, int] | None:
        """Where a device's cell (or mark) is on screen, relative to this widget (None:
        scrolled off)."""
        region = self.geometry.region(device)
        if region is None:
            return None
        inside = (2, 1) if device in self.geometry.places else (0, 0)
        x, y = region.x + inside[0], region.y + inside[1] - self.scroll_offset.y
        return (x, y) if 0 <= y < self.size.height else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        device = self.device_at(offset.x, offset.y)
        if device is not None:
            event.stop()
            self.post_message(self.Clicked(device))
            return
        line = self.line_at(offset.y)
        if line is not None:
            event.stop()
            self.post_message(self.LineClicked(line))

    def scroll_to_device(self, device: DeviceId) -> None:
        region = self.geometry.region(device)
        if region is not None:
            self.scroll_to_region(region, animate=False, immediate=True)

    def show_region(self, region: Region, anchor: DeviceId | str | None) -> None:
        """Scroll so `region` is in view; keep `anchor` in view when the layout changes."""
        self.keep_in_view = anchor
        self.scroll_to_region(region, animate=False, immediate=True)
