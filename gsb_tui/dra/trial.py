"""Trying a selector: one CEL expression (and optionally a DeviceClass) against every published
device, with each device's occupancy, for the selector tool (`s`).

Pure: a function of the DraView and what the user typed; "free" is the ledger's
(DraView.allocatable), so the tool and the grid count alike. The CEL library must be loaded
(gsb_tui.ui.render.explain.cel_ready) before `try_selector` is called; the selector screen
calls it in a worker thread, with a time budget (devices it does not reach are marked, not
guessed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, cast

from gsb_tui.dra.model import Device, DeviceClass
from gsb_tui.dra.occupancy import Occupancy
from gsb_tui.dra.view import DraView

if TYPE_CHECKING:  # the CEL package is imported when a selector is first tried
    from gsb_tui.dra.cel import Selector


@dataclass(frozen=True, slots=True)
class DeviceVerdict:
    device: Device
    verdict: str  # "match", "no-match", "class" (the class rejects it), "error", "" (not tried)
    error: str = ""  # the runtime error, or the class' error
    occupancy: Occupancy | None = None
    state: str = "free"  # what the grid says of it (DraView.state)
    allocatable: bool = True  # a plain request could be given it now: the ledger's "free"

    @property
    def matched(self) -> bool:
        return self.verdict == "match"


@dataclass(frozen=True)
class Trial:
    expression: str
    device_class: str  # "" for none
    devices: tuple[DeviceVerdict, ...]
    error: str = ""  # the compile error, as the API server words it
    hint: str = ""
    fix: str = ""  # the corrected expression, when there is an obvious one
    note: str = ""  # why nothing was evaluated (no expression, class gone)
    stopped: bool = False  # ended early: a newer trial was wanted (never shown)

    @cached_property  # asked by the summary and the table: 10,000 verdicts once
    def matches(self) -> tuple[DeviceVerdict, ...]:
        return tuple(d for d in self.devices if d.matched)

    @cached_property
    def class_admits(self) -> int:
        return sum(1 for d in self.devices if d.verdict != "class")


def vocabulary(view: DraView) -> list[tuple[str, list[str]]]:
    """What a selector can read, as CEL spells it: [("device.attributes['d']", [names]), ...].

    Unqualified names live under the driver's domain; "domain/name" under its own."""
    found: dict[str, set[str]] = {}
    for device in view.devices:
        for field_name, names in (("attributes", device.attributes), ("capacity", device.capacity)):
            for name in names:
                domain, _, short = name.rpartition("/")
                key = f"device.{field_name}['{domain or device.id.driver}']"
                found.setdefault(key, set()).add(short)
    return [(key, sorted(names)) for key, names in found.items()]


_new = object.__new__
_SET_DEVICE, _SET_VERDICT, _SET_ERROR, _SET_OCCUPANCY, _SET_STATE, _SET_FREE = (
    getattr(DeviceVerdict, name).__set__
    for name in ("device", "verdict", "error", "occupancy", "state", "allocatable")
)


def _verdict(
    device: Device,
    verdict: str,
    error: str,
    occupancy: Occupancy | None,
    state: str,
    allocatable: bool,
) -> DeviceVerdict:
    """DeviceVerdict(...) with its slots filled directly: the frozen dataclass's __init__
    takes longer, 10,000 times a keystroke (test_selector_scale compares the two)."""
    made: DeviceVerdict = _new(DeviceVerdict)
    _SET_DEVICE(made, device)
    _SET_VERDICT(made, verdict)
    _SET_ERROR(made, error)
    _SET_OCCUPANCY(made, occupancy)
    _SET_STATE(made, state)
    _SET_FREE(made, allocatable)
    return made


_Row = tuple[Device, Occupancy | None, str, bool]


def _rows(view: DraView) -> tuple[_Row, ...]:
    """(device, occupancy, state, allocatable) of every device: the same for every expression
    tried on one view, kept in the view's memo while the devices, occupancy and availability
    are the very same objects, so a keystroke only evaluates the selector."""

    def make() -> tuple[_Row, ...]:
        free = view.allocatable()  # the ledger's "free": one definition for every pane
        occupancy = view.occupancy
        return tuple((d, occupancy.get(d.id), view.state(d.id), d.id in free) for d in view.devices)

    return view.memo.kept("trial-rows", (view.devices, view.occupancy, view.availability), make)


