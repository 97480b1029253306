"""A claims-table row: the plain strings the filter matches on and the cells drawn from them."""

from __future__ import annotations

from rich.text import Text

from gsb_tui.dra.model import Claim
from gsb_tui.dra.view import DraView
from gsb_tui.ui.flags import MARK
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
