"""Running compiled selectors: the Rust CEL library, Kubernetes' functions, cached results.

Each device becomes one library Context holding its `device` variable (device.py), built once
per device content when a selector first has to run on it, and holding only what compiled
selectors read (check.needs): prepared.py keeps them. Results are cached per (device,
expression), so re-evaluating on every cluster change is a dictionary lookup for devices that
did not change.

Building a context is most of an evaluation's cost, so devices are not all evaluated: a device
whose values where a selector looks equal those of a device evaluated before (projection.py's
key, read from the served object) gets that device's outcome without a context of its own. A
selector whose keys nearly never repeat (it reads a unique uuid) stops being keyed after
SHARING_PROBE devices, until the caches are cleared.

Where the library's answer could differ from the scheduler's, interp.py (cel-go's semantics,
cost count and wording) evaluates instead: for selectors that read version attributes or
capacities through dynamic values on devices that have them, and for every evaluation the
library failed. Every evaluation has a deadline (EVALUATION_BUDGET, or the caller's); one that
runs out is reported as unfinished and not cached.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.dra.cel import callbacks, check, interp, prepared, projection
from gsb_tui.dra.cel.device import DeviceError, device_variable
from gsb_tui.dra.cel.prepared import PYTHON_FUNCTIONS, Prepared, prepare
from gsb_tui.dra.cel.values import as_quantity, as_semver
from gsb_tui.dra.model import Device, DeviceId
from gsb_tui.words import t

# Wall-clock time one evaluation may take (the scheduler's cost limit is about 0.1 s of
# cel-go's work; the interpreter is slower). The library's own work cannot be interrupted, but
# its cost is bounded at compile time (cost.py); Python callbacks and the interpreter check it.
EVALUATION_BUDGET = 1.0


@dataclass(frozen=True, slots=True)
class CelOutcome:
    """One device's result for one selector (or for all selectors of a request). Slots: there
    are one per device and selector, and fewer objects keep the collector's walks short."""

    device: DeviceId
    matched: bool
    error: str = ""  # "" unless a runtime error (then matched is False)
    # The time budget ran out before the device was evaluated (error says so): not a verdict.
    unfinished: bool = False


class _TimedOut(Exception):
    """The evaluation's deadline passed (raised from a Python callback, or the interpreter)."""


@dataclass
class Evaluator:
    """What evaluating one compiled selector needs (selector.py builds it)."""

    expression: str
    program: Any  # the library's compiled program
    precise: interp.Program | None  # None when interp.py cannot evaluate this selector
    needs: frozenset[check.Leaf]
    dynamic_versions: bool  # reads attributes (a version among them reads as a map natively)
    dynamic_quantities: bool  # passes capacities through dynamic values
    # How to key devices whose outcome is the same (projection.py); None: every device runs.
    plan: projection.Plan | None = field(init=False)

    def __post_init__(self) -> None:
        self.plan = projection.plan(self.needs, frozenset({PYTHON_FUNCTIONS}))
        # Which attributes it reads, for _precise_first: every one, whole domains, leaves.
        every = bool({check.WHOLE, ("attributes", "*", "*")} & self.needs)
        attributes = [leaf[1:] for leaf in self.needs if len(leaf) == 3 and leaf[0] == "attributes"]
        self.reads_attributes: tuple[bool, frozenset[str], frozenset[tuple[str, ...]]] = (
            every,
            frozenset(d for d, n in attributes if n == "*"),
            frozenset(attributes),
        )
        self.version_reads: dict[frozenset[tuple[str, str]], bool] = {}
        # Whether interp.py could ever evaluate first (else _precise_first need not ask).
        self.may_run_precise_first = self.precise is not None and (
            self.dynamic_versions or self.dynamic_quantities
        )
        # Outcomes by projection key, one table for each evaluator (interp.py first or not):
        # what the selector gave on a device holding those values where it looks.
        self.shared: tuple[dict[Any, CelOutcome], dict[Any, CelOutcome]] = ({}, {})
        self.shared_epoch = prepared.shared_epoch
        self.sharing = True  # False once keys turned out (nearly) all different
        self.hits = self.misses = 0

    def share_again(self) -> None:
        """The caches were cleared: no shared outcomes, and keys are worth trying again."""
        self.shared = ({}, {})
        self.shared_epoch = prepared.shared_epoch
        self.sharing = True
        self.hits = self.misses = 0


def _reads_version(ev: Evaluator, versions: frozenset[tuple[str, str]]) -> bool:
    """Whether the selector reads one of these (domain, name) attributes."""
    if not versions:
        return False
    every, domains, names = ev.reads_attributes
    if every:
        return True
    return any(version[0] in domains or version in names for version in versions)


def _precise_first(ev: Evaluator, known: Prepared) -> bool:
    """Whether interp.py evaluates first (the library's answer could differ from cel-go's)."""
    if ev.precise is None:
        return False
    if ev.dynamic_versions and known.versions:
        # Devices repeat the same version names: one answer per set of them.
        reads = ev.version_reads.get(known.versions)
        if reads is None:
            if len(ev.version_reads) >= 256:
                ev.version_reads.clear()
            reads = ev.version_reads[known.versions] = _reads_version(ev, known.versions)
        if reads:
            return True
    return ev.dynamic_quantities and known.capacities


