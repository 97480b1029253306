"""One switch for the cyclic collector, shared by whoever pauses it: the App while the first
lists come in (ui/pacing.GcHold) and every large JSON decode (kube/decode.py), from whatever
thread. Counted, so that one of them ending cannot turn the collector back on
under the other; it comes back on with the last resume, and only if it was on at the first
pause (someone else's `gc.disable()` is not ours to undo)."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_pauses = 0
_was_on = False


def pause() -> None:
    global _pauses, _was_on
    with _lock:
        if _pauses == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _pauses += 1


def resume() -> None:
    global _pauses
    with _lock:
        if _pauses == 0:
            return  # not paused: nothing to give back
        _pauses -= 1
        if _pauses == 0 and _was_on:
            gc.enable()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    pause()
    try:
        yield
    finally:
        resume()


_long_lived_frozen = False


def freeze_long_lived() -> None:
    """Once per process, when something long-lived has just been built after the first frame
    (the selector tool's CEL contexts: one per device, ~170,000 objects at 10,000 devices):
    collect, then freeze everything alive out of the collector's reach, so later full
    collections walk only what is new. Not while someone pauses the collector."""
    global _long_lived_frozen
    with _lock:
        if _long_lived_frozen or _pauses or not gc.isenabled():
            return
        _long_lived_frozen = True
    gc.collect()
    gc.freeze()


# --- full collections out of the key → frame path --------------------------------------------

# After gc.freeze() CPython counts almost nothing as long-lived, so a full collection (every
# object not frozen: 8-14 ms at 10,000 devices) followed every tenth middle one — about once a
# keystroke in the jump box. The App takes them over (ui/pacing.IdleCollector): the automatic
# ones off, one run when the screen is still and CPython's own threshold is reached.
FULL_EVERY = 10  # middle-generation collections between full ones: CPython's default threshold
FULL_OVERDUE = 100  # a screen never still (100 events/s) gets one after a frame at this count
_NEVER = 1 << 30

_deferred: int | None = None  # the full threshold taken over, while taken


def defer_full_collections() -> None:
    """Automatic full collections off until `restore_full_collections` (young ones as before)."""
    global _deferred
    young, middle, full = gc.get_threshold()
    if _deferred is None:
        _deferred = full
    gc.set_threshold(young, middle, _NEVER)


def restore_full_collections() -> None:
    """CPython's own full collections back (the App ending; others in this process go on)."""
    global _deferred
    if _deferred is not None:
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, _deferred)
        _deferred = None


def full_collections_deferred() -> bool:
    return _deferred is not None


def full_collection_due(overdue: bool = False) -> bool:
    """CPython would have run one by now (or long ago, with `overdue`), and nobody pauses the
    collector (a large decode in a reading thread, the first lists)."""
    wanted = FULL_OVERDUE if overdue else FULL_EVERY
    return _deferred is not None and gc.isenabled() and not _pauses and gc.get_count()[2] >= wanted
