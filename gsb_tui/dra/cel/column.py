"""One selector over a whole sequence of devices: the selector tool's trial, every device of the
cluster on every keystroke.

Evaluating device by device looks each device's cache entry up, reads its projection key
(projection.py) from the served object and makes an outcome for it: ~20 ms for 10,000 devices
before a single selector runs. Yet the keys depend only on the devices and on which leaves a
selector reads, and typing `…index == 1`, `…index == 12`, `…index == 2` changes neither. So the
keys of a device sequence are read once per keying plan and kept (a key column, on the session's
PreparedDevices while that very sequence object is asked for), and a trial is one lookup per
device in the evaluator's shared outcomes, plus one evaluation per distinct key.

An outcome here answers for every device holding its key: its `device` is the first such
device's id (callers that need each device's own id call Selector.evaluate per device). Devices
without a key (not convertible, or values with no exact key) are evaluated on their own, as
runtime.py does. The session's lock is held for STOP_EVERY devices at a time, never a whole
sequence, so another thread waits at most that long.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence

from gsb_tui.dra.cel import prepared, projection, runtime
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.model import Device

STOP_EVERY = 256  # devices between two looks at `stop` (and two takings of the lock)
MAX_COLUMNS = 8  # key columns kept per session: one per keying plan in use


def key_column(
    devices: prepared.PreparedDevices, plan: projection.Plan, sequence: Sequence[Device]
) -> list[Hashable | None]:
    """Every device's key under `plan` (None: evaluated on its own), kept while `sequence` is the
    very object asked for. The caller holds the session's lock."""
    kept = devices.columns.get(plan.leaves)
    if kept is not None and kept[0] is sequence:
        return kept[1]
    keys: list[Hashable | None] = []
    for device in sequence:
        entry = devices.prepare(device)
        convertible = entry.convertible
        if convertible is None:
            convertible = prepared.know(entry)
        keys.append(plan.key(entry.device) if convertible else None)
    if len(devices.columns) >= MAX_COLUMNS:
        devices.columns.clear()
    devices.columns[plan.leaves] = (sequence, keys)
    return keys


def outcomes(
    ev: runtime.Evaluator,
    lock: threading.RLock,
    sequence: Sequence[Device],
    deadline: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[CelOutcome] | None:
    """A compiled selector's outcome on every device of `sequence`, in order (Selector.
    evaluate_many: its needs registered, `lock` its session's); None when `stop()` (asked every
    STOP_EVERY devices) said a newer question is wanted. Past `deadline` the devices not reached
    get an unfinished outcome (never kept)."""
    expression = ev.expression
    with lock:
        column = key_column(ev.devices, ev.plan, sequence) if ev.plan is not None else None
    out: list[CelOutcome] = []
    total = len(sequence)
    for start in range(0, total, STOP_EVERY):
        if stop is not None and stop():
            return None
        with lock:
            if ev.shared_epoch != ev.devices.shared_epoch:  # the caches were cleared meanwhile
                ev.share_again()
            shared = ev.shared
            for i in range(start, min(total, start + STOP_EVERY)):
                key = column[i] if column is not None else None
                if key is not None:
                    found = shared.get(key)
                    if found is not None:
                        out.append(found)
                        continue
                entry = ev.devices.prepare(sequence[i])
                outcome = entry.results.get(expression)
                if outcome is None:
                    outcome = runtime.evaluate_keyed(ev, entry, deadline, key)
                out.append(outcome)
    return out
