"""The ledger: how many devices exist, how many are allocated, and which pods wait for them.

This is the count the lab's report.json asks for (step 8): a shared claim's device counts
once, a claim with no allocation counts nothing, adminAccess results are monitoring and do not
take a device away from anyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from gsb_tui.dra.availability import Availability
from gsb_tui.dra.derive import Memo
from gsb_tui.dra.model import Claim, Device, DeviceId, Pod
from gsb_tui.dra.occupancy import Occupancy


class LedgerSource(Protocol):
    """What the ledger reads of a view (DraView is one; view.py imports this module)."""

    @property
    def devices(self) -> tuple[Device, ...]: ...
    @property
    def occupancy(self) -> Mapping[DeviceId, Occupancy]: ...
    @property
    def availability(self) -> Mapping[DeviceId, Availability]: ...
    @property
    def claims(self) -> Mapping[tuple[str, str], Claim]: ...
    @property
    def pods(self) -> Mapping[tuple[str, str], Pod]: ...
    @property
    def memo(self) -> Memo: ...
    def allocatable(self) -> frozenset[DeviceId]: ...
    def pods_of_claim(self, claim: Claim) -> tuple[Pod, ...]: ...


@dataclass(frozen=True)
class Ledger:
    total: int  # devices published (current pool generation only)
    allocated: frozenset[DeviceId]  # distinct allocated devices among those published
    pending_pods: tuple[str, ...]  # Pending, unscheduled pods, sorted
    # Unallocated claims a pod waits for, as (claim, devices its requests ask for), in key
    # order. A claim no pod uses is never allocated (nothing asks yet), so it is not demand.
    waiting_claims: tuple[tuple[Claim, int], ...] = ()
    pending_keys: tuple[tuple[str, str], ...] = ()  # the pending pods as (namespace, name)
    # Published devices a plain request could be given now (not held, not blocked by counters,
    # not tainted; a shared device with capacity left counts here and in `allocated`).
    allocatable: frozenset[DeviceId] = frozenset()
    # Unheld devices that cannot be allocated now: blocked by counters or tainted.
    unavailable: frozenset[DeviceId] = frozenset()

    @property
    def free(self) -> int:
        """How many devices can still be allocated (what is published is not what is free)."""
        return len(self.allocatable)


def compute_ledger(
    view: LedgerSource, driver: str | None = None, namespace: str | None = None
) -> Ledger:
    """Count devices of one driver (or all) and list the pending pods of one namespace.

    Allocation is counted cluster-wide whatever `namespace` is: a device another namespace
    holds is not free. `namespace` only scopes pending_pods, which are bare pod names when a
    namespace is given and "ns/name" when it is not (names alone would be ambiguous).
    A result naming a device no current slice publishes is not counted (it would make free
    negative); DraView.orphan_results and the warnings report it instead.
    """

    # Each part kept while what it reads is the very same objects as last time (the view's memo):
    # at 10,000 devices a claim coming or going changes none of the device counts.
    def devices() -> tuple[int, frozenset[DeviceId], frozenset[DeviceId], frozenset[DeviceId]]:
        published = {d.id for d in view.devices if driver is None or d.id.driver == driver}
        allocated = frozenset(
            device_id
            for device_id, occ in view.occupancy.items()
            if device_id in published and occ.status != "free"
        )
        allocatable = view.allocatable() & published
        return (
            len(published),
            allocated,
            allocatable,
            frozenset(published - allocated - allocatable),
        )

    def pending() -> tuple[tuple[str, str], ...]:
        return tuple(
            sorted(
                pod.key
                for pod in view.pods.values()
                if pod.pending
                and not pod.deleting
                and (namespace is None or pod.namespace == namespace)
            )
        )

    total, allocated, allocatable, unavailable = view.memo.kept(
        f"ledger-devices {driver}", (view.devices, view.occupancy, view.availability), devices
    )
    keys = view.memo.kept(f"ledger-pending {namespace}", (view.pods,), pending)
    pending_pods = [name if namespace is not None else f"{ns}/{name}" for ns, name in keys]
    waiting = tuple(
        (c, sum(r.count for r in c.requests))
        for c in view.claims.values()
        if not c.allocated
        and not c.deleting
        and (namespace is None or c.namespace == namespace)
        and view.pods_of_claim(c)
    )
    return Ledger(
        total=total,
        allocated=allocated,
        pending_pods=tuple(pending_pods),
        waiting_claims=waiting,
        pending_keys=keys,
        allocatable=allocatable,
        unavailable=unavailable,
    )
