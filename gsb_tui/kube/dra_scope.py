"""Which pods and events of other namespaces gsb-tui keeps: those that use DRA.

Pods and events are read across namespaces (a Pending pod in team-b waits for devices too),
but a cluster's other pods are not gsb-tui's business: a kind's `Scope` filters its list pages
as they are decoded (memory grows with the DRA objects, not with every pod of the cluster) and
its watch events before they reach the Store. The lab's namespace (`-n`) is kept whole: the
checklist reads it (and it is all there is when RBAC allows no wider list).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from gsb_tui.snapshot import Obj, ObjKey, obj_key

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
Passed = Literal["ADDED", "MODIFIED", "DELETED"]


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


class Scope:
    """One kind's filter, for its lists and its watch alike. An object that leaves the scope
    on a change is deleted from the Store, as client-go's FilteringResourceEventHandler turns
    such an update into a delete; a delete is passed on only for what was kept."""

    def __init__(self, keep: Callable[[Obj], bool]) -> None:
        self.keep = keep
        self._kept: set[ObjKey] = set()

    def __call__(self, obj: Obj) -> bool:
        return self.keep(obj)

    def listed(self, page: list[Any]) -> list[Any]:
        """What of one list page is kept, remembered for the watch (relisting() forgets)."""
        kept = [obj for obj in page if self.keep(obj)]  # mappings: answers.checked_page
        self._kept.update(obj_key(obj) for obj in kept)
        return kept

    def relisting(self) -> None:
        self._kept.clear()

    def event(self, etype: Passed, obj: Obj) -> Passed | None:
        """The change to pass on for a watch event, or None."""
        key = obj_key(obj)
        if etype == "DELETED":
            if key not in self._kept:
                return None
            self._kept.discard(key)
            return etype
        if self.keep(obj):
            self._kept.add(key)
            return etype
        if key in self._kept:  # it was kept and is no longer ours
            self._kept.discard(key)
            return "DELETED"
        return None


def pod_filter(lab_namespace: str) -> Scope:
    def keep(pod: Obj) -> bool:
        return _namespace(pod) == lab_namespace or uses_dra(pod)

    return Scope(keep)


def event_filter(lab_namespace: str) -> Scope:
    def keep(event: Obj) -> bool:
        if _namespace(event) == lab_namespace:
            return True
        involved = _d(event.get("involvedObject") or event.get("regarding"))
        return involved.get("kind") in _DRA_KINDS or event.get("reason") in _DRA_REASONS

    return Scope(keep)
