"""Each Kubernetes release the practice cluster builds has its own Go module, pinned to its
own versions, and its own cache key."""

from __future__ import annotations

import re
import shutil

import pytest

from gsb_tui.cluster.build import find_go, k8s_key, module_dir
from gsb_tui.cluster.releases import DEFAULT_RELEASE, RELEASES


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_each_release_module_pins_its_versions(name: str) -> None:
    release = RELEASES[name]
    gomod = (module_dir(name) / "go.mod").read_text()
    assert re.search(rf"^\s*k8s\.io/kubernetes {re.escape(release.k8s)}\b", gomod, re.M)
    staging = "v0." + release.k8s.split(".", 1)[1]  # v1.37.2 -> v0.37.2
    assert (
        f"k8s.io/dynamic-resource-allocation => k8s.io/dynamic-resource-allocation {staging}"
        in gomod
    )
    assert re.search(rf"^\s*go\.etcd\.io/etcd/server/v3 {re.escape(release.etcd)}\b", gomod, re.M)
    assert (module_dir(name) / "go.sum").is_file()


def test_releases_are_cached_apart() -> None:
    if shutil.which("go") is None:
        pytest.fail("Go is needed (the practice cluster is built from Go modules)")
    go = find_go()
    keys = {k8s_key(go, module_dir(n), RELEASES[n].k8s) for n in RELEASES}
    assert len(keys) == len(RELEASES) >= 2
    assert DEFAULT_RELEASE in RELEASES and RELEASES[DEFAULT_RELEASE].module == ""
