"""Practice-cluster profiles: which DRA features of Kubernetes 1.36 a cluster is set up to show.

A profile is what dra-example-driver publishes in one of its modes, plus the feature gates,
API versions (`--runtime-config`) and controllers the control plane needs for it. Profiles
combine (`--profile lab,taints`): seeds add up, flags are merged. `lab` is the default and is
exactly the cluster from before profiles existed (same flags, same objects).

Gate names and defaults were read in k8s.io/kubernetes@v1.36.3 pkg/features/kube_features.go;
gates that are already on by default are still named, so a profile keeps working (and says
what it relies on) if a default changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class ProfileError(ValueError):
    """A bad --profile value; the message says what is accepted."""


@dataclass(frozen=True)
class Profile:
    name: str
    seeds: str  # what `up` creates for it (docs/CLUSTER.md says more)
    gates: tuple[str, ...] = ()
    runtime_config: tuple[str, ...] = ()
    controllers: tuple[str, ...] = ()  # beyond flags.CONTROLLERS
    implies: tuple[str, ...] = ()  # profiles it needs (their seeds come too)
    components: tuple[str, ...] = ()  # extra processes `up` starts and `down` stops


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("lab", "devices gpu-0..N-1 per node in pool <node> (the lab's cluster)"),
        Profile(
            "partitions",
            "pool <node>-partitions: counter sets gpu-<i>-counters in a counter-only slice; "
            "gpu-<i>-full and gpu-<i>-partition-<j> consuming them",
            gates=("DRAPartitionableDevices",),
        ),
        Profile(
            "shared",
            "pool <node>-shared: devices with allowMultipleAllocations and capacity "
            "request policies (validRange, validValues)",
            gates=("DRAConsumableCapacity",),
        ),
        Profile(
            "taints",
            "pool <node>-taints: devices tainted NoSchedule, NoExecute and None; "
            "DeviceTaintRule (resource.k8s.io/v1beta2) served",
            gates=("DRADeviceTaints", "DRADeviceTaintRules"),
            runtime_config=("resource.k8s.io/v1beta2=true",),
            controllers=("device-taint-eviction-controller",),
        ),
        Profile(
            "binding",
            "pool <node>-binding: devices with bindingConditions, bindingFailureConditions "
            "and bindsToNode; a practice driver process that sets the conditions",
            gates=("DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"),
            components=("binding-driver",),
        ),
        Profile(
            "extended",
            "DeviceClass extended.gpu.example.com with extendedResourceName example.com/gpu "
            "(and the lab's devices for it to hand out)",
            gates=("DRAExtendedResource",),
            implies=("lab",),
        ),
        Profile(
            "network",
            "driver net.example.com: pool fabric (allNodes) of shared NICs, pool fabric-ports "
            "(perDeviceNodeSelection: one port per node and an uplink for all nodes)",
            gates=("DRAPartitionableDevices", "DRAConsumableCapacity"),
        ),
    )
}
DEFAULT = ("lab",)


def parse(value: str) -> tuple[str, ...]:
    """`lab,taints` -> ("lab", "taints"), with implied profiles added, in table order."""
    asked = [part.strip() for part in value.split(",") if part.strip()]
    known = ", ".join(PROFILES)
    if not asked:
        raise ProfileError(f"--profile needs at least one name: {known}")
    unknown = [name for name in asked if name not in PROFILES]
    if unknown:
        raise ProfileError(
            f"unknown profile{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"choose from {known} (comma-separated, e.g. --profile lab,taints)"
        )
    return normalize(asked)


def normalize(names: Iterable[str]) -> tuple[str, ...]:
    """Known names with what they imply, each once, in table order."""
    chosen = set(names)
    for name in list(chosen):
        chosen.update(PROFILES[name].implies)
    return tuple(name for name in PROFILES if name in chosen)


def _union(values: Iterable[Iterable[str]]) -> list[str]:
    out: list[str] = []
    for group in values:
        out.extend(v for v in group if v not in out)
    return out


def feature_gates(names: Iterable[str]) -> list[str]:
    return _union(PROFILES[n].gates for n in names)


# From 1.37 DeviceTaintRule is GA and served at resource.k8s.io/v1 by default: the taints
# profile asks for v1beta2 only on 1.36 (1.37 keeps v1beta2 off; nothing here needs it there).
SERVED_FROM_137 = frozenset({"resource.k8s.io/v1beta2=true"})


def runtime_config(names: Iterable[str], release: str = "1.36") -> list[str]:
    config = _union(PROFILES[n].runtime_config for n in names)
    if release != "1.36":
        config = [c for c in config if c not in SERVED_FROM_137]
    return config


def controllers(names: Iterable[str]) -> list[str]:
    return _union(PROFILES[n].controllers for n in names)


def components(names: Iterable[str]) -> list[str]:
    return _union(PROFILES[n].components for n in names)


def gate_flags(names: Iterable[str]) -> list[str]:
    """`--feature-gates=...` for kube-apiserver, kube-scheduler and kube-controller-manager."""
    gates = feature_gates(names)
    return [f"--feature-gates={','.join(f'{g}=true' for g in gates)}"] if gates else []


def apiserver_flags(names: Iterable[str], release: str = "1.36") -> list[str]:
    names = list(names)
    config = runtime_config(names, release)
    return gate_flags(names) + ([f"--runtime-config={','.join(config)}"] if config else [])
