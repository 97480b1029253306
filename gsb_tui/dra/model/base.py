"""What every view shares: a device's identity, `meta`, and the unchecked dict readers.

The views read every field through model/fields.py (typed, each wrong field said); `_d` and
`_l` are for code that reads raw objects already read into a view (the allocator), where a
wrong field has been said once already and is only to be read past.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from gsb_tui.dra.model.fields import Bad, entries, mapping, string
from gsb_tui.snapshot import Obj


class DeviceId(NamedTuple):
    """A device's identity in DRA: (driver, pool, device)."""

    driver: str
    pool: str
    device: str

    def __str__(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"


def _d(value: Any) -> Mapping[str, Any]:
    if type(value) is dict:  # the common case, and the hot path of build_view
        return value
    return value if isinstance(value, Mapping) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def meta(obj: Obj) -> Mapping[str, Any]:
    return _d(obj.get("metadata"))


# Here rather than in devices.py or claims.py: DeviceClass and Request both carry selectors.
def _selectors(value: Any, path: str, bad: Bad) -> tuple[str, ...]:
    """selectors[].cel.expression, as served; an entry without one is left out."""
    out = []
    for entry, mine in entries(value, path, bad):
        expression = mapping(entry.get("cel"), "cel", mine).get("expression")
        if expression is not None:
            out.append(string(expression, "cel.expression", mine))
    return tuple(out)
