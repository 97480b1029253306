"""What every view shares: a device's identity, `meta`, and the forgiving dict readers.

`_d`, `_l` and `_selectors` are this package's own helpers (hence the underscore): the views'
parse_* functions call them on every field, so they stay tiny module-level functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

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
def _selectors(value: Any) -> tuple[str, ...]:
    return tuple(
        str(_d(_d(s).get("cel")).get("expression") or "")
        for s in _l(value)
        if _d(_d(s).get("cel")).get("expression") is not None
    )


def _int(value: Any, default: int = 0) -> int:
    """An integer field as stored; `default` for one of another type (a string, a list, NaN,
    a float that is not whole): a hostile or broken object is read, never raised on."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return default
