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
