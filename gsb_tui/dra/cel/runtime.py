"""Running compiled selectors: the Rust CEL library, Kubernetes' functions, cached results.

Each device becomes one library Context holding its `device` variable (device.py), built once
per device content and holding only what compiled selectors read (check.needs). Results are
cached per (device, expression), so re-evaluating on every cluster change is a dictionary lookup
for devices that did not change.

Where the library's answer could differ from the scheduler's, interp.py (cel-go's semantics,
cost count and wording) evaluates instead: for selectors that read version attributes or
capacities through dynamic values on devices that have them, and for every evaluation the
library failed. Every evaluation has a deadline (EVALUATION_BUDGET, or the caller's); one that
runs out is reported as unfinished and not cached.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gsb_tui.dra.cel import callbacks, check, interp
from gsb_tui.dra.cel.device import DeviceError, device_variable
from gsb_tui.dra.cel.values import as_quantity, as_semver
from gsb_tui.dra.model import Device, DeviceId
from gsb_tui.words import t

# Wall-clock time one evaluation may take (the scheduler's cost limit is about 0.1 s of
# cel-go's work; the interpreter is slower). The library's own work cannot be interrupted, but
# its cost is bounded at compile time (cost.py); Python callbacks and the interpreter check it.
EVALUATION_BUDGET = 1.0


@dataclass(frozen=True)
class CelOutcome:
    """One device's result for one selector (or for all selectors of a request)."""

    device: DeviceId
    matched: bool
    error: str = ""  # "" unless a runtime error (then matched is False)
    # The time budget ran out before the device was evaluated (error says so): not a verdict.
    unfinished: bool = False


class _TimedOut(Exception):
    """The evaluation's deadline passed (raised from a Python callback, or the interpreter)."""


# --- the evaluating library --------------------------------------------------------------------


class _ExpectedFailures(logging.Filter):
    """The library logs a warning for every exception a Python function raises; ours are
    CEL runtime errors (e.g. quantity('x')), reported in CelOutcome, not on stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Python function 'k8s_" not in record.getMessage()


@lru_cache(maxsize=1)
def library() -> Any:
    # Imported on first use: `import cel` costs ~0.4 s, kept off the dashboard's first frame.
    import cel

    logging.getLogger("cel").addFilter(_ExpectedFailures())
    return cel


# --- devices prepared for the library ----------------------------------------------------------


@dataclass
class _Prepared:
    device: Device  # what the entry was built from (identity of .raw is the fast cache check)
    fingerprint: str  # "" until a second object for the same device has to be compared
    context: Any  # the library's Context, or None when the device cannot be represented
    error: str
    needs_version: int  # which _needs the context holds
    results: dict[str, CelOutcome] = field(default_factory=dict)
    versions: frozenset[tuple[str, str]] = frozenset()  # (domain, name) of version attributes
    capacities: bool = False  # whether the device publishes capacities
    typed: Any = None  # the device as interp.py sees it, built on first use


_MAX_PREPARED = 20_000
_prepared_devices: dict[tuple[DeviceId, str], _Prepared] = {}
# Outcomes of selectors that read nothing of the device, by expression.
_device_free: dict[str, CelOutcome] = {}
# What the compiled selectors read, together: each device's context holds just that.
_needs: set[check.Leaf] = set()
_needs_version = 0
epoch = 0  # bumped by clear(): compiled selectors register their needs again


@lru_cache(maxsize=1)
def _frozen_needs_at(version: int) -> frozenset[check.Leaf]:
    return frozenset(_needs)


def _frozen_needs() -> frozenset[check.Leaf]:
    return _frozen_needs_at(_needs_version)


def _covered(leaf: check.Leaf) -> bool:
    if leaf in _needs:
        return True
    if leaf == PYTHON_FUNCTIONS:  # not a part of the device: the whole device does not cover it
        return False
    if check.WHOLE in _needs:
        return True
    return len(leaf) == 3 and bool({(leaf[0], "*", "*"), (leaf[0], leaf[1], "*")} & _needs)


def require(leaves: frozenset[check.Leaf]) -> None:
    """Make prepared devices hold these leaves too (rebuilt lazily, results kept)."""
    global _needs_version
    missing = {leaf for leaf in leaves if not _covered(leaf)}
    if missing:
        _needs.update(missing)
        _needs_version += 1


def _fingerprint(device: Device) -> str:
    return json.dumps(
        [device.raw, sorted(device.attributes.items()), sorted(device.capacity.items())],
        sort_keys=True,
        default=str,
    )


def _prepare(device: Device) -> _Prepared:
    """The library Context for a device, rebuilt only when the device's content changed."""
    key = (device.id, device.slice_name)
    entry = _prepared_devices.get(key)
    if entry is not None and entry.device.raw is not device.raw:
        # Another object for the same device (a new snapshot): reuse it if nothing changed.
        fingerprint = _fingerprint(device)
        if not entry.fingerprint:
            entry.fingerprint = _fingerprint(entry.device)
        if entry.fingerprint != fingerprint:
            entry = None
        else:
            entry.device = device
    if entry is not None and entry.needs_version == _needs_version:
        return entry
    context, error = _context(device)
    if entry is not None:  # selectors now read more of the device; results stay valid
        entry.context, entry.error, entry.needs_version = context, error, _needs_version
        return entry
    if len(_prepared_devices) >= _MAX_PREPARED:
        _prepared_devices.clear()
    entry = _Prepared(device, "", context, error, _needs_version)
    entry.versions, entry.capacities = _typed_values(device)
    _prepared_devices[key] = entry
    return entry


