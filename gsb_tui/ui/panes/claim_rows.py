"""A claims-table row: the plain strings the filter matches on and the cells drawn from them;
the columns' widths; the strip naming pods whose claim does not exist."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from gsb_tui.dra.model import Claim
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.ui.render.flags import MARK
from gsb_tui.words import text

STATE_STYLE = {"pending": "yellow", "allocated": "cyan", "allocated,reserved": "green"}


def claim_row(
    view: DraView, claim: Claim, show_pool: bool, lang: str = "en"
) -> tuple[str, str, str, str]:
    """The row as plain strings (the filter matches on these)."""
    devices = ", ".join(f"{d.pool}/{d.device}" if show_pool else d.device for d in claim.devices)
    consumers = [
        c.name if c.resource == "pods" else f"podgroup/{c.name}"  # 1.37: held for a group's pods
        for c in claim.reserved_for
        if c.resource == "pods" or c.pod_group
    ]
    if not consumers:
        # A pending claim has no reservedFor yet; name who is waiting for it.
        waiting = [p.name for p in view.pods_of_claim(claim)]
        consumers = [text(lang, "waiting-pod", pod=name) for name in waiting]
    return (f"{claim.namespace}/{claim.name}", claim.state, devices or "-", ", ".join(consumers))


def cells(shown: tuple[str, ...]) -> tuple[Text, ...]:
    name, flag, state, devices, consumers = shown
    cell = Text(name)
    if flag:  # the marker only: the grid cell's title and the details say what it is
        cell = Text.assemble((f"{MARK} ", "bold red"), cell)
    state_cell = Text(state, style=STATE_STYLE.get(state, ""))
    return (cell, state_cell, Text(devices), Text(consumers))


CONSUMERS_KEPT = 24  # CONSUMERS shrinks to this first ("dra-big (waiting)" is 17)
DEVICES_FLOOR = 8  # then DEVICES, to this, before anything else is cut


def fit_widths(heads: Sequence[str], counts: Sequence[Counter[int]], room: int) -> list[int]:
    """Each column as wide as its widest text (counts: how many rows have each width) within
    `room`: consumers wider than CONSUMERS_KEPT give way first, down to it (a pod's name and
    "(waiting)" stay whole), then the device list, down to DEVICES_FLOOR (the details and the
    grid list a claim's devices too), then consumers, devices and the claim name to their
    headers' width."""
    widths = [max(len(h), max(c, default=0)) for h, c in zip(heads, counts, strict=True)]
    for i, floor in ((3, CONSUMERS_KEPT), (2, DEVICES_FLOOR), (3, 0), (2, 0), (0, 0)):
        excess = sum(widths) - room
        if excess <= 0:
            break
        widths[i] = max(len(heads[i]), min(widths[i], floor), widths[i] - excess)
    return widths


def strip_text(unattached: Sequence[DraWarning], lang: str) -> Text:
    """One line per pod whose claim or template does not exist (no row can carry its mark)."""
    line = Text()
    for warning in unattached:
        params = dict(warning.params)
        line.append(f"{MARK} {text(lang, 'strip.pod', pod=params['pod'])}: ", style="bold red")
        line.append(text(lang, "strip.missing", **params) + "\n")
    line.rstrip()
    return line
