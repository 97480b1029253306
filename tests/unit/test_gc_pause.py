"""gc_pause: the App's hold and the large decodes (from any thread) share one counted switch,
so one ending cannot turn the collector back on under the other (full collections were once 5
of the 10 s of a start at 10,000 devices, measured)."""

from __future__ import annotations

import gc
import threading

import pytest

from gsb_tui import gc_pause
from gsb_tui.ui.pacing import GcHold


def test_the_collector_comes_back_with_the_last_resume_only() -> None:
    assert gc.isenabled()
    hold = GcHold()
    try:
        hold.hold()
        with gc_pause.paused():  # a decode in a reading thread, during the App's hold
            assert not gc.isenabled()
        assert not gc.isenabled()  # the decode ended: the hold still holds
        gc_pause.pause()  # a decode begun during the hold ...
        hold.release(freeze=False)  # ... outlives it
        assert not gc.isenabled()
        gc_pause.resume()
        assert gc.isenabled()
    finally:
        hold.release(freeze=False)
        gc.enable()


def test_paused_by_threads_at_once_and_a_resume_too_many_is_harmless() -> None:
    assert gc.isenabled()
    inside = threading.Barrier(8)
    seen: list[bool] = []

    def decode() -> None:
        with gc_pause.paused():
            inside.wait(5)  # all eight paused at once
            seen.append(gc.isenabled())
            inside.wait(5)

    threads = [threading.Thread(target=decode) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [False] * 8
    assert gc.isenabled()
    gc_pause.resume()  # nothing paused: nothing to give back
    assert gc.isenabled()


def test_someone_elses_disable_is_not_undone() -> None:
    gc.disable()
    try:
        with gc_pause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_long_lived_objects_are_frozen_once_and_never_while_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    done: list[str] = []
    monkeypatch.setattr(gc_pause, "_long_lived_frozen", False)
    monkeypatch.setattr(gc, "collect", lambda *a: done.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    with gc_pause.paused():
        gc_pause.freeze_long_lived()  # the first lists coming in: not now
    assert done == []
    gc_pause.freeze_long_lived()
    gc_pause.freeze_long_lived()  # once per process
    assert done == ["collect", "freeze"]
