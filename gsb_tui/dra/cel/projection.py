"""What a selector's outcome on a device depends on, as a key: one evaluation per distinct key.

A selector sees a device only through `device` (driver, attributes, capacity,
allowMultipleAllocations: types.py), never through its name, pool or node. check.needs says
which leaves of it an expression reads; each leaf is read here straight from the object the API
server served, before anything is converted for the library (the expensive step), and the
values read make the key. Two devices with equal keys have equal CEL values wherever the
selector looks, so its outcome (result, runtime error and its words, cost) is the same on both:
runtime.py evaluates the first and reuses the outcome for the rest.

The key is exact, or the selector or device is not keyed at all (then every device is evaluated):
- one named leaf (`device.attributes['d'].model`, `has(...)` of it, a capacity): its raw value
  with the Python type of every part (1, 1.0 and True stay apart), or `missing`; a device
  publishing the leaf both qualified (`d/model`) and not (`model`, in its driver's domain) is
  not keyed;
- a domain read as a map (`.exists(...)`, `in`, a dynamic index, `cel.bind` of it): the domain's
  names and raw values in published order; the whole kind (`device.attributes` as a map): every
  name and value in order, and the driver;
- the whole device (`device` passed on as a value): not keyed;
- values of other shapes than a published object holds (a list, a nested map): not keyed.
Which devices can be keyed at all (every attribute and capacity converts, names are strings)
is device.traits' call; runtime.py asks it once per device.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from gsb_tui.dra.cel.check import WHOLE, Leaf
from gsb_tui.dra.model import Device

# A leaf the device does not publish. A tuple of its own, so no published value equals it.
MISSING: tuple[str] = ("@missing",)


class _Unkeyable(Exception):
    """This device's value at a leaf has no exact key: evaluate the device on its own."""


_SCALARS = frozenset((str, int, float, bool, type(None)))
_ABSENT = object()

Reader = Callable[[Device, Mapping[str, Any]], Hashable]


def _scalar(value: Any) -> tuple[type, Any]:
    kind = type(value)
    if kind not in _SCALARS:
        raise _Unkeyable()
    return (kind, value)


def _attribute_key(value: Any, raw: bool) -> Hashable:
    """A published attribute ({"int": 7}, {"version": "1.0.0"}) or a view's plain value.
    A published one of one entry (the usual) is (name, type, value), else a tuple of those."""
    if not raw:
        return _scalar(value)
    if type(value) is not dict:
        raise _Unkeyable()
    if len(value) == 1:
        for k, v in value.items():
            kind = type(v)
            if kind not in _SCALARS:
                raise _Unkeyable()
            return (k, kind, v)
    return tuple([(k, *_scalar(v)) for k, v in value.items()])


def _attributes(device: Device, raw: Mapping[str, Any]) -> tuple[Mapping[Any, Any], bool]:
    """Where device.py takes attributes from: the served object, else the view's values."""
    published = raw.get("attributes")
    if type(published) is dict or isinstance(published, Mapping):
        return published, True
    return device.attributes, False


def _capacities(device: Device, raw: Mapping[str, Any]) -> dict[Any, Hashable]:
    """name -> the quantity text device.py parses (only its entries that are objects)."""
    published = raw.get("capacity")
    if isinstance(published, Mapping):
        return {
            k: (str, str(v.get("value", "")))
            for k, v in published.items()
            if isinstance(v, Mapping)
        }
    return {k: _scalar(v) for k, v in device.capacity.items()}


def _lookup(values: Mapping[Any, Any], driver: str, domain: str, name: str) -> Any:
    """The value published for (domain, name), as qualified `domain/name` or, in the driver's
    domain, as plain `name`; _ABSENT if neither. Both published: not keyed (which one device.py
    keeps depends on their order)."""
    qualified = values.get(domain + "/" + name, _ABSENT) if "/" not in domain else _ABSENT
    if domain != driver or "/" in name:
        return qualified
    plain = values.get(name, _ABSENT)
    if plain is _ABSENT:
        return qualified
    if qualified is not _ABSENT:
        raise _Unkeyable()
    return plain


def _in_domain(name: Any, driver: str, domain: str) -> str | None:
    """The name within `domain` of a published name, or None for another domain."""
    text = str(name)
    prefix, sep, ident = text.partition("/")
    if sep:
        return ident if prefix == domain else None
    return text if domain == driver else None


