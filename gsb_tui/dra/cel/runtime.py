"""Running compiled selectors: interp.py's evaluation (cel-go's semantics, cost count and
wording), Kubernetes' functions, cached results.

Each device becomes one typed `device` value (device.py, interp.device_value), built once per
device content when a selector first has to run on it, and holding only what compiled
selectors read (check.needs): prepared.py keeps them, per CEL session. Results are cached per
(device, expression), so re-evaluating on every cluster change is a dictionary lookup for
devices that did not change.

Devices are not all evaluated: a device whose values where a selector looks equal those of a
device evaluated before (projection.py's key, read from the served object) gets that device's
outcome. A selector whose keys nearly never repeat (it reads a unique uuid) stops being keyed
after SHARING_PROBE devices, until the caches are cleared. Every evaluation has a deadline
(EVALUATION_BUDGET, or the caller's); one that runs out is reported as unfinished and not
cached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.dra.cel import check, interp, prepared, projection
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.cel.prepared import Prepared, PreparedDevices
from gsb_tui.dra.model import Device, DeviceId
from gsb_tui.words import t

# Wall-clock time one evaluation may take (the scheduler's cost limit is about 0.1 s of
# cel-go's work; the interpreter is slower and checks it as it goes).
EVALUATION_BUDGET = 1.0


class _TimedOut(Exception):
    """The evaluation's deadline passed (the interpreter noticed)."""


@dataclass
class Evaluator:
    """What evaluating one compiled selector needs (selector.py builds it)."""

    expression: str
    program: interp.Program
    needs: frozenset[check.Leaf]
    devices: PreparedDevices  # the session's device entries it evaluates on
    # How to key devices whose outcome is the same (projection.py); None: every device runs.
    plan: projection.Plan | None = field(init=False)

    def __post_init__(self) -> None:
        self.plan = projection.plan(self.needs)
        # Outcomes by projection key: what the selector gave on a device holding those values
        # where it looks.
        self.shared: dict[Any, CelOutcome] = {}
        self.shared_epoch = self.devices.shared_epoch
        self.sharing = True  # False once keys turned out (nearly) all different
        self.hits = self.misses = 0

    def share_again(self) -> None:
        """The caches were cleared: no shared outcomes, and keys are worth trying again."""
        self.shared = {}
        self.shared_epoch = self.devices.shared_epoch
        self.sharing = True
        self.hits = self.misses = 0


def evaluate(ev: Evaluator, device: Device, deadline: float | None = None) -> CelOutcome:
    """One compiled selector on one device, cached per device content and expression.

    `deadline` (time.monotonic) bounds this evaluation besides EVALUATION_BUDGET; past it the
    outcome is `unfinished` and not cached."""
    entry = ev.devices.prepare(device)
    outcome = entry.results.get(ev.expression)
    if outcome is not None:
        return outcome
    return evaluate_prepared(ev, entry, deadline)


def evaluate_prepared(ev: Evaluator, entry: Prepared, deadline: float | None) -> CelOutcome:
    """`evaluate` on a device's entry from the session's `prepare` (one entry for all selectors
    of a chain)."""
    expression = ev.expression
    outcome = entry.results.get(expression)
    if outcome is not None:
        return outcome
    if ev.plan is not None:  # inline: this runs for every device of every preview
        if ev.shared_epoch != ev.devices.shared_epoch:
            ev.share_again()
        convertible = entry.convertible
        if convertible is None and ev.sharing:
            convertible = prepared.know(entry)
        key = ev.plan.key(entry.device) if convertible and ev.sharing else None
        if key is not None:
            table = ev.shared
            shared = table.get(key)
            if shared is not None:  # a device with the same values where the selector looks
                ev.hits += 1
                outcome = _same_for(entry.device.id, shared)
                _keep(entry.results, expression, outcome)
                return outcome
            ev.misses += 1
            if ev.misses >= SHARING_PROBE and ev.hits * 8 < ev.misses:
                # Keys (nearly) all differ, as a unique uuid's do: computing them only costs.
                ev.sharing = False
            return _evaluate(ev, entry, deadline, table, key)
    return _evaluate(ev, entry, deadline, None, None)


