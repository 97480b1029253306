"""The functions a device selector can call, with cel-go's runtime behaviour and cost.

Operators dispatch as cel-go's standard library does: on a trait of the left operand (`_+_` on a
value that has no Adder is `no such overload: _+_`), the trait's method then refusing a wrong
right operand with a bare `no such overload`. Functions declared with typed overloads (the
strings extension, Kubernetes' quantity and semver libraries, conversions) refuse a value of the
wrong runtime type with `no such overload: name(types)`. The families apart: conversions.py
(int(), string(), ...), string_ext.py (the strings extension); call_costs.py has the runtime
cost of a call (cel-go's CostTracker.costCall and Kubernetes' CallCost).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from gsb_tui.dra.cel.conversions import (
    _convert_bool,
    _convert_bytes,
    _convert_double,
    _convert_int,
    _convert_string,
    _convert_uint,
    _type,
)
from gsb_tui.dra.cel.quantity import Quantity, QuantityError, from_int, is_quantity, parse_quantity
from gsb_tui.dra.cel.semantics import (
    _INT_MIN,
    _NO_OVERLOAD,
    CelError,
    Uint,
    _check_int,
    _check_uint,
    _compare,
    _fail,
    _find,
    _is_int,
    _is_number,
    _key_text,
    _overload,
    _safe_equal,
    equal,
    go_float,
    type_name,
)
from gsb_tui.dra.cel.semver import Semver, SemverError, is_semver, parse_semver
from gsb_tui.dra.cel.string_ext import _STRING_EXTENSIONS, STRING_SIGNATURES

# --- functions -----------------------------------------------------------------------------------

Impl = Callable[[list[Any], bool], Any]


def _eq(args: list[Any], member: bool) -> Any:
    return equal(args[0], args[1])


def _ne(args: list[Any], member: bool) -> Any:
    """cel-go's evalNe: true unless the values are equal (an error is not equal)."""
    try:
        return not equal(args[0], args[1])
    except CelError:
        return True


def _comparison(op: str, test: Callable[[int], bool]) -> Impl:
    def compare(args: list[Any], member: bool) -> Any:
        return test(_compare(op, args[0], args[1]))

    return compare


def _add(args: list[Any], member: bool) -> Any:
    a, b = args
    if _is_int(a):
        if not _is_int(b):
            raise _fail(_NO_OVERLOAD)
        return _check_int(a + b)
    if isinstance(a, Uint):
        if not isinstance(b, Uint):
            raise _fail(_NO_OVERLOAD)
        return _check_uint(a + b)
    if isinstance(a, float):
        if not isinstance(b, float):
            raise _fail(_NO_OVERLOAD)
        return a + b
    if isinstance(a, str):
        if not isinstance(b, str):
            raise _fail(_NO_OVERLOAD)
        return a + b
    if isinstance(a, bytes):
        if not isinstance(b, bytes):
            raise _fail(_NO_OVERLOAD)
        return a + b
    if isinstance(a, list):
        if not isinstance(b, list):
            raise _fail(_NO_OVERLOAD)
        return a + b
    raise _fail("no such overload: _+_")


def _arith(op: str) -> Impl:
    def arith(args: list[Any], member: bool) -> Any:
        a, b = args
        if _is_int(a) or isinstance(a, Uint):
            if type(b) is not type(a) and not (_is_int(a) and _is_int(b)):
                raise _fail(_NO_OVERLOAD)
            check = _check_int if _is_int(a) else _check_uint
            if op == "_-_":
                return check(a - b)
            if op == "_*_":
                return check(a * b)
            if b == 0:
                raise _fail("division by zero" if op == "_/_" else "modulus by zero")
            if _is_int(a) and a == _INT_MIN and b == -1:
                raise _fail("integer overflow")
            quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return check(quotient if op == "_/_" else a - b * quotient)
        if isinstance(a, float):
            if not isinstance(b, float) or op == "_%_":
                raise _fail(_NO_OVERLOAD if op != "_%_" else "no such overload: _%_")
            if op == "_-_":
                return a - b
            if op == "_*_":
                return a * b
            if b == 0:
                if a == 0 or math.isnan(a):
                    return math.nan
                return math.copysign(math.inf, a) * math.copysign(1.0, b)
            return a / b
        raise _fail(f"no such overload: {op}")

    return arith


