"""The real node's recipe without running it: configuration files, the health switch, the
teardown's bookkeeping and the messages a user gets when the node cannot start."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cli import main
from gsb_tui.cluster import node_cli, node_config, real_node
from gsb_tui.cluster.control_plane import ControlPlane

HOST_PLACES = ("/var/lib", "/run/", "/opt", "/etc", "/var/run")


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_containerd_keeps_everything_under_the_node_root(tmp_path: Path) -> None:
    paths = node_config.NodePaths(tmp_path / "node")
    config = tomllib.loads(node_config.containerd_toml(paths, Path("/usr/sbin/runc"), "p:1"))
    assert config["version"] == 4 and config["imports"] == []
    paths_in = [s for s in strings(config) if s.startswith("/")]
    assert paths_in, "no paths at all?"
    for path in paths_in:
        assert path.startswith(str(tmp_path)) or path == "/usr/sbin/runc", path
    cri = config["plugins"]["io.containerd.cri.v1.runtime"]
    assert cri["restrict_oom_score_adj"] is True  # root here lacks CAP_SYS_RESOURCE
    assert cri["cdi_spec_dirs"] == [str(paths.cdi)]
    assert config["plugins"]["io.containerd.nri.v1.nri"]["disable"] is True
    pinned = config["plugins"]["io.containerd.cri.v1.images"]["pinned_images"]
    assert pinned["sandbox"] == "p:1"


def test_the_kubelet_config_says_what_this_machine_needs(tmp_path: Path) -> None:
    paths = node_config.NodePaths(tmp_path / "node")
    config = node_config.kubelet_config(paths, 11001, 11002, ("lab", "shared"))
    assert config["failCgroupV1"] is False and config["cgroupDriver"] == "cgroupfs"
    assert (config["port"], config["healthzPort"]) == (11001, 11002)
    assert config["containerRuntimeEndpoint"] == f"unix://{paths.containerd_sock}"
    assert config["authorization"] == {"mode": "AlwaysAllow"}
    assert config["featureGates"] == {"DRAConsumableCapacity": True}
    assert "featureGates" not in node_config.kubelet_config(paths, 1, 2, ("lab",))
    for path in strings(config):
        assert not path.startswith(HOST_PLACES), path


def test_health_patch_pins_and_unpins() -> None:
    assert node_cli.annotation_patch("gpu-3", "unhealthy") == {
        "metadata": {"annotations": {"health.example.com/gpu-3": "unhealthy"}}
    }
    # healthy is the driver's default: the pin is removed (a merge patch's null)
    assert node_cli.annotation_patch("gpu-3", "healthy") == {
        "metadata": {"annotations": {"health.example.com/gpu-3": None}}
    }


def test_a_killed_shims_socket_is_found_by_its_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seen on this machine: the shim of sandbox 4e55… under /tmp/rn left this socket.
    sandbox = "4e552c644b2145dc5484cbf88f0f9d7c22f7a6974663ffed7b55a81ae4a200cf"
    argv = ["shim", "-namespace", "k8s.io", "-id", sandbox, "-address"]
    argv += ["/tmp/rn/node/containerd/containerd.sock"]
    proc = tmp_path / "4242"
    proc.mkdir()
    (proc / "cmdline").write_bytes("\0".join(argv).encode() + b"\0")
    real_path = Path

    def fake_path(arg: str, *more: str) -> Path:
        if arg == "/proc/4242/cmdline":
            return proc / "cmdline"
        return real_path(arg, *more)

    monkeypatch.setattr(real_node, "Path", fake_path)
    (found,) = real_node.shim_sockets({4242})
    assert found.name == "eb3374f75634766d13627b4084a23ca394433941ce20cc0cdaf5d26fee4b8f16"


def test_mounts_are_read_deepest_first_with_escapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "node"
    info = tmp_path / "mountinfo"
    lines = [
        f"30 1 0:1 / {root}/kubelet rw - ext4 /dev/vda rw",
        f"31 30 0:2 / {root}/kubelet/pods/a\\040b/vol rw - tmpfs tmpfs rw",
        f"32 1 0:3 / {tmp_path}/nodeX rw - tmpfs tmpfs rw",  # a sibling with the same prefix
        "33 1 0:4 / / rw - ext4 /dev/vda rw",
    ]
    info.write_text("\n".join(lines) + "\n")
    real_path = Path
    monkeypatch.setattr(
        real_node, "Path", lambda p, *m: info if p == "/proc/self/mountinfo" else real_path(p, *m)
    )
    found = real_node.mounts_under(root)
    assert found == [root / "kubelet/pods/a b/vol", root / "kubelet"]


def test_not_root_is_told_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    with pytest.raises(real_node.NodeError, match="--real-node needs root"):
        real_node.check_can_run()


def test_a_host_name_that_is_not_loopback_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("socket.gethostname", lambda: "box")
    monkeypatch.setattr("socket.gethostbyname", lambda _n: "10.1.2.3")
    with pytest.raises(real_node.NodeError, match=r"127\.0\.0\.1 box"):
        real_node.node_name()


def test_health_without_a_real_node(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cp = ControlPlane(tmp_path)
    cp.info_file.write_text(json.dumps({"devices_per_node": 8, "real_node": None}))
    code = main(["cluster", "--dir", str(tmp_path), "health", "gpu-1", "unhealthy"])
    assert code == 1
    assert "no real node" in capsys.readouterr().err


def test_health_of_a_device_the_node_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cp = ControlPlane(tmp_path)
    info = {"devices_per_node": 2, "real_node": {"name": "vm"}}
    cp.info_file.write_text(json.dumps(info))
    code = main(["--lang", "en", "cluster", "--dir", str(tmp_path), "health", "gpu-7", "unknown"])
    assert code == 64
    assert "gpu-7 is not a device of the real node vm" in capsys.readouterr().err
