"""The recorded lab (tests/fixtures/lab.jsonl) and the profile recordings
(tests/fixtures/profiles/<name>.jsonl), loaded once per mark for every test module.

Regenerate the lab with `gsb-tui cluster record-lab tests/fixtures/lab.jsonl`, a profile with
`gsb-tui cluster record-profile NAME tests/fixtures/profiles/NAME.jsonl` (and `binding-fail.jsonl`
with `record-profile binding … --binding-fail`; `operator.jsonl`, the 960-device operator's
cluster, with `record-profile operator …`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Snapshot

RECORDING = Path(__file__).resolve().parent / "fixtures" / "lab.jsonl"
PROFILE_RECORDINGS = RECORDING.parent / "profiles"


@functools.cache
def snap(mark: str) -> Snapshot:
    """The cluster as recorded right after a mark ("step-6", "mistake-1", ...)."""
    return snapshot_at(RECORDING, mark)


@functools.cache
def view(mark: str) -> DraView:
    return build_view(snap(mark))


def profile_recording(name: str) -> Path:
    return PROFILE_RECORDINGS / f"{name}.jsonl"


@functools.cache
def profile_snap(name: str, mark: str) -> Snapshot:
    """A profile's recorded cluster right after a mark (("partitions", "partition-pending"))."""
    return snapshot_at(profile_recording(name), mark)


@functools.cache
def profile_view(name: str, mark: str) -> DraView:
    return build_view(profile_snap(name, mark))
