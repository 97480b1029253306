"""What the selector tool (`s`, selector.py) draws from a Trial: the summary line, the device
table (at most MAX_ROWS rows, the matching ones first when they do not all fit, and a line
counting the rest), the vocabulary and the API server's rejection with its hint and fix."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

from gsb_tui.dra.trial import DeviceVerdict, Trial, vocabulary
from gsb_tui.dra.view import DraView
from gsb_tui.words import localize, text

MAX_ROWS = 50  # devices listed (about a screenful; a Table of 10,000 rows took seconds to draw)

MARKS = {
    "match": ("✓", "bold green"),
    "no-match": ("✗", "dim"),
    "class": ("✗", "dim"),
    "error": ("!", "bold red"),
    "": ("·", "dim"),
}


def _verdict_text(d: DeviceVerdict, class_name: str, lang: str = "en") -> Text:
    if d.verdict == "match":
        return Text(text(lang, "sel.match"), style="green")
    if d.verdict == "no-match":
        return Text(text(lang, "sel.no-match"), style="dim")
    if d.verdict == "class":
        why = f": {d.error}" if d.error else ""
        return Text(text(lang, "sel.not-in-class", name=class_name) + why, style="dim")
    if d.verdict == "error":
        return Text(text(lang, "error", message=d.error), style="red")
    return Text("")


def trial_summary(trial: Trial, view: DraView, lang: str = "en") -> str:
    """What the trial comes to, in `lang`; the view tells which note trial.py gave (class
    gone, or no expression typed)."""
    if trial.error:
        return text(lang, "sel.rejected")
    if trial.note:
        if trial.device_class and trial.device_class not in view.classes:
            return text(lang, "sel.class-gone", name=trial.device_class)
        if not trial.expression:
            return text(lang, "sel.type")
        return trial.note
    matched = trial.matches
    total = len(trial.devices)
    free = sum(1 for d in matched if d.allocatable)
    errors = sum(1 for d in trial.devices if d.verdict == "error")
    key = "sel.matches.one" if total == 1 else "sel.matches"
    summary = text(lang, key, matched=len(matched), total=total)
    if trial.device_class:
        summary += " " + text(lang, "sel.class-admits", n=trial.class_admits)
    summary += ", " + text(lang, "of-them-free", n=free)
    if errors:
        summary += "; " + text(lang, "sel.unchecked", n=errors)
    return summary


def listed(trial: Trial, limit: int = MAX_ROWS) -> tuple[DeviceVerdict, ...]:
    """The devices the table lists: all in published order when they fit, else the matching
    ones first, then those that could not be checked, then the rest, `limit` in all."""
    if len(trial.devices) <= limit:
        return trial.devices
    order = {"match": 0, "error": 1}
    ranked = sorted(trial.devices, key=lambda d: order.get(d.verdict, 2))  # stable
    return tuple(ranked[:limit])


class DeviceRows:
    """The device table, laid out as Rich's Table(expand=True, box=None, pad_edge=False) lays
    out these columns (mark, DEVICE, RESULT 2, CLAIM 2, PODS 1 by ratio), one line per row,
    cells cropped with an ellipsis: a Table measures and wraps every cell, on every layout of
    every keystroke."""

    HEADER = ("", "DEVICE", "RESULT", "CLAIM", "PODS")

    def __init__(self, rows: list[tuple[Text, ...]], more: Text | None = None) -> None:
        self.rows = rows
        self.more = more
        self.name_width = max(
            cell_len(cell) for cell in [self.HEADER[1]] + [r[1].plain for r in rows]
        )

    def widths(self, width: int) -> list[int]:
        """Each column's content width (its padding apart) at `width` cells."""
        fixed = [2, self.name_width + 2]  # padding (0, 1), none at the table's edges
        flexible = _shares(max(0, width - sum(fixed)), (2, 2, 1), (3, 3, 2))
        return [1, self.name_width, flexible[0] - 2, flexible[1] - 2, flexible[2] - 1]

    def _line(
        self, console: Console, cells: tuple[Text, ...], widths: list[int], pad: str = ""
    ) -> list[Segment]:
        """One row's segments, each cell padded to its width and each padding space a segment
        of its own (what Table yields, so screenshots are the same)."""
        out: list[Segment] = []
        space = Segment(" ", console.get_style(pad) if pad else None)
        last = len(cells) - 1
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            if i:
                out.append(space)
            part = cell.copy()
            part.truncate(max(0, width), overflow="ellipsis", pad=True)
            rendered = part.render(console, end="")  # its spans; the base style apart
            base = console.get_style(part.style) if part.style else None
            out.extend(Segment.apply_style(rendered, base) if base else rendered)
            if i < last:
                out.append(space)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        widths = self.widths(width)
        # Bold padding too, as Table's header_style.
        header = tuple(Text(h, style="bold") for h in self.HEADER)
        for line in [
            self._line(console, header, widths, "bold"),
            *(self._line(console, cells, widths) for cells in self.rows),
        ]:
            yield from Segment.adjust_line_length(line, width)
            yield Segment.line()
        if self.more is not None:
            yield self.more

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(options.max_width, options.max_width)


