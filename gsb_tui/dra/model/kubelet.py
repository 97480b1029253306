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
(buildResourceHealth). Parsing is forgiving, as every view's: an odd entry is skipped (and
said, model/fields.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.model.fields import Bad, entries, mapping, string

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


def _resource_health(container: str, status: Mapping[str, Any], bad: Bad) -> list[ResourceHealth]:
    name = string(status.get("name"), "name", bad)
    if not name.startswith("claim:"):
        return []  # a device plugin's resource, not a claim
    entry, _, request = name.removeprefix("claim:").partition("/")
    out = []
    for resource, mine in entries(status.get("resources"), "resources", bad):
        resource_id = string(resource.get("resourceID"), "resourceID", mine)
        if not resource_id:
            continue
        out.append(
            ResourceHealth(
                container=container,
                entry=entry,
                request=request,
                resource_id=resource_id,
                health=_health(string(resource.get("health"), "health", mine)),
                message=string(resource.get("message"), "message", mine),
            )
        )
    return out


def parse_kubelet_status(
    status: Mapping[str, Any], bad: Bad | None = None
) -> tuple[tuple[ResourceHealth, ...], tuple[ContainerWaiting, ...]]:
    """(allocatedResourcesStatus entries, waiting containers) of a pod's status, containers
    in the order the kubelet listed them (init containers first)."""
    bad = [] if bad is None else bad
    health: list[ResourceHealth] = []
    waiting: list[ContainerWaiting] = []
    for field, init in _STATUS_FIELDS:
        for found, mine in entries(status.get(field), f"status.{field}", bad):
            container = string(found.get("name"), "name", mine)
            for resource_status, theirs in entries(
                found.get("allocatedResourcesStatus"), "allocatedResourcesStatus", mine
            ):
                health.extend(_resource_health(container, resource_status, theirs))
            state = mapping(found.get("state"), "state", mine)
            if state.get("waiting") is not None:
                waits = mapping(state.get("waiting"), "state.waiting", mine)
                waiting.append(
                    ContainerWaiting(
                        container=container,
                        reason=string(waits.get("reason"), "state.waiting.reason", mine),
                        message=string(waits.get("message"), "state.waiting.message", mine),
                        init=init,
                    )
                )
    return tuple(health), tuple(waiting)
