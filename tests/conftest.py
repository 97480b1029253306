"""Shared fixtures: recorded snapshots from the real control plane (tests/fixtures/lab.jsonl).

Regenerate the recording with `gsb-tui cluster record-lab tests/fixtures/lab.jsonl`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Snapshot

FIXTURES = Path(__file__).parent / "fixtures"
LAB_RECORDING = FIXTURES / "lab.jsonl"


@pytest.fixture(scope="session")
def lab_recording() -> Path:
    return LAB_RECORDING


@pytest.fixture(scope="session")
def lab_snapshot() -> Callable[[str], Snapshot]:
    """lab_snapshot("step-6") -> the cluster as recorded right after lab step 6."""
    cache: dict[str, Snapshot] = {}

    def get(mark: str) -> Snapshot:
        if mark not in cache:
            cache[mark] = snapshot_at(LAB_RECORDING, mark)
        return cache[mark]

    return get
