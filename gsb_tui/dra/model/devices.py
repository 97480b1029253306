"""What drivers publish: ResourceSlices and their devices, and the DeviceClasses that pick them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gsb_tui.dra.model.base import DeviceId, _d, _int, _l, _selectors, meta
from gsb_tui.dra.model.features import (
    EMPTY_MAP,
    CounterSet,
    CounterUse,
    DeviceTaint,
    RequestPolicy,
    counter_sets,
    counter_uses,
    request_policies,
    taints,
)
from gsb_tui.snapshot import Obj

AttrValue = int | bool | str
# Device fields of DRA 1.36 beyond the lab's shape (allowMultipleAllocations is read when true).
_FEATURES = frozenset(
    {
        "consumesCounters",
        "taints",
        "bindingConditions",
        "bindingFailureConditions",
        "bindsToNode",
        "allNodes",
        "nodeSelector",
    }
)  # version attributes are kept as their string


def attr_value(raw: Any) -> AttrValue | None:
    """{"int": 7} -> 7, {"string": "x"} -> "x", {"version": "1.0.0"} -> "1.0.0"."""
    raw = _d(raw)
    for key in ("int", "bool", "string", "version"):
        if key in raw:
            value = raw[key]
            return value if isinstance(value, int | bool | str) else str(value)
    return None


@dataclass(frozen=True)
class Device:
    id: DeviceId
    slice_name: str
    node: str  # the slice's nodeName ("" for network-attached pools)
    attributes: Mapping[str, AttrValue]  # names as published ("index" or "domain/name")
    capacity: Mapping[str, str]  # name -> quantity string ("80Gi")
    raw: Obj
    # DRA 1.36 beyond the lab (empty when the driver or the server does not use them):
    consumes: tuple[CounterUse, ...] = ()  # consumesCounters: partitionable devices
    multiple: bool = False  # allowMultipleAllocations: consumable capacity, shared by claims
    policies: Mapping[str, RequestPolicy] = field(
        default_factory=lambda: EMPTY_MAP
    )  # capacity.<c>.requestPolicy
    taints: tuple[DeviceTaint, ...] = ()
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()
    binds_to_node: bool = False
    # Per-device node selection (perDeviceNodeSelection slices): where this device is reachable.
    all_nodes: bool = False
    node_selector: bool = False

    @property
    def name(self) -> str:
        return self.id.device

    def attribute(self, name: str) -> AttrValue | None:
        """Look up an attribute by bare or driver-qualified name."""
        if name in self.attributes:
            return self.attributes[name]
        return self.attributes.get(f"{self.id.driver}/{name}")


@dataclass(frozen=True)
class Slice:
    name: str
    driver: str
    pool: str
    generation: int
    slice_count: int
    node: str
    devices: tuple[Device, ...]
    raw: Obj
    shared_counters: tuple[CounterSet, ...] = ()  # a counter-only slice of a partitioned pool
    all_nodes: bool = False  # network-attached: reachable from every node
    node_selector: bool = False  # reachable from the nodes a selector picks
    per_device_node_selection: bool = False  # each device says where it is reachable

    @property
    def where(self) -> str:
        """How the slice is placed: "node", "all-nodes", "node-selector" or "per-device"."""
        if self.node:
            return "node"
        if self.all_nodes:
            return "all-nodes"
        if self.node_selector:
            return "node-selector"
        if self.per_device_node_selection:
            return "per-device"
        return ""


def _device(driver: str, pool: str, slice_name: str, node: str, dev: Any) -> Device:
    dev = _d(dev)
    attrs = {
        str(k): v
        for k, raw in _d(dev.get("attributes")).items()
        if (v := attr_value(raw)) is not None
    }
    capacity = _d(dev.get("capacity"))
    cap = {str(k): str(_d(v).get("value", "")) for k, v in capacity.items()}
    device = Device(
        id=DeviceId(driver, pool, str(dev.get("name") or "")),
        slice_name=slice_name,
        node=str(dev.get("nodeName") or node),
        attributes=attrs,
        capacity=cap,
        raw=dev,
    )
    if not dev.get("allowMultipleAllocations") and _FEATURES.isdisjoint(dev):
        return device  # the lab's shape: nothing more to read (the common, hot case)
    return replace(
        device,
        consumes=counter_uses(dev.get("consumesCounters")),
        multiple=bool(dev.get("allowMultipleAllocations")),
        policies=request_policies(capacity),
        taints=taints(dev.get("taints")),
        binding_conditions=tuple(str(c) for c in _l(dev.get("bindingConditions"))),
        binding_failure_conditions=tuple(str(c) for c in _l(dev.get("bindingFailureConditions"))),
        binds_to_node=bool(dev.get("bindsToNode")),
        all_nodes=bool(dev.get("allNodes")),
        node_selector=bool(dev.get("nodeSelector")),
    )


def parse_slice(obj: Obj) -> Slice:
    spec = _d(obj.get("spec"))
    pool = _d(spec.get("pool"))
    driver = str(spec.get("driver") or "")
    pool_name = str(pool.get("name") or "")
    node = str(spec.get("nodeName") or "")
    name = str(meta(obj).get("name") or "")
    devices = [_device(driver, pool_name, name, node, dev) for dev in _l(spec.get("devices"))]
    return Slice(
        name=name,
        driver=driver,
        pool=pool_name,
        generation=_int(pool.get("generation")),
        slice_count=_int(pool.get("resourceSliceCount")),
        node=node,
        devices=tuple(devices),
        raw=obj,
        shared_counters=counter_sets(spec.get("sharedCounters")),
        all_nodes=bool(spec.get("allNodes")),
        node_selector=bool(spec.get("nodeSelector")),
        per_device_node_selection=bool(spec.get("perDeviceNodeSelection")),
    )


@dataclass(frozen=True)
class DeviceClass:
    name: str
    selectors: tuple[str, ...]  # CEL expressions exactly as served
    raw: Obj
    # spec.extendedResourceName: pods may ask for it in resources.limits (DRAExtendedResource)
    extended_resource_name: str = ""


def parse_class(obj: Obj) -> DeviceClass:
    spec = _d(obj.get("spec"))
    return DeviceClass(
        str(meta(obj).get("name") or ""),
        _selectors(spec.get("selectors")),
        obj,
        str(spec.get("extendedResourceName") or ""),
    )
