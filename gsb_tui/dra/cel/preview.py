"""Selectors over many devices: every expression on every device (`evaluate_all`), and a
request's preview (`explain_request`): the DeviceClass selectors, then the request's, then which
of the admitted devices are free, as the allocator goes.

Each device's selectors run in order under their CEL session's lock, stopping at the first false or
error, on the device's one cache entry (prepared.py). An optional time `budget` for a whole call
bounds it: devices not reached in time get an `unfinished` outcome.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from gsb_tui.dra.cel import prepared, runtime
from gsb_tui.dra.cel.errors import CelCompileError
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.cel.selector import CelSession, Selector
from gsb_tui.dra.model import Device, DeviceClass, DeviceId, Request
from gsb_tui.words import t


def _deadline(budget: float | None) -> float | None:
    return None if budget is None else time.monotonic() + budget


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


@cache
def _timeout_words() -> str:
    return t("cel.timeout")


def _unfinished(device: Device) -> CelOutcome:
    # Thousands of devices are left when the budget runs out at scale: one message for all.
    return CelOutcome(device.id, False, _timeout_words(), unfinished=True)


def _evaluate_chain(
    selectors: Sequence[Selector],
    device: Device,
    prefix: str,
    deadline: float | None,
    entry: prepared.Prepared,
) -> CelOutcome:
    """AND over selectors in order, stopping at the first false or error (like the allocator).

    `entry` is the device's from its session's `prepare`, looked up once for all its
    selectors; the caller holds the session's lock."""
    outcome = None
    for i, selector in enumerate(selectors):
        selector.registered()
        outcome = runtime.evaluate_prepared(selector._evaluator, entry, deadline)
        if outcome.unfinished:
            return outcome
        if outcome.error:
            return CelOutcome(device.id, False, f"{prefix}selector #{i}: {outcome.error}")
        if not outcome.matched:
            return outcome
    # Every selector admits it: the last outcome says just that (a new one when there is none).
    return outcome if outcome is not None else CelOutcome(device.id, True)


def evaluate_all(
    expressions: Sequence[str],
    devices: Sequence[Device],
    *,
    budget: float | None = None,
    session: CelSession | None = None,
) -> dict[DeviceId, CelOutcome]:
    """A device matches only when every expression is true; the first error wins.

    Raises CelCompileError for an expression that does not compile. With a `budget` (seconds
    for the whole call), devices not reached in time get an `unfinished` outcome. `session`:
    whose caches to use (a fresh one when not given)."""
    session = session or CelSession()
    driver = devices[0].id.driver if devices else ""
    selectors = [session.compile(e, driver) for e in expressions]
    deadline = _deadline(budget)
    out: dict[DeviceId, CelOutcome] = {}
    prepare, lock = session.devices.prepare, session.lock
    for d in devices:
        if _past(deadline):
            out[d.id] = _unfinished(d)
        else:
            with lock:
                out[d.id] = _evaluate_chain(selectors, d, "", deadline, prepare(d))
    return out


@dataclass(frozen=True)
class RequestPreview:
    class_admits: tuple[DeviceId, ...]  # devices the DeviceClass selectors admit
    selector_admits: tuple[DeviceId, ...]  # of those, the ones the request's selectors admit
    free_matching: tuple[DeviceId, ...]  # of those, free
    outcomes: Mapping[DeviceId, CelOutcome]  # per device; errors say which selector failed
    needed: int | None  # request count (None for allocationMode All)
    class_name: str = ""
    class_missing: bool = False  # the request names a DeviceClass that does not exist
    has_selectors: bool = False  # whether the request has selectors of its own
    error: str = ""  # a selector that does not compile (then nothing is admitted)
    hint: str = ""

    @property
    def unfinished(self) -> int:
        """Devices the time budget did not reach (their outcome says so)."""
        return sum(1 for o in self.outcomes.values() if o.unfinished)

    @property
    def short(self) -> bool:
        """Too few free matching devices to meet the request (its wording: ui/render/explain.py)."""
        free = len(self.free_matching)
        if self.needed is None:  # allocationMode All: every matching device, and at least one
            return free < len(self.selector_admits) or not self.selector_admits
        return free < self.needed


def explain_request(
    view_devices: Sequence[Device],
    device_class: DeviceClass | None,
    request: Request,
    free: Collection[DeviceId],
    *,
    budget: float | None = None,
    session: CelSession | None = None,
) -> RequestPreview:
    """Which devices a request could get: class selectors, then request selectors, then free.

    With a `budget` (seconds for the whole call), devices not reached in time get an
    `unfinished` outcome (RequestPreview.unfinished counts them). `session`: whose caches to
    use (a fresh one when not given)."""
    needed = None if request.allocation_mode == "All" else request.count

    def preview(**more: Any) -> RequestPreview:
        return RequestPreview(
            (),
            (),
            (),
            {},
            needed,
            class_name=request.device_class,
            has_selectors=bool(request.selectors),
            **more,
        )

    if device_class is None:
        return preview(class_missing=True)
    session = session or CelSession()
    driver = view_devices[0].id.driver if view_devices else ""
    try:
        class_selectors = [session.compile(e, driver) for e in device_class.selectors]
        request_selectors = [session.compile(e, driver) for e in request.selectors]
    except CelCompileError as exc:
        return preview(error=exc.message, hint=exc.hint)
    outcomes: dict[DeviceId, CelOutcome] = {}
    class_admits: list[DeviceId] = []
    selector_admits: list[DeviceId] = []
    deadline = _deadline(budget)
    class_prefix = f"class {device_class.name}: "
    request_prefix = f"request {request.name}: "
    for device in view_devices:
        if _past(deadline):
            outcomes[device.id] = _unfinished(device)
            continue
        with session.lock:
            entry = session.devices.prepare(device)
            outcome = _evaluate_chain(class_selectors, device, class_prefix, deadline, entry)
            if outcome.matched:
                class_admits.append(device.id)
                outcome = _evaluate_chain(
                    request_selectors, device, request_prefix, deadline, entry
                )
            if outcome.matched:
                selector_admits.append(device.id)
        outcomes[device.id] = outcome
    free_set = set(free)
    return RequestPreview(
        tuple(class_admits),
        tuple(selector_admits),
        tuple(d for d in selector_admits if d in free_set),
        outcomes,
        needed,
        class_name=request.device_class,
        has_selectors=bool(request.selectors),
    )
