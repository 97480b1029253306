"""The DRA 1.36 fields beyond the lab's shape, as small frozen views: shared counters
(partitionable devices), consumable capacity policies, device taints and tolerations, binding
conditions and the claim's device status.

Each reader takes the raw sub-dict and never raises; an absent field is the empty value, so a
server that does not serve a feature (an older version, a gate off) shows nothing, not an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gsb_tui.dra.model.base import DeviceId, _d, _l

EMPTY_MAP: Mapping[str, Any] = MappingProxyType({})


def _quantities(value: Any) -> Mapping[str, str]:
    """{name: {value: "80Gi"}} -> {name: "80Gi"} (counters and consumed capacity)."""
    out = {}
    for name, raw in _d(value).items():
        raw = _d(raw).get("value", raw)
        if isinstance(raw, str | int | float):
            out[str(name)] = str(raw)
    return MappingProxyType(out) if out else EMPTY_MAP


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in _l(value) if isinstance(v, str | int | float))


@dataclass(frozen=True)
class CounterSet:
    """A slice's spec.sharedCounters[]: what one physical device has to share out."""

    name: str
    counters: Mapping[str, str]  # counter -> quantity ("80Gi")


def counter_sets(value: Any) -> tuple[CounterSet, ...]:
    return tuple(
        CounterSet(str(_d(s).get("name") or ""), _quantities(_d(s).get("counters")))
        for s in _l(value)
    )


@dataclass(frozen=True)
class CounterUse:
    """A device's consumesCounters[]: what allocating it takes from one counter set."""

    counter_set: str
    counters: Mapping[str, str]


def counter_uses(value: Any) -> tuple[CounterUse, ...]:
    return tuple(
        CounterUse(str(_d(u).get("counterSet") or ""), _quantities(_d(u).get("counters")))
        for u in _l(value)
    )


@dataclass(frozen=True)
class RequestPolicy:
    """capacity.<name>.requestPolicy of a device that allows multiple allocations."""

    default: str = ""
    valid_min: str = ""
    valid_max: str = ""
    valid_step: str = ""
    valid_values: tuple[str, ...] = ()


def request_policies(capacity: Any) -> Mapping[str, RequestPolicy]:
    out = {}
    for name, raw in _d(capacity).items():
        policy = _d(_d(raw).get("requestPolicy"))
        if not policy:
            continue
        valid = _d(policy.get("validRange"))
        out[str(name)] = RequestPolicy(
            default=str(policy.get("default") or ""),
            valid_min=str(valid.get("min") or ""),
            valid_max=str(valid.get("max") or ""),
            valid_step=str(valid.get("step") or ""),
            valid_values=_strings(policy.get("validValues")),
        )
    return MappingProxyType(out)


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


def taints(value: Any) -> tuple[DeviceTaint, ...]:
    return tuple(
        DeviceTaint(
            str(_d(t).get("key") or ""),
            str(_d(t).get("value") or ""),
            str(_d(t).get("effect") or ""),
            str(_d(t).get("timeAdded") or ""),
        )
        for t in _l(value)
    )


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


def tolerations(value: Any) -> tuple[Toleration, ...]:
    return tuple(
        Toleration(
            str(_d(t).get("key") or ""),
            str(_d(t).get("operator") or "Equal"),
            str(_d(t).get("value") or ""),
            str(_d(t).get("effect") or ""),
        )
        for t in _l(value)
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


def conditions(value: Any) -> tuple[Condition, ...]:
    return tuple(
        Condition(
            str(_d(c).get("type") or ""),
            str(_d(c).get("status") or ""),
            str(_d(c).get("reason") or ""),
            str(_d(c).get("message") or ""),
        )
        for c in _l(value)
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


def device_statuses(value: Any) -> tuple[DeviceStatus, ...]:
    out = []
    for raw in _l(value):
        raw = _d(raw)
        net = _d(raw.get("networkData"))
        out.append(
            DeviceStatus(
                id=DeviceId(
                    str(raw.get("driver") or ""),
                    str(raw.get("pool") or ""),
                    str(raw.get("device") or ""),
                ),
                share_id=str(raw.get("shareID") or ""),
                conditions=conditions(raw.get("conditions")),
                data=_d(raw.get("data")),
                network=NetworkData(
                    str(net.get("interfaceName") or ""),
                    _strings(net.get("ips")),
                    str(net.get("hardwareAddress") or ""),
                )
                if net
                else None,
            )
        )
    return tuple(out)
