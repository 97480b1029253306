"""What the search hands out and the ways it stops: its errors, the allocated state it starts
from, a device with its pool, one allocation result, one request's numbers.

The types of `structured/internal/incubating/allocator_incubating.go` at v0.36.3 (errStop,
errAllocationResultMaxSizeExceeded, deviceWithID, internalDeviceResult, requestData) and
schedulerapi.AllocatedState.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.alloc.pools import Amount, Pool, SliceDevice
from gsb_tui.dra.alloc.requests import Req
from gsb_tui.dra.model import DeviceId
from gsb_tui.snapshot import Obj

MAX_RESULTS = 32  # resourceapi.AllocationResultsMaxSize


class AllocError(Exception):
    """An error that stops the scheduling attempt (the plugin's statusError): a CEL runtime
    or compile error, an unusable request. Worded as upstream words it."""


class NodeFailure(Exception):
    """structured.ErrFailedAllocationOnNode: this node only (invalid pools encountered)."""


class Undecided(Exception):
    """The time budget ran out, or a selector this evaluator cannot run: no answer yet."""


class MaxSize(Exception):
    """errAllocationResultMaxSizeExceeded."""


@dataclass
class AllocatedState:
    """schedulerapi.AllocatedState, gathered from every allocated claim."""

    devices: set[DeviceId] = field(default_factory=set)
    shared: set[tuple[DeviceId, str]] = field(default_factory=set)
    capacity: dict[DeviceId, dict[str, Amount]] = field(default_factory=dict)
    # who holds what, for the explanations (not read by the search)
    holders: dict[DeviceId, list[str]] = field(default_factory=dict)

    def is_allocated(self, id: DeviceId) -> bool:
        """internal.IsDeviceAllocated."""
        return id in self.devices or any(d == id for d, _ in self.shared) or id in self.capacity


@dataclass(frozen=True)
class PoolDevice:
    """deviceWithID: a device with its slice and pool."""

    device: SliceDevice
    pool: Pool

    @property
    def id(self) -> DeviceId:
        return self.device.id


@dataclass
class DeviceResult:
    """internalDeviceResult."""

    request: str
    parent_request: str
    id: DeviceId
    device: SliceDevice
    share: bool
    consumed: dict[str, Amount]
    admin_access: bool

    @property
    def request_name(self) -> str:
        return f"{self.parent_request}/{self.request}" if self.parent_request else self.request


@dataclass
class RequestData:
    request: Req
    parent: str  # the parent request's name for a subrequest, else ""
    class_obj: Obj | None
    num_devices: int = 0
    selected_sub: int = 0
    all_devices: list[PoolDevice] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.parent}/{self.request.name}" if self.parent else self.request.name


def enhance_runtime_error(features: Features, error: str) -> str:
    """cel.EnhanceRuntimeError (1.37): a missing key gets a hint at optional chaining."""
    if not features.since_137 or "no such key:" not in error:
        return error
    return error + (
        ". consider using CEL optional chaining (.? followed by orValue()) or guarding"
        " the check with has() for optional fields"
    )


def runtime_error(features: Features, who: str, i: int, id: DeviceId, error: str) -> str:
    """The allocator's words for a selector that failed on a device (1.37 names the device)."""
    if not features.since_137:
        return f"{who}: selector #{i}: CEL runtime error: {error}"
    error = enhance_runtime_error(features, error)
    return f"{who}: selector #{i} on device {id}: CEL runtime error: {error}"


def not_mirrored(features: Features, pools: list[Pool]) -> None:
    """Undecided where the scheduler runs the "experimental" allocator (not mirrored): pools
    whose devices name compatibility groups while DRADeviceCompatibilityGroups is on."""
    if features.compatibility_groups and any(
        s.compatibility_groups for p in pools for s in p.slices_targeting_node
    ):
        raise Undecided("DRADeviceCompatibilityGroups is on: that allocator is not mirrored")
