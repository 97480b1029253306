"""The real node's configuration files: containerd, the kubelet, the CNI network.

Each setting that differs from a stock node is here because this machine kind needs it; the
wall it gets past is said beside it (docs/CLUSTER-FACTS.md has the exact messages).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from gsb_tui.cluster import profiles

NETWORK = "gsb-netns"  # our CNI plugin's type: a veth pair with both ends in the pod's netns
SUBNET = "10.88.0.0/16"


@dataclass(frozen=True)
class NodePaths:
    """Everything of the node lives under the cluster's state dir, so `down` knows it all."""

    root: Path

    @property
    def containerd_root(self) -> Path:
        return self.root / "containerd" / "root"

    @property
    def containerd_state(self) -> Path:
        return self.root / "containerd" / "state"

    @property
    def containerd_sock(self) -> Path:
        return self.root / "containerd" / "containerd.sock"

    @property
    def containerd_config(self) -> Path:
        return self.root / "containerd.toml"

    @property
    def cni_bin(self) -> Path:
        return self.root / "cni" / "bin"

    @property
    def cni_conf(self) -> Path:
        return self.root / "cni" / "conf"

    @property
    def cdi(self) -> Path:
        return self.root / "cdi"

    @property
    def kubelet_root(self) -> Path:
        return self.root / "kubelet"

    @property
    def kubelet_config(self) -> Path:
        return self.root / "kubelet-config.json"


def _toml_str(value: str | Path) -> str:
    return json.dumps(str(value))  # a JSON string is a TOML basic string


def containerd_toml(paths: NodePaths, runc: Path, sandbox_image: str) -> str:
    """containerd's configuration (version 4, containerd 2.4): every path it would take on the
    host (/var/lib, /run, /opt, /etc) moved under the node's root, and no host config imported."""
    cri = "plugins.'io.containerd.cri.v1.runtime'"
    runc_table = f"{cri}.containerd.runtimes.runc"
    sock = paths.containerd_sock
    lines = [
        "version = 4",
        f"root = {_toml_str(paths.containerd_root)}",
        f"state = {_toml_str(paths.containerd_state)}",
        "imports = []",
        "",
        "[plugins.'io.containerd.server.v1.grpc']",
        f"  address = {_toml_str(sock)}",
        "[plugins.'io.containerd.server.v1.ttrpc']",
        f"  address = {_toml_str(str(sock) + '.ttrpc')}",
        "[plugins.'io.containerd.internal.v1.opt']",
        f"  path = {_toml_str(paths.root / 'opt')}",
        "[plugins.'io.containerd.nri.v1.nri']",
        "  disable = true",
        f"[{cri}]",
        # root here lacks CAP_SYS_RESOURCE: without this every sandbox fails with
        # "can't get final child's PID from pipe: EOF" (runc: oom_score_adj denied).
        "  restrict_oom_score_adj = true",
        # CDI is always on in containerd 2.x; the practice driver writes its specs here.
        f"  cdi_spec_dirs = [{_toml_str(paths.cdi)}]",
        # netns mounts under our state dir, not /var/run/netns: `down` unmounts them.
        "  netns_mounts_under_state_dir = true",
        f"[{cri}.cni]",
        f"  bin_dirs = [{_toml_str(paths.cni_bin)}]",
        f"  conf_dir = {_toml_str(paths.cni_conf)}",
        f"[{runc_table}]",
        "  runtime_type = 'io.containerd.runc.v2'",
        f"[{runc_table}.options]",
        f"  BinaryName = {_toml_str(runc)}",
        f"  Root = {_toml_str(paths.containerd_state / 'runc')}",  # not /run/containerd/runc
        "  SystemdCgroup = false",
        # No registry here: images are imported from tars; never pull the sandbox image.
        "[plugins.'io.containerd.cri.v1.images'.pinned_images]",
        f"  sandbox = {_toml_str(sandbox_image)}",
        "",
    ]
    return "\n".join(lines)


def cni_conflist() -> dict[str, object]:
    return {
        "cniVersion": "1.0.0",
        "name": "gsb-tui",
        "plugins": [{"type": NETWORK, "subnet": SUBNET}],
    }


def kubelet_config(
    paths: NodePaths, port: int, healthz_port: int, names: tuple[str, ...]
) -> dict[str, object]:
    """A KubeletConfiguration for the practice node (JSON is valid YAML)."""
    # The profiles' gates, as the control plane gets them (profiles.gate_flags).
    gates = dict.fromkeys(profiles.feature_gates(names), True)
    config: dict[str, object] = {
        "apiVersion": "kubelet.config.k8s.io/v1beta1",
        "kind": "KubeletConfiguration",
        # The API server calls the node by its hostname, which resolves to 127.0.0.1 here.
        "address": "127.0.0.1",
        "port": port,
        "healthzBindAddress": "127.0.0.1",
        "healthzPort": healthz_port,
        "readOnlyPort": 0,
        # The API server calls the kubelet without a client certificate: practice node only.
        "authentication": {"anonymous": {"enabled": True}, "webhook": {"enabled": False}},
        "authorization": {"mode": "AlwaysAllow"},
        # cgroup v2 is not usable on this machine kind (its controllers stay bound to v1).
        "failCgroupV1": False,
        "cgroupDriver": "cgroupfs",
        "failSwapOn": False,
        "containerRuntimeEndpoint": f"unix://{paths.containerd_sock}",
        "imageServiceEndpoint": f"unix://{paths.containerd_sock}",
        "serializeImagePulls": False,
        # A shared disk: never taint the node for disk pressure, never collect our images.
        "evictionHard": {"memory.available": "50Mi", "nodefs.available": "1%"},
        "imageGCHighThresholdPercent": 100,
        "imageGCLowThresholdPercent": 99,
        "syncFrequency": "10s",
        "resolvConf": "",
        # No DNS runs here; an address keeps the kubelet from a MissingClusterDNS warning event
        # on every pod (the lab needs no name lookups).
        "clusterDNS": ["10.96.0.10"],
        "clusterDomain": "cluster.local",
    }
    if gates:
        config["featureGates"] = gates
    return config
