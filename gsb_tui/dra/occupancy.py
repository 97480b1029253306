"""Device occupancy: which claims hold each published device, and which pods consume it.

Read from the claims' status only (status.allocation results and status.reservedFor): that is
where DRA writes its decisions, so nothing here guesses from pod specs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from gsb_tui.dra.model import Claim, Device, DeviceId

OccupancyStatus = Literal["free", "allocated", "reserved", "shared"]


def consumers_of(claim: Claim) -> tuple[str, ...]:
    """The pods in a claim's reservedFor as "ns/pod" (reservedFor is namespaced to the claim)."""
    return tuple(f"{claim.namespace}/{c.name}" for c in claim.reserved_for if c.resource == "pods")


@dataclass(frozen=True)
class Occupancy:
    device: Device
    claims: tuple[Claim, ...]  # claims whose status.allocation results name this device
    consumers: tuple[str, ...]  # "ns/pod" from those claims' reservedFor, sorted
    status: OccupancyStatus
    # claims holding the device only with adminAccess (monitoring, not a reservation)
    admin_claims: tuple[Claim, ...] = ()

    @property
    def holders(self) -> tuple[Claim, ...]:
        """The claims that really hold the device (adminAccess claims only watch it)."""
        if not self.admin_claims:
            return self.claims
        admin = {c.key for c in self.admin_claims}
        return tuple(c for c in self.claims if c.key not in admin)


def _status(holders: int, consumers: int) -> OccupancyStatus:
    if holders == 0:
        return "free"
    if holders > 1 or consumers > 1:
        return "shared"
    return "reserved" if consumers == 1 else "allocated"


def compute_occupancy(
    devices: Iterable[Device], claims: Iterable[Claim]
) -> dict[DeviceId, Occupancy]:
    """Occupancy of every device, keyed by its (driver, pool, device) identity.

    Results with adminAccess are listed among the claims but do not make a device allocated:
    admin access is monitoring alongside whoever really holds the device.
    """
    holding: dict[DeviceId, list[Claim]] = {}
    admin: dict[DeviceId, list[Claim]] = {}
    for claim in sorted(claims, key=lambda c: c.key):
        seen: set[DeviceId] = set()
        for result in claim.results:
            if result.id in seen:
                continue
            seen.add(result.id)
            (admin if result.admin_access else holding).setdefault(result.id, []).append(claim)
    out: dict[DeviceId, Occupancy] = {}
    for device in devices:
        if device.id in out:  # a device published twice in one pool: keep the first
            continue
        holders = holding.get(device.id, [])
        held_by = {c.key for c in holders}
        admins = [c for c in admin.get(device.id, []) if c.key not in held_by]
        consumers = sorted({p for c in holders for p in consumers_of(c)})
        out[device.id] = Occupancy(
            device=device,
            claims=tuple(sorted([*holders, *admins], key=lambda c: c.key)),
            consumers=tuple(consumers),
            status=_status(len(holders), len(consumers)),
            admin_claims=tuple(admins),
        )
    return out
