"""What a real node's kubelet writes into a pod's status, which kwok never does: the health of
the devices each container uses (KEP-4680, ResourceHealthStatus, on by default in 1.36) and why
a container waits.

    status.containerStatuses[] (and initContainerStatuses[], ephemeralContainerStatuses[])
      .allocatedResourcesStatus[]: {name: "claim:<entry>" | "claim:<entry>/<request>",
                                    resources: [{resourceID, health, message?}]}
      .state.waiting: {reason: ContainerCreating | ErrImagePull | ImagePullBackOff | …, message}

The kubelet writes allocatedResourcesStatus only for containers that list the claim under
resources.claims (pkg/kubelet/cm/dra/manager.go, UpdateAllocatedResourcesStatus); resourceID
is the device's first CDI device ID when the driver gave one, else <driver>/<pool>/<device>
(buildResourceHealth). Parsing is forgiving, as every view's: an odd entry is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.model.base import _d, _l

# core/v1 ResourceHealthStatus; `health` is omitempty, and a value this release does not know
# is read as Unknown (the kubelet's own word for "the status cannot be determined").
HEALTH_VALUES = ("Healthy", "Unhealthy", "Unknown")
_STATUS_FIELDS = (
    ("initContainerStatuses", True),
    ("containerStatuses", False),
    ("ephemeralContainerStatuses", False),
)


@dataclass(frozen=True)
class ResourceHealth:
    """One resources[] entry of a container's allocatedResourcesStatus."""

    container: str
    entry: str  # the pod's resourceClaims entry (the part after "claim:")
    request: str  # the request after "/" ("" when the status names the whole entry)
    resource_id: str  # as the kubelet wrote it: a CDI device ID or <driver>/<pool>/<device>
    health: str  # Healthy, Unhealthy or Unknown
    message: str  # the driver's words, passed on by the kubelet ("" when none)


@dataclass(frozen=True)
class ContainerWaiting:
    """A container whose state is `waiting`, with the kubelet's reason and message."""

    container: str
    reason: str  # ContainerCreating, ErrImagePull, ImagePullBackOff, PodInitializing, …
    message: str
    init: bool  # an init container


def _health(value: Any) -> str:
    return value if isinstance(value, str) and value in HEALTH_VALUES else "Unknown"


def _resource_health(container: str, status: Mapping[str, Any]) -> list[ResourceHealth]:
    name = status.get("name")
    if not isinstance(name, str) or not name.startswith("claim:"):
        return []  # a device plugin's resource, not a claim
    entry, _, request = name.removeprefix("claim:").partition("/")
    out = []
    for resource in _l(status.get("resources")):
        resource = _d(resource)
        resource_id = resource.get("resourceID")
        if not isinstance(resource_id, str) or not resource_id:
            continue
        message = resource.get("message")
        out.append(
            ResourceHealth(
                container=container,
                entry=entry,
                request=request,
                resource_id=resource_id,
                health=_health(resource.get("health")),
                message=message if isinstance(message, str) else "",
            )
        )
    return out


def parse_kubelet_status(
    status: Mapping[str, Any],
) -> tuple[tuple[ResourceHealth, ...], tuple[ContainerWaiting, ...]]:
    """(allocatedResourcesStatus entries, waiting containers) of a pod's status, containers
    in the order the kubelet listed them (init containers first)."""
    health: list[ResourceHealth] = []
    waiting: list[ContainerWaiting] = []
    for field, init in _STATUS_FIELDS:
        for found in _l(status.get(field)):
            found = _d(found)
            container = str(found.get("name") or "")
            for resource_status in _l(found.get("allocatedResourcesStatus")):
                health.extend(_resource_health(container, _d(resource_status)))
            state = _d(found.get("state"))
            if isinstance(state.get("waiting"), Mapping):
                waits = _d(state.get("waiting"))
                reason, message = waits.get("reason"), waits.get("message")
                waiting.append(
                    ContainerWaiting(
                        container=container,
                        reason=reason if isinstance(reason, str) else "",
                        message=message if isinstance(message, str) else "",
                        init=init,
                    )
                )
    return tuple(health), tuple(waiting)
