"""Recordings: the change stream of a session as JSON lines with relative timestamps.

One line per change: {"t": seconds since the recording started, "kind": ..., "type": ..., ...}.
A MARK line labels a moment (the lab steps use "step-1" .. "step-8"), so a test can ask
for the snapshot the cluster showed right after a step.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind, Snapshot


class RecordingError(ValueError):
    """A recording file that cannot be read; the message names the file and line."""


def read_changes(path: Path) -> Iterator[tuple[float, Change]]:
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise RecordingError(f"cannot open recording {path}: {exc.strerror}") from exc
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                yield float(data.get("t", 0.0)), Change.from_json(data)
            except (ValueError, KeyError, TypeError) as exc:
                raise RecordingError(f"{path}:{lineno}: not a recorded change ({exc})") from exc


def marks(path: Path) -> list[str]:
    return [c.label for _, c in read_changes(path) if c.type == "MARK"]


def snapshot_at(path: Path, mark: str | None = None) -> Snapshot:
    """The store as it stood at a MARK (or at the end of the recording)."""
    store = Store()
    for _, change in read_changes(path):
        if change.type == "MARK" and change.label == mark:
            return store.snapshot()
        store.apply(change)
    if mark is not None:
        raise RecordingError(f"{path}: no mark {mark!r} (marks: {', '.join(marks(path))})")
    return store.snapshot()


class Recorder:
    """Writes changes as they arrive; flushes each line so a cut session keeps what it saw."""

    def __init__(self, fh: IO[str]) -> None:
        self._fh = fh
        self._start = time.monotonic()

    def write(self, change: Change) -> None:
        data = {"t": round(time.monotonic() - self._start, 3), **change.to_json()}
        self._fh.write(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
        self._fh.flush()

    def mark(self, label: str) -> None:
        self.write(Change(Kind.PODS, "MARK", label=label))
