"""Where the grid's lines go, for one width: boxes (a title, a summary and rows of cells per
group) or compact (a line per node with a strip of one mark per device, the nodes the user
opened shown as boxes under their line).

Laid out once per width, mode and set of groups; drawing a line then looks its row up by
bisection, so 10,000 devices cost what the lines on screen cost. `stops` are where the
keyboard's cursor goes: a row of cells, or a node's line in compact mode.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.geometry import Region

from gsb_tui.dra.model import DeviceId

CELL_MIN_WIDTH = 24  # three cells across at 80 columns; claim names stay readable
CELL_HEIGHT = 4  # border, claim, pods, border
GUTTER = 1  # columns between cells
STRIP_MIN = 8  # narrower than this, a node's strip goes under its counts


@dataclass(frozen=True)
class Group:
    """Devices of one node and pool (or of one counter set: one physical device), under a
    one-line title; `node` is what the node filter and the compact lines go by."""

    title: Text
    devices: tuple[DeviceId, ...]
    key: tuple[str, ...] = ()
    node: str = ""


@dataclass(frozen=True)
class NodeLine:
    """One line of the compact grid: a node's groups (or a pool reached without a node)."""

    key: str  # the node's name, or "@<where>/<pool>" for a pool of no node
    label: str
    groups: tuple[Group, ...]

    @property
    def devices(self) -> tuple[DeviceId, ...]:
        return tuple(d for g in self.groups for d in g.devices)


# The rows a layout is made of.
@dataclass(frozen=True)
class TitleRow:
    group: Group
    height: int = 1


@dataclass(frozen=True)
class SummaryRow:
    group: Group
    height: int = 1


@dataclass(frozen=True)
class CellRow:
    devices: tuple[DeviceId, ...]
    group: Group
    first: bool  # the group's first row: moving to it shows the title and summary too
    height: int = CELL_HEIGHT


@dataclass(frozen=True)
class LineRow:
    node: NodeLine
    height: int  # its strip wraps when the node has more devices than the strip has room


@dataclass(frozen=True)
class HeadRow:
    """The compact grid's own lines above the nodes: models, column names."""

    what: str  # "model:<name>" or "columns"
    height: int = 1


Row = TitleRow | SummaryRow | CellRow | LineRow | HeadRow


