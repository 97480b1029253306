"""The recorded lab (tests/fixtures/lab.jsonl), loaded once per mark for every test module.

Regenerate the recording with `gsb-tui cluster record-lab tests/fixtures/lab.jsonl`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from gsb_tui.dra.view import DraView, build_view
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Snapshot

RECORDING = Path(__file__).resolve().parent / "fixtures" / "lab.jsonl"


@functools.cache
def snap(mark: str) -> Snapshot:
    """The cluster as recorded right after a mark ("step-6", "mistake-1", ...)."""
    return snapshot_at(RECORDING, mark)


@functools.cache
def view(mark: str) -> DraView:
    return build_view(snap(mark))