def device_table(
    trial: Trial, show_pool: bool, lang: str = "en", limit: int = MAX_ROWS
) -> RenderableType:
    rows = listed(trial, limit)
    cells: list[tuple[Text, ...]] = []
    for d in rows:
        mark, style = MARKS.get(d.verdict, ("?", ""))
        occ = d.occupancy
        name = f"{d.device.id.pool}/{d.device.name}" if show_pool else d.device.name
        if occ is not None and occ.claims:
            claim = Text(", ".join(c.name for c in occ.claims))
        elif d.allocatable:
            claim = Text("free", style="green")
        else:  # not held, still not allocatable: the grid's word for why
            claim = Text(d.state, style="red")
        pods = ", ".join(p.split("/", 1)[-1] for p in occ.consumers) if occ else ""
        cells.append(
            (
                Text(mark, style=style),
                Text(name, style="bold" if d.matched else ""),
                _verdict_text(d, trial.device_class, lang),
                claim,
                Text(pods),
            )
        )
    hidden = len(trial.devices) - len(rows)
    if not hidden:
        return DeviceRows(cells)
    hidden_matches = len(trial.matches) - sum(1 for d in rows if d.matched)
    more = text(lang, "sel.more", n=hidden, matched=hidden_matches)
    return DeviceRows(cells, Text(more, style="dim italic"))


def vocabulary_text(view: DraView, lang: str = "en") -> Text:
    out = Text(text(lang, "sel.vocabulary") + "\n", style="bold")
    for key, names in vocabulary(view):
        out.append("  ")
        out.append(key, style="cyan")
        out.append(": " + ", ".join(names) + "\n", style="dim")
    out.rstrip()
    return out


def error_text(trial: Trial, lang: str = "en") -> Text:
    """The API server's rejection as it words it, then the hint and the fix, lined up."""
    out = Text()
    out.append(localize(trial.error, lang) + "\n", style="red")
    hint, fix = text(lang, "sel.hint"), text(lang, "sel.fix")
    column = max(cell_len(hint), cell_len(fix)) + 1
    if trial.hint:
        out.append(hint + " " * (column - cell_len(hint)), style="bold yellow")
        out.append(localize(trial.hint, lang) + "\n")
    if trial.fix:
        out.append(fix + " " * (column - cell_len(fix)), style="bold green")
        out.append(trial.fix, style="bold cyan")
        out.append("   " + text(lang, "sel.fix-note"), style="dim")
    return out


def _shares(total: int, weights: Sequence[int], floors: Sequence[int]) -> list[int]:
    """`total` cells split by `weights`, each share at least its floor: each in turn takes its
    weight's part of what is left, rounded up (the last takes the rest)."""
    out: list[int] = []
    left, weight_left = total, sum(weights)
    for weight, floor in zip(weights, floors, strict=True):
        part = max(floor, -(-weight * left // weight_left)) if weight_left > 0 else floor
        out.append(part)
        left -= part
        weight_left -= weight
    return out