def _negate(args: list[Any], member: bool) -> Any:
    a = args[0]
    if _is_int(a):
        return _check_int(-a)
    if isinstance(a, float):
        return -a
    raise _fail("no such overload: -_")


def _not(args: list[Any], member: bool) -> Any:
    if isinstance(args[0], bool):
        return not args[0]
    raise _fail(_NO_OVERLOAD)


def index(container: Any, key: Any) -> Any:
    """`container[key]` (and `.field`) with cel-go's errors: the one rule the interpreter's
    qualification and the `_[_]` function share."""
    if isinstance(container, dict):
        found, item = _find(container, key)
        if found:
            return item
        raise CelError(f"no such key: {_key_text(key)}")
    if isinstance(container, list):
        if isinstance(key, bool) or not _is_number(key):
            raise CelError(f"unsupported index type '{type_name(key)}' in list")
        if isinstance(key, float):
            if key != math.floor(key) or math.isinf(key):
                raise CelError(f"unsupported index value {go_float(key)} in list")
            key = int(key)
        if 0 <= key < len(container):
            return container[key]
        raise CelError(f"index out of bounds: {_key_text(key)}")
    raise CelError(f"no such key: {_key_text(key)}")


def _index(args: list[Any], member: bool) -> Any:
    return index(args[0], args[1])


def _in(args: list[Any], member: bool) -> Any:
    value, container = args
    if isinstance(container, list):
        return any(_safe_equal(value, item) for item in container)
    if isinstance(container, dict):
        if isinstance(value, Semver):
            raise CelError("internal error: runtime error: hash of unhashable type cel.Semver")
        return _find(container, value, default=False)[0]
    raise _fail(_NO_OVERLOAD)


def _size(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, str | bytes | list | dict) and not isinstance(v, bool):
        return len(v)
    raise _fail("no such overload: size")


def _string_predicate(name: str) -> Impl:
    def predicate(args: list[Any], member: bool) -> Any:
        s, other = args
        if not isinstance(s, str) or not isinstance(other, str):
            raise _fail(_NO_OVERLOAD)
        if name == "contains":
            return other in s
        if name == "startsWith":
            return s.startswith(other)
        if name == "endsWith":
            return s.endswith(other)
        try:
            return re.search(other, s) is not None
        except re.error as exc:
            raise _fail(f"error parsing regexp: {exc}") from None

    return predicate


def _typed(name: str, *signatures: tuple[type | tuple[type, ...], ...]) -> Callable[[Impl], Impl]:
    """Functions declared with typed overloads: a runtime type that fits none is cel-go's
    `no such overload: name(types)`."""

    def wrap(fn: Impl) -> Impl:
        def guarded(args: list[Any], member: bool) -> Any:
            for sig in signatures:
                if len(sig) == len(args) and all(
                    _fits(a, t) for a, t in zip(args, sig, strict=True)
                ):
                    return fn(args, member)
            raise _overload(name, *args)

        return guarded

    return wrap


