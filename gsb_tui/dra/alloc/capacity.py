"""Consumable capacity: what a request takes of a device and whether it still fits.

Mirrors `structured/internal/incubating/consumable_capacity.go` at v0.36.3 and v0.37.2:
CmpRequestOverCapacity, requestsContainNonExistCapacity, calculateConsumedCapacity,
fillEmptyRequest, roundUpRange, roundUpValidValues, GetConsumedCapacityFromRequest,
violatesPolicy, violateValidRange, violateValidValues, and (1.37) useMilli / safeMilliValue.
Quantities are exact fractions. `fractional` is DRAFractionalCapacityRange (1.37): a range whose
bounds are whole milli units is then computed in milli units, not rounded up to integers first;
`strict` is 1.37's CapacityError for what its arithmetic cannot represent or a negative value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from gsb_tui.dra.alloc.pools import Amount, Capacity, CapacityPolicy
from gsb_tui.dra.model import DeviceId

Consumed = dict[str, Amount]


class UnknownCapacity(Exception):
    """The request asks for a capacity the device does not publish (upstream's error)."""


class CapacityError(Exception):
    """1.37: a capacity the allocator cannot compute; it stops the attempt (upstream's words)."""


_NOT_REPRESENTABLE = "capacity request cannot be represented in the device's range arithmetic"
MAX_MILLI = (1 << 63) - 1


def _value(q: Amount) -> int:
    """resource.Quantity.Value(): rounded up to an integer."""
    return math.ceil(q)


def request_over_capacity(
    current: Mapping[str, Amount] | None,
    requests: Mapping[str, Amount] | None,
    capacity: Mapping[str, Capacity],
    allocating: Mapping[str, Amount] | None,
    fractional: bool = False,
    strict: bool = False,
) -> bool:
    """CmpRequestOverCapacity: True when the request fits (its policy and what is left).
    Up to 1.36 a capacity the device lacks raises UnknownCapacity (the callers skip the
    device); from 1.37 (`strict`) it is False, and every capacity is computed before any is
    compared, so an error (CapacityError) does not depend on the order of the names."""
    if requests and any(name not in capacity for name in requests):
        if strict:
            return False
        raise UnknownCapacity("some requested capacity has not been defined")
    consumed: dict[str, Amount] = {}
    for name, cap in capacity.items():
        asked = requests.get(name) if requests else None
        try:
            consumed[name] = consumed_capacity(asked, cap, fractional)
        except CapacityError as exc:
            raise CapacityError(f'capacity "{name}": {exc}') from exc
        if strict and consumed[name] < 0:
            raise CapacityError(f'capacity "{name}": capacity value is negative')
    clone = dict(current or {})
    for name, cap in capacity.items():
        if violates_policy(consumed[name], cap.policy, fractional):
            return False
        clone[name] = clone.get(name, 0) + consumed[name]
        if allocating and name in allocating:
            clone[name] += allocating[name]
        if clone[name] > cap.value:
            return False
    return True


def consumed_capacity(asked: Amount | None, cap: Capacity, fractional: bool = False) -> Amount:
    """calculateConsumedCapacity."""
    if asked is None:
        return fill_empty_request(cap)
    policy = cap.policy
    if policy is None:
        return asked
    if policy.has_range and policy.range_min is not None:
        return _round_up_range(asked, policy, fractional)
    if policy.valid_values:
        return next((v for v in policy.valid_values if asked <= v), asked)
    return asked


def fill_empty_request(cap: Capacity) -> Amount:
    """fillEmptyRequest: the policy's default, else all of it."""
    if cap.policy is not None and cap.policy.default is not None:
        return cap.policy.default
    return cap.value


def _milli(q: Amount) -> int | None:
    """safeMilliValue: q in milli units when that is exact (and fits int64), else None."""
    m = q * 1000
    if m != int(m) or not -MAX_MILLI - 1 <= int(m) <= MAX_MILLI:
        return None
    return int(m)


def _use_milli(policy: CapacityPolicy, fractional: bool) -> bool:
    """useMilli: the gate on, every bound exact in milli units, the step at least 1m."""
    if not fractional:
        return False
    for bound in (policy.range_min, policy.range_max, policy.range_step):
        if bound is not None and _milli(bound) is None:
            return False
    return policy.range_step is None or (_milli(policy.range_step) or 0) >= 1


def _round_up_range(asked: Amount, policy: CapacityPolicy, fractional: bool = False) -> Amount:
    low = policy.range_min if policy.range_min is not None else 0
    if asked < low:
        return low
    if policy.range_step is None:
        return asked
    if _use_milli(policy, fractional):
        asked_m = _milli(asked)
        if asked_m is None:
            raise CapacityError(
                f"{_NOT_REPRESENTABLE}: request {asked} is not a representable milli value"
            )
        step_m, low_m = _milli(policy.range_step) or 0, _milli(low) or 0
        n, mod = divmod(asked_m - low_m, step_m)
        if mod:
            n += 1
        if n > (MAX_MILLI - low_m) // step_m:
            raise CapacityError(
                f"{_NOT_REPRESENTABLE}: rounding request {asked} up to the next step passes"
                " the milli-value range"
            )
        return Fraction(low_m + step_m * n, 1000)
    step = _value(policy.range_step)
    base = _value(low)
    added = _value(asked) - base
    n, mod = divmod(added, step) if step else (0, 0)
    if mod:
        n += 1
    return base + step * n


def consumed_from_request(
    requests: Mapping[str, Amount] | None,
    capacity: Mapping[str, Capacity],
    fractional: bool = False,
) -> Consumed:
    """GetConsumedCapacityFromRequest."""
    return {
        name: consumed_capacity(requests.get(name) if requests else None, cap, fractional)
        for name, cap in capacity.items()
    }


def violates_policy(value: Amount, policy: CapacityPolicy | None, fractional: bool = False) -> bool:
    """violatesPolicy (upstream compares the default as a Quantity struct; by value here)."""
    if policy is None:
        return False
    if policy.default is not None and value == policy.default:
        return False
    if policy.has_range:
        if policy.range_max is not None and value > policy.range_max:
            return True
        if policy.range_step is not None:
            if _use_milli(policy, fractional):
                value_m = _milli(value)
                if value_m is None:
                    return True
                step = _milli(policy.range_step) or 0
                low = _milli(policy.range_min or 0) or 0
                return bool(step) and (value_m - low) % step != 0
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
