"""Can a device be allocated now, and if not, why: the DRA 1.36 facts beyond "a claim holds it".

- Partitionable devices: a pool's counter sets (spec.sharedCounters, in a counter-only slice)
  are shared out by the devices that consume them (consumesCounters); a device is **blocked**
  when allocated devices have used what it needs.
- Consumable capacity: a device that allows multiple allocations is held in shares; it is
  **full** when what is left cannot meet the smallest request its policy allows.
- Taints: a NoSchedule or NoExecute taint keeps every request that does not tolerate it away.
- Binding conditions: an allocated device whose conditions are not yet true is **binding**;
  one whose failure condition is true has **binding failed**.

Computed once per view; devices of the lab's plain shape get no entry (they are free exactly
when no claim holds them), so this costs nothing at scale unless a driver uses the features.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from gsb_tui.dra.model import Claim, Device, DeviceId, Request, Slice
from gsb_tui.dra.model.features import DeviceTaint, RequestPolicy, untolerated
from gsb_tui.dra.occupancy import Occupancy

State = Literal[
    "free",
    "allocated",
    "reserved",
    "shared",
    "blocked",
    "tainted",
    "full",
    "binding",
    "binding-failed",
    "incomplete-pool",
    "invalid-pool",
]
# Why a device cannot go to a request now (the words: catalog "why.<reason>").
Reason = Literal["held", "counters", "tainted", "capacity", "binding", "pool"]

_BINARY = (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10))


# How long the scheduler waits for a device's binding conditions after allocation before it
# gives up and allocates again (the DynamicResources plugin's default bindingTimeout).
BINDING_TIMEOUT_S = 600


def binding_seconds_left(allocated_at: str, now: float) -> int | None:
    """Seconds until the scheduler gives up on binding conditions (negative: it has), counted
    in whole elapsed seconds; None when the allocation carries no timestamp."""
    from datetime import UTC, datetime

    try:
        start = datetime.fromisoformat(allocated_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    return BINDING_TIMEOUT_S - int(now - start.timestamp())


@functools.lru_cache(maxsize=4096)  # a few distinct strings, parsed for every device on
def quantity(text: str) -> Fraction | None:  # every build (a third of a repaint, profiled)
    """A Kubernetes quantity as an exact number; None when it is not one."""
    from gsb_tui.dra.cel.quantity import QuantityError, parse_quantity

    try:
        return parse_quantity(text).value
    except (QuantityError, ValueError):
        return None


def format_quantity(value: Fraction) -> str:
    """80Gi, 512Mi, 3, 1.5: the shortest exact binary-suffixed form, else the number."""
    if value.denominator == 1:
        number = value.numerator
        for suffix, size in _BINARY:
            if number and number % size == 0:
                return f"{number // size}{suffix}"
        return str(number)
    return f"{float(value):g}"


@dataclass(frozen=True)
class CounterLedger:
    """One counter set of one pool: what it has, what allocated devices use, who uses it."""

    driver: str
    pool: str
    name: str
    total: Mapping[str, Fraction]
    used: Mapping[str, Fraction]
    users: tuple[DeviceId, ...]  # allocated devices consuming from it
    consumers: tuple[DeviceId, ...]  # every published device that would consume from it

    def left(self, counter: str) -> Fraction:
        return self.total.get(counter, Fraction(0)) - self.used.get(counter, Fraction(0))


@dataclass(frozen=True)
class Share:
    """One allocation of a device that allows multiple allocations."""

    claim: tuple[str, str]
    share_id: str
    consumed: Mapping[str, str]


@dataclass(frozen=True)
class BlockerGroup:
    """Devices kept from a request for one reason, and who or what keeps them."""

    reason: Reason
    devices: tuple[DeviceId, ...]
    cause: tuple[str, ...]  # counters: the devices that used them; tainted: the taints


@dataclass(frozen=True)
class Availability:
    device: DeviceId
    state: State
    blocked_by: tuple[DeviceId, ...] = ()  # allocated devices that used the counters it needs
    short_counters: tuple[str, ...] = ()  # "<set>/<counter>" with too little left
    taints: tuple[DeviceTaint, ...] = ()  # every taint (the blocking ones keep requests away)
    shares: tuple[Share, ...] = ()
    capacity_left: Mapping[str, Fraction] = field(default_factory=dict)
    binding_pending: tuple[str, ...] = ()  # binding conditions not yet True
    binding_failed: tuple[str, ...] = ()  # binding failure conditions that are True
    # Held, not shared: "<set>/<counter>" a second (adminAccess) allocation would lack, as its
    # own use counts already (blocked_by then names the devices that use them, itself too).
    again_short: tuple[str, ...] = ()

    @property
    def blocking_taints(self) -> tuple[DeviceTaint, ...]:
        return tuple(t for t in self.taints if t.blocks)


def _consumption(device: Device) -> list[tuple[str, str, Fraction]]:
    out = []
    for use in device.consumes:
        for counter, amount in use.counters.items():
            value = quantity(amount)
            if value is not None:
                out.append((use.counter_set, counter, value))
    return out


def counter_ledgers(
    slices: Sequence[Slice], devices: Sequence[Device], held: Iterable[DeviceId]
) -> dict[tuple[str, str, str], CounterLedger]:
    """Per (driver, pool, counter set) of the current generations: totals and use."""
    totals: dict[tuple[str, str, str], dict[str, Fraction]] = {}
    for s in slices:
        for shared in s.shared_counters:
            key = (s.driver, s.pool, shared.name)
            for counter, amount in shared.counters.items():
                value = quantity(amount)
                if value is not None:
                    totals.setdefault(key, {})[counter] = value
    if not totals:
        return {}
    held_set = set(held)
    used: dict[tuple[str, str, str], dict[str, Fraction]] = {}
    users: dict[tuple[str, str, str], list[DeviceId]] = {}
    consumers: dict[tuple[str, str, str], list[DeviceId]] = {}
    for device in devices:
        for counter_set, counter, value in _consumption(device):
            key = (device.id.driver, device.id.pool, counter_set)
            if device.id not in consumers.setdefault(key, []):
                consumers[key].append(device.id)
            if device.id in held_set:
                bucket = used.setdefault(key, {})
                bucket[counter] = bucket.get(counter, Fraction(0)) + value
                if device.id not in users.setdefault(key, []):
                    users[key].append(device.id)
    return {
        key: CounterLedger(
            key[0],
            key[1],
            key[2],
            MappingProxyType(total),
            MappingProxyType(used.get(key, {})),
            tuple(users.get(key, ())),
            tuple(consumers.get(key, ())),
        )
        for key, total in totals.items()
    }


def smallest_share(policy: RequestPolicy | None) -> Fraction:
    """The least a request can take under a policy (its valid minimum; else anything)."""
    if policy is None:
        return Fraction(0)
    floors = [quantity(policy.valid_min)] if policy.valid_min else []
    floors += [quantity(v) for v in policy.valid_values]
    values = [v for v in floors if v is not None]
    return min(values) if values else Fraction(0)


def share_for(
    policy: RequestPolicy | None, asked: str, whole: Fraction | None = None
) -> Fraction | None:
    """What a request for `asked` ("" = nothing said) really takes under the policy: the
    default when nothing is asked, rounded up to the step or to the next valid value; None
    when no amount the policy allows covers it. `whole` is what the device has of it."""
    amount = quantity(asked) if asked else None
    if amount is None and (policy is None or not policy.default):
        # The scheduler (fillEmptyRequest in k8s.io/dynamic-resource-allocation) gives a
        # request that says nothing of a capacity without a default all of it, not none.
        return whole if whole is not None else Fraction(0)
    if policy is None:
        return amount
    if amount is None:
        amount = quantity(policy.default)
        if amount is None:
            return None
    if policy.valid_values:
        valid = sorted(v for v in (quantity(x) for x in policy.valid_values) if v is not None)
        return next((v for v in valid if v >= amount), None)
    low = quantity(policy.valid_min) if policy.valid_min else None
    high = quantity(policy.valid_max) if policy.valid_max else None
    step = quantity(policy.valid_step) if policy.valid_step else None
    if low is not None and amount < low:
        amount = low
    if low is not None and step:
        steps = -((low - amount) // step)  # ceil((amount - low) / step)
        amount = low + steps * step
    if high is not None and amount > high:
        return None
    return amount


def _capacity(device: Device, shares: Sequence[Share]) -> tuple[dict[str, Fraction], bool]:
    left: dict[str, Fraction] = {}
    full = False
    for name, total_text in device.capacity.items():
        total = quantity(total_text)
        if total is None:
            continue
        used = Fraction(0)
        for share in shares:
            value = quantity(share.consumed.get(name, "0") or "0")
            used += value or 0
        left[name] = total - used
        policy = device.policies.get(name)
        if left[name] < max(smallest_share(policy), Fraction(1, 10**9)):  # none left: full
            full = True
    return left, full


def _binding(device: Device, holders: Sequence[Claim]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    pending: list[str] = []
    failed: list[str] = []
    for claim in holders:
        statuses = [s for s in claim.device_status if s.id == device.id]
        for result in claim.results:
            if result.id != device.id:
                continue
            for name in result.binding_conditions:
                if not any(
                    (c := s.condition(name)) is not None and c.status == "True" for s in statuses
                ):
                    pending.append(name)
            for name in result.binding_failure_conditions:
                if any(
                    (c := s.condition(name)) is not None and c.status == "True" for s in statuses
                ):
                    failed.append(name)
    return tuple(dict.fromkeys(pending)), tuple(dict.fromkeys(failed))


def compute_availability(
    slices: Sequence[Slice],
    devices: Sequence[Device],
    occupancy: Mapping[DeviceId, Occupancy],
    rule_taints: Mapping[DeviceId, tuple[DeviceTaint, ...]] | None = None,
    bad_pools: Mapping[tuple[str, str], tuple[str, str]] | None = None,
) -> tuple[dict[DeviceId, Availability], dict[tuple[str, str, str], CounterLedger]]:
    """Availability of every device that uses a 1.36 feature, and the pools' counter ledgers.
    `rule_taints` are the taints DeviceTaintRules add to devices from outside their slices;
    `bad_pools` the incomplete or invalid pools (dra/pool_health.py), whose unheld devices the
    scheduler never allocates."""
    rule_taints = rule_taints or {}
    bad_pools = bad_pools or {}
    held = [d for d, occ in occupancy.items() if occ.holders]
    ledgers = counter_ledgers(slices, devices, held)
    out: dict[DeviceId, Availability] = {}
    for device in devices:
        device_taints = device.taints + rule_taints.get(device.id, ())
        bad = bad_pools.get((device.id.driver, device.id.pool))
        if not (
            device.consumes or device.multiple or device_taints or device.binding_conditions or bad
        ):
            continue
        occ = occupancy.get(device.id)
        holders = occ.holders if occ is not None else ()
        shares = tuple(
            Share(c.key, r.share_id, r.consumed)
            for c in holders
            for r in c.results
            if r.id == device.id and not r.admin_access
        )
        left, full = _capacity(device, shares) if device.multiple else ({}, False)
        blocked_by: list[DeviceId] = []
        short: list[str] = []
        if not holders or not device.multiple:  # a shared device in use: counted once
            for counter_set, counter, value in _consumption(device):
                ledger = ledgers.get((device.id.driver, device.id.pool, counter_set))
                if ledger is not None and ledger.left(counter) < value:
                    short.append(f"{counter_set}/{counter}")
                    blocked_by += [u for u in ledger.users if u not in blocked_by]
        pending, failed = _binding(device, holders)
        status = occ.status if occ is not None else "free"
        state: State
        if failed:
            state = "binding-failed"
        elif pending:
            state = "binding"
        elif device.multiple and holders:
            state = "full" if full else "shared"
        elif holders:
            state = status  # allocated, reserved or shared
        elif bad is not None:
            state = "incomplete-pool" if bad[0] == "incomplete-pool" else "invalid-pool"
        elif short:
            state = "blocked"
        elif any(t.blocks for t in device_taints):
            state = "tainted"
        else:
            state = "free"
        out[device.id] = Availability(
            device.id,
            state,
            tuple(blocked_by),
            () if holders else tuple(short),
            device_taints,
            shares,
            MappingProxyType(left),
            pending,
            failed,
            tuple(short) if holders else (),
        )
    return out, ledgers


def why_not(
    device: Device,
    occupancy: Occupancy | None,
    availability: Availability | None,
    request: Request,
) -> Reason | None:
    """Why `request` cannot get this device now, or None when it can (selectors aside)."""
    holders = occupancy.holders if occupancy is not None else ()
    # adminAccess: the scheduler gives a device others hold to an admin request too.
    held = bool(holders) and not device.multiple and not request.admin_access
    if availability is None:
        if held:
            return "held"
        return "capacity" if request.capacity and _short_of_capacity(device, request) else None
    if held:
        return "held"
    if availability.state in ("incomplete-pool", "invalid-pool"):
        return "pool"
    if availability.short_counters:
        return "counters"
    if holders and availability.again_short:  # adminAccess: the scheduler still needs them
        return "counters"
    if untolerated(availability.taints, request.tolerations):
        return "tainted"
    if (device.multiple or request.capacity) and _short_of_capacity(
        device, request, availability.capacity_left if device.multiple else None
    ):
        return "capacity"
    return None


def _short_of_capacity(
    device: Device, request: Request, left: Mapping[str, Fraction] | None = None
) -> bool:
    """Whether the request's capacity does not fit the device (`left`: what shares left of a
    shared one). The scheduler (DRAConsumableCapacity, on by default in 1.36) checks capacity
    requests on every device, shared or not: asking for a capacity the device does not
    publish rules it out, and so does asking more than it has; a request that asks nothing of a
    capacity takes its default, or all of it (see share_for)."""
    if any(name not in device.capacity for name in request.capacity):
        return True
    for name, total_text in device.capacity.items():
        total = quantity(total_text)
        if total is None:
            continue
        room = left.get(name, total) if left is not None else total
        wanted = share_for(device.policies.get(name), request.capacity.get(name, ""), total)
        if wanted is None or wanted > room:
            return True
    return False
