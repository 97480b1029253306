"""The dashboard headless, instrumented at render, and the write → screen measurement.

BenchApp is GsbApp plus its frame hook (first synced frame) and two probes outside gsb_tui/ui:
- `_emit` notes when the watch delivered a change for a claim we wait for (store time);
- `_display` is where Textual hands each composed frame to the terminal driver (headless
  drivers drop it; the hook gets only the revision, and this probe needs the frame itself).
  Each frame is turned into the bytes a real terminal would get, and a created claim counts
  as shown at the first frame whose bytes contain its name (at scale,
  where it may be below the visible rows: the first frame composed once its row is in the
  Claims table); a deleted claim counts as gone at the first frame composed after its row
  left the Claims table, provided it had been shown.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import NO_LAB_DIR, percentile

from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import REQUIRED_KINDS
from gsb_tui.ui.app import GsbApp

SIZE = (200, 60)  # wide layout: every pane on screen


class BenchApp(GsbApp):
    def __init__(
        self, kubeconfig: Path, namespace: str = "dra-lab", appear_by_rows: bool = False
    ) -> None:
        super().__init__(
            LiveSource(Target(kubeconfig=kubeconfig, namespace=namespace)),
            NO_LAB_DIR,
            "en",
            watch_lab_dir=False,
            frame_hook=self._frame_written,
        )
        self.frames = 0
        self.render_s = 0.0  # time spent turning frames into terminal bytes (a driver's work)
        self.appear: dict[str, float | None] = {}  # claim name -> first frame showing it
        # claim name -> first frame without its row; armed when the delete is written
        self.vanish: dict[str, float | None] = {}
        self.stored: dict[tuple[str, str], float] = {}  # (ADDED|DELETED, name) -> store time
        self.first_synced_frame: float | None = None
        # With many claims a new one may sit below the visible rows: then "shown" means the
        # first frame composed after its row is in the Claims table, not its name in the bytes.
        self.appear_by_rows = appear_by_rows
        self.repaint_log: list[tuple[float, float]] = []  # (start, end) of each _repaint

    def _repaint(self) -> None:
        started = time.monotonic()
        super()._repaint()
        self.repaint_log.append((started, time.monotonic()))

    def _emit(self, change: Change) -> None:
        if change.obj is not None and change.type in ("ADDED", "DELETED"):
            name = (change.obj.get("metadata") or {}).get("name", "")
            if name in self.appear or name in self.vanish:
                self.stored.setdefault((change.type, name), time.monotonic())
        super()._emit(change)

    def _frame_written(self, revision: int) -> None:
        """GsbApp's frame hook: a frame showing store revision `revision` was written."""
        if self.first_synced_frame is None and self.synced():
            self.first_synced_frame = time.monotonic()

    def synced(self) -> bool:
        view = self.view
        return view is not None and all(
            view.snapshot.state(k).phase == "synced" for k in REQUIRED_KINDS
        )

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is None or self._batch_count or not hasattr(renderable, "render_segments"):
            return
        started = time.monotonic()
        self.frames += 1
        data: str = renderable.render_segments(self.console)
        now = time.monotonic()
        self.render_s += now - started
        pending = [n for n, seen in list(self.appear.items()) if seen is None]
        waiting = [n for n, seen in list(self.vanish.items()) if seen is None]
        if not pending and not waiting:
            return
        rows = {key[1] for key in self.dashboard.claims.visible_keys()}
        for name in pending:
            if name in rows if self.appear_by_rows else name in data:
                self.appear[name] = now
        for name in waiting:
            # Gone counts only for a claim that was on screen once: before its create
            # is shown, "not in the table" proves nothing.
            if name not in rows and self.appear.get(name, now) is not None:
                self.vanish[name] = now


@dataclass
class Sample:
    """One write and when each observer first showed it (monotonic seconds)."""

    event: str  # ADDED | DELETED
    name: str
    written: float
    screen: float | None = None
    store: float | None = None
    kubectl: float | None = None
    repaint_start: float | None = None  # the first repaint after the store had it
    repaint_end: float | None = None

    def ms(self, at: float | None) -> float | None:
        return None if at is None else (at - self.written) * 1000


@dataclass
class Samples:
    items: list[Sample] = field(default_factory=list)

    def ms(self, which: str) -> list[float]:
        out = []
        for s in self.items:
            value = s.ms(getattr(s, which))
            if value is not None:
                out.append(value)
        return out

    def missing(self, which: str) -> int:
        return sum(1 for s in self.items if getattr(s, which) is None)


async def until(cond: Callable[[], bool], timeout: float, step: float = 0.002) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(step)
    return True


def settle(app: BenchApp, sample: Sample, when: Callable[[str, str], float | None]) -> None:
    """Copy what each observer saw for this sample."""
    if sample.event == "ADDED":
        sample.screen = app.appear.get(sample.name)
    else:
        sample.screen = app.vanish.get(sample.name)
    sample.store = app.stored.get((sample.event, sample.name))
    sample.kubectl = when(sample.event, sample.name)
    if sample.store is not None:
        after = [r for r in app.repaint_log if r[0] >= sample.store]
        if after:
            sample.repaint_start, sample.repaint_end = after[0]


def phases_ms(samples: Samples) -> dict[str, list[float]]:
    """Where the time goes: watch → store, store → repaint, repaint, repaint → frame."""
    out: dict[str, list[float]] = {"wait": [], "repaint": [], "frame": []}
    for s in samples.items:
        if None in (s.store, s.repaint_start, s.repaint_end, s.screen):
            continue
        assert s.store and s.repaint_start and s.repaint_end and s.screen
        out["wait"].append(1000 * (s.repaint_start - s.store))
        out["repaint"].append(1000 * (s.repaint_end - s.repaint_start))
        out["frame"].append(1000 * (s.screen - s.repaint_end))
    return out


def phase_split(samples: Samples, labels: tuple[str, str, str], digits: int, sep: str) -> str:
    """ "label p50<sep>p95" for store → repaint, the repaint, repaint → frame, joined by "; "."""
    parts = phases_ms(samples)
    return "; ".join(
        f"{label} {percentile(v, 50):.{digits}f}{sep}{percentile(v, 95):.{digits}f}"
        for label, v in zip(labels, (parts["wait"], parts["repaint"], parts["frame"]), strict=True)
    )
