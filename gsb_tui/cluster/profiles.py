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
    since: str = "1.36"  # the first release that serves what it needs


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
        Profile(
            "workloads",
            "nothing of its own: PodGroups (scheduling.k8s.io/v1beta1) served, and claims held "
            "by a PodGroup for its pods (DRAWorkloadResourceClaims; --kube 1.37)",
            gates=("GenericWorkload", "DRAWorkloadResourceClaims"),
            runtime_config=("scheduling.k8s.io/v1beta1=true",),
            # admission puts scheduling.k8s.io/podgroup-protection on every PodGroup; without
            # this controller a deleted PodGroup (and the claims reserved for it) never go
            controllers=("podgroup-protection-controller",),
            implies=("lab",),
            since="1.37",  # scheduling.k8s.io/v1beta1 is new in 1.37 (1.36 has v1alpha2)
        ),
    )
}
# Profiles that seed nothing and have no recorded scenario (no `record-profile`, no demo): they
# serve an alpha API and run its controller, over the pools the other profiles seed. They
# combine like the others (`--profile lab,taints,poolstatus`).
API_PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        # ResourcePoolStatusRequest: served and answered by 1.36.5 and 1.37.2 alike, counted
        # apart (docs/CLUSTER-FACTS.md "ResourcePoolStatusRequest (1.37.2)").
        Profile(
            "poolstatus",
            "nothing of its own: ResourcePoolStatusRequest (resource.k8s.io/v1alpha3) served "
            "and its controller run, to count the other profiles' pools",
            gates=("DRAResourcePoolStatus",),
            runtime_config=("resource.k8s.io/v1alpha3=true",),
            controllers=("resourcepoolstatusrequest-controller",),
        ),
    )
}
KNOWN: dict[str, Profile] = {**PROFILES, **API_PROFILES}
DEFAULT = ("lab",)


def parse(value: str) -> tuple[str, ...]:
    """`lab,taints` -> ("lab", "taints"), with implied profiles added, in table order."""
    asked = [part.strip() for part in value.split(",") if part.strip()]
    known = ", ".join(KNOWN)
    if not asked:
        raise ProfileError(f"--profile needs at least one name: {known}")
    unknown = [name for name in asked if name not in KNOWN]
    if unknown:
        raise ProfileError(
            f"unknown profile{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"choose from {known} (comma-separated, e.g. --profile lab,taints)"
        )
    return normalize(asked)


def _minor(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


def available(name: str, release: str) -> bool:
    """Whether the release serves what the profile needs."""
    return _minor(KNOWN[name].since) <= _minor(release)


def check_release(names: Iterable[str], release: str) -> None:
    """Refuse profiles the release cannot serve, saying which release they need."""
    wrong = [n for n in names if not available(n, release)]
    if wrong:
        needs = ", ".join(f"{n} needs --kube {KNOWN[n].since}" for n in wrong)
        raise ProfileError(f"Kubernetes {release} cannot run {', '.join(wrong)} ({needs})")


def normalize(names: Iterable[str]) -> tuple[str, ...]:
    """Known names with what they imply, each once, in table order."""
    chosen = set(names)
    for name in list(chosen):
        chosen.update(KNOWN[name].implies)
    return tuple(name for name in KNOWN if name in chosen)


def _union(values: Iterable[Iterable[str]]) -> list[str]:
    out: list[str] = []
    for group in values:
        out.extend(v for v in group if v not in out)
    return out


def feature_gates(names: Iterable[str]) -> list[str]:
    return _union(KNOWN[n].gates for n in names)


# From 1.37 DeviceTaintRule is GA and served at resource.k8s.io/v1 by default: the taints
# profile asks for v1beta2 only on 1.36 (1.37 keeps v1beta2 off; nothing here needs it there).
SERVED_FROM_137 = frozenset({"resource.k8s.io/v1beta2=true"})


def runtime_config(names: Iterable[str], release: str = "1.36") -> list[str]:
    config = _union(KNOWN[n].runtime_config for n in names)
    if release != "1.36":
        config = [c for c in config if c not in SERVED_FROM_137]
    return config


def controllers(names: Iterable[str]) -> list[str]:
    return _union(KNOWN[n].controllers for n in names)


def components(names: Iterable[str]) -> list[str]:
    return _union(KNOWN[n].components for n in names)


def gate_flags(names: Iterable[str]) -> list[str]:
    """`--feature-gates=...` for kube-apiserver, kube-scheduler and kube-controller-manager."""
    gates = feature_gates(names)
    return [f"--feature-gates={','.join(f'{g}=true' for g in gates)}"] if gates else []


def apiserver_flags(names: Iterable[str], release: str = "1.36") -> list[str]:
    names = list(names)
    config = runtime_config(names, release)
    return gate_flags(names) + ([f"--runtime-config={','.join(config)}"] if config else [])
