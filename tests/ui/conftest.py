"""UI test setup: accepted SVG snapshots live in snapshots/ at the repository top, and nothing a
test copies or logs lands in the real home directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension  # type: ignore[import-untyped]

SNAPSHOT_DIR = Path(__file__).resolve().parents[2] / "snapshots"


def _snapshot_dirname(cls: type[Any], *, test_location: Any) -> str:
    # snapshots/<test module>/<test name>.svg instead of tests/ui/__snapshots__/...
    return str(SNAPSHOT_DIR / test_location.basename)


@pytest.fixture(autouse=True)
def _snapshots_at_repo_top(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SVGImageExtension, "dirname", classmethod(_snapshot_dirname))


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
