"""What a request makes of each device, grouped (free match, held by this claim, in use,
blocked, tainted, capacity full, rejected by the class or the selectors, error), as lines for
the Claim details and the describe view.

Folded (the details pane's default), each group is one line: its count first, then the
names that fit on that line and how many more `e` would show ("✓ free  796  gpu-0 gpu-1 …
+790 (e)"), so at 1,000 devices the reason a claim waits is not pushed down by device names.
Unfolded (`e`, and the describe view), every name is listed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.availability import Reason
from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.explain import request_summary, wrap, wrapped
from gsb_tui.words import localize, text

if TYPE_CHECKING:
    from gsb_tui.dra.cel import RequestPreview

LABEL_CELLS = 13  # "✓ this claim" and its Korean fit; names start one column after


def _device_label(device: DeviceId, several_pools: bool) -> str:
    return f"{device.pool}/{device.device}" if several_pools else device.device


@dataclass
class Group:
    """Devices a request treats the same way."""

    mark: str  # ✓ or ✗
    label: str  # free, in use, class, selectors, error (in the pane's language)
    style: str
    devices: list[str] = field(default_factory=list)
    error: str = ""  # the runtime error they share (label "error")


# The last groups per request preview: the details pane draws them again on every repaint
# while the preview is kept (dra/ reuses what did not change), and at 10,000 devices grouping
# them was most of the pane's repaint. (inputs, groups); inputs compared by identity.
_GROUPS: dict[int, tuple[tuple[object, ...], tuple[object, ...], list[Group]]] = {}
GROUPS_KEPT = 16


def outcome_groups(
    view: DraView,
    preview: RequestPreview,
    held: Collection[DeviceId] = (),
    lang: str = "en",
    blockers: Mapping[DeviceId, Reason] | None = None,
) -> list[Group]:
    """Devices grouped by what the request makes of them: free match, match held by this claim,
    match in use elsewhere, rejected by the class, rejected by the request's selectors, error
    (one group per error text)."""
    same = (view.devices, preview, blockers)  # compared by identity
    equal = (tuple(held), lang)  # compared by value
    found = _GROUPS.get(id(preview))
    if (
        found is not None
        and found[1] == equal
        and all(a is b for a, b in zip(found[0], same, strict=True))
    ):
        return found[2]
    groups = _outcome_groups(view, preview, held, lang, blockers)
    if len(_GROUPS) >= GROUPS_KEPT:
        _GROUPS.clear()
    _GROUPS[id(preview)] = (same, equal, groups)  # holds the preview: its id is not reused
    return groups


def _outcome_groups(
    view: DraView,
    preview: RequestPreview,
    held: Collection[DeviceId],
    lang: str,
    blockers: Mapping[DeviceId, Reason] | None,
) -> list[Group]:
    """outcome_groups, made afresh."""
    free = set(preview.free_matching)
    class_ok = set(preview.class_admits)
    groups: dict[str, Group] = {
        "free": Group("✓", text(lang, "group.free"), "bold green"),
        "held": Group("✓", text(lang, "group.held"), "bold cyan"),
        "used": Group("✓", text(lang, "group.used"), "cyan"),
        "counters": Group("✓", text(lang, "group.counters"), "red"),
        "tainted": Group("✓", text(lang, "group.tainted"), "red"),
        "capacity": Group("✓", text(lang, "group.capacity"), "magenta"),
        "class": Group("✗", text(lang, "group.class"), "dim"),
        "selectors": Group("✗", text(lang, "group.selectors"), "dim"),
    }
    several_pools = view.several_pools()  # once, not once per device
    for device in view.devices:
        outcome = preview.outcomes.get(device.id)
        if outcome is None:
            continue
        if outcome.matched:
            reason = (blockers or {}).get(device.id)
            if device.id in free:
                key = "free"
            elif device.id in held:
                key = "held"
            elif reason in ("counters", "tainted", "capacity"):
                key = str(reason)
            else:
                key = "used"
        elif outcome.error:
            key = f"error:{outcome.error}"
            label = text(lang, "group.error")
            groups.setdefault(key, Group("✗", label, "red", error=outcome.error))
        else:
            key = "selectors" if device.id in class_ok else "class"
        groups[key].devices.append(_device_label(device.id, several_pools))
    return [g for g in groups.values() if g.devices]


def preview_lines(
    out: Text,
    view: DraView,
    preview: RequestPreview,
    indent: str,
    width: int,
    held: Collection[DeviceId] = (),
    lang: str = "en",
    blockers: Mapping[DeviceId, Reason] | None = None,
    *,
    unfolded: bool = False,
) -> bool:
    """Summary, then the per-device ✓/✗ groups, under one request. True when a group's
    names were folded (some not shown: `e` unfolds them)."""
    bad = preview.class_missing or bool(preview.error)
    wrapped(out, request_summary(preview, lang), indent, width, "red" if bad else "")
    if preview.hint:
        wrapped(out, text(lang, "hint", hint=localize(preview.hint, lang)), indent, width, "yellow")
    groups = outcome_groups(view, preview, held, lang, blockers)
    digits = max((len(str(len(g.devices))) for g in groups), default=1)
    folded = False
    for group in groups:
        out.append(indent)
        label = f"{group.mark} {group.label}"
        out.append(label + " " * max(0, LABEL_CELLS - cell_len(label)), style=group.style)
        out.append(f" {len(group.devices):>{digits}}  ", style=group.style)
        pad = indent + " " * (LABEL_CELLS + digits + 3)
        room = max(8, width - len(pad))  # the room left after the count, however little
        names, rest = _fitting(group.devices, room, lang)
        if unfolded and (rest or group.error):  # every name, on lines under the count
            out.append("\n")
            under = indent + "  "
            body = " ".join(group.devices) + (f": {group.error}" if group.error else "")
            for line in wrap(body, max(8, width - len(under))):
                out.append(under)
                out.append(line, style="red" if group.error else "")
                out.append("\n")
            continue
        folded = folded or rest > 0
        lines = wrap(group.error, room) if group.error else [names]  # an error says more
        for i, line in enumerate(lines or [""]):
            if i:
                out.append(pad)
            out.append(line, style="red" if group.error else "")
            out.append("\n")
    return folded


def _fitting(names: Sequence[str], room: int, lang: str) -> tuple[str, int]:
    """The names that fit in `room` cells on one line with what is left said, and how many
    are left: "gpu-0 gpu-1 +790 more (e)", "gpu-0 gpu-1 +790" when that does not fit, and
    "(e lists them)" (or "(e)") when no name does."""
    ends = [0]  # ends[k]: the cells of the first k names, spaces between
    for name in names:
        end = ends[-1] + (1 if ends[-1] else 0) + cell_len(name)
        if end > room:
            break
        ends.append(end)
    if len(ends) - 1 == len(names):
        return " ".join(names), 0
    for key in ("details.more", "details.more-short"):
        for k in range(len(ends) - 1, 0, -1):
            more = text(lang, key, n=len(names) - k)
            if ends[k] + 1 + cell_len(more) <= room:
                return " ".join([*names[:k], more]), len(names) - k
    hint = text(lang, "details.list")
    return (hint if cell_len(hint) <= room else "(e)"), len(names)
