"""CEL values at run time as cel-go has them: types, errors, equality, ordering, formatting.

interp.py evaluates with these rules (cel-go common/types and k8s.io/apiserver pkg/cel): a uint
is not an int, numbers compare across kinds by value, a semantic version or quantity compared
with anything else is a `no such overload` error, a string's size counts code points, and a
double prints as Go's strconv does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.cel.quantity import Quantity
from gsb_tui.dra.cel.semver import Semver

_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_UINT_MAX = 2**64 - 1


class CelError(Exception):
    """A CEL runtime error; str() is cel-go's message."""


class Uint(int):
    """A CEL uint (Python has one integer type)."""


@dataclass(frozen=True)
class CelType:
    name: str


class DefaultMap(dict[str, Any]):
    """device.attributes / device.capacity: an unknown domain reads as an empty map."""


_DOUBLE_TYPE, _INT_TYPE, _UINT_TYPE = CelType("double"), CelType("int"), CelType("uint")
_TYPE_VALUES = {
    n: CelType(n)
    for n in (
        "int",
        "uint",
        "double",
        "bool",
        "string",
        "bytes",
        "null_type",
        "list",
        "map",
        "type",
    )
}


def type_name(v: Any) -> str:
    """cel-go's TypeName() of a value."""
    if v is None:
        return "null_type"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, Uint):
        return "uint"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "double"
    if isinstance(v, str):
        return "string"
    if isinstance(v, bytes):
        return "bytes"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "map"
    if isinstance(v, Semver):
        return "kubernetes.Semver"
    if isinstance(v, Quantity):
        return "kubernetes.Quantity"
    if isinstance(v, CelType):
        return "type"
    return type(v).__name__


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool | Uint)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _fail(message: str) -> CelError:
    return CelError(message)


_NO_OVERLOAD = "no such overload"


def _overload(name: str, *args: Any) -> CelError:
    """cel-go's MaybeNoSuchOverload for a function declared with typed overloads."""
    return CelError(f"no such overload: {name}({', '.join(type_name(a) for a in args)})")


def _check_int(v: int) -> int:
    if v < _INT_MIN or v > _INT_MAX:
        raise _fail("integer overflow")
    return v


def _check_uint(v: int) -> Uint:
    if v < 0 or v > _UINT_MAX:
        raise _fail("unsigned integer overflow")
    return Uint(v)


# --- equality and ordering (cel-go common/types) -------------------------------------------------


def _num_cmp(a: Any, b: Any) -> int | None:
    """Compare two numbers of any CEL numeric kinds exactly; None for NaN."""
    if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
        return None
    if isinstance(a, float) or isinstance(b, float):
        fa, fb = float(a), float(b)
        if isinstance(a, int) and not isinstance(a, bool):  # exact int-vs-double comparison
            if math.isinf(fb):
                return -1 if fb > 0 else 1
            ia = a
            if fb == math.floor(fb):
                ib = int(fb)
                return (ia > ib) - (ia < ib)
            return -1 if ia < fb else 1
        if isinstance(b, int) and not isinstance(b, bool):
            r = _num_cmp(b, a)
            return None if r is None else -r
        return (fa > fb) - (fa < fb)
    return int((a > b) - (a < b))


def equal(a: Any, b: Any) -> bool:
    """cel-go's types.Equal: heterogeneous numbers compare by value; Semver/Quantity against
    anything else is a `no such overload` error; errors inside lists and maps are not False."""
    if a is None or b is None:
        return a is None and b is None
    if _is_number(a):
        return _is_number(b) and _num_cmp(a, b) == 0
    if isinstance(a, bool):
        return isinstance(b, bool) and a == b
    if isinstance(a, str):
        return isinstance(b, str) and a == b
    if isinstance(a, bytes):
        return isinstance(b, bytes) and a == b
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return False
        for x, y in zip(a, b, strict=True):
            try:
                if not equal(x, y):
                    return False
            except CelError:
                continue
        return True
    if isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        for k, v in a.items():
            found, other = _find(b, k)
            if not found:
                return False
            try:
                if not equal(v, other):
                    return False
            except CelError:
                continue
        return True
    if isinstance(a, Semver):
        if not isinstance(b, Semver):
            raise _fail(_NO_OVERLOAD)
        return a.compare(b) == 0
    if isinstance(a, Quantity):
        if not isinstance(b, Quantity):
            raise _fail(_NO_OVERLOAD)
        return a.cmp(b) == 0
    if isinstance(a, CelType):
        return isinstance(b, CelType) and a.name == b.name
    return False