def evaluate(ev: Evaluator, device: Device, deadline: float | None = None) -> CelOutcome:
    """One compiled selector on one device, cached per device content and expression.

    `deadline` (time.monotonic) bounds this evaluation besides EVALUATION_BUDGET; past it the
    outcome is `unfinished` and not cached."""
    entry = prepare(device)
    outcome = entry.results.get(ev.expression)
    if outcome is not None:
        return outcome
    return evaluate_prepared(ev, entry, deadline)


def evaluate_prepared(ev: Evaluator, entry: Prepared, deadline: float | None) -> CelOutcome:
    """`evaluate` on a device's entry from `prepare` (one entry for all selectors of a chain)."""
    expression = ev.expression
    outcome = entry.results.get(expression)
    if outcome is not None:
        return outcome
    if ev.plan is not None:  # inline: this runs for every device of every preview
        if ev.shared_epoch != prepared.shared_epoch:
            ev.share_again()
        convertible = entry.convertible
        if convertible is None and ev.sharing:
            convertible = prepared.know(entry)
        key = ev.plan.key(entry.device) if convertible and ev.sharing else None
        if key is not None:
            # Which evaluator answers depends on the device beyond the key only through the
            # values the key holds; kept apart all the same.
            table = ev.shared[ev.may_run_precise_first and _precise_first(ev, entry)]
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


# Outcomes one device keeps, by expression, at most: the selector tool tries a new expression
# with every key, and at 10,000 devices each kept one is 10,000 objects the cyclic collector
# walks (full collections of 55-90 ms every few keys, measured). The expressions in use (the
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
        prepared.contextualise(entry)
        if entry.context is None:
            outcome = CelOutcome(device.id, False, entry.error)
        elif _precise_first(ev, entry):
            outcome = _run_precise(ev, device, entry, limit)
        else:
            outcome = _run(ev.program, device.id, entry, limit)
            if outcome.error and ev.precise is not None:  # the scheduler's own wording
                outcome = _run_precise(ev, device, entry, limit)
    except _TimedOut:
        return CelOutcome(device.id, False, t("cel.timeout"), unfinished=True)
    _keep(entry.results, ev.expression, outcome)
    if table is not None and entry.context is not None:
        if len(table) >= MAX_SHARED:
            table.clear()
        table[key] = outcome
    return outcome


def _run(program: Any, device: DeviceId, entry: Prepared, deadline: float) -> CelOutcome:
    if entry.context is None:
        return CelOutcome(device, False, entry.error)
    callbacks.failure.message = ""
    callbacks.failure.deadline = deadline
    try:
        result = program.execute(entry.context)
    except Exception as exc:
        if getattr(callbacks.failure, "message", "") == callbacks.TIMEOUT:
            raise _TimedOut() from None
        return CelOutcome(device, False, _runtime_message(exc))
    finally:
        callbacks.failure.deadline = math.inf
    return _outcome(device, result)


def _run_precise(ev: Evaluator, device: Device, entry: Prepared, deadline: float) -> CelOutcome:
    assert ev.precise is not None
    if entry.typed is None:
        try:
            entry.typed = interp.device_value(device_variable(device, None))
        except DeviceError as exc:
            return CelOutcome(device.id, False, str(exc))
    try:
        result = ev.precise.run(entry.typed, deadline=deadline)
    except interp.CelError as exc:
        return CelOutcome(device.id, False, str(exc))
    except interp.Timeout:
        raise _TimedOut() from None
    except interp.Unported:  # cannot happen for a compiled Program; the library's answer stands
        return _run(ev.program, device.id, entry, deadline)
    if isinstance(result, bool):
        return CelOutcome(device.id, result)
    return CelOutcome(device.id, False, interp.not_bool(result))


def _outcome(device: DeviceId, result: Any) -> CelOutcome:
    if isinstance(result, bool):
        return CelOutcome(device, result)
    typed = as_quantity(result) or as_semver(result) or result
    return CelOutcome(device, False, interp.not_bool(typed))


def _type_name(value: Any) -> str:
    if as_quantity(value) is not None:
        return "kubernetes.Quantity"
    if isinstance(value, dict):
        if as_semver(value) is not None:
            return "kubernetes.Semver"
        return "map"
    names = {bool: "bool", int: "int", float: "double", str: "string", bytes: "bytes", list: "list"}
    return "null_type" if value is None else names.get(type(value), type(value).__name__)


def _runtime_message(exc: Exception) -> str:
    """cel-go's wording for what the library raised."""
    text = str(exc)
    failure: str = getattr(callbacks.failure, "message", "")
    if text.startswith("Function 'k8s_") and failure:
        return failure
    if isinstance(exc, KeyError):
        return f"no such key: {exc.args[0] if exc.args else ''}"
    if isinstance(exc, ZeroDivisionError):
        return "modulus by zero" if "modulo" in text else "division by zero"
    if isinstance(exc, OverflowError):
        return "integer overflow"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, TypeError) or text.startswith("Undefined variable or function"):
        # Names were checked at compile time: a function missing now is one applied to a
        # runtime type it has no overload for (e.g. size() on an int attribute).
        return "no such overload"
    return text.split(". Check ")[0]