def _typed_values(device: Device) -> tuple[frozenset[tuple[str, str]], bool]:
    """Which attributes are versions, and whether there are capacities: the values the library
    represents as maps (values.py), so its answers on dynamic values can differ from cel-go's."""
    raw = device.raw if isinstance(device.raw, dict) else {}
    attributes = raw.get("attributes")
    versions = set()
    if isinstance(attributes, dict):
        for name, value in attributes.items():
            if isinstance(value, dict) and "version" in value:
                domain, sep, ident = str(name).partition("/")
                versions.add((domain, ident) if sep else (device.id.driver, str(name)))
    return frozenset(versions), bool(raw.get("capacity") or device.capacity)


# Not a device part: registered by selectors that call Python functions (k8s_*), which then
# go into every context (registering them costs about as much as a few attributes).
PYTHON_FUNCTIONS: check.Leaf = ("@functions",)


def _context(device: Device) -> tuple[Any, str]:
    needs = _frozen_needs()
    try:
        variable = device_variable(device, needs)
    except DeviceError as exc:
        return None, str(exc)
    functions = _function_table() if PYTHON_FUNCTIONS in needs else None
    return library().Context(variables={"device": variable}, functions=functions), ""


@lru_cache(maxsize=1)
def _function_table() -> dict[str, Callable[..., Any]]:
    return callbacks.functions()


def clear(*, results_only: bool = False) -> None:
    """Forget cached results, and unless results_only also the prepared devices and what
    compiled selectors registered (they register again on their next evaluation)."""
    global _needs_version, epoch
    _device_free.clear()
    if results_only:
        for entry in _prepared_devices.values():
            entry.results.clear()
        return
    _prepared_devices.clear()
    _needs.clear()
    _needs_version += 1
    epoch += 1


@dataclass
class Evaluator:
    """What evaluating one compiled selector needs (selector.py builds it)."""

    expression: str
    program: Any  # the library's compiled program
    precise: interp.Program | None  # None when interp.py cannot evaluate this selector
    needs: frozenset[check.Leaf]
    dynamic_versions: bool  # reads attributes (a version among them reads as a map natively)
    dynamic_quantities: bool  # passes capacities through dynamic values

    @property
    def device_free(self) -> bool:
        """Reads nothing of the device: one outcome for every device."""
        return self._device_free

    def __post_init__(self) -> None:
        self._device_free = not self.needs - {PYTHON_FUNCTIONS}


def _reads(needs: frozenset[check.Leaf], kind: str, domain: str, name: str) -> bool:
    return bool({check.WHOLE, (kind, "*", "*"), (kind, domain, "*"), (kind, domain, name)} & needs)


def _precise_first(ev: Evaluator, entry: _Prepared) -> bool:
    if ev.precise is None:
        return False
    if ev.dynamic_versions and any(_reads(ev.needs, "attributes", *v) for v in entry.versions):
        return True
    return ev.dynamic_quantities and entry.capacities


def evaluate(ev: Evaluator, device: Device, deadline: float | None = None) -> CelOutcome:
    """One compiled selector on one device, cached per device content and expression.

    `deadline` (time.monotonic) bounds this evaluation besides EVALUATION_BUDGET; past it the
    outcome is `unfinished` and not cached."""
    entry = _prepare(device)
    outcome = entry.results.get(ev.expression)
    if outcome is not None:
        return outcome
    if entry.context is not None and ev.device_free:
        # Reads nothing of the device: one evaluation answers for every device.
        shared = _device_free.get(ev.expression)
        if shared is not None:
            outcome = CelOutcome(device.id, shared.matched, shared.error)
            entry.results[ev.expression] = outcome
            return outcome
    started = time.monotonic()
    limit = started + EVALUATION_BUDGET
    if deadline is not None:
        if started > deadline:  # the caller's budget is spent: not even started
            return CelOutcome(device.id, False, t("cel.timeout"), unfinished=True)
        limit = min(limit, deadline)
    try:
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
    entry.results[ev.expression] = outcome
    if entry.context is not None and ev.device_free:
        if len(_device_free) >= _MAX_PREPARED:
            _device_free.clear()
        _device_free[ev.expression] = outcome
    return outcome


def _run(program: Any, device: DeviceId, entry: _Prepared, deadline: float) -> CelOutcome:
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


def _run_precise(ev: Evaluator, device: Device, entry: _Prepared, deadline: float) -> CelOutcome:
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
