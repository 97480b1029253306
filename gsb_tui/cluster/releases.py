"""The Kubernetes releases the practice cluster builds, each from its own Go module."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Release:
    """A Kubernetes minor the practice cluster builds: its pinned versions and its Go module
    (cluster/ for the default, cluster/<version>/ for the others; each cached apart)."""

    name: str  # "1.36"
    k8s: str
    etcd: str
    module: str  # below cluster/ ("" for cluster/ itself)
    rules_api: str  # where DeviceTaintRules are served (1.36: v1beta2, with the taints profile)


RELEASES = {
    "1.36": Release("1.36", "v1.36.5", "v3.6.8", "", "resource.k8s.io/v1beta2"),
    "1.37": Release("1.37", "v1.37.2", "v3.7.0", "v1.37", "resource.k8s.io/v1"),
}
DEFAULT_RELEASE = "1.36"
