"""Kubernetes resource quantities ("80Gi", "500m", "1e3"), parsed as apimachinery parses them.

Values are exact rationals (fractions.Fraction), so `quantity('200M')` and `quantity('0.2G')`
compare equal and `quantity('50M')` is less than `quantity('50Mi')`, as in Go.

apimachinery keeps a quantity either as a scaled int64 (value x 10^scale) or, when that cannot
hold it, as an arbitrary-precision decimal. The CEL functions `isInteger()` / `asInteger()`
succeed only for the scaled-int64 form (so `quantity('1000m').asInteger()` is an error in the
API server even though the value is 1); `Quantity.scaled` keeps that form to match.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

MAX_INT64 = 2**63 - 1
MIN_INT64 = -(2**63)

# apimachinery's error texts (resource.ErrFormatWrong, ErrNumeric, ErrSuffix).
ERR_FORMAT = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

_DIGITS = "0123456789"
_SUFFIX_CHARS = "eEinumkKMGTP"
_DECIMAL = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_EXPONENT = re.compile(r"[+-]?[0-9]+")
_NANO = 10**9
# A decimal exponent beyond this would need gigabytes as an exact integer; no device publishes one.
_MAX_EXPONENT = 4096


class QuantityError(ValueError):
    """Not a Kubernetes quantity; the message is apimachinery's."""


def _fits_int64(value: int) -> bool:
    return MIN_INT64 <= value <= MAX_INT64


@dataclass(frozen=True)
class Quantity:
    value: Fraction
    # (unscaled, scale) while apimachinery would hold an int64Amount; None for its inf.Dec form.
    scaled: tuple[int, int] | None = None
    text: str = ""

    def __str__(self) -> str:
        if self.text:
            return self.text
        if self.value.denominator == 1:
            return str(self.value.numerator)
        return str(float(self.value))

    def cmp(self, other: Quantity) -> int:
        return (self.value > other.value) - (self.value < other.value)

    def sign(self) -> int:
        return (self.value > 0) - (self.value < 0)

    def as_int64(self) -> int | None:
        """The value as int64, or None where apimachinery's AsInt64 reports false."""
        if self.scaled is None:
            return None
        unscaled, scale = self.scaled
        if scale < 0:
            return None
        result = unscaled * 10**scale
        return result if _fits_int64(result) else None

    def approximate_float(self) -> float:
        if self.scaled is not None:
            unscaled, scale = self.scaled
            return float(unscaled) if scale == 0 else float(unscaled) * 10.0**scale
        try:
            return float(self.value)
        except OverflowError:
            return math.inf if self.value > 0 else -math.inf

    def add(self, other: Quantity) -> Quantity:
        scaled = None
        if self.scaled is not None and other.scaled is not None:
            scaled = _add_scaled(self.scaled, other.scaled)
        return Quantity(self.value + other.value, scaled)

    def sub(self, other: Quantity) -> Quantity:
        negated = None if other.scaled is None else (-other.scaled[0], other.scaled[1])
        return self.add(Quantity(-other.value, negated))


def from_int(value: int) -> Quantity:
    """resource.NewQuantity(value, DecimalExponent): what `q.add(5)` adds."""
    return Quantity(Fraction(value), (value, 0), str(value))


def _add_scaled(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """int64Amount.Add: exact while the result fits int64 at the smaller scale, else None."""
    (av, ascale), (bv, bscale) = a, b
    if bv == 0:
        return a
    if av == 0:
        return b
    scale = min(ascale, bscale)
    left, right = av * 10 ** (ascale - scale), bv * 10 ** (bscale - scale)
    if not (_fits_int64(left) and _fits_int64(right) and _fits_int64(left + right)):
        return None
    return (left + right, scale)


def _scan(text: str) -> tuple[bool, str, str, str, str]:
    """Split like apimachinery's parseQuantityString: (positive, value, num, denom, suffix)."""
    end = len(text)
    pos = 0
    positive = True
    if text[0] in "+-":
        positive = text[0] == "+"
        pos = 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return positive, "0", "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return positive, text, text[start:], "", ""
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return positive, text, num, denom, ""
    value = text[:pos]
    start = pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        raise QuantityError(ERR_FORMAT)
    return positive, value, num, denom, text[start:]


def _interpret(suffix: str) -> tuple[int, int, str]:
    """(base, exponent, format) of a suffix, or QuantityError."""
    if suffix in _DECIMAL:
        return 10, _DECIMAL[suffix], "DecimalSI"
    if suffix in _BINARY:
        return 2, _BINARY[suffix], "BinarySI"
    if len(suffix) > 1 and suffix[0] in "eE" and _EXPONENT.fullmatch(suffix[1:]):
        exponent = int(suffix[1:])
        if _fits_int64(exponent):
            exponent = (exponent + 2**31) % 2**32 - 2**31  # Go's int32() conversion wraps
            if abs(exponent) > _MAX_EXPONENT:
                raise QuantityError(f"exponent {exponent} is too large for gsb-tui to evaluate")
            return 10, exponent, "DecimalExponent"
    raise QuantityError(ERR_SUFFIX)


def parse_quantity(text: str) -> Quantity:
    """resource.ParseQuantity, exactly: raises QuantityError with apimachinery's message."""
    if not text:
        raise QuantityError(ERR_FORMAT)
    if text == "0":
        return Quantity(Fraction(0), (0, 0), text)
    positive, value, num, denom, suffix = _scan(text)
    base, exponent, fmt = _interpret(suffix)

    # The fast path: small enough for an int64 mantissa at a scale of at least nano.
    mantissa = 1
    if fmt == "BinarySI":
        scale = 0
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - exponent * 3 // 10 - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = 18 - (len(num) + len(denom))
    if precision >= 0:
        scale -= len(denom)
        if scale >= -9:
            unscaled = int(num + denom) * mantissa
            if _fits_int64(unscaled):
                unscaled = unscaled if positive else -unscaled
                return Quantity(Fraction(unscaled) * Fraction(10) ** scale, (unscaled, scale), text)

    # The decimal path: exact, then rounded up to a whole nano and capped for BinarySI.
    digits = value.lstrip("+-")
    whole, _, fraction = digits.partition(".")
    if not (whole + fraction).isascii() or not (whole + fraction or "0").isdigit():
        raise QuantityError(ERR_NUMERIC)
    amount = Fraction(int(whole + fraction or "0"), 10 ** len(fraction))
    amount *= Fraction(base) ** exponent
    if amount and (amount * _NANO).denominator != 1:
        amount = Fraction(math.ceil(amount * _NANO), _NANO)
    if fmt == "BinarySI" and amount > MAX_INT64:
        amount = Fraction(MAX_INT64)
    return Quantity(amount if positive else -amount, None, text)


def is_quantity(text: str) -> bool:
    try:
        parse_quantity(text)
    except QuantityError:
        return False
    return True
