"""Where changes come from: a live cluster or a recording. The UI and CLIs see only this."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from gsb_tui.kube.recording import ReadStats, read_changes
from gsb_tui.kube.store import Change
from gsb_tui.snapshot import Kind, KindState
from gsb_tui.words import t

Emit = Callable[[Change], None]
MAX_SPEED = 1000.0  # faster replays are this fast (the CLI refuses more)
MAX_GAP_S = 30.0  # a quiet stretch of a recording is replayed as at most this long
YIELD_EVERY_S = 0.02  # at speed 0, hand the event loop back this often (the UI keeps drawing)


@dataclass(frozen=True)
class SourceInfo:
    """What the header shows about where the data comes from."""

    context: str  # kubeconfig context, or "demo"
    server: str  # API server URL, or the recording's path
    namespace: str  # the lab namespace (pods, templates, events are watched there)
    user: str = ""
    live: bool = True


class ChangeSource(Protocol):
    info: SourceInfo

    async def run(self, emit: Emit) -> None:
        """Emit changes until cancelled. Never raises for cluster trouble: it emits STATE."""
        ...


class ReplaySource:
    """Plays a recording through the same pipeline as a live cluster (the --demo mode).

    The recording is streamed (read line by line on each pass, never held whole), so its size
    does not bound the replay; lines that are not changes are skipped and counted in `stats`.
    `pause(True)` holds the next change back until `pause(False)`; `mark` is the last MARK
    played (the scenario's step, as the recording names it).
    """

    def __init__(
        self, path: Path, speed: float = 1.0, loop: bool = False, mark_pause: float = 0.0
    ) -> None:
        self.path = path
        # 0 = as fast as possible; nan, inf or a negative speed is 0, and at most MAX_SPEED.
        self.speed = min(speed, MAX_SPEED) if math.isfinite(speed) and speed > 0 else 0.0
        self.loop = loop
        self.mark_pause = mark_pause  # extra seconds to hold each MARK (a lab step) on screen
        self.stats = ReadStats()  # of the pass under way (or the last one)
        self.info = SourceInfo(context="demo", server=str(path), namespace="dra-lab", live=False)
        self.mark = ""
        self._playing = asyncio.Event()  # set: playing; clear: paused
        self._playing.set()

    @property
    def paused(self) -> bool:
        return not self._playing.is_set()

    def pause(self, paused: bool) -> None:
        if paused:
            self._playing.clear()
        else:
            self._playing.set()

    async def run(self, emit: Emit) -> None:
        while True:
            self.stats = ReadStats()
            previous = 0.0
            handed_back = time.monotonic()
            for at, change in read_changes(self.path, self.stats):
                if self.speed > 0 and at > previous:
                    await asyncio.sleep(min(at - previous, MAX_GAP_S) / self.speed)
                    handed_back = time.monotonic()
                elif time.monotonic() - handed_back > YIELD_EVERY_S:
                    await asyncio.sleep(0)
                    handed_back = time.monotonic()
                previous = max(previous, at)
                if not self._playing.is_set():
                    await self._playing.wait()
                if change.type == "MARK":
                    self.mark = change.label
                emit(change)
                if change.type == "MARK" and self.speed > 0 and self.mark_pause:
                    await asyncio.sleep(self.mark_pause / self.speed)
            if self.stats.changes == 0:  # nothing to show: say so rather than "connecting"
                if self.stats.bad_lines:
                    message = t("recording.nothing-valid", path=self.path, bad=self.stats.bad_lines)
                else:
                    message = t("recording.empty", path=self.path)
                for kind in Kind:
                    emit(Change(kind, "STATE", state=KindState(phase="error", message=message)))
                return
            if not self.loop:
                return
            await asyncio.sleep(max(0.5, 5.0 / self.speed) if self.speed > 0 else 0.5)
