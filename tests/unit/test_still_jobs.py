"""Work that waits for a still screen (gsb_tui/ui/pacing.StillJobs) and the full collections the
App takes over from CPython (gc_pause.defer_full_collections, pacing.IdleCollector): nothing
runs while frames keep coming, a job's `within` is its latest moment, nothing waiting arms no
timer, and a collection long overdue runs right after a frame."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import pytest

from gsb_tui import gc_pause
from gsb_tui.ui.pacing import STILL_S, STILL_WITHIN_S, IdleCollector, StillJobs


class FakeTimers:
    """set_timer with a hand-moved clock: `advance` fires what is due, in order."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pending: list[tuple[float, Callable[[], None], list[bool]]] = []

    def clock(self) -> float:
        return self.now

    def set_timer(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        stopped = [False]
        self.pending.append((self.now + delay, callback, stopped))
        return FakeTimer(stopped)

    def armed(self) -> int:
        return sum(1 for _, _, stopped in self.pending if not stopped[0])

    def advance(self, seconds: float) -> None:
        until = self.now + seconds
        while True:
            due = [p for p in self.pending if not p[2][0] and p[0] <= until]
            if not due:
                break
            at, callback, stopped = min(due, key=lambda p: p[0])
            self.now = max(self.now, at)
            stopped[0] = True
            callback()
        self.now = until


class FakeTimer:
    def __init__(self, stopped: list[bool]) -> None:
        self._stopped = stopped

    def stop(self) -> None:
        self._stopped[0] = True


def still_jobs() -> tuple[FakeTimers, StillJobs]:
    timers = FakeTimers()
    return timers, StillJobs(timers.set_timer, timers.clock)


def test_a_job_waits_while_frames_keep_coming_and_runs_once_the_screen_is_still() -> None:
    timers, jobs = still_jobs()
    ran: list[str] = []
    jobs.add("lab", lambda: ran.append("lab"))
    for _ in range(10):  # a key answered every 0.3 s: never still for STILL_S
        timers.advance(0.3)
        jobs.frame_written()
    assert ran == []
    timers.advance(STILL_S)
    assert ran == ["lab"]
    assert timers.armed() == 0  # nothing waiting: no timer


def test_within_is_a_jobs_latest_moment_even_if_the_screen_never_stills() -> None:
    timers, jobs = still_jobs()
    ran: list[str] = []
    jobs.add("cel", lambda: ran.append("cel"), within=1.0)
    jobs.add("lab", lambda: ran.append("lab"))  # STILL_WITHIN_S: waits for stillness here
    for _ in range(5):
        timers.advance(0.25)
        jobs.frame_written()
    assert ran == ["cel"]
    timers.advance(STILL_S)
    assert ran == ["cel", "lab"]


def test_the_latest_job_of_a_name_replaces_the_one_before_and_keeps_its_latest_moment() -> None:
    timers, jobs = still_jobs()
    ran: list[int] = []
    jobs.add("lab", lambda: ran.append(1))
    jobs.add("lab", lambda: ran.append(2))
    timers.advance(STILL_S)
    assert ran == [2]
    jobs.frame_written()
    jobs.add("lab", lambda: ran.append(3), within=1.0)
    for n in range(8):  # a new view every 0.25 s, each asking again: never still
        timers.advance(0.25)
        jobs.frame_written()
        jobs.add("lab", lambda n=n: ran.append(10 + n), within=1.0)
    assert ran[:2] == [2, 12]  # 1 s after the first asking, the latest job then


def test_a_screen_never_still_runs_its_jobs_by_their_latest_moment() -> None:
    timers, jobs = still_jobs()
    ran: list[str] = []
    jobs.add("gc", lambda: ran.append("gc"))
    steps = int(STILL_WITHIN_S / 0.4) + 2
    for _ in range(steps):  # a blinking cursor: a frame every 0.4 s, for ever
        timers.advance(0.4)
        jobs.frame_written()
    assert ran == ["gc"]


@pytest.fixture
def deferred() -> Iterator[None]:
    before = gc.get_threshold()
    gc_pause.defer_full_collections()
    try:
        yield
    finally:
        gc_pause.restore_full_collections()
        assert gc.get_threshold() == before  # given back as it was


def middle_collections(n: int) -> None:
    """n collections of the middle generation, as allocation would trigger them."""
    for _ in range(n):
        gc.collect(1)


def test_deferring_leaves_young_collections_and_stops_automatic_full_ones(deferred: None) -> None:
    young, _, full = gc.get_threshold()
    assert young > 0 and full > 10**6 and gc_pause.full_collections_deferred()
    gc.collect()
    middle_collections(gc_pause.FULL_EVERY - 1)
    assert not gc_pause.full_collection_due()
    middle_collections(1)
    assert gc_pause.full_collection_due()
    with gc_pause.paused():  # a large decode in a reading thread: not now
        assert not gc_pause.full_collection_due()
    assert not gc_pause.full_collection_due(overdue=True)


def test_a_due_collection_waits_for_a_still_screen(deferred: None) -> None:
    timers, jobs = still_jobs()
    collector = IdleCollector(jobs)
    gc.collect()
    collector.frame_written()
    assert timers.armed() == 0  # nothing due: no timer
    middle_collections(gc_pause.FULL_EVERY)
    collector.frame_written()
    jobs.frame_written()
    timers.advance(STILL_S / 2)
    assert collector.collections == 0
    timers.advance(STILL_S)
    assert collector.collections == 1 and not gc_pause.full_collection_due()


def test_a_long_overdue_collection_runs_right_after_a_frame(deferred: None) -> None:
    timers, jobs = still_jobs()
    collector = IdleCollector(jobs)
    gc.collect()
    middle_collections(gc_pause.FULL_OVERDUE)
    assert timers.armed() == 0
    collector.frame_written()
    assert collector.collections == 1 and gc.get_count()[2] == 0
