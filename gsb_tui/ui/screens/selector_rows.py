"""What the selector tool (`s`, selector.py) draws from a Trial: the summary line, the device
table (at most MAX_ROWS rows, the matching ones first when they do not all fit, and a line
counting the rest), the vocabulary and the API server's rejection with its hint and fix."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gsb_tui.dra.trial import DeviceVerdict, Trial, vocabulary
from gsb_tui.dra.view import DraView
from gsb_tui.words import localize, text

MAX_ROWS = 100  # devices listed on screen (a Rich table of 10,000 rows takes seconds to draw)

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


def device_table(
    trial: Trial, show_pool: bool, lang: str = "en", limit: int = MAX_ROWS
) -> RenderableType:
    table = Table(box=None, show_edge=False, header_style="bold", expand=True, pad_edge=False)
    table.add_column("", no_wrap=True, width=1)
    table.add_column("DEVICE", no_wrap=True)
    table.add_column("RESULT", ratio=2)
    table.add_column("CLAIM", ratio=2, overflow="ellipsis", no_wrap=True)
    table.add_column("PODS", ratio=1, overflow="ellipsis", no_wrap=True)
    rows = listed(trial, limit)
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
        table.add_row(
            Text(mark, style=style),
            Text(name, style="bold" if d.matched else ""),
            _verdict_text(d, trial.device_class, lang),
            claim,
            pods,
        )
    hidden = len(trial.devices) - len(rows)
    if not hidden:
        return table
    hidden_matches = len(trial.matches) - sum(1 for d in rows if d.matched)
    more = text(lang, "sel.more", n=hidden, matched=hidden_matches)
    return Group(table, Text(more, style="dim italic"))


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
