"""Resource pools as the allocator sees them from one node.

Mirrors `k8s.io/dynamic-resource-allocation/structured/internal/incubating/pools_incubating.go`
at v0.36.3 (the variant kube-scheduler 1.36 runs with its default gates): buildPool,
getAndValidateCounterSets, validateDeviceNames, validateDeviceCounterConsumption,
sortPoolsByID / sortSlicesByName; GatherPools and the walk around it are in gather.py.
The slices and devices here are read once from the raw objects (`read_slice`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.availability import quantity
from gsb_tui.dra.model import Device, DeviceId
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.dra.model.devices import Slice, parse_slice
from gsb_tui.dra.model.features import DeviceTaint
from gsb_tui.snapshot import Obj

Amount = int | Fraction  # an exact quantity: an int when whole (see exact)
Counters = dict[str, Amount]


@dataclass(frozen=True)
class CapacityPolicy:
    default: Amount | None
    valid_values: tuple[Amount, ...]
    has_range: bool
    range_min: Amount | None
    range_max: Amount | None
    range_step: Amount | None


@dataclass(frozen=True)
class Capacity:
    value: Amount
    policy: CapacityPolicy | None


@dataclass(eq=False)
class SliceDevice:
    """A device of a slice, with what the allocator reads of it (`deviceWithID` without the
    pool, which `Pool` adds)."""

    id: DeviceId
    model: Device  # what CEL sees (gsb_tui.dra.cel evaluates on it)
    raw: Mapping[str, Any]
    slice: ReadSlice
    consumes: tuple[tuple[str, Counters], ...]  # (counterSet, counters)
    capacity: Mapping[str, Capacity]
    multiple: bool  # allowMultipleAllocations
    taints: tuple[DeviceTaint, ...]  # its own and those DeviceTaintRules add
    binding_conditions: tuple[str, ...]
    binding_failure_conditions: tuple[str, ...]
    binds_to_node: bool
    node_name: str
    all_nodes: bool
    node_selector: Mapping[str, Any] | None


@dataclass(eq=False)
class ReadSlice:
    name: str
    driver: str
    pool: str
    generation: int
    slice_count: int
    node_name: str
    all_nodes: bool
    node_selector: Mapping[str, Any] | None
    per_device: bool
    shared_counters: tuple[tuple[str, Counters], ...]
    devices: list[SliceDevice] = field(default_factory=list)
    raw: Obj = field(default_factory=dict)
    # sliceUsesCompatibilityGroups (1.37): some device's counter consumption names groups
    compatibility_groups: bool = False


def whole(value: Any, default: int = 0) -> int:
    """An integer field as the API server stores it; `default` when absent or not a number
    (a hand-made or hostile object must not stop the judgement)."""
    if value is None:
        return default
    if isinstance(value, bool | int):
        return int(value)
    try:
        return int(str(value))
    except ValueError:
        return default


def exact(text: Any) -> Amount | None:
    """A quantity as an exact number: an int when it is whole (nearly all are: bytes,
    counts), which the search compares and adds several times faster than a Fraction."""
    value = quantity(str(text)) if text is not None else None
    if value is not None and value.denominator == 1:
        return int(value)
    return value


def _counters(raw: Any) -> Counters:
    out: Counters = {}
    for name, counter in _d(raw).items():
        value = exact(_d(counter).get("value") or "")
        out[str(name)] = value if value is not None else 0
    return out


def _policy(raw: Any) -> CapacityPolicy | None:
    if not isinstance(raw, Mapping):
        return None
    rng = raw.get("validRange")

    q = exact

    values = tuple(v for v in (q(x) for x in _l(raw.get("validValues"))) if v is not None)
    return CapacityPolicy(
        default=q(raw.get("default")),
        valid_values=values,
        has_range=isinstance(rng, Mapping),
        range_min=q(_d(rng).get("min")),
        range_max=q(_d(rng).get("max")),
        range_step=q(_d(rng).get("step")),
    )


def read_slice(
    obj: Obj,
    rule_taints: Mapping[DeviceId, tuple[DeviceTaint, ...]],
    parsed: Slice | None = None,
) -> ReadSlice:
    """What the allocator reads of a slice; `parsed`: the view's parse of `obj`, if any."""
    spec = _d(obj.get("spec"))
    pool = _d(spec.get("pool"))
    parsed = parsed if parsed is not None else parse_slice(obj)
    selector = spec.get("nodeSelector")
    out = ReadSlice(
        name=parsed.name,
        driver=parsed.driver,
        pool=parsed.pool,
        generation=whole(pool.get("generation")),
        slice_count=whole(pool.get("resourceSliceCount")),
        node_name=str(spec.get("nodeName") or ""),
        all_nodes=bool(spec.get("allNodes")),
        node_selector=selector if isinstance(selector, Mapping) else None,
        per_device=bool(spec.get("perDeviceNodeSelection")),
        shared_counters=tuple(
            (str(_d(cs).get("name") or ""), _counters(_d(cs).get("counters")))
            for cs in _l(spec.get("sharedCounters"))
        ),
        raw=obj,
    )
    for model, raw in zip(parsed.devices, _l(spec.get("devices")), strict=False):
        raw = _d(raw)
        capacity = {
            str(name): Capacity(
                exact(_d(cap).get("value") or "") or 0,
                _policy(_d(cap).get("requestPolicy")),
            )
            for name, cap in _d(raw.get("capacity")).items()
        }
        dev_selector = raw.get("nodeSelector")
        out.devices.append(
            SliceDevice(
                id=model.id,
                model=model,
                raw=raw,
                slice=out,
                consumes=tuple(
                    (str(_d(c).get("counterSet") or ""), _counters(_d(c).get("counters")))
                    for c in _l(raw.get("consumesCounters"))
                ),
                capacity=capacity,
                multiple=bool(raw.get("allowMultipleAllocations")),
                taints=model.taints + rule_taints.get(model.id, ()),
                binding_conditions=tuple(str(c) for c in _l(raw.get("bindingConditions"))),
                binding_failure_conditions=tuple(
                    str(c) for c in _l(raw.get("bindingFailureConditions"))
                ),
                binds_to_node=bool(raw.get("bindsToNode")),
                node_name=str(raw.get("nodeName") or ""),
                all_nodes=bool(raw.get("allNodes")),
                node_selector=dev_selector if isinstance(dev_selector, Mapping) else None,
            )
        )
        if not out.compatibility_groups:
            out.compatibility_groups = any(
                _l(_d(c).get("compatibilityGroups")) for c in _l(raw.get("consumesCounters"))
            )
    return out


