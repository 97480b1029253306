"""Shared fixtures: recorded snapshots from the real control plane (tests/fixtures/lab.jsonl).

Regenerate the recording with `gsb-tui cluster record-lab tests/fixtures/lab.jsonl`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gsb_tui.snapshot import Snapshot
from tests.recorded import RECORDING, snap


@pytest.fixture(scope="session")
def lab_recording() -> Path:
    return RECORDING


@pytest.fixture(scope="session")
def lab_snapshot() -> Callable[[str], Snapshot]:
    """lab_snapshot("step-6") -> the cluster as recorded right after lab step 6."""
    return snap


def pytest_sessionfinish(session: pytest.Session) -> None:
    """bench/hostile.py's figures: what the hostile-input tests counted, written where
    GSB_HOSTILE_REPORT says (only when it is set and those tests ran)."""
    report = os.environ.get("GSB_HOSTILE_REPORT")
    module = sys.modules.get("tests.unit.test_hostile_inputs")
    if report and module is not None:
        module.write_figures(Path(report))
