"""The `device` variable as CEL sees it, converted from the object the API server served.

Attributes and capacity are keyed by domain (unqualified names live in the driver's domain),
versions become semvers and capacities quantities (values.py), as the interpreter holds them.
Only the parts that compiled selectors read (check.needs) are converted: that is the
expensive step of evaluating.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from gsb_tui.dra.cel import check
from gsb_tui.dra.cel.quantity import QuantityError
from gsb_tui.dra.cel.semver import SemverError
from gsb_tui.dra.cel.values import quantity_value, semver_value
from gsb_tui.dra.model import Device


class DeviceError(ValueError):
    """A device CEL cannot represent (an invalid version or quantity, a list value)."""


def _split_name(name: str, driver: str) -> tuple[str, str]:
    """Unqualified names live in the driver's domain ("index" -> gpu.example.com/index)."""
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


def _attribute(name: str, raw: Any) -> Any:
    if isinstance(raw, Mapping):
        for key in ("int", "bool", "string"):
            if key in raw:
                return raw[key]
        if "version" in raw:
            try:
                return semver_value(str(raw["version"]))
            except SemverError as exc:
                raise DeviceError(f"attribute {name}: parse semantic version: {exc}") from exc
    # List-valued attributes need the alpha DRAListTypeAttributes gate (off in 1.36).
    raise DeviceError(f"attribute {name}: unsupported attribute value")


@dataclass(frozen=True)
class _Projection:
    """Which parts of a device to convert, from the leaves compiled selectors read."""

    everything: bool
    fields: frozenset[str]  # top-level fields read at all
    kinds: frozenset[str]  # attributes/capacity read as a whole
    domains: frozenset[tuple[str, str]]  # (kind, domain) read as a whole
    names: frozenset[tuple[str, ...]]  # (kind, domain, name)

    def wants(self, kind: str, domain: str, name: str) -> bool:
        return (
            self.everything
            or kind in self.kinds
            or (kind, domain) in self.domains
            or (kind, domain, name) in self.names
        )


@lru_cache(maxsize=64)
def _projection(needs: frozenset[check.Leaf] | None) -> _Projection:
    if needs is None or check.WHOLE in needs:
        every = frozenset(("driver", "allowMultipleAllocations", "attributes", "capacity"))
        return _Projection(True, every, frozenset(), frozenset(), frozenset())
    return _Projection(
        False,
        frozenset(leaf[0] for leaf in needs),
        frozenset(leaf[0] for leaf in needs if leaf[1:] == ("*", "*")),
        frozenset((leaf[0], leaf[1]) for leaf in needs if len(leaf) == 3 and leaf[2] == "*"),
        frozenset(needs),
    )


def device_variable(device: Device, needs: frozenset[check.Leaf] | None = None) -> dict[str, Any]:
    """The `device` variable for one device, from the object the API server served.

    With `needs`, only those fields, attributes and capacities are converted (check.needs):
    converting values is the expensive step of evaluating."""
    projection = _projection(needs)
    driver = device.id.driver
    raw = device.raw if isinstance(device.raw, Mapping) else {}
    variable: dict[str, Any] = {}
    if "driver" in projection.fields:
        variable["driver"] = driver
    if "allowMultipleAllocations" in projection.fields:
        variable["allowMultipleAllocations"] = raw.get("allowMultipleAllocations") is True
    attributes = _attributes(device, raw, projection)
    capacity = _capacity(device, raw, projection)
    if "attributes" in projection.fields:
        variable["attributes"] = attributes
    if "capacity" in projection.fields:
        variable["capacity"] = capacity
    return variable


def _is_map(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # the common case without the ABC


def _converts(raw: Any) -> bool:
    """Whether _attribute converts this published value (else it raises DeviceError)."""
    if not _is_map(raw):
        return False
    if "int" in raw or "bool" in raw or "string" in raw:
        return True
    if "version" in raw:
        try:
            semver_value(str(raw["version"]))
        except SemverError:
            return False
        return True
    return False


class Traits(NamedTuple):
    """What runtime.py needs to know of a device before converting it, from one pass."""

    convertible: bool  # device_variable converts it (no DeviceError), every name a string


def traits(device: Device) -> Traits:
    """`convertible` runs the checks of _attributes and _capacity without building values (and
    asks for string names, which projection.py's keys assume). Runs once per device content,
    for every device: few calls in the usual case (published objects as dicts, names as
    strings)."""
    raw = device.raw
    mapping = type(raw) is dict or isinstance(raw, Mapping)
    attributes: Any = raw.get("attributes") if mapping else None
    ok = True
    if attributes is not None and _is_map(attributes):
        for name, value in attributes.items():
            if type(value) is not dict or type(name) is not str:  # the unusual: with calls
                ok = type(name) is str and _converts(value)
            elif "int" in value or "bool" in value or "string" in value:
                continue
            elif "version" in value:
                try:
                    semver_value(str(value["version"]))
                except SemverError:
                    ok = False
            else:
                ok = False
            if not ok:
                break
    if ok:
        ok = _capacities_convert(device, raw.get("capacity") if mapping else None)
    # tuple.__new__: NamedTuple's own __new__ is a Python function (a fifth of this one's time)
    return tuple.__new__(Traits, (ok,))


def _capacities_convert(device: Device, capacities: Any) -> bool:
    try:
        if capacities is None or not _is_map(capacities):
            for text in device.capacity.values():
                quantity_value(text)
            return True
        for name, value in capacities.items():
            if type(name) is not str:
                return False
            if type(value) is dict or isinstance(value, Mapping):
                text = value.get("value", "")
                quantity_value(text if type(text) is str else str(text))
    except QuantityError:
        return False
    return True


def _attributes(device: Device, raw: Mapping[str, Any], p: _Projection) -> dict[str, Any]:
    driver = device.id.driver
    attributes: dict[str, dict[str, Any]] = {}
    raw_attrs = raw.get("attributes")
    if isinstance(raw_attrs, Mapping):
        for name, value in raw_attrs.items():
            domain, ident = _split_name(str(name), driver)
            # Converted even when unread: like the allocator, one bad attribute (an invalid
            # version, a list value) is an error for the device whatever the selector reads.
            converted = _attribute(str(name), value)
            if p.wants("attributes", domain, ident):
                attributes.setdefault(domain, {})[ident] = converted
    else:  # a Device built without its raw object: take the view's values as they are
        for name, plain in device.attributes.items():
            domain, ident = _split_name(name, driver)
            if p.wants("attributes", domain, ident):
                attributes.setdefault(domain, {})[ident] = plain
    return attributes


def _capacity(device: Device, raw: Mapping[str, Any], p: _Projection) -> dict[str, Any]:
    driver = device.id.driver
    raw_caps = raw.get("capacity")
    caps = (
        {str(k): str(v.get("value", "")) for k, v in raw_caps.items() if isinstance(v, Mapping)}
        if isinstance(raw_caps, Mapping)
        else dict(device.capacity)
    )
    capacity: dict[str, dict[str, Any]] = {}
    for name, text in caps.items():
        domain, ident = _split_name(name, driver)
        try:
            converted = quantity_value(text)
        except QuantityError as exc:
            raise DeviceError(f"capacity {name}: {exc}") from exc
        if p.wants("capacity", domain, ident):
            capacity.setdefault(domain, {})[ident] = converted
    return capacity
