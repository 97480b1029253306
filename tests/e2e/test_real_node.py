"""The lab on a real node: a kubelet, containerd and the practice DRA driver, as root.

What kwok never shows is proven here against the real thing: the CDI env in the container
(the lab's step 4), mistake 1's real effect, device health in pod status and in gsb-tui, a
prepare failure when the driver is gone, and a `down` that leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cluster import node_run, real_node
from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import NS, LabRunner
from tests.e2e.conftest import practice_cluster
from tests.e2e.test_lab import answer_and_check

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 and not os.environ.get("CI"),
    reason="a real node needs root (CI runs as root, so it always runs there)",
)
EN = ("--lang", "en")  # the assertions read English words
HEALTH_WITHIN = 10.0  # seconds from `cluster health` to gsb-tui's answer (the bound)


def gsb(cp: ControlPlane, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", *args, "--kubeconfig", str(cp.kubeconfig), *EN],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def device_rows(cp: ControlPlane) -> dict[str, dict[str, Any]]:
    proc = gsb(cp, "devices", "--json")
    assert proc.returncode in (0, 1), proc.stderr
    rows = json.loads(proc.stdout)
    rows = rows["devices"] if isinstance(rows, dict) else rows
    return {str(r["device"]): r for r in rows}


def wait_health(cp: ControlPlane, device: str, health: str) -> float:
    """Seconds until `gsb-tui devices --json` says `health` for the device."""
    started = time.monotonic()
    while time.monotonic() - started < HEALTH_WITHIN:
        if device_rows(cp)[device].get("health") == health:
            return time.monotonic() - started
        time.sleep(0.2)
    raise AssertionError(f"{device} not {health} in gsb-tui within {HEALTH_WITHIN:.0f} s")


@pytest.fixture(scope="module")
def real(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ControlPlane]:
    settings = Settings(real_node=True, nodes=0)
    with practice_cluster(request, tmp_path_factory, settings, "real-node") as cp:
        yield cp


@pytest.fixture(scope="module")
def run(real: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    lab_dir = tmp_path_factory.mktemp("gsb-dra-real")
    seen: dict[str, Any] = {"checks": {}, "lab_dir": lab_dir}
    runner = LabRunner(real, log=print)

    def between(label: str) -> None:
        if label.startswith("step-") and label != "step-0":
            step = int(label.split("-")[1])
            seen["checks"][step] = answer_and_check(real, lab_dir, step)
        if label == "step-4":
            seen["claim.json"] = json.loads((lab_dir / "claim.json").read_text())
        if label == "mistake-1":
            seen["mistake-1 pod"] = runner.pod("no-claim-ref")
            seen["mistake-1 rows"] = device_rows(real)
            seen["mistake-1 why"] = gsb(real, "why", f"{NS}/no-claim-ref", "--json")
        if label == "image-missing":
            seen["image why"] = gsb(real, "why", f"{NS}/{node_run.NO_IMAGE_POD}")
        if label == "prepare-failed":
            seen["prepare why"] = gsb(real, "why", f"{NS}/{node_run.ORPHAN_POD}")
            seen["prepare why json"] = gsb(real, "why", f"{NS}/{node_run.ORPHAN_POD}", "--json")
        if label == "driver-gone":
            proc = gsb(real, "devices", "--json")
            seen["driver gone"] = json.loads(proc.stdout)["vanished_pools"]

    def health_between(label: str) -> None:
        between(label)
        if not label.startswith("health-"):
            return
        device = node_run.allocated_device(runner, "dra-1")
        if label == "health-unhealthy":
            seen["to unhealthy s"] = wait_health(real, device, "Unhealthy")
            seen["unhealthy row"] = device_rows(real)[device]
        if label == "health-healthy":
            seen["to healthy s"] = wait_health(real, device, "Healthy")

    seen["outcome"] = node_run.perform(runner, lambda _label: None, health_between, settle=0.2)
    return seen


def test_node_ready_and_the_driver_publishes(real: ControlPlane) -> None:
    info = real.info()["real_node"]
    rest = real.rest()
    node = rest.get(f"/api/v1/nodes/{info['name']}")
    ready = [c for c in node["status"]["conditions"] if c["type"] == "Ready"]
    assert ready and ready[0]["status"] == "True"
    assert node["status"]["nodeInfo"]["kubeletVersion"] == rest.get("/version")["gitVersion"]
    assert node["status"]["nodeInfo"]["containerRuntimeVersion"].startswith("containerd://2.4.2")
    path = f"/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.nodeName={info['name']}"
    (slice_,) = rest.get(path)["items"]
    assert slice_["spec"]["pool"]["name"] == info["name"]
    assert len(slice_["spec"]["devices"]) == real.info()["devices_per_node"]


@pytest.mark.parametrize("step", range(1, 9))
def test_each_lab_step_passes_on_the_real_node(run: dict[str, Any], step: int) -> None:
    result = run["checks"][step]
    (verdict,) = result["steps"]
    assert verdict["ok"], json.dumps(verdict, ensure_ascii=False, indent=1)
    assert result["exit"] == 0


def test_the_env_var_the_checker_expects_is_in_the_container(run: dict[str, Any]) -> None:
    answer = run["claim.json"]
    env = run["outcome"].env["dra-1"]
    # claim.json's env_var is what step 4's check accepts; the container really has it.
    assert env.get(answer["env_var"]) == answer["device"], env


def test_mistake_1_the_container_has_no_device(run: dict[str, Any]) -> None:
    assert run["outcome"].env["no-claim-ref"] == {}
    pod = run["mistake-1 pod"]
    assert pod["status"]["phase"] == "Running"
    assert node_run.container_health(pod) == []  # no container lists the claim: no health
    warned = [r for r in run["mistake-1 rows"].values() if "no-claim-ref" in json.dumps(r)]
    assert warned, "the mistake-1 pod's device is not in gsb-tui devices --json"
    assert all("claim-not-in-container" in r["warnings"] for r in warned)
    assert all(r.get("health") is None for r in warned)
    why = json.loads(run["mistake-1 why"].stdout)
    (warning,) = [w for w in why["warnings"] if w["code"] == "claim-not-in-container"]
    # what the container really lacks (run["outcome"].env above), said by gsb-tui
    assert "never reaches the container" in warning["text"] and "GPU_DEVICE_" in warning["text"]


def test_health_flips_in_gsb_tui_within_seconds(run: dict[str, Any]) -> None:
    row = run["unhealthy row"]
    assert row["health"] == "Unhealthy"
    assert "health.example.com/" in (row.get("health_message") or "")
    print(
        f"\n[health] Unhealthy in gsb-tui after {run['to unhealthy s']:.1f} s, "
        f"Healthy again after {run['to healthy s']:.1f} s"
    )


def test_an_image_the_node_cannot_have_is_the_blocker(run: dict[str, Any]) -> None:
    why = run["image why"]
    assert "ErrImagePull" in why.stdout or "ImagePullBackOff" in why.stdout, why.stdout


def test_a_missing_driver_is_named_by_why(run: dict[str, Any]) -> None:
    event = run["outcome"].prepare_event
    # Seen both: "DRA driver gpu.example.com is not registered" once the kubelet dropped the
    # plugin, "NodePrepareResources: rpc error: code = Unavailable …" while its socket is gone.
    assert event.startswith("Failed to prepare dynamic resources"), event
    why = run["prepare why"]
    assert "FailedPrepareDynamicResources" in why.stdout, why.stdout
    assert event.split(": ")[-1][:40] in " ".join(why.stdout.split()), why.stdout
    assert "FailedPrepareDynamicResources" in run["prepare why json"].stdout


async def test_the_grid_shows_health_within_seconds(
    real: ControlPlane, run: dict[str, Any], tmp_path: Path
) -> None:
    from gsb_tui.kube.config import Target
    from gsb_tui.kube.live import LiveSource
    from gsb_tui.ui.app import GsbApp
    from tests.e2e.test_dashboard_live import cells, drawn, until

    runner = LabRunner(real, log=print)
    device = node_run.allocated_device(runner, "dra-1")
    node = real.info()["real_node"]["name"]
    source = LiveSource(Target(kubeconfig=real.kubeconfig, namespace=NS))
    app = GsbApp(source, tmp_path / "lab", "en", watch_lab_dir=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, f"{device} in the grid", lambda: device in cells(app))
        await until(pilot, f"{device} held by dra-1", lambda: "dra-1" in drawn(app, device))
        assert "Unhealthy" not in drawn(app, device)
        started = time.monotonic()
        node_run.set_health(runner, node, device, "unhealthy")

        def shown() -> bool:
            return "Unhealthy" in drawn(app, device)

        await until(pilot, f"{device} Unhealthy", shown, timeout=HEALTH_WITHIN)
        print(f"\n[grid] {device} Unhealthy on screen {time.monotonic() - started:.1f} s after")
        node_run.set_health(runner, node, device, "healthy")
        await until(pilot, f"{device} healthy", lambda: not shown(), timeout=HEALTH_WITHIN)


def test_a_driver_gone_from_its_node_is_said(real: ControlPlane, run: dict[str, Any]) -> None:
    node = real.info()["real_node"]["name"]
    (pool,) = run["driver gone"]
    assert (pool["driver"], pool["node"]) == ("gpu.example.com", node)
    # every claim still allocated on the node is named: dra-1's among them
    assert any(c.startswith(f"{NS}/dra-1-gpu-") for c in pool["claims"]), pool["claims"]
    assert f"{NS}/shared" in pool["claims"]
    assert pool["text"][0].startswith(f"node {node}: driver gpu.example.com")
    print(f"\n[driver gone] slices wiped {run['outcome'].slices_gone_after:.1f} s after")


def test_zz_down_leaves_nothing_behind(real: ControlPlane, run: dict[str, Any]) -> None:
    links_before = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    exes = {Path(str((real._pid_file(n).read() or {}).get("exe"))) for n in real_node.COMPONENTS}
    exes |= {p.with_name("containerd-shim-runc-v2") for p in exes if p.name == "containerd"}
    assert len(exes) == 4, exes
    real.down(log=lambda _m: None)
    assert not real_node.pod_pids()
    assert not real_node._kubelets()
    # the kubelet lives beside the control plane's binaries: match whole paths, not folders
    left = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _exe(p) in exes]
    assert not left, left
    assert real_node.mounts_under(real.dir) == []
    assert real_node._kubepods() == []
    links_after = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    assert link_names(links_after) == link_names(links_before)


def _exe(proc: Path) -> Path | None:
    try:
        return Path(os.readlink(proc / "exe"))
    except OSError:
        return None


def link_names(ip_link: str) -> list[str]:
    return sorted(line.split(":")[1].strip() for line in ip_link.splitlines())