def evaluate_keyed(ev: Evaluator, entry: Prepared, deadline: float | None, key: Any) -> CelOutcome:
    """Run the selector on a device whose projection key the caller read (column.py); with a
    key, the outcome is kept for the devices sharing it, however seldom keys repeat."""
    return _evaluate(ev, entry, deadline, ev.shared if key is not None else None, key)


# Outcomes one device keeps, by expression, at most: the selector tool tries a new expression
# with every key, and at scale each kept one is an object per device the cyclic collector
# walks at every full collection. The expressions in use (the
# classes', the claims' previews) come back at once through the evaluators' shared outcomes.
MAX_RESULTS = 32


def _keep(results: dict[str, CelOutcome], expression: str, outcome: CelOutcome) -> None:
    if len(results) >= MAX_RESULTS:
        results.clear()
    results[expression] = outcome


_new = object.__new__


def _slot_setter(name: str) -> Callable[[CelOutcome, Any], None]:
    """A slot's own setter: a frozen dataclass's __init__ goes through object.__setattr__."""
    setter: Callable[[CelOutcome, Any], None] = getattr(CelOutcome, name).__set__
    return setter


_SET_DEVICE = _slot_setter("device")
_SET_MATCHED = _slot_setter("matched")
_SET_ERROR = _slot_setter("error")
_SET_UNFINISHED = _slot_setter("unfinished")


def _same_for(device: DeviceId, shared: CelOutcome) -> CelOutcome:
    """CelOutcome(device, shared.matched, shared.error), made for every device a shared outcome
    answers for: filling the slots directly takes half the time of the frozen dataclass's
    __init__ (test_cel_dedupe checks it makes equal outcomes)."""
    outcome: CelOutcome = _new(CelOutcome)
    _SET_DEVICE(outcome, device)
    _SET_MATCHED(outcome, shared.matched)
    _SET_ERROR(outcome, shared.error)
    _SET_UNFINISHED(outcome, False)
    return outcome


# Outcomes kept by one evaluator for devices with the same projection key, at most.
MAX_SHARED = 20_000
# Devices with new keys before a selector whose keys nearly never repeat stops being keyed
# (until the caches are cleared): per device, a key costs a tenth of an evaluation.
SHARING_PROBE = 512


def _evaluate(
    ev: Evaluator,
    entry: Prepared,
    deadline: float | None,
    table: dict[Any, CelOutcome] | None,
    key: Any,
) -> CelOutcome:
    """Run the selector on the device; the outcome is kept in `table` under `key` for devices
    with the same values where the selector looks (None: not kept for others)."""
    device = entry.device
    started = time.monotonic()
    limit = started + EVALUATION_BUDGET
    if deadline is not None:
        if started > deadline:  # the caller's budget is spent: not even started
            return CelOutcome(device.id, False, t("cel.timeout"), unfinished=True)
        limit = min(limit, deadline)
    if entry.convertible is None:
        prepared.know(entry)
    try:
        ev.devices.contextualise(entry)
        outcome = _run(ev.program, device.id, entry, limit)
    except _TimedOut:
        return CelOutcome(device.id, False, t("cel.timeout"), unfinished=True)
    _keep(entry.results, ev.expression, outcome)
    if table is not None and entry.typed is not None:
        if len(table) >= MAX_SHARED:
            table.clear()
        table[key] = outcome
    return outcome


def _run(program: interp.Program, device: DeviceId, entry: Prepared, deadline: float) -> CelOutcome:
    if entry.typed is None:  # the device cannot be represented where the selectors look
        return CelOutcome(device, False, entry.error)
    try:
        result = program.run(entry.typed, deadline=deadline)
    except interp.CelError as exc:
        return CelOutcome(device, False, str(exc))
    except interp.Timeout:
        raise _TimedOut() from None
    except interp.Unported as exc:  # defensive: a compiled Program's depth is bounded
        return CelOutcome(device, False, str(exc))
    if isinstance(result, bool):
        return CelOutcome(device, result)
    return CelOutcome(device, False, interp.not_bool(result))
