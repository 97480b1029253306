"""The Claims pane's table: a header line and one line per claim, drawn with the Line API.

Rows are drawn once and kept until they change, and only the rows on screen are drawn at all,
so a claim coming or going costs one row's text, not a redraw of every visible cell (Textual's
DataTable clears every cached cell on each added, removed or sorted row: ~5 ms a frame at lab
size, most of the frame). The cursor row is the selected claim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gsb_tui.ui.panes.lines import text_segments

CELL_PADDING = 1  # columns of space each side of a cell


@dataclass(frozen=True, eq=False)
class TableRow:
    """One claim's row. Compared by identity: an unchanged claim keeps its row object (and its
    drawn line); a changed one gets a new row. Its cells are made when first drawn: at 5,000
    claims only the rows on screen need Text objects (20,000 of them were a tenth of the first
    repaint)."""

    key: str  # "namespace/name"
    make: Callable[[], tuple[Text, ...]]

    @cached_property
    def cells(self) -> tuple[Text, ...]:
        return self.make()


class ClaimTable(ScrollView, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Previous claim", show=False, id="gsb.claims.up"),
        Binding("down", "cursor(1)", "Next claim", show=False, id="gsb.claims.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="gsb.claims.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="gsb.claims.pagedown"),
        Binding("home", "edge(0)", "First claim", show=False, id="gsb.claims.home"),
        Binding("end", "edge(1)", "Last claim", show=False, id="gsb.claims.end"),
        # k9s habits: shift+letter sorts by that column, again reverses (claim_sort.py).
        Binding(
            "N",
            "sort('name')",
            "Sort by name",
            show=False,
            key_display="shift+n",
            tooltip="Sort the claims by namespace/name (again: reversed)",
            id="gsb.claims.sort.name",
        ),
        Binding(
            "S",
            "sort('state')",
            "Sort by state",
            show=False,
            key_display="shift+s",
            tooltip="Sort the claims by STATE (again: reversed)",
            id="gsb.claims.sort.state",
        ),
        Binding(
            "A",
            "sort('age')",
            "Sort by age",
            show=False,
            key_display="shift+a",
            tooltip="Sort the claims by age, newest first (again: oldest first)",
            id="gsb.claims.sort.age",
        ),
        Binding(
            "D",
            "sort('devices')",
            "Sort by devices",
            show=False,
            key_display="shift+d",
            tooltip="Sort the claims by how many devices they hold (again: reversed)",
            id="gsb.claims.sort.devices",
        ),
        Binding(
            "C",
            "sort('consumers')",
            "Sort by consumers",
            show=False,
            key_display="shift+c",
            tooltip="Sort the claims by the pods using them (again: reversed)",
            id="gsb.claims.sort.consumers",
        ),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "claim-table--header",
        "claim-table--odd",
        "claim-table--cursor",
        "claim-table--cursor-blurred",
        "claim-table--empty",
    }

    class Highlighted(Message):
        """The user moved the cursor to a row (programmatic moves say nothing)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class SortAsked(Message):
        """A sort key was pressed: the pane owning the rows orders them."""

        def __init__(self, column: str) -> None:
            super().__init__()
            self.column = column

    def __init__(self, headers: Sequence[str], *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.headers = tuple(headers)
        self.widths = [len(h) for h in self.headers]
        self.rows: list[TableRow] = []
        self._index: dict[str, int] = {}
        self.cursor_row = 0
        self._base = Style()
        self._lines: LRUCache[tuple[object, ...], Strip] = LRUCache(4096)
        self.empty_text = ""  # drawn under the header while there are no rows

    # --- data -------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def cursor_key(self) -> str | None:
        return self.rows[self.cursor_row].key if self.rows else None

    def get_row(self, key: str) -> TableRow:
        return self.rows[self._index[key]]

    def get_row_at(self, index: int) -> TableRow:
        return self.rows[index]

    def set_rows(self, rows: Sequence[TableRow]) -> None:
        """Show these rows, in this order; the cursor stays on its claim while it is there."""
        before = self.cursor_key
        same = len(rows) == len(self.rows)
        if same and all(a is b for a, b in zip(rows, self.rows, strict=True)):
            return
        old_rows, old_cursor, old_size = self.rows, self.cursor_row, self.virtual_size
        self.rows = list(rows)
        self._index = {row.key: i for i, row in enumerate(self.rows)}
        if before in self._index:
            self.cursor_row = self._index[before]
        self.cursor_row = max(0, min(self.cursor_row, len(self.rows) - 1))
        self._size_to_rows()
        # Fewer rows than the scroll offset (a filter typed while scrolled down): back to
        # where the rows are, or the table looks empty until Home.
        top = max(0, len(self.rows) - max(1, self.scrollable_content_region.height - 1))
        if self.scroll_offset.y > top:
            self.scroll_to(y=top, animate=False, immediate=True)
            self.refresh()
            return
        if self.virtual_size != old_size:
            self.refresh()
            return
        self._refresh_changed(old_rows, old_cursor)

    def set_headers(self, headers: Sequence[str]) -> None:
        """New header words (the sort's arrow): only the header line changes."""
        if tuple(headers) != self.headers:
            self.headers = tuple(headers)
            self._lines.clear()  # the header's cached line does not key on its words
            self.refresh(Region(0, 0, self.size.width, 1))

    def _refresh_changed(self, old_rows: Sequence[TableRow], old_cursor: int) -> None:
        """Redraw only the visible lines whose row or cursor mark changed: a claim coming or
        going redrew every line of the table, though it changes one line and those below it."""
        top = self.scroll_offset.y
        for index in range(top, top + self.scrollable_content_region.height - 1):
            was = old_rows[index] if index < len(old_rows) else None
            now = self.rows[index] if index < len(self.rows) else None
            marked = (index == old_cursor) != (index == self.cursor_row)
            if was is not now or (marked and now is not None):
                self._refresh_line(index)

    def _refresh_line(self, index: int) -> None:
        """Redraw row `index`'s line, when it is on screen (the header is line 0)."""
        line = index - self.scroll_offset.y + 1
        if 1 <= line < self.scrollable_content_region.height:
            self.refresh(Region(0, line, self.size.width, 1))

    def set_empty(self, words: str) -> None:
        """What the table says while it has no rows. Said inside the table, not by hiding it
        for a notice: the first claim coming and the last going would each lay out the screen."""
        if words != self.empty_text:
            self.empty_text = words
            if not self.rows:  # drawn on the first line under the header only
                self._refresh_line(0)

    def set_widths(self, widths: Sequence[int]) -> None:
        if list(widths) != self.widths:
            self.widths = list(widths)
            self._lines.clear()
            self._size_to_rows()
            self.refresh()

    def _size_to_rows(self) -> None:
        """Header plus rows, but never less than the visible region: while the rows fit, a
        claim coming or going (or a longer name widening a column) leaves the size alone (a
        new size lays out the whole screen)."""
        visible = self.scrollable_content_region.size
        height = max(len(self.rows) + 1, visible.height)
        size = Size(max(self._line_width(), visible.width), height)
        if size != self.virtual_size:
            self.virtual_size = size

    def on_resize(self, _event: events.Resize) -> None:
        self._size_to_rows()

    def _line_width(self) -> int:
        return sum(w + 2 * CELL_PADDING for w in self.widths)

    # --- drawing ----------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The base style walks every ancestor's styles: look it up once per render, not per line.
        self._base = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:  # the header stays put while the rows scroll
            return self._line(None, self.headers, self._style("claim-table--header"), width)
        index = y - 1 + self.scroll_offset.y
        if not self.rows and index == 0 and self.empty_text:
            style = self._style("claim-table--empty")
            return self._line(None, (Text(self.empty_text),), style, width, whole=True)
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, self._base)
        row = self.rows[index]
        if index == self.cursor_row:
            name = "claim-table--cursor" if self.has_focus else "claim-table--cursor-blurred"
            style = self._style(name)
        else:
            style = self._style("claim-table--odd") if index % 2 else self._base
        return self._line(row, row.cells, style, width)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name)

    def _line(
        self,
        row: TableRow | None,
        cells: Sequence[Text | str],
        style: Style,
        width: int,
        whole: bool = False,
    ) -> Strip:
        """One line of cells in the columns' widths (whole: one cell across the line)."""
        cache_key: tuple[object, ...] = (
            row,
            style,
            width,
            tuple(self.widths),
            self.scroll_offset.x,
            whole,
        )
        if whole:
            cache_key += tuple(str(c) for c in cells)
        cached = self._lines.get(cache_key)
        if cached is not None:
            return cached
        segments: list[Segment] = []
        pad = Segment(" " * CELL_PADDING, style)
        widths = [max(0, width - 2 * CELL_PADDING)] if whole else self.widths
        for cell, cell_width in zip(cells, widths, strict=False):
            text = cell.copy() if isinstance(cell, Text) else Text(cell)
            text.no_wrap = True
            text.truncate(cell_width, overflow="ellipsis", pad=True)
            segments += [pad, *text_segments(self.app.console, text, style), pad]
        x = self.scroll_offset.x
        strip = Strip(segments).crop_extend(x, x + width, style)
        self._lines[cache_key] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()  # a theme change restyles every line

    # The cursor row's colour says whether the table has focus.
    def on_focus(self, _event: events.Focus) -> None:
        self.refresh()

    def on_blur(self, _event: events.Blur) -> None:
        self.refresh()

    # --- cursor -----------------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        """Put the cursor on a row (from elsewhere: no Highlighted message)."""
        if not self.rows:
            return
        row = max(0, min(row, len(self.rows) - 1))
        if row != self.cursor_row:
            self._refresh_line(self.cursor_row)
            self.cursor_row = row
            self._refresh_line(row)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        visible = max(1, self.scrollable_content_region.height - 1)  # rows under the header
        top = int(self.scroll_offset.y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False, immediate=True)

    def _user_move(self, row: int) -> None:
        before = self.cursor_row
        self.move_cursor(row)
        if self.rows and self.cursor_row != before:
            self.post_message(self.Highlighted(self.rows[self.cursor_row].key))

    def action_cursor(self, step: int) -> None:
        self._user_move(self.cursor_row + step)

    def action_page(self, step: int) -> None:
        self._user_move(self.cursor_row + step * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, end: int) -> None:
        self._user_move(len(self.rows) - 1 if end else 0)

    def action_sort(self, column: str) -> None:
        self.post_message(self.SortAsked(column))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        index = offset.y - 1 + int(self.scroll_offset.y)
        if 0 <= index < len(self.rows):
            event.stop()
            before = self.cursor_row
            self.move_cursor(index)
            if index != before:
                self.post_message(self.Highlighted(self.rows[index].key))