@dataclass
class Geometry:
    """Where every row sits for one width."""

    columns: int = 1
    cell_width: int = CELL_MIN_WIDTH
    width: int = CELL_MIN_WIDTH
    compact: bool = False
    strip_x: int = 0  # compact: where each node's strip starts (its first line)
    strip_width: int = 0
    starts: list[int] = field(default_factory=list)  # first line of each row
    rows: list[Row] = field(default_factory=list)
    places: dict[DeviceId, tuple[int, int]] = field(default_factory=dict)  # boxes: line, column
    marks: dict[DeviceId, tuple[int, int]] = field(default_factory=dict)  # strips: line, x
    lines: dict[str, int] = field(default_factory=dict)  # node key -> its LineRow's index
    stops: list[int] = field(default_factory=list)  # row indices the cursor goes to
    stop_at: dict[int, int] = field(default_factory=dict)  # row index -> its place in stops
    height: int = 0

    @staticmethod
    def fit_columns(width: int) -> tuple[int, int]:
        """(cells across, cell width) for a width: as many as fit, never fewer than one."""
        columns = max(1, (width + GUTTER) // (CELL_MIN_WIDTH + GUTTER))
        return columns, max(8, (width - GUTTER * (columns - 1)) // columns)

    @staticmethod
    def boxes_height(groups: Sequence[Group], width: int) -> int:
        """How many lines the groups take as boxes at this width (auto compact asks)."""
        columns, _ = Geometry.fit_columns(width)
        return sum(2 + CELL_HEIGHT * -(-len(g.devices) // columns) for g in groups)

    @classmethod
    def lay_out(
        cls,
        groups: Sequence[Group],
        width: int,
        *,
        nodes: Sequence[NodeLine] = (),
        heads: Sequence[str] = (),
        strip: tuple[int, int] = (0, 0),
        expanded: frozenset[str] = frozenset(),
    ) -> Geometry:
        """Boxes when `nodes` is empty, else compact: `heads` on top, a line per node with
        its strip at `strip` (x, width), and the `expanded` nodes' groups as boxes."""
        columns, cell_width = cls.fit_columns(width)
        geometry = cls(columns, cell_width, width, compact=bool(nodes))
        if not nodes:
            for group in groups:
                geometry._add_boxes(group)
        else:
            geometry.strip_x, geometry.strip_width = strip
            for what in heads:
                geometry._add(HeadRow(what))
            for node in nodes:
                geometry._add_line(node)
                if node.key in expanded:
                    for group in node.groups:
                        geometry._add_boxes(group)
        return geometry

    def _add(self, row: Row) -> int:
        self.starts.append(self.height)
        self.rows.append(row)
        self.height += row.height
        return len(self.rows) - 1

    def _add_boxes(self, group: Group) -> None:
        self._add(TitleRow(group))
        self._add(SummaryRow(group))
        columns = self.columns
        for first in range(0, len(group.devices), columns):
            row = group.devices[first : first + columns]
            y = self.height
            self._stop(self._add(CellRow(row, group, first == 0)))
            for column, device in enumerate(row):
                self.places[device] = (y, column)

    def _add_line(self, node: NodeLine) -> None:
        """A node's line: its strip wraps under itself, a space between groups."""
        x0, room = self.strip_x, self.strip_width
        if room < STRIP_MIN:  # no room beside the counts: the strip starts on the next line
            x0, room, line = 2, max(1, self.width - 2), 1
        else:
            line = 0
        y, x = self.height + line, 0
        for index, group in enumerate(node.groups):
            if index and x:
                x += 1  # a space between groups (pools, counter sets)
            for device in group.devices:
                if x >= room:
                    y, x = y + 1, 0
                self.marks[device] = (y, x0 + x)
                x += 1
        height = y - self.height + 1
        index = self._add(LineRow(node, height))
        self.lines[node.key] = index
        self._stop(index)

    def _stop(self, index: int) -> None:
        self.stop_at[index] = len(self.stops)
        self.stops.append(index)

    # --- looking things up -----------------------------------------------------------------

    def row_index(self, line: int) -> int | None:
        index = bisect.bisect_right(self.starts, line) - 1
        return index if index >= 0 and line < self.height else None

    def row_at(self, line: int) -> tuple[Row, int] | None:
        """The row drawn on `line` and the line's offset inside it."""
        index = self.row_index(line)
        return None if index is None else (self.rows[index], line - self.starts[index])

    def column_at(self, x: int) -> int | None:
        column, inside = divmod(x, self.cell_width + GUTTER)
        return column if inside < self.cell_width and column < self.columns else None

    def region(self, device: DeviceId) -> Region | None:
        """The cell's region (boxes), or the strip mark's (compact)."""
        place = self.places.get(device)
        if place is not None:
            y, column = place
            return Region(column * (self.cell_width + GUTTER), y, self.cell_width, CELL_HEIGHT)
        mark = self.marks.get(device)
        return Region(mark[1], mark[0], 1, 1) if mark is not None else None

    def stop_region(self, index: int, width: int) -> Region:
        """A stop's lines, with its group's title and summary for a group's first row."""
        row, top = self.rows[index], self.starts[index]
        bottom = top + row.height
        if isinstance(row, CellRow) and row.first and index >= 2:
            top = self.starts[index - 2]
        if self.stops and index == self.stops[0]:
            top = 0  # the first stop: whatever is above it too (models, columns, a title)
        return Region(0, top, width, bottom - top)

    def stop_of(self, device: DeviceId | None, line: str | None) -> int | None:
        """Where the cursor is: the node line, else the device's row (its node's line when
        the device is in a closed node's strip)."""
        if line is not None and line in self.lines:
            return self.stop_at[self.lines[line]]
        if device is None:
            return None
        place = self.places.get(device) or self.marks.get(device)
        if place is None:
            return None
        index = self.row_index(place[0])
        return self.stop_at.get(index) if index is not None else None

    def anchor_region(self, anchor: DeviceId | str | None) -> Region | None:
        """The lines to keep in view for a cursor on a device or (a str) a node's line."""
        if anchor is None:
            return None
        line, device = (anchor, None) if isinstance(anchor, str) else (None, anchor)
        stop = self.stop_of(device, line)
        return None if stop is None else self.stop_region(self.stops[stop], self.width)

    def node_of(self, device: DeviceId) -> str | None:
        """The compact line whose strip holds the device."""
        mark = self.marks.get(device)
        if mark is None:
            return None
        index = self.row_index(mark[0])
        row = self.rows[index] if index is not None else None
        return row.node.key if isinstance(row, LineRow) else None
