"""What drivers publish: ResourceSlices and their devices, and the DeviceClasses that pick them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gsb_tui.dra.model.base import DeviceId, _selectors
from gsb_tui.dra.model.features import (
    CounterSet,
    CounterUse,
    DeviceTaint,
    RequestPolicy,
    counter_sets,
    counter_uses,
    request_policies,
    taints,
)
from gsb_tui.dra.model.fields import (
    EMPTY_MAP,
    INT64_MAX,
    INT64_MIN,
    Bad,
    FieldProblem,
    entries,
    flag,
    ident,
    integer,
    is_quantity,
    mapping,
    printable,
    problem,
    quantity,
    string,
    strings,
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


def attr_value(raw: Any, path: str = "", bad: Bad | None = None) -> AttrValue | None:
    """{"int": 7} -> 7, {"string": "x"} -> "x", {"version": "1.0.0"} -> "1.0.0"; None (said)
    for a value of none of these (an int past int64, a string with a lone surrogate, a list)."""
    typed = _attr(raw, path, [] if bad is None else bad)
    return None if typed is None else typed[1]


def _attr(raw: Any, path: str, bad: Bad) -> tuple[str, AttrValue] | None:
    raw = mapping(raw, path, bad)
    for key in ("int", "bool", "string", "version"):
        if key in raw:
            value = raw[key]
            if key == "int" and type(value) is int and INT64_MIN <= value <= INT64_MAX:
                return key, value
            if key == "bool" and (value is True or value is False):
                return key, value
            if (
                type(value) is str
                and key in _TEXT
                and (value.isascii() or printable(value) == value)
            ):
                return key, value
            bad.append(problem(f"{path}.{key}" if path else key, _ATTR_TYPES[key], value))
            return None
    if raw:
        bad.append(FieldProblem(path, "attribute", "map"))
    return None


def _key(key: Any, field: str, bad: Bad) -> str:
    """A name under attributes or capacity that is not plain ASCII (rare: paths made here)."""
    shown = printable(str(key))
    return string(str(key), f"{field}.{shown}", bad)


# The most of a wrong attribute value walked to see whether the CEL library can take it.
_WALK_MAX = 10_000


def _convertible(value: Any) -> bool:
    """The CEL library takes it (it raises, instead of answering, on an int past int64 and on a
    lone surrogate anywhere in a value); other wrong values stay for dra/cel to word."""
    stack, seen = [value], 0
    while stack:
        seen += 1
        if seen > _WALK_MAX:
            return False
        item = stack.pop()
        if type(item) is int and not INT64_MIN <= item <= INT64_MAX:
            return False
        if type(item) is str and not item.isascii() and printable(item) != item:
            return False
        if isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True


def _as_read(dev: Mapping[str, Any], said: Sequence[FieldProblem]) -> Mapping[str, Any]:
    """A malformed device for those that read it as served (selectors, the allocator, the
    panes' extra fields): a field of the wrong type as a whole, and an attribute the CEL
    library cannot convert, left out."""
    wrong = {p.path for p in said}
    out = {k: v for k, v in dev.items() if k not in wrong}
    attributes = out.get("attributes")
    if isinstance(attributes, Mapping) and any(p.startswith("attributes.") for p in wrong):
        out["attributes"] = {
            name: value
            for name, value in attributes.items()
            if _convertible(name) and _convertible(value)
        }
    return out


_ATTR_TYPES = {"int": "integer", "bool": "boolean", "string": "string", "version": "string"}
_TEXT = frozenset({"string", "version"})


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
    problems: tuple[FieldProblem, ...] = ()  # its fields of the wrong type, paths from the slice

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
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type, its devices' too

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


def _device(driver: str, pool: str, slice_name: str, node: str, dev: Any, bad: Bad) -> Device:
    """One device; its problems go to `bad` with paths relative to the device."""
    attrs: dict[str, AttrValue] = {}
    said = len(bad)
    for key, raw in mapping(dev.get("attributes"), "attributes", bad).items():
        if type(raw) is dict and len(raw) == 1:  # the hot path: one typed value, as served
            ((kind, value),) = raw.items()
            of = type(value)
            if (
                (of is str and kind in _TEXT and value.isascii())
                or (of is int and kind == "int" and INT64_MIN <= value <= INT64_MAX)
                or (of is bool and kind == "bool")
            ) and (type(key) is str and key.isascii()):
                attrs[key] = value
                continue
        at = key if type(key) is str and key.isascii() else _key(key, "attributes", bad)
        if (typed := _attr(raw, f"attributes.{at}", bad)) is not None:
            attrs[at] = typed[1]
    capacity = mapping(dev.get("capacity"), "capacity", bad)
    cap: dict[str, str] = {}
    for key, raw in capacity.items():
        value = raw.get("value") if type(raw) is dict else None
        if type(value) is str and is_quantity(value) and type(key) is str and key.isascii():
            cap[key] = value  # the hot path
            continue
        at = key if type(key) is str and key.isascii() else _key(key, "capacity", bad)
        entry = mapping(raw, f"capacity.{at}", bad)
        found = quantity(entry.get("value"), f"capacity.{at}.value", bad)
        if found is not None:
            cap[at] = found
    device = Device(
        id=DeviceId(driver, pool, string(dev.get("name"), "name", bad)),
        slice_name=slice_name,
        node=string(dev.get("nodeName"), "nodeName", bad) or node,
        attributes=attrs,
        capacity=cap,
        raw=dev,
    )
    multiple = dev.get("allowMultipleAllocations")
    if (multiple is None or multiple is False) and _FEATURES.isdisjoint(dev):
        if len(bad) == said:
            return device  # the lab's shape: nothing more to read (the common, hot case)
    else:
        device = _features(device, dev, capacity, bad)
    if len(bad) > said:  # selectors and the allocator read the device as served: give them
        raw = _as_read(dev, bad[said:])  # what they can read
        device = replace(device, raw=raw)
    return device


def _features(device: Device, dev: Mapping[str, Any], capacity: Any, bad: Bad) -> Device:
    return replace(
        device,
        consumes=counter_uses(dev.get("consumesCounters"), "consumesCounters", bad),
        multiple=flag(dev.get("allowMultipleAllocations"), "allowMultipleAllocations", bad),
        policies=request_policies(capacity, "capacity", bad),
        taints=taints(dev.get("taints"), "taints", bad),
        binding_conditions=strings(dev.get("bindingConditions"), "bindingConditions", bad),
        binding_failure_conditions=strings(
            dev.get("bindingFailureConditions"), "bindingFailureConditions", bad
        ),
        binds_to_node=flag(dev.get("bindsToNode"), "bindsToNode", bad),
        all_nodes=flag(dev.get("allNodes"), "allNodes", bad),
        node_selector=bool(mapping(dev.get("nodeSelector"), "nodeSelector", bad)),
    )


def parse_slice(obj: Obj) -> Slice:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    spec = mapping(obj.get("spec"), "spec", bad)
    pool = mapping(spec.get("pool"), "spec.pool", bad)
    driver = string(spec.get("driver"), "spec.driver", bad)
    pool_name = string(pool.get("name"), "spec.pool.name", bad)
    node = string(spec.get("nodeName"), "spec.nodeName", bad)
    name = ident(m.get("name"), "metadata.name", bad)
    devices = []
    for index, (dev, mine) in enumerate(entries(spec.get("devices"), "spec.devices", bad)):
        device = _device(driver, pool_name, name, node, dev, mine)
        if mine:  # said under the slice too, by entries()
            at = f"spec.devices[{index}]"
            device = replace(device, problems=tuple(p.under(at) for p in mine))
        devices.append(device)
    return Slice(
        name=name,
        driver=driver,
        pool=pool_name,
        generation=integer(pool.get("generation"), "spec.pool.generation", bad),
        slice_count=integer(pool.get("resourceSliceCount"), "spec.pool.resourceSliceCount", bad),
        node=node,
        devices=tuple(devices),
        raw=obj,
        shared_counters=counter_sets(spec.get("sharedCounters"), "spec.sharedCounters", bad),
        all_nodes=flag(spec.get("allNodes"), "spec.allNodes", bad),
        node_selector=bool(mapping(spec.get("nodeSelector"), "spec.nodeSelector", bad)),
        per_device_node_selection=flag(
            spec.get("perDeviceNodeSelection"), "spec.perDeviceNodeSelection", bad
        ),
        problems=tuple(bad),
    )


@dataclass(frozen=True)
class DeviceClass:
    name: str
    selectors: tuple[str, ...]  # CEL expressions exactly as served
    raw: Obj
    # spec.extendedResourceName: pods may ask for it in resources.limits (DRAExtendedResource)
    extended_resource_name: str = ""
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)


def parse_class(obj: Obj) -> DeviceClass:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    spec = mapping(obj.get("spec"), "spec", bad)
    return DeviceClass(
        ident(m.get("name"), "metadata.name", bad),
        _selectors(spec.get("selectors"), "spec.selectors", bad),
        obj,
        string(spec.get("extendedResourceName"), "spec.extendedResourceName", bad),
        problems=tuple(bad),
    )
