"""The grid's counts in words: a group's summary line, the compact grid's model lines, its
column names and each node's line (name, counts, model), and the strip's marks.

The counts are dra/node_summary.py's (the ledger's facts split by node, pool and model); this
only words and lays them out. A strip has one mark per device, coloured as the device's cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from gsb_tui.dra.node_summary import DeviceCounts
from gsb_tui.ui.panes.cell import Cell
from gsb_tui.ui.panes.grid_layout import NodeLine
from gsb_tui.words import text

# One mark per device state (DraView.state); the kubelet's health marks win over the state.
MARKS: dict[str, str] = {
    "free": "○",
    "allocated": "●",
    "reserved": "●",
    "shared": "◐",
    "full": "◉",
    "blocked": "×",
    "tainted": "▲",
    "binding": "◌",
    "binding-failed": "✗",
    "incomplete-pool": "-",
    "invalid-pool": "-",
}
HEALTH_MARKS = {"Unhealthy": "✚", "Unknown": "?"}
# The legend: (mark, words, the state whose colour it has)
LEGEND = (
    ("○", "grid.mark.free", "free"),
    ("●", "grid.mark.in-use", "reserved"),
    ("◐", "grid.mark.shared", "shared"),
    ("◉", "grid.mark.full", "full"),
    ("×", "grid.mark.blocked", "blocked"),
    ("▲", "grid.mark.tainted", "tainted"),
    ("◌", "grid.mark.binding", "binding"),
    ("-", "grid.mark.pool", "invalid-pool"),
    ("✚", "grid.mark.unhealthy", "Unhealthy"),
)
# The compact grid's number columns: (DeviceCounts field, column word, style when not 0)
NUMBERS = (
    ("devices", "grid.col.devices", ""),
    ("in_use", "grid.col.in-use", ""),
    ("free", "grid.col.free", "bold"),
    # headed by their marks (the legend line above says them): narrow in every language
    ("blocked", MARKS["blocked"], "dim red"),
    ("tainted", MARKS["tainted"], "red"),
    ("unhealthy", HEALTH_MARKS["Unhealthy"], "bold red"),
)
NAME_MAX = 28  # a longer node name is cut (with …) in its column
MODEL_MAX = 24
MODELS_SHOWN = 4  # model lines above the nodes; the rest are counted

StyleOf = Callable[[str], Style]  # a state (or health) -> the style its cells have


def mark_of(cell: Cell) -> tuple[str, str]:
    """A device's strip mark and the state (or health) whose style it takes."""
    health = cell.health.health if cell.health is not None else ""
    if health in HEALTH_MARKS:
        return HEALTH_MARKS[health], health
    status = cell.status
    return MARKS.get(status, MARKS["free"]), status


def model_words(models: Sequence[str], lang: str) -> str:
    if not models:
        return text(lang, "grid.sum.no-model")
    if len(models) == 1:
        return text(lang, "grid.sum.model", model=models[0])
    return text(lang, "grid.sum.models", n=len(models), models=", ".join(models))


def counts_text(counts: DeviceCounts, lang: str, line: Text | None = None) -> Text:
    """5 in use · 3 free · 2 blocked · 1 tainted · ✚ 1 unhealthy: the ledger's words, the
    ones that are 0 left out (in use and free always said)."""
    line = line if line is not None else Text(no_wrap=True, overflow="ellipsis")
    parts: list[tuple[str, str]] = [
        (text(lang, "grid.sum.in-use", n=counts.in_use), ""),
        (text(lang, "grid.sum.free", n=counts.free), "bold" if counts.free else "dim"),
    ]
    for key, n, style in (
        ("feat.ledger.blocked", counts.blocked, "dim red"),
        ("feat.ledger.tainted", counts.tainted, "red"),
        ("feat.ledger.unavailable", counts.other, "dim red"),
        ("feat.ledger.unhealthy", counts.unhealthy, "bold red"),
    ):
        if n:
            parts.append((text(lang, key, n=n), style))
    for index, (words, style) in enumerate(parts):
        if index:
            line.append(" · ", style="dim")
        line.append(words, style=style)
    return line


def summary_text(counts: DeviceCounts, lang: str) -> Text:
    """A group's summary line under its title: its counts, then its model."""
    line = counts_text(counts, lang)
    line.append(" · ", style="dim")
    line.append(model_words(counts.models, lang), style="dim")
    return line


