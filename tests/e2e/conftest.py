"""The real control plane for end-to-end tests: started once per session, logs kept on failure."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gsb_tui.cluster.control_plane import ControlPlane, Settings

REPO = Path(__file__).resolve().parents[2]
KEPT_LOGS = REPO / ".e2e-logs"


@pytest.fixture(scope="session")
def cluster(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    cp = ControlPlane(tmp_path_factory.mktemp("cluster"))
    started = time.monotonic()
    cp.up(Settings(), log=lambda m: print(f"[cluster] {m}"))
    print(f"[cluster] up in {time.monotonic() - started:.1f} s at {cp.dir}")
    yield cp
    cp.down(log=lambda _m: None)
    if request.session.testsfailed:
        dest = KEPT_LOGS / time.strftime("%Y%m%d-%H%M%S")
        shutil.copytree(cp.log_dir, dest, dirs_exist_ok=True)
        print(f"\n[cluster] tests failed: control-plane logs kept in {dest}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
