"""The DRA 1.36 fields beyond the lab's shape, as small frozen views: shared counters
(partitionable devices), consumable capacity policies, device taints and tolerations, binding
conditions and the claim's device status.

Each reader takes the raw sub-value, its path and the object's problems (model/fields.py) and
never raises; an absent field is the empty value, so a server that does not serve a feature (an
older version, a gate off) shows nothing, not an error. Callers outside the model may leave the
path and problems out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gsb_tui.dra.model.base import DeviceId
from gsb_tui.dra.model.fields import (
    EMPTY_MAP,
    Bad,
    entries,
    items,
    mapping,
    quantity,
    string,
    strings,
)

__all__ = ["EMPTY_MAP"]


def _quantities(value: Any, path: str = "", bad: Bad | None = None) -> Mapping[str, str]:
    """{name: {value: "80Gi"}} -> {name: "80Gi"} (counters and consumed capacity)."""
    bad = [] if bad is None else bad
    out = {}
    for key, raw in mapping(value, path, bad).items():
        name = key if type(key) is str and key.isascii() else string(str(key), path, bad)
        if type(raw) is dict or isinstance(raw, Mapping):
            found = quantity(raw.get("value"), f"{path}.{name}.value", bad)
        else:  # consumedCapacity and capacity.requests hold the quantity itself
            found = quantity(raw, f"{path}.{name}", bad)
        if found is not None:
            out[name] = found
    return MappingProxyType(out) if out else EMPTY_MAP


@dataclass(frozen=True)
class CounterSet:
    """A slice's spec.sharedCounters[]: what one physical device has to share out."""

    name: str
    counters: Mapping[str, str]  # counter -> quantity ("80Gi")


def counter_sets(value: Any, path: str = "", bad: Bad | None = None) -> tuple[CounterSet, ...]:
    bad = [] if bad is None else bad
    return tuple(
        CounterSet(
            string(s.get("name"), "name", mine), _quantities(s.get("counters"), "counters", mine)
        )
        for s, mine in entries(value, path, bad)
    )


@dataclass(frozen=True)
class CounterUse:
    """A device's consumesCounters[]: what allocating it takes from one counter set."""

    counter_set: str
    counters: Mapping[str, str]


def counter_uses(value: Any, path: str = "", bad: Bad | None = None) -> tuple[CounterUse, ...]:
    bad = [] if bad is None else bad
    return tuple(
        CounterUse(
            string(u.get("counterSet"), "counterSet", mine),
            _quantities(u.get("counters"), "counters", mine),
        )
        for u, mine in entries(value, path, bad)
    )


@dataclass(frozen=True)
class RequestPolicy:
    """capacity.<name>.requestPolicy of a device that allows multiple allocations."""

    default: str = ""
    valid_min: str = ""
    valid_max: str = ""
    valid_step: str = ""
    valid_values: tuple[str, ...] = ()


def request_policies(
    capacity: Any, path: str = "", bad: Bad | None = None
) -> Mapping[str, RequestPolicy]:
    bad = [] if bad is None else bad
    out = {}
    for name, raw in mapping(capacity, path, bad).items():
        at = f"{path}.{name}.requestPolicy"
        policy = mapping(mapping(raw, f"{path}.{name}", []).get("requestPolicy"), at, bad)
        if not policy:
            continue
        valid = mapping(policy.get("validRange"), f"{at}.validRange", bad)
        out[string(str(name), path, [])] = RequestPolicy(
            default=quantity(policy.get("default"), f"{at}.default", bad) or "",
            valid_min=quantity(valid.get("min"), f"{at}.validRange.min", bad) or "",
            valid_max=quantity(valid.get("max"), f"{at}.validRange.max", bad) or "",
            valid_step=quantity(valid.get("step"), f"{at}.validRange.step", bad) or "",
            valid_values=_quantity_list(policy.get("validValues"), f"{at}.validValues", bad),
        )
    return MappingProxyType(out)


def _quantity_list(value: Any, path: str, bad: Bad) -> tuple[str, ...]:
    out = []
    for index, raw in enumerate(items(value, path, bad)):
        found = quantity(raw, f"{path}[{index}]", bad)
        if found is not None:
            out.append(found)
    return tuple(out)