def model_head(model: str, counts: DeviceCounts, lang: str) -> Text:
    """A compact grid's line for one model: model X · 960 devices · 122 in use · 670 free …"""
    line = Text(no_wrap=True, overflow="ellipsis")
    words = (
        text(lang, "grid.head.model", model=model) if model else text(lang, "grid.head.no-model")
    )
    line.append(words, style="bold")
    line.append(" · ", style="dim")
    line.append(text(lang, "grid.head.devices", n=counts.devices))
    line.append(" · ", style="dim")
    return counts_text(counts, lang, line)


def more_models(n: int, lang: str) -> Text:
    return Text(text(lang, "grid.head.more-models", n=n), style="dim")


@dataclass(frozen=True)
class Columns:
    """The compact grid's columns for one width: node name, numbers, model, then the strip."""

    name: int
    numbers: tuple[tuple[str, str, str, int], ...]  # field, heading, style, width
    model: int  # 0: no model column (every node has the same one: the model lines say it)

    @property
    def strip_x(self) -> int:
        return (
            self.name + 1 + sum(n[3] for n in self.numbers) + (self.model + 1 if self.model else 0)
        )


def fit_columns(
    nodes: Sequence[NodeLine], models: Mapping[str, tuple[str, ...]], lang: str
) -> Columns:
    """Columns as wide as the longest name, number and model they hold (so counts changing
    never move the strips: the widest number is the most devices a node has)."""
    name = max([cell_len(text(lang, "grid.col.node")), *(cell_len(n.label) for n in nodes)])
    most = max((sum(len(g.devices) for g in n.groups) for n in nodes), default=0)
    numbers = tuple(
        (field, heading, style, max(cell_len(heading), len(str(most))) + 1)
        for field, heading, style in ((f, _heading(k, lang), s) for f, k, s in NUMBERS)
    )
    distinct = {models.get(n.key, ()) for n in nodes}
    model = 0
    if len(distinct) > 1:  # else the model lines above say the one model every node has
        widest = max(cell_len(model_label(m, lang)) for m in distinct)
        model = min(MODEL_MAX, max(widest, cell_len(text(lang, "grid.col.model"))))
    return Columns(min(NAME_MAX, name), numbers, model)


def _heading(key: str, lang: str) -> str:
    """A number column's heading: a catalog word, or a mark said as it is."""
    return text(lang, key) if key.startswith("grid.col.") else key


def model_label(models: Sequence[str], lang: str) -> str:
    if len(models) == 1:
        return models[0]
    return text(lang, "grid.sum.models", n=len(models), models=",".join(models)) if models else "-"


def _cell(line: Text, words: str, width: int, style: str | Style = "", right: bool = False) -> None:
    """`words` in a column `width` wide (cut with … when longer), then one space."""
    shown = Text(words, style=style)
    shown.truncate(width, overflow="ellipsis")
    pad = " " * (width - shown.cell_len)
    if right:
        line.append(pad)
        line.append_text(shown)
    else:
        line.append_text(shown)
        line.append(pad)
    line.append(" ")


def columns_text(columns: Columns, lang: str) -> Text:
    """The column names."""
    line = Text(no_wrap=True, overflow="ellipsis", style="bold")
    _cell(line, text(lang, "grid.col.node"), columns.name)
    for _field, heading, _style, width in columns.numbers:
        _cell(line, heading, width - 1, right=True)
    if columns.model:
        _cell(line, text(lang, "grid.col.model"), columns.model)
    line.append(text(lang, "grid.col.strip"))
    return line


def legend_text(lang: str, style_of: StyleOf) -> Text:
    """What each mark of a strip means, each in its colour."""
    line = Text(no_wrap=True, overflow="ellipsis")
    for index, (mark, key, state) in enumerate(LEGEND):
        if index:
            line.append("  ")
        line.append(mark, style=style_of(state))
        line.append(" " + text(lang, key), style="dim")
    return line


def line_prefix(
    node: NodeLine,
    counts: DeviceCounts,
    models: tuple[str, ...],
    columns: Columns,
    lang: str,
    name_style: Style | str = "bold",
) -> Text:
    """A node's name, counts and model, up to where its strip starts."""
    line = Text(no_wrap=True)
    _cell(line, node.label, columns.name, name_style)
    for field, _key, style, width in columns.numbers:
        n = getattr(counts, field)
        _cell(line, str(n), width - 1, style if n else "dim", right=True)
    if columns.model:
        _cell(line, model_label(models, lang), columns.model, "dim")
    return line
