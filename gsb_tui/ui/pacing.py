"""What reaches a repaint, and the garbage collector around the first lists.

A cluster sends much that a DRA dashboard never shows: every node's status heartbeat (its
conditions with a new lastHeartbeatTime), the retry count of an API that is not served going
up. Each would rebuild the DraView (most of a second at 10,000 devices) for a frame like the
last one, so the App drops them before the Store (`ChangeFilter`): the stored Node keeps the
status it had (nothing reads more of a Node than `node_face`), and the revision moves only when
the screen can. Past kube.reflector.POLL_NODES_ABOVE nodes are re-listed instead of watched; a
re-list that says the same is dropped here too.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Literal, Protocol

from gsb_tui import gc_pause
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, KindState, Obj

# While the first lists come in and the store holds this many objects, a repaint waits for the
# rest of them, at most FIRST_LISTS_HOLD_S after the first change: at 10,000 devices each
# early repaint costs up to a second.
HOLD_OBJECTS = 1000
FIRST_LISTS_HOLD_S = 5.0
GC_HOLD_MAX_S = 60.0  # the collector waits for the first synced frame at most this long
AFTER_FRAME_WAIT_S = 0.5  # AfterFrame: a repaint that wrote no frame runs its jobs then
STILL_S = 0.5  # StillJobs: no frame written for this long is a still screen
FIRST_WORK_WITHIN_S = 3.0  # the lab checks' and CEL library's first runs wait at most this
STILL_WITHIN_S = 5.0  # StillJobs: a job's latest moment unless it says (a blinking cursor
# writes a frame every 0.5 s: a screen with a focused input is never still for long)
MIN_WAIT_S = 0.001  # a Textual timer of 0 s divides by it
# Phases whose words do not carry the attempt count (base.kind_notice, header.phase_text): a
# retry of a forbidden or unserved API that fails the same way again says nothing new.
SAME_WORDS_PHASES = frozenset({"not-served", "forbidden"})


def node_face(obj: Obj) -> tuple[object, ...]:
    """What gsb-tui reads of a Node besides its name: its uid (a node made again), labels and
    status.allocatable (DraView.nodes, DraView.node_allocatable)."""
    meta = obj.get("metadata")
    status = obj.get("status")
    meta = meta if isinstance(meta, Mapping) else {}
    status = status if isinstance(status, Mapping) else {}
    return (meta.get("uid"), meta.get("labels"), status.get("allocatable"))


def _name(obj: Obj | None) -> str:
    meta = obj.get("metadata") if obj is not None else None
    return str(meta.get("name") or "") if isinstance(meta, Mapping) else ""


class ChangeFilter:
    """Remembers what the Store was given of each Node and each kind's watch state, and says
    which new changes would leave the screen as it is."""

    def __init__(self) -> None:
        self._nodes: dict[str, tuple[object, ...]] = {}
        self._states: dict[Kind, KindState] = {}
        self._sizes: dict[Kind, int] = {}  # objects per kind, as the changes tell

    @property
    def size(self) -> int:
        """About how many objects the store holds (a delete it ignores still counts here)."""
        return sum(self._sizes.values())

    def _count(self, change: Change) -> None:
        if change.type == "SYNCED":
            self._sizes[change.kind] = len(change.items)
        elif change.type == "ADDED":
            self._sizes[change.kind] = self._sizes.get(change.kind, 0) + 1
        elif change.type == "DELETED":
            self._sizes[change.kind] = max(0, self._sizes.get(change.kind, 0) - 1)

    def unseen(self, change: Change) -> bool:
        """True: drop the change (the screen cannot show it). False: the caller applies it;
        what it says is remembered."""
        if change.type == "STATE" and change.state is not None:
            old = self._states.get(change.kind)
            new = change.state
            if (
                old is not None
                and new.phase in SAME_WORDS_PHASES
                and replace(new, attempts=old.attempts) == old
            ):
                return True
            self._states[change.kind] = new
            return False
        self._count(change)
        if change.kind is not Kind.NODES:
            return False
        if change.type == "SYNCED":
            faces = {_name(o): node_face(o) for o in change.items}
            if faces == self._nodes and change.items:  # a re-list of the same nodes (polled)
                return True
            self._nodes = faces
        elif change.type in ("ADDED", "MODIFIED") and change.obj is not None:
            name, face = _name(change.obj), node_face(change.obj)
            if change.type == "MODIFIED" and self._nodes.get(name) == face:
                return True
            self._nodes[name] = face
        elif change.type == "DELETED":
            self._nodes.pop(_name(change.obj), None)
        return False

    def loading(self, required: tuple[Kind, ...]) -> bool:
        """Some required kind has not been listed (or failed) yet: the first lists are coming."""
        return any(self._states.get(k, KindState()).phase == "connecting" for k in required)


class GcHold:
    """No cyclic collections while the first lists come in: at scale they make about a million
    objects, and full collections over them were half the time to the first frame. Reference
    counting still frees what is dropped; the few cycles made meanwhile stay, frozen with the
    rest (how much: docs/PERFORMANCE.md, figures behind the code).

    `release` after the first synced frame freezes everything alive then (modules, widgets,
    the first lists) out of the collector's reach, which keeps full collections from landing
    between an event and its frame, and turns the collector back on."""

    def __init__(self) -> None:
        self.held = False
        self.frozen = False

    def hold(self) -> None:
        if not self.held:
            gc_pause.pause()  # counted with the large decodes (kube/decode.py)
            self.held = True

    def release(self, freeze: bool = True) -> None:
        if freeze and not self.frozen:
            self.frozen = True
            gc.freeze()
            gc_pause.defer_full_collections()  # IdleCollector runs them from now on
        if self.held:
            self.held = False
            gc_pause.resume()


class StillJobs:
    """Work that would compete with a key for the GIL waits for a still screen: it runs once
    STILL_S pass with no frame written (no key answered, no event shown), or at the latest
    `within` seconds after it was asked for. The latest job of each name. Nothing waiting: no
    timer."""

    def __init__(
        self,
        set_timer: Callable[[float, Callable[[], None]], Stoppable],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._set_timer = set_timer
        self._clock = clock
        self.jobs: dict[str, tuple[Callable[[], object], float]] = {}
        self._timer: Stoppable | None = None
        self._last_frame = clock()

    def add(self, name: str, job: Callable[[], object], within: float = STILL_WITHIN_S) -> None:
        at = self._clock() + within
        if name in self.jobs:  # asked again (a new view): the first asking's latest moment
            at = min(at, self.jobs[name][1])
        self.jobs[name] = (job, at)
        self._arm()

    def frame_written(self) -> None:
        self._last_frame = self._clock()
        if self.jobs:
            self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        now = self._clock()
        at = min(self._last_frame + STILL_S, *(d for _, d in self.jobs.values()))
        self._timer = self._set_timer(max(MIN_WAIT_S, at - now), self.run_due)

    def run_due(self) -> None:
        self._timer = None
        now = self._clock()
        still = now - self._last_frame >= STILL_S
        due = {name: job for name, (job, at) in self.jobs.items() if still or at <= now}
        for name in due:
            del self.jobs[name]
        for job in due.values():
            job()
        if self.jobs:
            self._arm()


class IdleCollector:
    """The full collections the App takes over from CPython (gc_pause.defer_full_collections):
    one due waits for a still screen (StillJobs); a screen never still (100 events/s) gets it
    right after a frame once it is long overdue."""

    def __init__(self, still: StillJobs) -> None:
        self._still = still
        self.collections = 0

    def frame_written(self) -> None:
        if gc_pause.full_collection_due(overdue=True):
            self._collect()
        elif gc_pause.full_collection_due() and "gc" not in self._still.jobs:
            self._still.add("gc", self._when_still)

    def _when_still(self) -> None:
        if gc_pause.full_collection_due():
            self._collect()

    def _collect(self) -> None:
        gc.collect()
        self.collections += 1


class FirstLists:
    """The panes wait for the first lists once the store holds HOLD_OBJECTS objects (the App
    shows only the header meanwhile, each kind turning synced): they are painted once every
    required kind is listed or failed, or FIRST_LISTS_HOLD_S after the first change (a kind
    that never answers must not hide the others). Small clusters paint as the lists arrive, as
    before; at 10,000 devices this saves one or two seconds of repaints that would be replaced
    at once, and the lists come in sooner without them."""

    def __init__(self) -> None:
        self.done = False
        self.since: float | None = None

    def step(self, loading: bool, size: int, now: float) -> Literal["paint", "hold", "in"]:
        """paint: as usual; hold: only the header; in: the lists just came in, paint at once."""
        if self.done:
            return "paint"
        if self.since is None:
            self.since = now
        if loading and now - self.since < FIRST_LISTS_HOLD_S:
            return "hold" if size >= HOLD_OBJECTS else "paint"
        self.done = True
        return "in"

    def left(self, now: float) -> float:
        """Seconds until the hold ends whatever the lists do."""
        since = now if self.since is None else self.since
        return max(0.0, FIRST_LISTS_HOLD_S - (now - since))


class AfterFrame:
    """Jobs that wait for the frame of the repaint that asked for them (the App runs them
    from its `_display`), the latest job of each name. Textual's call_after_refresh ran such
    jobs before the frame was composed: at scale the first watches, the lab checks' thread and
    the CEL library's then held the first complete frame back. A repaint that changes nothing
    on screen writes no frame: its jobs run after AFTER_FRAME_WAIT_S."""

    def __init__(self, set_timer: Callable[[float, Callable[[], None]], Stoppable]) -> None:
        self._set_timer = set_timer
        self.jobs: dict[str, Callable[[], object]] = {}
        self._timer: Stoppable | None = None

    def add(self, name: str, job: Callable[[], object]) -> None:
        self.jobs[name] = job
        if self._timer is None:
            self._timer = self._set_timer(AFTER_FRAME_WAIT_S, self.run)

    def run(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        jobs, self.jobs = self.jobs, {}
        for job in jobs.values():
            job()


class Stoppable(Protocol):
    def stop(self) -> None: ...
