"""The real node's Go parts test themselves (`go test`): the practice driver's uuids, CDI specs
and health annotations, on each release's kubeletplugin (1.36 and, with -tags k137, 1.37)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from gsb_tui.cluster.build import module_dir
from gsb_tui.cluster.releases import RELEASES


@pytest.mark.parametrize("release", sorted(RELEASES))
def test_practice_driver_go_tests(release: str) -> None:
    go = shutil.which("go")
    assert go, "Go is needed to build the practice cluster and its real node"
    flags: list[str] = []
    if RELEASES[release].module:
        modfile = module_dir(release) / "go.mod"
        flags = ["-modfile", str(modfile), "-tags", "k" + release.replace(".", "")]
    proc = subprocess.run(
        [go, "test", "-count=1", *flags, "./practicedriver"],
        cwd=module_dir(),
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CGO_ENABLED": "0"},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "ok" in proc.stdout
