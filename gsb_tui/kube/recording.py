"""Recordings: the change stream of a session as JSON lines with relative timestamps.

One line per change: {"t": seconds since the recording started, "kind": ..., "type": ..., ...}.
A MARK line labels a moment (the lab steps use "step-1" .. "step-8"), so a test can ask
for the snapshot the cluster showed right after a step. Reading streams line by line; a line
that is not a change (a recording cut mid-line) is skipped and counted, never fatal.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, get_args

from gsb_tui.bounded import MIB, Refused, open_regular
from gsb_tui.kube import decode
from gsb_tui.kube.store import Change, ChangeType, Store
from gsb_tui.snapshot import Kind, Phase, Snapshot
from gsb_tui.words import t

LINE_LIMIT = 64 * MIB  # one change (a slice with thousands of devices is a few MiB)
CHANGE_TYPES = frozenset(get_args(ChangeType))
PHASES = frozenset(get_args(Phase))


class RecordingError(ValueError):
    """A recording file that cannot be read; the message names the file."""


@dataclass
class ReadStats:
    """What one pass over a recording found: changes, and lines that were not changes."""

    changes: int = 0
    bad_lines: int = 0
    first_bad: int = 0  # the line number of the first bad line (0: none)


def _metadata_ok(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("metadata") or {}, dict)


def parse_line(line: bytes) -> tuple[float, Change] | None:
    """One recorded change, or None when the line is not one (truncated, not an object …)."""
    try:
        data = decode.loads(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(data, dict):
        return None
    at = data.get("t", 0.0)
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at) or at < 0:
        return None
    obj, items, state = data.get("object"), data.get("items") or [], data.get("state")
    if data.get("kind") not in set(Kind) or data.get("type") not in CHANGE_TYPES:
        return None
    if obj is not None and not _metadata_ok(obj):
        return None
    if not isinstance(items, list) or not all(_metadata_ok(o) for o in items):
        return None
    if not isinstance(data.get("label", ""), str):
        return None
    if state is not None and not (
        isinstance(state, dict)
        and set(state) <= {"phase", "message", "attempts", "scope", "every"}
        and state.get("phase", "connecting") in PHASES
        and isinstance(state.get("message", ""), str)
        and isinstance(state.get("scope", ""), str)
        and type(state.get("attempts", 0)) is int
        and type(state.get("every", 0.0)) in (int, float)
        and math.isfinite(state.get("every", 0.0))
        and state.get("every", 0.0) >= 0
    ):
        return None
    try:
        return float(at), Change.from_json(data)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def read_changes(path: Path, stats: ReadStats | None = None) -> Iterator[tuple[float, Change]]:
    """The changes of a recording, read line by line (bounded memory, whatever its size).

    Lines that are not changes (a truncated last line, a stray line) are skipped and counted
    in `stats`; only a file that cannot be opened at all raises RecordingError.
    """
    stats = ReadStats() if stats is None else stats
    try:
        fd = open_regular(path)
    except Refused as exc:
        raise RecordingError(t("recording.refused", path=path, problem=exc.problem)) from None
    except (OSError, ValueError) as exc:
        error = getattr(exc, "strerror", None) or type(exc).__name__
        raise RecordingError(t("recording.cannot-open", path=path, error=error)) from None
    with os.fdopen(fd, "rb") as fh:
        lineno = 0
        while line := fh.readline(LINE_LIMIT + 1):
            lineno += 1
            change = None
            if len(line) > LINE_LIMIT and not line.endswith(b"\n"):
                while (rest := fh.readline(LINE_LIMIT)) and not rest.endswith(b"\n"):
                    pass  # the rest of an over-long line
            elif not line.strip():
                continue
            else:
                change = parse_line(line)
            if change is None:
                stats.bad_lines += 1
                stats.first_bad = stats.first_bad or lineno
                continue
            stats.changes += 1
            yield change


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
        raise RecordingError(
            t("recording.no-mark", path=path, mark=mark, marks=", ".join(marks(path)))
        )
    return store.snapshot()


class Recorder:
    """Writes changes as they arrive; flushes each line so a cut session keeps what it saw."""

    def __init__(self, fh: IO[str], start: float | None = None) -> None:
        self._fh = fh
        self._start = time.monotonic() if start is None else start

    @property
    def start(self) -> float:
        return self._start

    def write(self, change: Change, at: float | None = None) -> None:
        """Write `change`, timed now or at `at` (a time.monotonic() reading)."""
        moment = time.monotonic() if at is None else at
        data = {"t": round(max(0.0, moment - self._start), 3), **change.to_json()}
        self._fh.write(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
        self._fh.flush()

    def mark(self, label: str) -> None:
        self.write(Change(Kind.PODS, "MARK", label=label))


def _identity(change: Change) -> tuple[str, str, str] | None:
    meta = (change.obj or {}).get("metadata") or {}
    name = meta.get("uid") or meta.get("name")
    return (str(change.kind), str(meta.get("namespace") or ""), str(name)) if name else None


def compact(path: Path) -> tuple[int, int]:
    """Keep, of an object's MODIFIED lines between two MARKs, only the last (in its place):
    every MARK's snapshot stays the same while a pod's dozen status steps become one. A big
    recording (the operator's 130 pods) fits the repository's size for tracked files so.
    Returns (lines before, lines after); rewrites `path` in place through a sibling file."""
    lines = path.read_bytes().splitlines(keepends=True)
    keep = [True] * len(lines)
    last: dict[tuple[str, str, str], int] = {}
    for i, line in enumerate(lines):
        parsed = parse_line(line)
        if parsed is None:
            continue
        change = parsed[1]
        if change.type == "MARK":
            last.clear()
            continue
        key = _identity(change) if change.type == "MODIFIED" else None
        if key is None:
            if change.obj is not None and (k := _identity(change)) is not None:
                last.pop(k, None)  # an ADDED or DELETED between ends the run
            continue
        if key in last:
            keep[last[key]] = False
        last[key] = i
    kept = [line for line, k in zip(lines, keep, strict=True) if k]
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(b"".join(kept))
    partial.replace(path)
    return len(lines), len(kept)
