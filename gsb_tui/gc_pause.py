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
