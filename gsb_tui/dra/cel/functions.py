# Over 400 lines: cel-go's runtime function table in one place, to read beside cel-go's.
"""The functions a device selector can call, with cel-go's runtime behaviour and cost.

Operators dispatch as cel-go's standard library does: on a trait of the left operand (`_+_` on a
value that has no Adder is `no such overload: _+_`), the trait's method then refusing a wrong
right operand with a bare `no such overload`. Functions declared with typed overloads (the
strings extension, Kubernetes' quantity and semver libraries, conversions) refuse a value of the
wrong runtime type with `no such overload: name(types)`. `CALL_COSTS` is the runtime cost of a
call (cel-go's CostTracker.costCall and Kubernetes' CallCost).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from gsb_tui.dra.cel.quantity import Quantity, QuantityError, from_int, is_quantity, parse_quantity
from gsb_tui.dra.cel.semantics import (
    _INT_MIN,
    _NO_OVERLOAD,
    _UINT_MAX,
    CelError,
    CelType,
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


def _convert_int(args: list[Any], member: bool) -> Any:
    v = args[0]
    if _is_int(v):
        return v
    if isinstance(v, Uint):
        return _check_int(int(v))
    if isinstance(v, float):
        if math.isnan(v) or not (-9.223372036854776e18 < v < 9.223372036854776e18):
            raise _fail("integer overflow")
        return int(v)
    if isinstance(v, str):
        try:
            return _check_int(int(v, 10)) if re.fullmatch(r"[+-]?[0-9]+", v) else _bad(v)
        except CelError:
            raise _fail("type conversion error from 'string' to 'int'") from None
    raise _overload("int", v)


def _bad(_: Any) -> Any:
    raise CelError("conversion")


def _convert_uint(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, Uint):
        return v
    if _is_int(v):
        return _check_uint(v)
    if isinstance(v, float):
        if math.isnan(v) or not (-1 < v < 1.8446744073709552e19):
            raise _fail("unsigned integer overflow")
        return Uint(int(v))
    if isinstance(v, str):
        if re.fullmatch(r"\+?[0-9]+", v) and int(v) <= _UINT_MAX:
            return Uint(int(v))
        raise _fail("type conversion error from 'string' to 'uint'")
    raise _overload("uint", v)


def _convert_double(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, float):
        return v
    if _is_number(v):
        return float(v)
    if isinstance(v, str):
        try:
            value = float(v)
        except ValueError:
            raise _fail("type conversion error from 'string' to 'double'") from None
        if math.isinf(value) and not re.fullmatch(r"[+-]?(inf|infinity)", v.lower()):
            raise _fail("type conversion error from 'string' to 'double'")
        return value
    raise _overload("double", v)


def _convert_string(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return go_float(v)
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("invalid UTF-8 in bytes, cannot convert to string") from None
    raise _overload("string", v)


def _convert_bytes(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogatepass")
    raise _overload("bytes", v)


def _convert_bool(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        if v in ("1", "t", "true", "TRUE", "True"):
            return True
        if v in ("0", "f", "false", "FALSE", "False"):
            return False
        raise _fail("type conversion error from 'string' to 'bool'")
    raise _overload("bool", v)


def _type(args: list[Any], member: bool) -> Any:
    return CelType(type_name(args[0]))


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


def _ascii(s: str, upper: bool) -> str:
    return "".join((c.upper() if upper else c.lower()) if c < "\x80" else c for c in s)


def _char_at(s: str, i: int) -> str:
    if i < 0 or i > len(s):
        raise _fail(f"index out of range: {i}")
    return s[i] if i < len(s) else ""


def _index_of(s: str, sub: str, offset: int = 0) -> int:
    if sub == "":
        return offset
    if offset < 0:
        raise _fail(f"index out of range: {offset}")
    if offset >= len(s):
        return -1
    return s.find(sub, offset)


def _last_index_of(s: str, sub: str, offset: int | None = None) -> int:
    if offset is None:
        if sub == "":
            return len(s)
        if len(s.encode("utf-8", "surrogatepass")) < len(sub.encode("utf-8", "surrogatepass")):
            return -1
        offset = len(s) - 1
    if sub == "":
        return offset
    if offset < 0:
        raise _fail(f"index out of range: {offset}")
    if offset >= len(s):
        return -1
    return s.rfind(sub, 0, min(offset, len(s) - len(sub)) + len(sub))


def _substring(s: str, start: int, end: int | None = None) -> str:
    if end is None:
        if start < 0 or start > len(s):
            raise _fail(f"index out of range: {start}")
        return s[start:]
    if start > end:
        raise _fail(f"invalid substring range. start: {start}, end: {end}")
    for i in (start, end):
        if i < 0 or i > len(s):
            raise _fail(f"index out of range: {i}")
    return s[start:end]


def _replace(s: str, old: str, new: str, n: int = -1) -> str:
    return s.replace(old, new, n if n >= 0 else -1)


def _split(s: str, sep: str, n: int = -1) -> list[str]:
    """Go's strings.SplitN."""
    if n == 0:
        return []
    if sep == "":
        parts = list(s)
        if 0 < n < len(parts):
            parts = [*parts[: n - 1], "".join(parts[n - 1 :])]
        return parts
    return s.split(sep, n - 1 if n > 0 else -1)


def _join(items: list[Any], sep: str = "") -> str:
    for item in items:
        if not isinstance(item, str):
            raise _fail(f"join: invalid input: {item}")
    return sep.join(items)


def _quote(s: str) -> str:
    from cel.stdlib import EXTENSIONS  # part of common-expression-language

    return str(EXTENSIONS["strings"]["strings.quote"](s))


_STRING_EXTENSIONS: dict[str, Callable[..., Any]] = {
    "charAt": _char_at,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
    "lowerAscii": lambda s: _ascii(s, False),
    "upperAscii": lambda s: _ascii(s, True),
    "trim": str.strip,
    "replace": _replace,
    "split": _split,
    "substring": _substring,
    "join": _join,
    "strings.quote": _quote,
}


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
# The strings extension's overloads (cel-go ext/strings.go, version 2).
STRING_SIGNATURES: dict[str, tuple[tuple[type, ...], ...]] = {
    "charAt": ((str, int),),
    "indexOf": ((str, str), (str, str, int)),
    "lastIndexOf": ((str, str), (str, str, int)),
    "lowerAscii": ((str,),),
    "upperAscii": ((str,),),
    "trim": ((str,),),
    "replace": ((str, str, str), (str, str, str, int)),
    "split": ((str, str), (str, str, int)),
    "substring": ((str, int), (str, int, int)),
    "join": ((list,), (list, str)),
    "strings.quote": ((str,),),
}
for _name, _sig in STRING_SIGNATURES.items():
    FUNCTIONS[_name] = _typed(_name, *_sig)(_string_ext(_name))


def fits(args: list[Any], signatures: tuple[tuple[type, ...], ...]) -> bool:
    """Whether runtime values fit one of a function's typed overloads."""
    return any(
        len(sig) == len(args) and all(_fits(a, t) for a, t in zip(args, sig, strict=True))
        for sig in signatures
    )


# --- runtime cost of calls (cel-go CostTracker.costCall + Kubernetes' CallCost) ------------------


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
