"""How Kubernetes' CEL types travel through the Rust CEL library, which only carries plain values.

A quantity or semver becomes a two-entry map:
- a sort key (`@q` / `@s`): a string whose plain string order is the type's order, so the
  comparisons selectors use (`compareTo`, `isGreaterThan`, `isLessThan`, `==`) run natively in
  the library instead of as a Python call per device;
- the exact value (`@quantity` / `@semver`) for the rarer methods implemented in Python.

Equal sort keys mean equal values (`quantity('1') == quantity('1000m')`). Maps rather than bare
strings keep string functions from applying: `device.attributes[d].driverVersion.startsWith('1')`
fails at runtime as in the API server.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from gsb_tui.dra.cel.quantity import Quantity, parse_quantity
from gsb_tui.dra.cel.semver import Semver, parse_semver

QUANTITY_KEY, QUANTITY_CODE = "@q", "@quantity"
SEMVER_KEY, SEMVER_TEXT = "@s", "@semver"
_NANO = 10**9


def _int_key(n: int) -> str:
    """A string that sorts like the integer n, for integers of any size."""
    digits = str(abs(n))
    if n >= 0:
        return f"1{len(digits):06d}{digits}"
    # Longer negatives are smaller; within a length, complemented digits reverse the order.
    return f"0{999999 - len(digits):06d}" + digits.translate(
        str.maketrans("0123456789", "9876543210")
    )


def encode_quantity(q: Quantity) -> dict[str, str]:
    # Parsed quantities are whole nanos (apimachinery rounds up to 1n), and sums keep that.
    nanos = q.value * _NANO
    key = _int_key(nanos.numerator // nanos.denominator)
    scaled = "" if q.scaled is None else f"{q.scaled[0]},{q.scaled[1]}"
    return {QUANTITY_KEY: key, QUANTITY_CODE: f"{q.value.numerator}/{q.value.denominator};{scaled}"}


@lru_cache(maxsize=4096)
def _decode_quantity(code: str) -> Quantity:
    value, _, scaled = code.partition(";")
    unscaled, _, scale = scaled.partition(",")
    return Quantity(Fraction(value), (int(unscaled), int(scale)) if scaled else None)


def semver_key(v: Semver) -> str:
    key = f"{v.major:020d}.{v.minor:020d}.{v.patch:020d}"
    if not v.pre:
        return key + "\x02"  # a release outranks its pre-releases
    parts = [f"\x01{p:020d}" if isinstance(p, int) else f"\x02{p}" for p in v.pre]
    return key + "\x01" + "".join(p + "\x00" for p in parts)


def encode_semver(v: Semver) -> dict[str, str]:
    # Build metadata takes no part in precedence, so it is left out of both entries.
    return {SEMVER_KEY: semver_key(v), SEMVER_TEXT: str(Semver(v.major, v.minor, v.patch, v.pre))}


@lru_cache(maxsize=1024)
def _decode_semver(text: str) -> Semver:
    return parse_semver(text)


@lru_cache(maxsize=4096)
def quantity_value(text: str) -> tuple[tuple[str, str], ...]:
    """A capacity's CEL value, parsed once per text (devices repeat "80Gi")."""
    return tuple(encode_quantity(parse_quantity(text)).items())


@lru_cache(maxsize=1024)
def semver_value(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(encode_semver(parse_semver(text)).items())


def as_quantity(value: Any) -> Quantity | None:
    if isinstance(value, dict) and QUANTITY_CODE in value:
        return _decode_quantity(value[QUANTITY_CODE])
    return None


def as_semver(value: Any) -> Semver | None:
    if isinstance(value, dict) and SEMVER_TEXT in value:
        return _decode_semver(value[SEMVER_TEXT])
    return None
