"""The runtime cost of a call: cel-go's CostTracker.costCall and Kubernetes' CallCost, as the
interpreter counts it against the scheduler's runtime cost limit; a function named in neither
table costs one unit (`one`)."""

from __future__ import annotations

import math
from typing import Any

from gsb_tui.dra.cel.call_sizes import length, traversal
from gsb_tui.dra.cel.extensions import CALL_COSTS as LIBRARY_COSTS
from gsb_tui.dra.cel.extensions import CallCost
from gsb_tui.dra.cel.quantity import Quantity
from gsb_tui.dra.cel.semver import Semver


def _min_traversal(args: list[Any], result: Any) -> int:
    if isinstance(args[0], Quantity | Semver):
        return 1
    return math.ceil(min(length(args[0]), length(args[1])) * 0.1)


def _matches_cost(args: list[Any], result: Any) -> int:
    text = math.ceil((1.0 + length(args[0])) * 0.1)
    return text * math.ceil(length(args[1]) * 0.25)


CALL_COSTS: dict[str, CallCost] = {
    "_==_": _min_traversal,
    "_!=_": _min_traversal,
    "_<_": _min_traversal,
    "_<=_": _min_traversal,
    "_>_": _min_traversal,
    "_>=_": _min_traversal,
    "_+_": lambda a, r: (
        math.ceil((length(a[0]) + length(a[1])) * 0.1) if isinstance(a[0], str | bytes) else 1
    ),
    "@in": lambda a, r: length(a[1]) if isinstance(a[1], list) else 1,
    "startsWith": lambda a, r: traversal(a[0]),
    "endsWith": lambda a, r: traversal(a[0]),
    "contains": lambda a, r: traversal(a[0]) * traversal(a[1]),
    "matches": _matches_cost,
    "bytes": lambda a, r: traversal(a[0]),
    **LIBRARY_COSTS,  # the libraries' functions: each record's (extensions.py)
}
