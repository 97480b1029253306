"""The grid's text rows, as the canvas draws them: a group's title and summary, the compact
grid's model lines and column names, and a node's line with one mark per device (coloured as
the device's cell is: the canvas's component styles)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from gsb_tui.dra.node_summary import DeviceCounts
from gsb_tui.ui.panes import grid_summary
from gsb_tui.ui.panes.cell import STATES, Cell
from gsb_tui.ui.panes.cell_draw import HEALTH_CLASSES
from gsb_tui.ui.panes.grid_layout import HeadRow, LineRow, SummaryRow, TitleRow

if TYPE_CHECKING:  # device_canvas.py imports this module
    from gsb_tui.ui.panes.device_canvas import DeviceCanvas


def row_text(canvas: DeviceCanvas, row: object, index: int, offset: int) -> Text:
    """Line `offset` of the text row at `index` (any row but a row of cells)."""
    if isinstance(row, TitleRow):
        return row.group.title.copy()
    if isinstance(row, SummaryRow):
        counts = canvas.summaries.get(row.group.key)
        return grid_summary.summary_text(counts, canvas.lang) if counts else Text()
    if isinstance(row, HeadRow):
        return _head(canvas, row.what)
    if isinstance(row, LineRow):
        return _node_line(canvas, row, index, offset)
    return Text()


def _head(canvas: DeviceCanvas, what: str) -> Text:
    lang = canvas.lang
    if what == "columns":
        return grid_summary.columns_text(canvas.columns, lang)
    if what == "legend":
        return grid_summary.legend_text(lang, lambda state: mark_style(canvas, state))
    if what == "more-models":
        left = len(canvas.model_counts) - grid_summary.MODELS_SHOWN
        return grid_summary.more_models(left, lang)
    model = what.removeprefix("model:")
    counts = canvas.model_counts.get(model)
    return grid_summary.model_head(model, counts, lang) if counts else Text()


def _node_line(canvas: DeviceCanvas, row: LineRow, index: int, offset: int) -> Text:
    """One line of a node's line: its name and counts (first line), and its marks."""
    node, geometry = row.node, canvas.geometry
    shown = Text(no_wrap=True)
    if offset == 0:
        counts = canvas.line_counts.get(node.key, DeviceCounts())
        cursor = node.key == canvas.line_cursor
        style = canvas.get_component_rich_style("canvas--cursor") if cursor else "bold"
        models = canvas.models.get(node.key, ())
        shown = grid_summary.line_prefix(node, counts, models, canvas.columns, canvas.lang, style)
    y = geometry.starts[index] + offset
    for device in node.devices:
        place = geometry.marks.get(device)
        if place is None or place[0] != y:
            continue
        if shown.cell_len < place[1]:
            shown.append(" " * (place[1] - shown.cell_len))
        cell = canvas.cells.get(device)
        if cell is not None:
            shown.append(*_mark(canvas, cell))
    return shown


def _mark(canvas: DeviceCanvas, cell: Cell) -> tuple[str, Style]:
    mark, state = grid_summary.mark_of(cell)
    style = mark_style(canvas, state)
    if cell.marked:
        marked = canvas.get_component_rich_style("canvas--marked")
        style += Style(bgcolor=marked.bgcolor, bold=True)
    if cell.cursor:
        style += canvas.get_component_rich_style("canvas--cursor")
    return mark, style


def mark_style(canvas: DeviceCanvas, state: str) -> Style:
    """A state's mark: its cells' border colour (health: the badge's own colours)."""
    if state in HEALTH_CLASSES:
        return canvas.get_component_rich_style(HEALTH_CLASSES[state])
    edge = canvas.get_component_rich_style(f"canvas--{state if state in STATES else 'free'}-edge")
    return Style(color=edge.color, bold=True)
