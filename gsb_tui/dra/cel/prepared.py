"""Devices prepared for evaluation: one cache entry per device content.

An entry holds the device's typed `device` value (device.py, then interp.device_value), built
when a selector first has to run on it and holding only what compiled selectors read
(check.needs, registered by `require`), the device's traits (device.traits: whether
projection.py can key it) and its results by expression. The entries are one CEL session's
(PreparedDevices; selector.CelSession). Outcomes shared by projection key live on each
runtime.Evaluator, valid while its session's `shared_epoch` is unchanged. A new object for the
same device (a new snapshot) keeps its entry when its content did not change. `library()`
loads the CEL library, which only words syntax errors as cel-go does (selector.py).
"""

from __future__ import annotations

import json
import sys
import types
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
    """The library, imported on first use (kept off the dashboard's first frame)."""
    # cel's package imports its command-line tool (typer, prompt_toolkit, pygments, rich),
    # which we never run: 110 of its 125 ms here. A placeholder stands in for that module;
    # a cel whose package needs more of it than the name is imported as it is.
    placeholder = "cel" not in sys.modules and "cel.cli" not in sys.modules
    if placeholder:
        sys.modules["cel.cli"] = types.ModuleType("cel.cli", "not imported by gsb-tui")
    try:
        import cel
    except ImportError:
        if not placeholder:
            raise
        for name in [n for n in sys.modules if n == "cel" or n.startswith("cel.")]:
            del sys.modules[name]
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
    needs_version: int = -1  # which of the session's needs `typed` holds (-1: not built)
    results: dict[str, CelOutcome] = field(default_factory=dict)
    # device.traits, on first use (fields, not the tuple: one object less per device)
    convertible: bool | None = None  # None: not known yet


_MAX_PREPARED = 20_000


class PreparedDevices:
    """One CEL session's device entries (selector.CelSession owns them), and what the
    session's compiled selectors read, together: each device's typed value holds just that."""

    def __init__(self) -> None:
        self.entries: dict[tuple[DeviceId, str], Prepared] = {}
        # Bumped by clear(): every selector's outcomes shared by projection key are gone.
        self.shared_epoch = 0
        self.epoch = 0  # bumped by clear(): compiled selectors register their needs again
        self._needs: set[check.Leaf] = set()
        self._needs_version = 0
        self._frozen: tuple[int, frozenset[check.Leaf]] = (-1, frozenset())
        # Projection keys of a whole device sequence, by keying plan's leaves: (the sequence,
        # its keys); column.py's, valid while the sequence is the very object asked for.
        self.columns: dict[tuple[check.Leaf, ...], tuple[Any, list[Any]]] = {}

    def _frozen_needs(self) -> frozenset[check.Leaf]:
        if self._frozen[0] != self._needs_version:
            self._frozen = (self._needs_version, frozenset(self._needs))
        return self._frozen[1]

    def _covered(self, leaf: check.Leaf) -> bool:
        needs = self._needs
        if leaf in needs or check.WHOLE in needs:
            return True
        return len(leaf) == 3 and bool({(leaf[0], "*", "*"), (leaf[0], leaf[1], "*")} & needs)

    def require(self, leaves: frozenset[check.Leaf]) -> None:
        """Make prepared devices hold these leaves too (rebuilt lazily, results kept)."""
        missing = {leaf for leaf in leaves if not self._covered(leaf)}
        if missing:
            self._needs.update(missing)
            self._needs_version += 1

    def prepare(self, device: Device) -> Prepared:
        """The cache entry of a device, replaced only when the device's content changed (its
        typed value is built by contextualise, when a selector has to run on it)."""
        key = (device.id, device.slice_name)
        entries = self.entries
        entry = entries.get(key)
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
        if len(entries) >= _MAX_PREPARED:
            entries.clear()
        entry = entries[key] = Prepared(device)
        return entry

    def contextualise(self, entry: Prepared) -> None:
        """Build the entry's typed value, again when selectors now read more of the device
        (its cached results stay valid)."""
        if entry.needs_version != self._needs_version:
            entry.typed, entry.error = self._typed(entry.device)
            entry.needs_version = self._needs_version

    def _typed(self, device: Device) -> tuple[Any, str]:
        try:
            variable = device_variable(device, self._frozen_needs())
        except DeviceError as exc:
            return None, str(exc)
        return device_value(variable), ""

    def clear(self, *, results_only: bool = False) -> None:
        """Forget cached results, and unless results_only also the prepared devices and what
        compiled selectors registered (they register again on their next evaluation)."""
        self.shared_epoch += 1
        self.columns.clear()
        if results_only:
            for entry in self.entries.values():
                entry.results.clear()
            return
        self.entries.clear()
        self._needs.clear()
        self._needs_version += 1
        self.epoch += 1


def _fingerprint(device: Device) -> str:
    return json.dumps(
        [device.raw, sorted(device.attributes.items()), sorted(device.capacity.items())],
        sort_keys=True,
        default=str,
    )


def know(entry: Prepared) -> bool:
    """Fill in the entry's traits (device.traits); whether projection.py can key it."""
    entry.convertible = traits(entry.device).convertible
    return entry.convertible
