"""The real control plane for end-to-end tests: started once per session, logs kept on failure."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.releases import DEFAULT_RELEASE

REPO = Path(__file__).resolve().parents[2]
KEPT_LOGS = REPO / ".e2e-logs"
# GSB_E2E_KUBE=1.37 runs the clusters of the default release on another one instead (the whole
# end-to-end suite on that release; the tests that name a release keep theirs only if it is not
# the default).
E2E_KUBE = os.environ.get("GSB_E2E_KUBE") or DEFAULT_RELEASE


@contextlib.contextmanager
def practice_cluster(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    settings: Settings,
    name: str = "cluster",
) -> Iterator[ControlPlane]:
    """A control plane for the fixture's scope; its logs are kept if a test failed."""
    if settings.kube == DEFAULT_RELEASE and E2E_KUBE != DEFAULT_RELEASE:
        settings = dataclasses.replace(settings, kube=E2E_KUBE)
    cp = ControlPlane(tmp_path_factory.mktemp(name))
    started = time.monotonic()
    cp.up(settings, log=lambda m: print(f"[{name}] {m}"))
    print(f"[{name}] up in {time.monotonic() - started:.1f} s at {cp.dir}")
    try:
        yield cp
    finally:
        cp.down(log=lambda _m: None)
        if request.session.testsfailed:
            dest = KEPT_LOGS / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}"
            shutil.copytree(cp.log_dir, dest, dirs_exist_ok=True)
            print(f"\n[{name}] tests failed: control-plane logs kept in {dest}")


@pytest.fixture(scope="session")
def cluster(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    with practice_cluster(request, tmp_path_factory, Settings()) as cp:
        yield cp


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
