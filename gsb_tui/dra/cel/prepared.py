"""Devices prepared for evaluation: one cache entry per device content.

An entry holds the device's typed `device` value (device.py, then interp.device_value), built
when a selector first has to run on it and holding only what compiled selectors read
(check.needs, registered here by `require`), the device's traits (device.traits: whether
projection.py can key it) and its results by expression. Outcomes shared by projection key
live on each runtime.Evaluator, valid while `shared_epoch` is unchanged. A new object for the
same device (a new snapshot) keeps its entry when its content did not change. `library()`
loads the CEL library, which only words syntax errors as cel-go does (selector.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gsb_tui.dra.cel import check
from gsb_tui.dra.cel.device import DeviceError, device_variable, traits
from gsb_tui.dra.cel.interp import device_value
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.model import Device, DeviceId

# --- the evaluating library --------------------------------------------------------------------


@lru_cache(maxsize=1)
def library() -> Any:
    # Imported on first use: `import cel` costs ~0.4 s, kept off the dashboard's first frame.
    import cel

    return cel


# --- devices prepared for the interpreter ------------------------------------------------------


@dataclass(slots=True)
class Prepared:
    """A device's cache entry: its typed value for the interpreter, its results by expression."""

    device: Device  # what the entry was built from (identity of .raw is the fast cache check)
    fingerprint: str = ""  # "" until a second object for the same device has to be compared
    typed: Any = None  # the device as interp.py sees it, or None when it cannot be represented
    error: str = ""
    needs_version: int = -1  # which _needs `typed` holds (-1: not built yet)
    results: dict[str, CelOutcome] = field(default_factory=dict)
    # device.traits, on first use (fields, not the tuple: one object less per device)
    convertible: bool | None = None  # None: not known yet


_MAX_PREPARED = 20_000
_prepared_devices: dict[tuple[DeviceId, str], Prepared] = {}
# Bumped by clear(): every selector's outcomes shared by projection key (runtime.py) are gone.
shared_epoch = 0
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


def prepare(device: Device) -> Prepared:
    """The cache entry of a device, replaced only when the device's content changed (its
    typed value is built by contextualise, when a selector has to run on it)."""
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
    if entry is not None:
        return entry
    if len(_prepared_devices) >= _MAX_PREPARED:
        _prepared_devices.clear()
    entry = _prepared_devices[key] = Prepared(device)
    return entry


def contextualise(entry: Prepared) -> None:
    """Build the entry's typed value, again when selectors now read more of the device (its
    cached results stay valid)."""
    if entry.needs_version != _needs_version:
        entry.typed, entry.error = _typed(entry.device)
        entry.needs_version = _needs_version


def know(entry: Prepared) -> bool:
    """Fill in the entry's traits (device.traits); whether projection.py can key it."""
    entry.convertible = traits(entry.device).convertible
    return entry.convertible


def _typed(device: Device) -> tuple[Any, str]:
    try:
        variable = device_variable(device, _frozen_needs())
    except DeviceError as exc:
        return None, str(exc)
    return device_value(variable), ""


def clear(*, results_only: bool = False) -> None:
    """Forget cached results, and unless results_only also the prepared devices and what
    compiled selectors registered (they register again on their next evaluation)."""
    global _needs_version, epoch, shared_epoch
    shared_epoch += 1
    if results_only:
        for entry in _prepared_devices.values():
            entry.results.clear()
        return
    _prepared_devices.clear()
    _needs.clear()
    _needs_version += 1
    epoch += 1