def _compare(op: str, a: Any, b: Any) -> int:
    """The Comparer trait: -1, 0 or 1, or cel-go's error."""
    if _is_number(a):
        if not _is_number(b):
            raise _fail(_NO_OVERLOAD)
        result = _num_cmp(a, b)
        if result is None:
            raise _fail("NaN values cannot be ordered")
        return result
    if isinstance(a, bool):
        if not isinstance(b, bool):
            raise _fail(_NO_OVERLOAD)
        return int(a) - int(b)
    if isinstance(a, str):
        if not isinstance(b, str):
            raise _fail(_NO_OVERLOAD)
        return (a > b) - (a < b)
    if isinstance(a, bytes):
        if not isinstance(b, bytes):
            raise _fail(_NO_OVERLOAD)
        return (a > b) - (a < b)
    raise _fail(f"no such overload: {op}")


def _find(container: dict[Any, Any], key: Any, default: bool = True) -> tuple[bool, Any]:
    """A map lookup with cel-go's numeric key equivalence; device.attributes/capacity answer
    an unknown domain with an empty map (not for `in`)."""
    if isinstance(key, str):
        if key in container:
            return True, container[key]
        if default and isinstance(container, DefaultMap):
            return True, {}
        return False, None
    if isinstance(key, bool):
        for k, v in container.items():
            if isinstance(k, bool) and k == key:
                return True, v
        return False, None
    if _is_number(key):
        if isinstance(key, float) and (math.isnan(key) or math.isinf(key)):
            return False, None
        for k, v in container.items():
            if _is_number(k) and _num_cmp(k, key) == 0:
                return True, v
        return False, None
    return False, None


def _same_kind(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    return type(a) is type(b) or (isinstance(a, str) and isinstance(b, str))


# --- Go formatting ---------------------------------------------------------------------------


def go_float(f: float) -> str:
    """Go's fmt %g (strconv .g, shortest), as cel-go's string(double) prints."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    digits, exp = _shortest(abs(f))
    sign = "-" if f < 0 else ""
    x = exp - 1  # exponent of the first digit
    if x < -4 or x >= 6:  # strconv .g, shortest: %e from the 7th digit
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'+' if x >= 0 else '-'}{abs(x):02d}"
    if exp <= 0:
        return f"{sign}0.{'0' * -exp}{digits}"
    if exp >= len(digits):
        return f"{sign}{digits}{'0' * (exp - len(digits))}"
    return f"{sign}{digits[:exp]}.{digits[exp:]}"


def _shortest(f: float) -> tuple[str, int]:
    """The shortest round-tripping decimal digits of f and the decimal point position."""
    text = repr(f)
    mantissa, _, e = text.partition("e")
    exp = int(e) if e else 0
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    point = len(whole) + exp - (len(whole + frac) - len((whole + frac).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    return digits, point


def _key_text(key: Any) -> str:
    """How cel-go prints a missing key (%v of the CEL value)."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float):
        return go_float(key)
    if isinstance(key, bytes):
        return "[" + " ".join(str(b) for b in key) + "]"
    if key is None:
        return "NULL_VALUE"
    return str(key)


def _safe_equal(a: Any, b: Any) -> bool:
    try:
        return equal(a, b)
    except CelError:
        return False


def not_bool(value: Any) -> str:
    """The scheduler's error for a selector whose value is not a bool (an attribute's)."""
    kind = type_name(value)
    if isinstance(value, str):
        detail = "unsupported native conversion from string to 'bool'"
    elif isinstance(value, Semver | Quantity):
        detail = f"type conversion error from '{kind.split('.')[-1]}' to 'bool'"
    else:
        detail = f"unsupported type conversion from '{kind}' to bool"
    return f"CEL result of type {kind} could not be converted to bool: {detail}"
