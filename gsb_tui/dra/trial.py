"""Trying a selector: one CEL expression (and optionally a DeviceClass) against every published
device, with each device's occupancy, for the selector tool (`s`).

Pure: a function of the DraView and what the user typed; "free" is the ledger's
(DraView.allocatable), so the tool and the grid count alike. The CEL library must be loaded
(gsb_tui.ui.explain.cel_ready) before `try_selector` is called; the selector screen calls it in
a worker thread, with a time budget (devices it does not reach are marked, not guessed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gsb_tui.dra.model import Device
from gsb_tui.dra.occupancy import Occupancy
from gsb_tui.dra.view import DraView


@dataclass(frozen=True)
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

    @property
    def matches(self) -> tuple[DeviceVerdict, ...]:
        return tuple(d for d in self.devices if d.matched)

    @property
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


def try_selector(
    view: DraView, expression: str, device_class: str = "", budget: float | None = None
) -> Trial:
    """Every device's verdict; with a `budget` (seconds), devices not reached in time get the
    "error" verdict saying so."""
    from gsb_tui.dra.cel import CelCompileError, compile_selector

    free = view.allocatable()  # the ledger's "free": one definition for every pane

    def verdict(device: Device, said: str, error: str = "") -> DeviceVerdict:
        occupancy = view.occupancy.get(device.id)
        state = view.state(device.id)
        return DeviceVerdict(device, said, error, occupancy, state, device.id in free)

    def untried(note: str) -> Trial:
        devices = tuple(verdict(d, "") for d in view.devices)
        return Trial(expression, device_class, devices, note=note)

    expression = expression.strip()
    cls = view.classes.get(device_class) if device_class else None
    if device_class and cls is None:
        return untried(f"DeviceClass {device_class} does not exist (any more)")
    if not expression:
        return untried("type a CEL expression, e.g. device.driver == '…'")
    driver = view.lab_driver()
    try:
        selector = compile_selector(expression, driver=driver)
        class_selectors = [compile_selector(e, driver=driver) for e in cls.selectors] if cls else []
    except CelCompileError as exc:
        return Trial(expression, device_class, (), error=exc.message, hint=exc.hint, fix=exc.fix)
    out = []
    deadline = None if budget is None else time.monotonic() + budget
    for device in view.devices:
        said, error = "", ""
        for i, class_selector in enumerate(class_selectors):
            outcome = class_selector.evaluate(device, deadline)
            if outcome.unfinished:
                said, error = "error", outcome.error
                break
            if outcome.error:
                said, error = "class", f"class selector #{i}: {outcome.error}"
                break
            if not outcome.matched:
                said = "class"
                break
        if not said:
            outcome = selector.evaluate(device, deadline)
            said = "error" if outcome.error else "match" if outcome.matched else "no-match"
            error = outcome.error
        out.append(verdict(device, said, error))
    return Trial(expression, device_class, tuple(out))
