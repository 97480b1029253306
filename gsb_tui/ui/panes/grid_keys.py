"""The grid's keys: ←/→ device by device, ↑/↓ row by row (compact: node line by line),
PageUp/PageDown a pane at a time, Home/End, Enter to open or close a node in compact mode, and
`z` for compact or boxes. Each moves between the layout's stops (grid_layout.py): a row of
cells, or a node's line; a mixin of DeviceGrid, which holds the cursor and the data."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from gsb_tui.dra.model import DeviceId
from gsb_tui.ui.panes.grid_layout import CellRow, LineRow

if TYPE_CHECKING:
    from gsb_tui.ui.panes.device_canvas import DeviceCanvas

FAR = 1 << 30  # a column past any row's end: its last device


class GridKeys:
    """What the keys do; DeviceGrid provides the cursor, the order and selection."""

    if TYPE_CHECKING:
        cursor: DeviceId | None
        order: list[DeviceId]
        _index: dict[DeviceId, int]
        _line_of: dict[DeviceId, str]

        @property
        def canvas(self) -> DeviceCanvas: ...

        def select_device(self, device: DeviceId, open_node: bool = True) -> None: ...

        def _paint_marks(self, scroll: bool = False) -> None: ...

        def _show_title(self) -> None: ...

    def _go_line(self, key: str) -> None:
        """The keyboard on a node's line (the device cursor off: y and d act on the claim)."""
        self.canvas.set_line_cursor(key)
        self.cursor = None
        self._paint_marks(scroll=True)

    def _go_stop(self, stop: int, column: int) -> None:
        geometry = self.canvas.geometry
        if not geometry.stops:
            return
        row = geometry.rows[geometry.stops[max(0, min(len(geometry.stops) - 1, stop))]]
        if isinstance(row, LineRow):
            self._go_line(row.node.key)
        elif isinstance(row, CellRow):
            self.select_device(row.devices[max(0, min(len(row.devices) - 1, column))])

    def _where(self) -> tuple[int | None, int]:
        """The stop the cursor is at, and its column (0 on a line)."""
        geometry = self.canvas.geometry
        stop = geometry.stop_of(self.cursor, self.canvas.line_cursor)
        place = geometry.places.get(self.cursor) if self.cursor is not None else None
        return stop, place[1] if place is not None and self.canvas.line_cursor is None else 0

    def action_move(self, step: int) -> None:
        if not self.order:
            return
        stop, _column = self._where()
        if stop is None:
            self._go_stop(0, 0)
            return
        places = self.canvas.geometry.places
        cursor = self.cursor if self.canvas.line_cursor is None else None
        index = self._index.get(cursor) if cursor is not None else None
        if index is not None:
            found = self.order[max(0, min(len(self.order) - 1, index + step))]
            if found in places:
                self.select_device(found)
                return
        # From a node's line, or past the node's cells: the line (or row) beside it.
        self._go_stop(stop + step, 0 if step > 0 else FAR)

    def action_move_row(self, step: int) -> None:
        stop, column = self._where()
        self._go_stop(0 if stop is None else stop + step, column)

    def action_page(self, step: int) -> None:
        canvas = self.canvas
        geometry = canvas.geometry
        stop, column = self._where()
        if stop is None:
            self._go_stop(0, 0)
            return
        height = max(1, canvas.scrollable_content_region.height)
        target = geometry.starts[geometry.stops[stop]] + step * height
        starts = [geometry.starts[i] for i in geometry.stops]
        if step > 0:
            found = bisect.bisect_left(starts, target)
        else:
            found = bisect.bisect_right(starts, target) - 1
        if found == stop:
            found += step
        canvas.scroll_to(y=canvas.scroll_offset.y + step * height, animate=False, immediate=True)
        self._go_stop(found, column)

    def action_edge(self, end: int) -> None:
        self._go_stop(len(self.canvas.geometry.stops) - 1 if end else 0, FAR if end else 0)

    def action_open(self) -> None:
        """Compact: open the node under the keyboard (its first device), or close it again."""
        canvas = self.canvas
        if not canvas.compact:
            return
        line = canvas.line_cursor
        if line is not None:
            canvas.set_mode(canvas.choice, canvas.expanded | {line})
            node = canvas.geometry.rows[canvas.geometry.lines[line]]
            if isinstance(node, LineRow) and node.node.devices:
                self.select_device(node.node.devices[0])
            return
        line = self._line_of.get(self.cursor) if self.cursor is not None else None
        if line is not None and line in canvas.expanded:
            canvas.set_mode(canvas.choice, canvas.expanded - {line})
            self._go_line(line)

    def action_compact(self) -> None:
        """Boxes <-> a line per node, whatever the size chose."""
        canvas = self.canvas
        compact = not canvas.compact
        if not compact:
            canvas.set_line_cursor(None)
        canvas.set_mode(compact, canvas.expanded if compact else frozenset())
        self._show_title()
        self._paint_marks(scroll=True)
