"""Device occupancy: which claims hold each published device, and which pods consume it.

Read from the claims' status only (status.allocation results and status.reservedFor): that is
where DRA writes its decisions, so nothing here guesses from pod specs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from gsb_tui.dra import parsed
from gsb_tui.dra.model import Claim, Device, DeviceId

OccupancyStatus = Literal["free", "allocated", "reserved", "shared"]


GROUP = "podgroup:"  # a consumer that is a PodGroup: "ns/podgroup:NAME"


def consumers_of(claim: Claim) -> tuple[str, ...]:
    """The consumers in a claim's reservedFor as "ns/pod", or "ns/podgroup:NAME" for a PodGroup
    holding it for its pods (reservedFor is namespaced to the claim)."""
    return tuple(
        f"{claim.namespace}/{GROUP if c.pod_group else ''}{c.name}"
        for c in claim.reserved_for
        if c.resource == "pods" or c.pod_group
    )


@dataclass(frozen=True)
class Occupancy:
    device: Device
    claims: tuple[Claim, ...]  # claims whose status.allocation results name this device
    consumers: tuple[str, ...]  # "ns/pod" (or "ns/podgroup:NAME") from their reservedFor, sorted
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


def _unchanged(old: Occupancy | None, device: Device, holders: list[Claim]) -> bool:
    """The previous entry was made of the very same device and holder objects (no adminAccess
    results): it is what this build would make again."""
    if old is None or old.device is not device or old.admin_claims:
        return False
    claims = old.claims
    return len(claims) == len(holders) and all(a is b for a, b in zip(claims, holders, strict=True))


def compute_occupancy(
    devices: Iterable[Device],
    claims: Iterable[Claim],
    previous: Mapping[DeviceId, Occupancy] | None = None,
) -> dict[DeviceId, Occupancy]:
    """Occupancy of every device, keyed by its (driver, pool, device) identity.

    Results with adminAccess are listed among the claims but do not make a device allocated:
    admin access is monitoring alongside whoever really holds the device.

    `previous` (the last result) lends its entries where the device and its claims are the
    very same objects (parsed views are reused while their raw object is: dra/view.py), so at
    10,000 devices one changed claim makes one new entry, and panes can tell by `is`.
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
    previous = previous or {}
    for device in devices:
        if device.id in out:  # a device published twice in one pool: keep the first
            continue
        holders = holding.get(device.id, [])
        if device.id not in admin:
            old = previous.get(device.id)
            if _unchanged(old, device, holders):
                assert old is not None
                out[device.id] = old
                continue
        out[device.id] = _entry(device, holders, admin.get(device.id, []))
    return out


def _entry(device: Device, holders: list[Claim], admin: list[Claim]) -> Occupancy:
    """One device's occupancy from the claims naming it, in key order (admin: with
    adminAccess; one that also holds the device counts as a holder)."""
    if not admin and len(holders) < 2:  # free or held by one claim: most devices, the hot path
        if not holders:
            return Occupancy(device, (), (), "free")
        pods = tuple(sorted(set(consumers_of(holders[0]))))
        return Occupancy(device, (holders[0],), pods, _status(1, len(pods)))
    held_by = {c.key for c in holders}
    admins = [c for c in admin if c.key not in held_by]
    consumers = sorted({p for c in holders for p in consumers_of(c)})
    return Occupancy(
        device=device,
        claims=tuple(sorted([*holders, *admins], key=lambda c: c.key)),
        consumers=tuple(consumers),
        status=_status(len(holders), len(consumers)),
        admin_claims=tuple(admins),
    )


PATCH_LIMIT = 64  # changed claims past which patching the last occupancy is not worth it


def patch_occupancy(
    previous: Mapping[DeviceId, Occupancy],
    old_claims: Mapping[tuple[str, str], Claim],
    claims: Mapping[tuple[str, str], Claim],
    changed: set[tuple[str, str]] | None = None,
) -> Mapping[DeviceId, Occupancy] | None:
    """compute_occupancy's answer for `claims` over the devices `previous` was computed for
    (from `old_claims`), made by redoing only the devices the changed claims name; `previous`
    itself when they name none; None when too many claims changed (compute it whole). Claims
    are compared by identity: parsed views are reused while their raw object is (dra/parsed.py)."""
    if changed is None:  # the caller does not know which claims changed: compare them all
        changed = parsed.differing(old_claims, claims)
    if len(changed) > PATCH_LIMIT:
        return None
    touched: set[DeviceId] = set()
    for key in changed:
        for claim in (old_claims.get(key), claims.get(key)):
            if claim is not None:
                touched.update(r.id for r in claim.results)
    if not touched:
        return previous
    out = dict(previous)
    for device_id in touched:
        old = previous.get(device_id)
        if old is None:  # a result naming a device no slice publishes
            continue
        kept = [c for c in old.claims if c.key not in changed]
        now = [c for k in changed if (c := claims.get(k)) is not None]
        holders: list[Claim] = []
        admin: list[Claim] = []
        for claim in sorted([*kept, *now], key=lambda c: c.key):
            # as compute_occupancy: the first result naming the device decides
            first = next((r for r in claim.results if r.id == device_id), None)
            if first is not None:
                (admin if first.admin_access else holders).append(claim)
        out[device_id] = _entry(old.device, holders, admin)
    return out
