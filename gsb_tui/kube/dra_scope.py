"""Which pods and events of other namespaces gsb-tui keeps: those that use DRA.

Pods and events are read across namespaces (a Pending pod in team-b waits for devices too),
but a cluster's other pods are not gsb-tui's business: each list page and watch event is
filtered here, as it is decoded, so memory grows with the DRA objects, not with every pod of
the cluster. The lab's namespace (`-n`) is kept whole: the checklist reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gsb_tui.snapshot import Obj

# Resources every pod may ask for without DRA (anything else may be a DRA-backed extended
# resource, DRAExtendedResource: kept, the allocator decides).
_PLAIN_RESOURCES = ("cpu", "memory", "ephemeral-storage", "pods", "storage")
# Events about DRA objects, or a scheduler's or kubelet's words on a pod's devices.
_DRA_KINDS = frozenset({"ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceClass"})
_DRA_REASONS = frozenset(
    {
        "FailedScheduling",
        "FailedPrepareDynamicResources",
        "FailedUnprepareDynamicResources",
        "FailedResourceClaimCreation",
    }
)


def _d(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _asks_extended(pod: Obj) -> bool:
    spec = _d(pod.get("spec"))
    for key in ("containers", "initContainers"):
        containers = spec.get(key)
        for container in containers if isinstance(containers, list) else ():
            resources = _d(_d(container).get("resources"))
            for amounts in (resources.get("limits"), resources.get("requests")):
                for name in _d(amounts):
                    if str(name) not in _PLAIN_RESOURCES and not str(name).startswith("hugepages-"):
                        return True
    return False


def uses_dra(pod: Obj) -> bool:
    """The pod names claims, has a claim made for its extended resources, or asks for a
    resource that may be DRA-backed."""
    if _d(pod.get("spec")).get("resourceClaims"):
        return True
    if _d(pod.get("status")).get("extendedResourceClaimStatus"):
        return True
    return _asks_extended(pod)


def _namespace(obj: Obj) -> str:
    return str(_d(obj.get("metadata")).get("namespace") or "")


def pod_filter(lab_namespace: str) -> Callable[[Obj], bool]:
    def keep(pod: Obj) -> bool:
        return _namespace(pod) == lab_namespace or uses_dra(pod)

    return keep


def event_filter(lab_namespace: str) -> Callable[[Obj], bool]:
    def keep(event: Obj) -> bool:
        if _namespace(event) == lab_namespace:
            return True
        involved = _d(event.get("involvedObject") or event.get("regarding"))
        return involved.get("kind") in _DRA_KINDS or event.get("reason") in _DRA_REASONS

    return keep
