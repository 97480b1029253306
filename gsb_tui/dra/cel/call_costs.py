"""The runtime cost of a call: cel-go's CostTracker.costCall and Kubernetes' CallCost, as the
interpreter counts it against the scheduler's runtime cost limit."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gsb_tui.dra.cel.quantity import Quantity
from gsb_tui.dra.cel.semver import Semver


def _one(args: list[Any], result: Any) -> int:
    return 1


def _length(v: Any) -> int:
    if isinstance(v, str | bytes | list | dict) and not isinstance(v, bool):
        return len(v)
    return 1


def _traversal(v: Any) -> int:
    return math.ceil(_length(v) * 0.1)


def _min_traversal(args: list[Any], result: Any) -> int:
    if isinstance(args[0], Quantity | Semver):
        return 1
    return math.ceil(min(_length(args[0]), _length(args[1])) * 0.1)


def _matches_cost(args: list[Any], result: Any) -> int:
    text = math.ceil((1.0 + _length(args[0])) * 0.1)
    return text * math.ceil(_length(args[1]) * 0.25)


CALL_COSTS: dict[str, Callable[[list[Any], Any], int]] = {
    "_==_": _min_traversal,
    "_!=_": _min_traversal,
    "_<_": _min_traversal,
    "_<=_": _min_traversal,
    "_>_": _min_traversal,
    "_>=_": _min_traversal,
    "_+_": lambda a, r: (
        math.ceil((_length(a[0]) + _length(a[1])) * 0.1) if isinstance(a[0], str | bytes) else 1
    ),
    "@in": lambda a, r: _length(a[1]) if isinstance(a[1], list) else 1,
    "startsWith": lambda a, r: _traversal(a[0]),
    "endsWith": lambda a, r: _traversal(a[0]),
    "contains": lambda a, r: _traversal(a[0]) * _traversal(a[1]),
    "matches": _matches_cost,
    "quantity": lambda a, r: _traversal(a[0]),
    "isQuantity": lambda a, r: _traversal(a[0]),
    "semver": lambda a, r: _traversal(a[0]),
    "isSemver": lambda a, r: _traversal(a[0]),
    "lowerAscii": lambda a, r: _traversal(a[0]),
    "upperAscii": lambda a, r: _traversal(a[0]),
    "substring": lambda a, r: _traversal(a[0]),
    "trim": lambda a, r: _traversal(a[0]),
    "replace": lambda a, r: math.ceil(_length(a[0]) * 2 * 0.1),
    "split": lambda a, r: math.ceil(_length(a[0]) * 2 * 0.1),
    "join": lambda a, r: math.ceil(_length(r) * 2 * 0.1),
    "indexOf": lambda a, r: int(_length(a[0]) * 0.1),
    "lastIndexOf": lambda a, r: int(_length(a[0]) * 0.1),
    "bytes": lambda a, r: _traversal(a[0]),
    "strings.quote": lambda a, r: _traversal(a[0]),
}