def _made(view: DraView, rows: tuple[_Row, ...]) -> tuple[list[DeviceVerdict | None], ...]:
    """Each row's "no-match" and "match" verdicts (indexed by `matched`), made when first given
    and kept with the rows: typing makes a new verdict for 10,000 devices otherwise (an object
    each, and the young collections they bring), where most rows say what they said before."""
    return view.memo.kept(
        "trial-verdicts", (rows,), lambda: ([None] * len(rows), [None] * len(rows))
    )


def _class_verdicts(
    view: DraView, cls: DeviceClass, selectors: list[Selector], deadline: float | None
) -> tuple[tuple[str, str], ...]:
    """("", "") where the class admits a device, else ("class", why), or ("error", why) when
    the deadline came first (then nothing is kept for the next trial). Kept in the view's memo
    for the last (devices, class) tried."""
    found = view.memo.last.get("trial-class")
    if found is not None and found[0] is view.devices and found[1] is cls:
        return cast(tuple[tuple[str, str], ...], found[2])
    out = []
    complete = True
    for device in view.devices:
        said, error = "", ""
        for i, class_selector in enumerate(selectors):
            outcome = class_selector.evaluate(device, deadline)
            if outcome.unfinished:
                said, error = "error", outcome.error
                complete = False
                break
            if outcome.error:
                said, error = "class", f"class selector #{i}: {outcome.error}"
                break
            if not outcome.matched:
                said = "class"
                break
        out.append((said, error))
    verdicts = tuple(out)
    if complete:
        view.memo.last["trial-class"] = (view.devices, cls, verdicts)
    return verdicts


def try_selector(
    view: DraView,
    expression: str,
    device_class: str = "",
    budget: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Trial:
    """Every device's verdict; with a `budget` (seconds), devices not reached in time get the
    "error" verdict saying so. `stop()`, asked every few hundred devices, ends the trial early
    (Trial.stopped: a newer one is wanted)."""
    from gsb_tui.dra.cel import CelCompileError

    rows = _rows(view)

    def untried(note: str) -> Trial:
        devices = tuple(DeviceVerdict(d, "", "", o, s, a) for d, o, s, a in rows)
        return Trial(expression, device_class, devices, note=note)

    expression = expression.strip()
    cls = view.classes.get(device_class) if device_class else None
    if device_class and cls is None:
        return untried(f"DeviceClass {device_class} does not exist (any more)")
    if not expression:
        return untried("type a CEL expression, e.g. device.driver == '…'")
    driver = view.lab_driver()
    try:
        session = view.memo.cel
        selector = session.compile(expression, driver)
        class_selectors = [session.compile(e, driver) for e in cls.selectors] if cls else []
    except CelCompileError as exc:
        return Trial(expression, device_class, (), error=exc.message, hint=exc.hint, fix=exc.fix)
    deadline = None if budget is None else time.monotonic() + budget
    admitted = _class_verdicts(view, cls, class_selectors, deadline) if cls else None
    outcomes = selector.evaluate_many(view.devices, deadline, stop)
    if outcomes is None:
        return Trial(expression, device_class, (), stopped=True)
    out = []
    made = _made(view, rows)
    for i, (device, occupancy, state, allocatable) in enumerate(rows):
        said, error = admitted[i] if admitted is not None else ("", "")
        if not said:
            outcome = outcomes[i]
            if not outcome.error:  # the usual verdicts: made once per row, kept
                kept = made[outcome.matched]
                verdict = kept[i]
                if verdict is None:
                    said = "match" if outcome.matched else "no-match"
                    verdict = kept[i] = _verdict(device, said, "", occupancy, state, allocatable)
                out.append(verdict)
                continue
            said, error = "error", outcome.error
        out.append(_verdict(device, said, error, occupancy, state, allocatable))
    return Trial(expression, device_class, tuple(out))
