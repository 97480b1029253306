"""Counters during one search: what the pool's counter sets have once the allocated devices
are counted (kept per Allocator, as upstream keeps availableCounters), and what the devices
being tried take (checkAvailableCounters, deallocateCountersForDevice). Up to v1.36.3 both
are keyed by pool *name* (two drivers' pools of one name share them); from v1.36.4 by pool ID.
"""

from __future__ import annotations

from gsb_tui.dra.alloc.pools import Counters
from gsb_tui.dra.alloc.results import AllocatedState, PoolDevice
from gsb_tui.dra.model import DeviceId

PoolKey = tuple[str, str]  # (driver, pool name); the driver "" where pools are keyed by name


class CounterBook:
    def __init__(
        self,
        available: dict[PoolKey, dict[str, Counters]],
        overdrawn: dict[PoolKey, bool],
        state: AllocatedState,
        by_pool_id: bool,
    ) -> None:
        self.available = available  # shared by every search of one Allocator
        self.overdrawn = overdrawn  # per pool: some available counter below zero
        self.state = state
        self.by_pool_id = by_pool_id
        self.consumed: dict[PoolKey, dict[str, Counters]] = {}  # this search's

    def key(self, pd: PoolDevice) -> PoolKey:
        return (pd.pool.driver if self.by_pool_id else "", pd.pool.pool)

    def reserve(self, pd: PoolDevice) -> bool:
        """checkAvailableCounters: the device's counters taken if they fit, else False."""
        pool = pd.pool
        key = self.key(pd)
        available = self.available.get(key)
        if available is None:
            available = {name: dict(c) for name, c in pool.counter_sets.items()}
            for slices in (pool.slices_targeting_node, pool.slices_not_targeting_node):
                for s in slices:
                    for d in s.devices:
                        if not self.state.is_allocated(DeviceId(s.driver, s.pool, d.id.device)):
                            continue
                        for set_name, counters in d.consumes:
                            target = available.get(set_name)
                            if target is None:
                                continue
                            for name, value in counters.items():
                                if name in target:
                                    target[name] -= value  # may go negative: none left
            self.available[key] = available
            self.overdrawn[key] = any(v < 0 for c in available.values() for v in c.values())
        if self.overdrawn[key]:
            return False  # a counter below zero: upstream's loop fails every device here
        consumed_pool = self.consumed.setdefault(key, {})
        for set_name, counters in pd.device.consumes:
            bucket = consumed_pool.setdefault(set_name, {})
            for name, value in counters.items():
                bucket[name] = bucket.get(name, 0) + value
        # Upstream compares every counter of the pool. Each check that passed left them all
        # within what is available and a failed one is undone, so only this device's
        # counters can be over now: comparing those gives the same answer, sooner.
        for set_name, counters in pd.device.consumes:
            have = available.get(set_name)
            if have is None:
                continue
            used = consumed_pool[set_name]
            for name in counters:
                if name in have and have[name] < used[name]:
                    self.release(pd)
                    return False
        return True

    def release(self, pd: PoolDevice) -> None:
        """deallocateCountersForDevice."""
        consumed_pool = self.consumed.get(self.key(pd), {})
        for set_name, counters in pd.device.consumes:
            bucket = consumed_pool.setdefault(set_name, {})
            for name, value in counters.items():
                bucket[name] = bucket.get(name, 0) - value
