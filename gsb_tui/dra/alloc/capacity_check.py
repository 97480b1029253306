"""The allocator's capacity checks during one search (its CmpRequestOverCapacity method,
deviceCapacityInUse) and the shares being tried (allocatingCapacity), with 1.37's words for a
capacity it cannot compute: that error stops the attempt, where 1.36 skipped the device.
"""

from __future__ import annotations

from collections.abc import Sequence

from gsb_tui.dra.alloc import capacity as cap
from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.alloc.pools import Amount, SliceDevice
from gsb_tui.dra.alloc.requests import Req
from gsb_tui.dra.alloc.results import AllocatedState, AllocError
from gsb_tui.dra.model import DeviceId


class CapacityCheck:
    def __init__(self, features: Features, state: AllocatedState, claims: Sequence[str]) -> None:
        self.features = features
        self.state = state
        self.claims = claims  # "namespace/name" of each claim being allocated, by index
        self.allocating: dict[DeviceId, dict[str, Amount]] = {}
        self._shared: frozenset[DeviceId] | None = None

    def ok(
        self, ci: int, request: Req, device: SliceDevice, doing: str, static: bool = False
    ) -> bool:
        """Whether the request's capacity fits the device (`static`: its capacity alone, as
        1.37 screens an All request's candidates; else what is left of it)."""
        try:
            return cap.request_over_capacity(
                None if static else self.state.capacity.get(device.id),
                request.capacity,
                device.capacity,
                None if static else self.allocating.get(device.id),
                self.features.fractional_capacity_range,
                self.features.since_137,
            )
        except cap.UnknownCapacity:
            return False  # 1.36: an error upstream logs, skipping the device
        except cap.CapacityError as exc:
            raise self.error(ci, request, device, doing, exc) from exc

    def consumed(self, ci: int, request: Req, device: SliceDevice) -> dict[str, Amount]:
        """GetConsumedCapacityFromRequest: what a share of the device takes."""
        try:
            return cap.consumed_from_request(
                request.capacity, device.capacity, self.features.fractional_capacity_range
            )
        except cap.CapacityError as exc:
            raise self.error(ci, request, device, "computing consumed", exc) from exc

    def error(
        self, ci: int, request: Req, device: SliceDevice, doing: str, exc: Exception
    ) -> AllocError:
        return AllocError(
            f"claim {self.claims[ci]}, request {request.name}: {doing} capacity for device "
            f"{device.id}: {exc}"
        )

    def in_use(self, id: DeviceId) -> bool:
        """deviceCapacityInUse; from 1.37 a share that consumes no capacity counts too (its
        device's counters are then not charged again)."""
        if id in self.state.capacity or id in self.allocating:
            return True
        if not self.features.since_137:
            return False
        if self._shared is None:
            self._shared = frozenset(d for d, _ in self.state.shared)
        return id in self._shared
