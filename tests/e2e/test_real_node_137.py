"""The real node on Kubernetes 1.37 (its kubelet, the practice driver built against v0.37's
kubeletplugin, whose health API differs): a DRA pod runs with the CDI env and its device's
health follows `cluster health`. The whole lab on a real node is tests/e2e/test_real_node.py."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from gsb_tui.cluster import node_run
from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import LabRunner, example
from tests.e2e.conftest import practice_cluster

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 and not os.environ.get("CI"),
    reason="a real node needs root (CI runs as root, so it always runs there)",
)


@pytest.fixture(scope="module")
def real137(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    settings = Settings(real_node=True, nodes=0, kube="1.37")
    with practice_cluster(request, tmp_path_factory, settings, "real-node-137") as cp:
        yield cp


def test_a_dra_pod_runs_and_its_health_follows(real137: ControlPlane) -> None:
    rest = real137.rest()
    assert rest.get("/version")["gitVersion"].startswith("v1.37.")
    runner = LabRunner(real137, log=print)
    runner.apply(example("one.yaml"))
    runner.wait_for("dra-1 Running", runner.running("dra-1"))
    device = node_run.allocated_device(runner, "dra-1")
    env = node_run.gpu_env(runner, "dra-1")
    assert env[f"GPU_DEVICE_{device.removeprefix('gpu-')}"] == device
    runner.wait_for(
        "a health report", lambda: node_run.container_health(runner.pod("dra-1")) == ["Healthy"]
    )
    node = real137.info()["real_node"]["name"]
    started = time.monotonic()
    node_run.set_health(runner, node, device, "unhealthy")
    runner.wait_for(
        "Unhealthy in the pod's status",
        lambda: node_run.container_health(runner.pod("dra-1")) == ["Unhealthy"],
        timeout=15,
    )
    print(f"\n[1.37] Unhealthy in pod status {time.monotonic() - started:.1f} s after the patch")
