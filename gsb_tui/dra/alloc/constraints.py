"""A claim's constraints, checked as each device is added during the search.

Mirrors `structured/internal/incubating` at v0.36.3 and v0.37.2: matchAttributeConstraint
(allocator_incubating.go), distinctAttributeConstraint (constraint.go) and lookupAttribute.
"""

from __future__ import annotations

from typing import Any

from gsb_tui.dra.alloc.pools import SliceDevice
from gsb_tui.dra.alloc.requests import ClaimConstraint
from gsb_tui.dra.model.base import _d


def _typed_attribute(raw: Any) -> tuple[str, object] | None:
    """A DeviceAttribute by its set field, in the order upstream's switch tests them."""
    raw = _d(raw)
    for kind in ("string", "int", "bool", "version"):
        if raw.get(kind) is not None:
            return (kind, raw[kind])
    return ("unknown", None) if raw else None


def lookup_attribute(device: SliceDevice, name: str) -> tuple[str, object] | None:
    """lookupAttribute: fully qualified first, then the bare name when the domain is the
    device's driver."""
    attrs = _d(device.raw.get("attributes"))
    if name in attrs:
        return _typed_attribute(attrs[name])
    domain, sep, bare = name.partition("/")
    if not sep or domain != device.id.driver:
        return None
    return _typed_attribute(attrs[bare]) if bare in attrs else None


class Constraint:
    def __init__(self, c: ClaimConstraint) -> None:
        self.names = c.requests
        self.attribute = c.attribute

    def applies(self, request: str, sub: str) -> bool:
        if not self.names:
            return True
        if not sub:
            return request in self.names
        return request in self.names or f"{request}/{sub}" in self.names

    def add(self, request: str, sub: str, device: SliceDevice) -> bool:
        raise NotImplementedError

    def remove(self, request: str, sub: str, device: SliceDevice) -> None:
        raise NotImplementedError


class MatchAttribute(Constraint):
    """matchAttributeConstraint: every device it covers has the same value."""

    def __init__(self, c: ClaimConstraint) -> None:
        super().__init__(c)
        self.value: tuple[str, object] | None = None
        self.count = 0

    def add(self, request: str, sub: str, device: SliceDevice) -> bool:
        if not self.applies(request, sub):
            return True
        found = lookup_attribute(device, self.attribute)
        if found is None:
            return False
        if self.count == 0:
            self.value, self.count = found, 1
            return True
        if found[0] == "unknown" or found != self.value:
            return False
        self.count += 1
        return True

    def remove(self, request: str, sub: str, device: SliceDevice) -> None:
        if self.applies(request, sub):
            self.count -= 1


class DistinctAttribute(Constraint):
    """distinctAttributeConstraint. Up to 1.36 upstream keeps one value per request name (a
    second device of the same request replaces it, a removal drops it); from 1.37 it keeps the
    value of every device added (`by_list`), so two devices of one request must differ too."""

    def __init__(self, c: ClaimConstraint, by_list: bool = False) -> None:
        super().__init__(c)
        self.by_list = by_list
        self.values: dict[str, tuple[str, object]] = {}
        self.added: list[tuple[str, object]] = []  # by_list: every device's, in order
        self.count = 0

    def add(self, request: str, sub: str, device: SliceDevice) -> bool:
        if not self.applies(request, sub):
            return True
        found = lookup_attribute(device, self.attribute)
        if found is None:
            return False
        if self.by_list:
            if self.added and (found[0] == "unknown" or found in self.added):
                return False
            self.added.append(found)
            return True
        if self.count == 0:
            self.values[request] = found
            self.count = 1
            return True
        if found[0] == "unknown" or any(found == v for v in self.values.values()):
            return False
        self.values[request] = found
        self.count += 1
        return True

    def remove(self, request: str, sub: str, device: SliceDevice) -> None:
        if not self.applies(request, sub):
            return
        if self.by_list:
            self.added.pop()
            return
        self.values.pop(request, None)
        self.count -= 1