def _attribute_leaf(domain: str, name: str) -> Reader:
    qualified = f"{domain}/{name}"
    usual = "/" not in domain and "/" not in name

    def read(device: Device, raw: Mapping[str, Any]) -> Hashable:
        values = raw.get("attributes")
        if usual and type(values) is dict:
            # The usual case inline (this runs for every device): _lookup, _attribute_key.
            found = values.get(qualified, _ABSENT)
            if domain == device.id.driver:
                plain = values.get(name, _ABSENT)
                if plain is not _ABSENT:
                    if found is not _ABSENT:
                        raise _Unkeyable()
                    found = plain
            if found is _ABSENT:
                return MISSING
            if type(found) is dict and len(found) == 1:
                for k, v in found.items():
                    kind = type(v)
                    if kind in _SCALARS:
                        return (k, kind, v)
            return _attribute_key(found, True)
        values, published = _attributes(device, raw)
        found = _lookup(values, device.id.driver, domain, name)
        return MISSING if found is _ABSENT else _attribute_key(found, published)

    return read


def _attribute_domain(domain: str) -> Reader:
    def read(device: Device, raw: Mapping[str, Any]) -> Hashable:
        values, published = _attributes(device, raw)
        driver = device.id.driver
        return tuple(
            (ident, _attribute_key(value, published))
            for name, value in values.items()
            if (ident := _in_domain(name, driver, domain)) is not None
        )

    return read


def _attribute_kind(device: Device, raw: Mapping[str, Any]) -> Hashable:
    values, published = _attributes(device, raw)
    pairs = tuple((str(n), _attribute_key(v, published)) for n, v in values.items())
    return (device.id.driver, pairs)


def _capacity_leaf(domain: str, name: str) -> Reader:
    def read(device: Device, raw: Mapping[str, Any]) -> Hashable:
        found = _lookup(_capacities(device, raw), device.id.driver, domain, name)
        return MISSING if found is _ABSENT else found

    return read


def _capacity_domain(domain: str) -> Reader:
    def read(device: Device, raw: Mapping[str, Any]) -> Hashable:
        driver = device.id.driver
        return tuple(
            (ident, text)
            for name, text in _capacities(device, raw).items()
            if (ident := _in_domain(name, driver, domain)) is not None
        )

    return read


def _capacity_kind(device: Device, raw: Mapping[str, Any]) -> Hashable:
    pairs = tuple((str(n), text) for n, text in _capacities(device, raw).items())
    return (device.id.driver, pairs)


def _driver(device: Device, raw: Mapping[str, Any]) -> Hashable:
    driver = device.id.driver
    return driver if type(driver) is str else _scalar(driver)  # a str never equals a tuple


def _multiple(device: Device, raw: Mapping[str, Any]) -> Hashable:
    return raw.get("allowMultipleAllocations") is True


def _reader(leaf: Leaf) -> Reader | None:
    if leaf == ("driver",):
        return _driver
    if leaf == ("allowMultipleAllocations",):
        return _multiple
    if len(leaf) != 3 or leaf[0] not in ("attributes", "capacity"):
        return None
    kind, domain, name = leaf
    attributes = kind == "attributes"
    if domain == "*":
        return _attribute_kind if attributes else _capacity_kind
    if name == "*":
        return _attribute_domain(domain) if attributes else _capacity_domain(domain)
    return _attribute_leaf(domain, name) if attributes else _capacity_leaf(domain, name)


_NO_RAW: Mapping[str, Any] = {}


class Plan:
    """How to key devices for one selector, from the leaves it reads (check.needs)."""

    __slots__ = ("leaves", "readers")

    def __init__(self, leaves: tuple[Leaf, ...], readers: tuple[Reader, ...]) -> None:
        self.leaves = leaves
        self.readers = readers

    def __repr__(self) -> str:
        return f"Plan({self.leaves!r})"

    def key(self, device: Device) -> Hashable | None:
        """The values the selector can see on this device, or None when they have no exact
        key (then the device is evaluated on its own). Keys of one plan compare with each
        other only (one leaf: its value's key; else a tuple of them, in `leaves` order)."""
        raw = device.raw
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raw = _NO_RAW
        readers = self.readers
        try:
            if len(readers) == 1:
                return readers[0](device, raw)
            return tuple([read(device, raw) for read in readers])
        except _Unkeyable:
            return None


def plan(needs: frozenset[Leaf], ignore: frozenset[Leaf] = frozenset()) -> Plan | None:
    """The keying plan for a selector reading `needs` (leaves in `ignore` are not device
    parts), or None when it reads the device as a whole (every device is evaluated)."""
    if WHOLE in needs:
        return None
    leaves = tuple(sorted(needs - ignore))
    readers = []
    for leaf in leaves:
        reader = _reader(leaf)
        if reader is None:  # a leaf this module does not know: no keying
            return None
        readers.append(reader)
    return Plan(leaves, tuple(readers))
