"""The functions a device selector can call, with cel-go's runtime behaviour and cost.

Operators dispatch as cel-go's standard library does: on a trait of the left operand (`_+_` on a
value that has no Adder is `no such overload: _+_`), the trait's method then refusing a wrong
right operand with a bare `no such overload`. Kubernetes' quantity and semver libraries and
the strings extension are extensions.py's records (they refuse a value of the wrong runtime
type with `no such overload: name(types)`); conversions.py has int(), string(), ...;
call_costs.py the runtime cost of a call (cel-go's CostTracker.costCall and Kubernetes'
CallCost).
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
from gsb_tui.dra.cel.extensions import IMPLEMENTED
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
    _safe_equal,
    equal,
    go_float,
    type_name,
)
from gsb_tui.dra.cel.semver import Semver

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
    **IMPLEMENTED,  # the libraries' functions: each record's (extensions.py)
}