def _fits(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if k is int and _is_int(value):
            return True
        if k is Uint and isinstance(value, Uint):
            return True
        if k is bool and isinstance(value, bool):
            return True
        if k not in (int, Uint, bool) and isinstance(value, k) and not isinstance(value, bool):
            return True
    return False


def _quantity_fn(args: list[Any], member: bool) -> Any:
    try:
        return parse_quantity(args[0])
    except QuantityError as exc:
        raise _fail(str(exc)) from None


def _semver_fn(args: list[Any], member: bool) -> Any:
    try:
        return parse_semver(args[0], bool(args[1]) if len(args) > 1 else False)
    except SemverError as exc:
        raise _fail(str(exc)) from None


def _as_integer(args: list[Any], member: bool) -> Any:
    value = args[0].as_int64()
    if value is None:
        raise _fail("cannot convert value to integer")
    return value


def _plus(sign: int) -> Impl:
    def plus(args: list[Any], member: bool) -> Any:
        q, other = args
        right = from_int(other) if _is_int(other) else other
        return q.add(right) if sign > 0 else q.sub(right)

    return plus


def _ordering(name: str) -> Impl:
    def order(args: list[Any], member: bool) -> Any:
        a, b = args
        if isinstance(a, Quantity) and isinstance(b, Quantity):
            result = a.cmp(b)
        elif isinstance(a, Semver) and isinstance(b, Semver):
            result = a.compare(b)
        else:
            raise _overload(name, *args)
        if name == "compareTo":
            return result
        return result > 0 if name == "isGreaterThan" else result < 0

    return order


def _string_ext(name: str) -> Impl:
    fn = _STRING_EXTENSIONS[name]
    return lambda args, member: fn(*args)


_Q, _S = Quantity, Semver
FUNCTIONS: dict[str, Impl] = {
    "_==_": _eq,
    "_!=_": _ne,
    "_<_": _comparison("_<_", lambda c: c < 0),
    "_<=_": _comparison("_<=_", lambda c: c <= 0),
    "_>_": _comparison("_>_", lambda c: c > 0),
    "_>=_": _comparison("_>=_", lambda c: c >= 0),
    "_+_": _add,
    "_-_": _arith("_-_"),
    "_*_": _arith("_*_"),
    "_/_": _arith("_/_"),
    "_%_": _arith("_%_"),
    "-_": _negate,
    "!_": _not,
    "_[_]": _index,
    "@in": _in,
    "size": _size,
    "contains": _string_predicate("contains"),
    "startsWith": _string_predicate("startsWith"),
    "endsWith": _string_predicate("endsWith"),
    "matches": _string_predicate("matches"),
    "int": _convert_int,
    "uint": _convert_uint,
    "double": _convert_double,
    "string": _convert_string,
    "bytes": _convert_bytes,
    "bool": _convert_bool,
    "dyn": lambda args, member: args[0],
    "type": _type,
    "quantity": _typed("quantity", (str,))(_quantity_fn),
    "isQuantity": _typed("isQuantity", (str,))(lambda a, m: is_quantity(a[0])),
    "sign": _typed("sign", (_Q,))(lambda a, m: a[0].sign()),
    "isInteger": _typed("isInteger", (_Q,))(lambda a, m: a[0].as_int64() is not None),
    "asInteger": _typed("asInteger", (_Q,))(_as_integer),
    "asApproximateFloat": _typed("asApproximateFloat", (_Q,))(
        lambda a, m: a[0].approximate_float()
    ),
    "add": _typed("add", (_Q, _Q), (_Q, int))(_plus(1)),
    "sub": _typed("sub", (_Q, _Q), (_Q, int))(_plus(-1)),
    "compareTo": _ordering("compareTo"),
    "isGreaterThan": _ordering("isGreaterThan"),
    "isLessThan": _ordering("isLessThan"),
    "semver": _typed("semver", (str,), (str, bool))(_semver_fn),
    "isSemver": _typed("isSemver", (str,), (str, bool))(
        lambda a, m: is_semver(a[0], bool(a[1]) if len(a) > 1 else False)
    ),
    "major": _typed("major", (_S,))(lambda a, m: a[0].major),
    "minor": _typed("minor", (_S,))(lambda a, m: a[0].minor),
    "patch": _typed("patch", (_S,))(lambda a, m: a[0].patch),
}
for _name, _sig in STRING_SIGNATURES.items():
    FUNCTIONS[_name] = _typed(_name, *_sig)(_string_ext(_name))


def fits(args: list[Any], signatures: tuple[tuple[type, ...], ...]) -> bool:
    """Whether runtime values fit one of a function's typed overloads."""
    return any(
        len(sig) == len(args) and all(_fits(a, t) for a, t in zip(args, sig, strict=True))
        for sig in signatures
    )
