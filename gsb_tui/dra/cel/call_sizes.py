"""The measures a runtime call cost is made of (cel-go's CostTracker): a value's length, a
string's traversal (a tenth of a unit per character), one unit."""

from __future__ import annotations

import math
from typing import Any


def one(args: list[Any], result: Any) -> int:
    return 1


def length(v: Any) -> int:
    if isinstance(v, str | bytes | list | dict) and not isinstance(v, bool):
        return len(v)
    return 1


def traversal(v: Any) -> int:
    return math.ceil(length(v) * 0.1)
