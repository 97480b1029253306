"""Consumable capacity: what a request takes of a device and whether it still fits.

Mirrors `structured/internal/incubating/consumable_capacity.go` at v0.36.3:
CmpRequestOverCapacity, requestsContainNonExistCapacity, calculateConsumedCapacity,
fillEmptyRequest, roundUpRange, roundUpValidValues, GetConsumedCapacityFromRequest,
violatesPolicy, violateValidRange, violateValidValues. Quantities are exact fractions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from gsb_tui.dra.alloc.pools import Amount, Capacity, CapacityPolicy
from gsb_tui.dra.model import DeviceId

Consumed = dict[str, Amount]


class UnknownCapacity(Exception):
    """The request asks for a capacity the device does not publish (upstream's error)."""


def _value(q: Amount) -> int:
    """resource.Quantity.Value(): rounded up to an integer."""
    return math.ceil(q)


def request_over_capacity(
    current: Mapping[str, Amount] | None,
    requests: Mapping[str, Amount] | None,
    capacity: Mapping[str, Capacity],
    allocating: Mapping[str, Amount] | None,
) -> bool:
    """CmpRequestOverCapacity: True when the request fits (its policy and what is left)."""
    if requests and any(name not in capacity for name in requests):
        raise UnknownCapacity("some requested capacity has not been defined")
    clone = dict(current or {})
    for name, cap in capacity.items():
        asked = requests.get(name) if requests else None
        consumed = consumed_capacity(asked, cap)
        if violates_policy(consumed, cap.policy):
            return False
        clone[name] = clone.get(name, 0) + consumed
        if allocating and name in allocating:
            clone[name] += allocating[name]
        if clone[name] > cap.value:
            return False
    return True


def consumed_capacity(asked: Amount | None, cap: Capacity) -> Amount:
    """calculateConsumedCapacity."""
    if asked is None:
        return fill_empty_request(cap)
    policy = cap.policy
    if policy is None:
        return asked
    if policy.has_range and policy.range_min is not None:
        return _round_up_range(asked, policy)
    if policy.valid_values:
        return next((v for v in policy.valid_values if asked <= v), asked)
    return asked


def fill_empty_request(cap: Capacity) -> Amount:
    """fillEmptyRequest: the policy's default, else all of it."""
    if cap.policy is not None and cap.policy.default is not None:
        return cap.policy.default
    return cap.value


def _round_up_range(asked: Amount, policy: CapacityPolicy) -> Amount:
    low = policy.range_min if policy.range_min is not None else 0
    if asked < low:
        return low
    if policy.range_step is None:
        return asked
    step = _value(policy.range_step)
    base = _value(low)
    added = _value(asked) - base
    n, mod = divmod(added, step) if step else (0, 0)
    if mod:
        n += 1
    return base + step * n


def consumed_from_request(
    requests: Mapping[str, Amount] | None, capacity: Mapping[str, Capacity]
) -> Consumed:
    """GetConsumedCapacityFromRequest."""
    return {
        name: consumed_capacity(requests.get(name) if requests else None, cap)
        for name, cap in capacity.items()
    }


def violates_policy(value: Amount, policy: CapacityPolicy | None) -> bool:
    """violatesPolicy (upstream compares the default as a Quantity struct; by value here)."""
    if policy is None:
        return False
    if policy.default is not None and value == policy.default:
        return False
    if policy.has_range:
        if policy.range_max is not None and value > policy.range_max:
            return True
        if policy.range_step is not None:
            step = _value(policy.range_step)
            low = _value(policy.range_min) if policy.range_min is not None else 0
            if step and (_value(value) - low) % step:
                return True
        return False
    if policy.valid_values:
        return value not in policy.valid_values
    return False


def add_share(
    allocating: dict[DeviceId, dict[str, Amount]], id: DeviceId, consumed: Mapping[str, Amount]
) -> None:
    """ConsumedCapacityCollection.Insert: what a share being tried takes of a device."""
    entry = allocating.get(id)
    if entry is None:
        allocating[id] = dict(consumed)
        return
    for name, value in consumed.items():
        entry[name] = entry.get(name, 0) + value


def remove_share(
    allocating: dict[DeviceId, dict[str, Amount]], id: DeviceId, consumed: Mapping[str, Amount]
) -> None:
    """ConsumedCapacityCollection.Remove: the entry goes once nothing is left in it."""
    entry = allocating.get(id)
    if entry is None:
        return
    for name, value in consumed.items():
        if name in entry:
            entry[name] -= value
    if all(v == 0 for v in entry.values()):
        del allocating[id]