@dataclass(eq=False)
class Pool:
    driver: str
    pool: str
    incomplete: bool = False
    invalid: bool = False
    invalid_reason: str = ""
    slices_targeting_node: list[ReadSlice] = field(default_factory=list)
    slices_not_targeting_node: list[ReadSlice] = field(default_factory=list)
    counter_sets: dict[str, Counters] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.driver}/{self.pool}"


def build_pool(
    driver: str,
    name: str,
    slices: list[ReadSlice],
    features: Features,
    all_for_pool: list[ReadSlice] | None,
) -> Pool:
    """buildPool: slices sorted by name, devices and counter sets validated."""
    slices = sorted(slices, key=lambda s: s.name)
    if features.partitionable_devices:
        counter_slices = [s for s in slices if s.shared_counters]
        device_slices = [s for s in slices if not s.shared_counters]
    else:
        counter_slices, device_slices = [], slices
    problem = _duplicate_device_name(device_slices)
    if problem:
        return Pool(driver, name, invalid=True, invalid_reason=problem)
    if not features.partitionable_devices:
        return Pool(driver, name, slices_targeting_node=device_slices)
    counter_sets: dict[str, Counters] = {}
    for s in counter_slices:
        for set_name, counters in s.shared_counters:
            if set_name in counter_sets:
                reason = f"duplicate counter set name {set_name}"
                return Pool(driver, name, invalid=True, invalid_reason=reason)
            counter_sets[set_name] = counters
    problem = _bad_counter_consumption(counter_sets, slices)
    if problem:
        return Pool(driver, name, invalid=True, invalid_reason=problem)
    if all_for_pool is None or len(slices) == len(all_for_pool):
        return Pool(driver, name, slices_targeting_node=device_slices, counter_sets=counter_sets)
    seen = {s.name for s in slices}
    others = [s for s in all_for_pool if s.name not in seen]
    problem = _bad_counter_consumption(counter_sets, others)
    if problem:
        return Pool(driver, name, invalid=True, invalid_reason=problem)
    return Pool(
        driver,
        name,
        slices_targeting_node=device_slices,
        slices_not_targeting_node=others,
        counter_sets=counter_sets,
    )


def _duplicate_device_name(slices: Sequence[ReadSlice]) -> str:
    """validateDeviceNames."""
    names: set[str] = set()
    for s in slices:
        for d in s.devices:
            if d.id.device in names:
                return f"duplicate device name {d.id.device}"
            names.add(d.id.device)
    return ""


def _bad_counter_consumption(
    counter_sets: Mapping[str, Counters], slices: Sequence[ReadSlice]
) -> str:
    """validateDeviceCounterConsumption."""
    for s in slices:
        for d in s.devices:
            for set_name, counters in d.consumes:
                found = counter_sets.get(set_name)
                if found is None:
                    return f"counter set {set_name} not found"
                for counter in counters:
                    if counter not in found:
                        return f"counter {counter} not found in counter set {set_name}"
    return ""
