"""A device's cell drawn as four bordered lines (cell.py says what they say):

╭─ gpu-3 ────────────╮     border colour and the last word say the state; the title
│ claim gpu-claim    │     carries the health badge (its own colour), the warning
│ pod pod-a, pod-b   │     marker, the cursor and the mark of the selected claim
╰──────── reserved ──╯
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from gsb_tui.ui.panes.cell import STATES, Cell

HEALTH_CLASSES = {"Unhealthy": "canvas--unhealthy", "Unknown": "canvas--health-unknown"}

StyleOf = Callable[..., Style]  # component class names -> their style
Segments = Callable[[Text, Style], list[Segment]]


def draw_cell(
    cell: Cell, width: int, lang: str, style: StyleOf, segments: Segments
) -> list[list[Segment]]:
    """A cell's four lines at `width`, styled by the canvas's component styles."""
    status = cell.status if cell.status in STATES else "free"
    body = style(f"canvas--{status}")
    edge = style(f"canvas--{status}-edge")
    if cell.marked:
        marked = style("canvas--marked")
        body, edge = body + marked, edge + Style(bgcolor=marked.bgcolor)
    title_style = edge + style("canvas--title")
    if cell.warned:
        title_style += style("canvas--warned")
    if cell.cursor:
        title_style += style("canvas--cursor")
    inner = max(0, width - 4)
    whole, badge = cell.title(lang), cell.badge
    title = Text(whole, style=title_style)
    if badge and cell.health is not None:  # its own colour, not the title's (nor cursor's)
        name = cell.occupancy.device.name
        title = Text()  # no style of its own: it would reach the badge too
        title.append(name, style=title_style)
        title.append(" ", style=edge)
        title.append(badge, style=edge + style(HEALTH_CLASSES[cell.health.health]))
        title.append(whole[len(name) + 1 + len(badge) :], style=title_style)
    title.truncate(max(0, width - 6), overflow="ellipsis")
    top = [Segment("╭─ ", edge), *segments(title, Style())]
    top.append(Segment(" " + "─" * max(0, width - 5 - title.cell_len) + "╮", edge))
    word_text = Text(cell.word(lang))
    word_text.truncate(max(0, width - 6))
    word = word_text.plain
    bottom = [Segment("╰" + "─" * max(0, width - 5 - cell_len(word)) + " ", edge)]
    bottom += [Segment(word, edge + Style(bold=True)), Segment(" ─╯"[: width - 1], edge)]
    lines = [top]
    for body_line in cell.body(lang, inner):
        body_line.truncate(inner, overflow="ellipsis", pad=True)
        middle = [Segment("│ ", edge), *segments(body_line, body), Segment(" │", edge)]
        lines.append(middle)
    lines.append(bottom)
    return [list(Segment.adjust_line_length(line, width, edge)) for line in lines]