@dataclass(frozen=True)
class DeviceTaint:
    key: str
    value: str
    effect: str  # NoSchedule, NoExecute or None
    time_added: str = ""

    def __str__(self) -> str:
        return (
            f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"
        )

    @property
    def blocks(self) -> bool:
        """NoSchedule and NoExecute keep new allocations away; None only informs."""
        return self.effect in ("NoSchedule", "NoExecute")


def taint(t: Mapping[str, Any], bad: Bad) -> DeviceTaint:
    return DeviceTaint(
        string(t.get("key"), "key", bad),
        string(t.get("value"), "value", bad),
        string(t.get("effect"), "effect", bad),
        string(t.get("timeAdded"), "timeAdded", bad),
    )


def taints(value: Any, path: str = "", bad: Bad | None = None) -> tuple[DeviceTaint, ...]:
    bad = [] if bad is None else bad
    return tuple(taint(t, mine) for t, mine in entries(value, path, bad))


@dataclass(frozen=True)
class Toleration:
    key: str
    operator: str  # Equal (default) or Exists
    value: str
    effect: str  # "" tolerates every effect

    def tolerates(self, taint: DeviceTaint) -> bool:
        """As core/v1 tolerations match node taints, which device taints follow."""
        if self.effect and self.effect != taint.effect:
            return False
        if not self.key:  # an empty key with Exists tolerates everything
            return self.operator == "Exists"
        if self.key != taint.key:
            return False
        return self.operator == "Exists" or self.value == taint.value


def tolerations(value: Any, path: str = "", bad: Bad | None = None) -> tuple[Toleration, ...]:
    bad = [] if bad is None else bad
    return tuple(
        Toleration(
            string(t.get("key"), "key", mine),
            string(t.get("operator"), "operator", mine) or "Equal",
            string(t.get("value"), "value", mine),
            string(t.get("effect"), "effect", mine),
        )
        for t, mine in entries(value, path, bad)
    )


def untolerated(
    device_taints: tuple[DeviceTaint, ...], tols: tuple[Toleration, ...]
) -> tuple[DeviceTaint, ...]:
    """The taints that keep a request with these tolerations off the device."""
    return tuple(t for t in device_taints if t.blocks and not any(x.tolerates(t) for x in tols))


@dataclass(frozen=True)
class Condition:
    type: str
    status: str  # "True", "False", "Unknown"
    reason: str = ""
    message: str = ""


def conditions(value: Any, path: str = "", bad: Bad | None = None) -> tuple[Condition, ...]:
    bad = [] if bad is None else bad
    return tuple(
        Condition(
            string(c.get("type"), "type", mine),
            string(c.get("status"), "status", mine),
            string(c.get("reason"), "reason", mine),
            string(c.get("message"), "message", mine),
        )
        for c, mine in entries(value, path, bad)
    )


@dataclass(frozen=True)
class NetworkData:
    interface: str = ""
    ips: tuple[str, ...] = ()
    hardware_address: str = ""


@dataclass(frozen=True)
class DeviceStatus:
    """status.devices[] of a claim: what the driver reports about one allocated device."""

    id: DeviceId
    share_id: str = ""
    conditions: tuple[Condition, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    network: NetworkData | None = None

    def condition(self, type_: str) -> Condition | None:
        return next((c for c in self.conditions if c.type == type_), None)


def device_statuses(value: Any, path: str = "", bad: Bad | None = None) -> tuple[DeviceStatus, ...]:
    bad = [] if bad is None else bad
    out = []
    for raw, mine in entries(value, path, bad):
        net = mapping(raw.get("networkData"), "networkData", mine)
        out.append(
            DeviceStatus(
                id=DeviceId(
                    string(raw.get("driver"), "driver", mine),
                    string(raw.get("pool"), "pool", mine),
                    string(raw.get("device"), "device", mine),
                ),
                share_id=string(raw.get("shareID"), "shareID", mine),
                conditions=conditions(raw.get("conditions"), "conditions", mine),
                data=mapping(raw.get("data"), "data", mine),
                network=NetworkData(
                    string(net.get("interfaceName"), "networkData.interfaceName", mine),
                    strings(net.get("ips"), "networkData.ips", mine),
                    string(net.get("hardwareAddress"), "networkData.hardwareAddress", mine),
                )
                if net
                else None,
            )
        )
    return tuple(out)
