"""Kubernetes' CEL functions as Python callbacks for the evaluating library (runtime.py).

The library only calls plain functions: emit.py prints `q.asInteger()` as `k8s_asInteger(q)`.
A callback's failure is a CEL runtime error; its message is kept in `failure.message` because
the library wraps the exception text in its own. Every callback first checks the evaluation's
deadline (`failure.deadline`): the library's own work cannot be interrupted, a callback can.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

from gsb_tui.dra.cel import emit
from gsb_tui.dra.cel.quantity import Quantity, QuantityError, from_int, is_quantity, parse_quantity
from gsb_tui.dra.cel.semver import SemverError, is_semver, parse_semver
from gsb_tui.dra.cel.values import as_quantity, as_semver, encode_quantity, encode_semver

failure = threading.local()


class _Failure(Exception):
    pass


def _fail(message: str) -> NoReturn:
    # The library wraps our exception text in its own; keep the message to report it verbatim.
    failure.message = message
    raise _Failure(message)


TIMEOUT = "\x00deadline"  # failure.message when a callback found the deadline passed


def _on_time() -> None:
    """Called from Python callbacks: stop the library's evaluation past the deadline."""
    deadline: float = getattr(failure, "deadline", math.inf)
    if time.monotonic() > deadline:
        _fail(TIMEOUT)


def _no_overload() -> NoReturn:
    _fail("no such overload")


def _quantity_arg(value: Any) -> Quantity:
    q = as_quantity(value)
    return q if q is not None else _no_overload()


def _string_arg(value: Any) -> str:
    return value if isinstance(value, str) else _no_overload()


def _k8s_quantity(text: Any) -> dict[str, str]:
    try:
        return encode_quantity(parse_quantity(_string_arg(text)))
    except QuantityError as exc:
        _fail(str(exc))


def _k8s_semver(text: Any, normalize: Any = False) -> dict[str, str]:
    try:
        return encode_semver(parse_semver(_string_arg(text), bool(normalize)))
    except SemverError as exc:
        _fail(str(exc))


def _compare(a: Any, b: Any) -> int:
    qa, qb = as_quantity(a), as_quantity(b)
    if qa is not None and qb is not None:
        return qa.cmp(qb)
    sa, sb = as_semver(a), as_semver(b)
    if sa is not None and sb is not None:
        return sa.compare(sb)
    _no_overload()


def _as_integer(q: Any) -> int:
    value = _quantity_arg(q).as_int64()
    return value if value is not None else _fail("cannot convert value to integer")


def _plus(q: Any, other: Any, sign: int) -> dict[str, str]:
    left = _quantity_arg(q)
    if isinstance(other, int) and not isinstance(other, bool):
        right = from_int(other)
    else:
        right = _quantity_arg(other)
    return encode_quantity(left.add(right) if sign > 0 else left.sub(right))


def _semver_part(v: Any, part: str) -> int:
    s = as_semver(v)
    return int(getattr(s, part)) if s is not None else _no_overload()


def _eq(a: Any, b: Any) -> bool:
    qa, qb = as_quantity(a), as_quantity(b)
    if qa is not None:  # cel-go's Quantity.Equal: anything but a quantity (or null) is an error
        if qb is not None:
            return qa.cmp(qb) == 0
        if b is None:
            return False
        _no_overload()
    if qb is not None:
        return False
    return bool(a == b)


def _in(value: Any, container: Any) -> bool:
    return any(_eq(value, item) for item in container)


def _size(value: Any) -> int:
    """cel-go's size: a string's code points, a list's or map's entries; no such overload for
    anything else (a semver or quantity included, though the library carries them as maps)."""
    if isinstance(value, dict) and (as_quantity(value) is not None or as_semver(value)):
        _fail("no such overload: size")
    if isinstance(value, str | bytes | list | dict):
        return len(value)
    _fail("no such overload: size")


def _string(value: Any) -> str:
    """cel-go's string(): a double as Go's %g prints it; anything but a scalar fails."""
    from gsb_tui.dra.cel.semantics import go_float

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8")
    _no_overload()


def _negate(value: Any) -> Any:
    """cel-go's -x on a dynamic value: int64 overflow is an error."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value == -(2**63):
            _fail("integer overflow")
        return -value
    if isinstance(value, float):
        return -value
    _fail("no such overload: -_")


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("1", "t", "true", "TRUE", "True"):
        return True
    if value in ("0", "f", "false", "FALSE", "False"):
        return False
    _fail("type conversion error from 'string' to 'bool'")


def _guarded(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a stdlib function so its exceptions surface as CEL runtime errors, and a value of
    the wrong type (a semver is a map to the library) is one too, not an answer."""
    from gsb_tui.dra.cel.functions import fits
    from gsb_tui.dra.cel.string_ext import STRING_SIGNATURES

    signatures = STRING_SIGNATURES.get(name, ())

    def call(*args: Any) -> Any:
        _on_time()
        if signatures and not fits(list(args), signatures):
            _no_overload()
        try:
            return fn(*args)
        except _Failure:
            raise
        except Exception as exc:
            _fail(str(exc) or type(exc).__name__)

    return call


def functions() -> dict[str, Callable[..., Any]]:
    from cel.stdlib import EXTENSIONS  # part of common-expression-language

    py = emit.python_name
    functions: dict[str, Callable[..., Any]] = {
        py("quantity"): _k8s_quantity,
        py("isQuantity"): lambda s: is_quantity(_string_arg(s)),
        py("sign"): lambda q: _quantity_arg(q).sign(),
        py("isInteger"): lambda q: _quantity_arg(q).as_int64() is not None,
        py("asInteger"): _as_integer,
        py("asApproximateFloat"): lambda q: _quantity_arg(q).approximate_float(),
        py("add"): lambda q, other: _plus(q, other, 1),
        py("sub"): lambda q, other: _plus(q, other, -1),
        py("compareTo"): _compare,
        py("isGreaterThan"): lambda a, b: _compare(a, b) > 0,
        py("isLessThan"): lambda a, b: _compare(a, b) < 0,
        py("semver"): _k8s_semver,
        py("isSemver"): lambda s, normalize=False: is_semver(_string_arg(s), bool(normalize)),
        py("major"): lambda v: _semver_part(v, "major"),
        py("minor"): lambda v: _semver_part(v, "minor"),
        py("patch"): lambda v: _semver_part(v, "patch"),
        py("eq"): _eq,
        py("in"): _in,
        py("bool"): _bool,
        py("size"): _size,
        py("string"): _guarded("", _string),
        py("negate"): _negate,
    }
    for name, fn in EXTENSIONS["strings"].items():
        functions[py(name)] = _guarded(name, fn)
    return {name: _timed(fn) for name, fn in functions.items()}


def _timed(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        _on_time()
        return fn(*args)

    return call
