"""Where changes come from: a live cluster or a recording. The UI and CLIs see only this."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from gsb_tui.kube.recording import read_changes
from gsb_tui.kube.store import Change

Emit = Callable[[Change], None]


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
    """Plays a recording through the same pipeline as a live cluster (the --demo mode)."""

    def __init__(
        self, path: Path, speed: float = 1.0, loop: bool = False, mark_pause: float = 0.0
    ) -> None:
        self.path = path
        self.speed = speed  # 0 = as fast as possible
        self.loop = loop
        self.mark_pause = mark_pause  # extra seconds to hold each MARK (a lab step) on screen
        self.info = SourceInfo(context="demo", server=str(path), namespace="dra-lab", live=False)

    async def run(self, emit: Emit) -> None:
        while True:
            changes = list(read_changes(self.path))
            previous = 0.0
            for t, change in changes:
                if self.speed > 0 and t > previous:
                    await asyncio.sleep((t - previous) / self.speed)
                previous = max(previous, t)
                emit(change)
                if change.type == "MARK" and self.speed > 0 and self.mark_pause:
                    await asyncio.sleep(self.mark_pause / self.speed)
            if not self.loop:
                return
            await asyncio.sleep(5.0 / self.speed if self.speed > 0 else 0.0)
