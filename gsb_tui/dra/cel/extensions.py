"""Kubernetes' quantity and semver libraries and cel-go's strings extension (version 2): one
record per function, the one place each is described. A record says how the checker declares
it (its overloads), which runtime types each overload takes, what the interpreter calls, its
runtime cost (cel-go's CostTracker / Kubernetes' CallCost) and the shape of its estimated
cost (k8s.io/apiserver pkg/cel/library CostEstimator, cost_sizes.ESTIMATES). types.py declares
the core operators and conversions; `DECLARED`, `IMPLEMENTED`, `CALL_COSTS` and `SHAPES` are
what check.py, functions.py, call_costs.py and cost_sizes.py take from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gsb_tui.dra.cel import string_ext
from gsb_tui.dra.cel.call_sizes import length, one, traversal
from gsb_tui.dra.cel.quantity import Quantity, QuantityError, from_int, is_quantity, parse_quantity
from gsb_tui.dra.cel.semantics import Uint, _fail, _is_int, _overload
from gsb_tui.dra.cel.semver import Semver, SemverError, is_semver, parse_semver
from gsb_tui.dra.cel.types import (
    BOOL,
    DOUBLE,
    FUNCTIONS,
    INT,
    QUANTITY,
    SEMVER,
    STRING,
    Function,
    Overload,
    _g,
    _m,
    list_of,
)

Impl = Callable[[list[Any], bool], Any]  # (arguments, target first; called as a member)
CallCost = Callable[[list[Any], Any], int]  # (arguments, result) -> runtime cost units
# The estimated cost's shape (cost_sizes.py reads each): "one" unit; the string target
# traversed ("string-target", the result as long as it); the first argument traversed
# ("string-argument"); a string or list target traversed ("elements"); "replace", "split",
# "join" their own; "cel-go" leaves it to cel-go's own rules.
Shape = Literal[
    "one", "string-target", "string-argument", "elements", "replace", "split", "join", "cel-go"
]
Runtime = tuple[type | tuple[type, ...], ...]


@dataclass(frozen=True)
class LibraryFunction:
    name: str
    overloads: tuple[Overload, ...]
    runtime: tuple[Runtime, ...]  # per overload; () when `impl` checks the types itself
    impl: Impl
    cost: CallCost
    estimate: Shape

    def implementation(self) -> Impl:
        """`impl`, refusing runtime types that fit no overload with cel-go's
        `no such overload: name(types)`."""
        if not self.runtime:
            return self.impl
        name, signatures, impl = self.name, self.runtime, self.impl

        def guarded(args: list[Any], member: bool) -> Any:
            if fits(args, signatures):
                return impl(args, member)
            raise _overload(name, *args)

        return guarded


def fits(args: list[Any], signatures: tuple[Runtime, ...]) -> bool:
    """Whether runtime values fit one of a function's typed overloads."""
    return any(
        len(sig) == len(args) and all(_fits(a, t) for a, t in zip(args, sig, strict=True))
        for sig in signatures
    )


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


# --- implementations -------------------------------------------------------------------------


def _quantity(args: list[Any], member: bool) -> Any:
    try:
        return parse_quantity(args[0])
    except QuantityError as exc:
        raise _fail(str(exc)) from None


def _semver(args: list[Any], member: bool) -> Any:
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
    """compareTo, isGreaterThan, isLessThan: shared by quantities and versions, both operands of
    one kind (else `no such overload`)."""

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


def _spread(fn: Callable[..., Any]) -> Impl:
    return lambda args, member: fn(*args)


# --- runtime costs ---------------------------------------------------------------------------


def _first_traversal(args: list[Any], result: Any) -> int:
    return traversal(args[0])


def _twice_the_target(args: list[Any], result: Any) -> int:
    return math.ceil(length(args[0]) * 2 * 0.1)


def _twice_the_result(args: list[Any], result: Any) -> int:
    return math.ceil(length(result) * 2 * 0.1)


def _target_tenth(args: list[Any], result: Any) -> int:
    return int(length(args[0]) * 0.1)


# --- the records -----------------------------------------------------------------------------

_Q, _S = Quantity, Semver
_RECORDS: list[LibraryFunction] = [
    # Kubernetes' quantity library
    LibraryFunction(
        "quantity", (_g(QUANTITY, STRING),), ((str,),), _quantity, _first_traversal,
        "string-argument",
    ),
    LibraryFunction(
        "isQuantity", (_g(BOOL, STRING),), ((str,),),
        lambda a, m: is_quantity(a[0]), _first_traversal, "string-argument",
    ),
    LibraryFunction(
        "sign", (_g(INT, QUANTITY),), ((_Q,),), lambda a, m: a[0].sign(), one, "one"
    ),
    LibraryFunction(
        "isInteger", (_m(BOOL, QUANTITY),), ((_Q,),),
        lambda a, m: a[0].as_int64() is not None, one, "one",
    ),
    LibraryFunction("asInteger", (_m(INT, QUANTITY),), ((_Q,),), _as_integer, one, "one"),
    LibraryFunction(
        "asApproximateFloat", (_m(DOUBLE, QUANTITY),), ((_Q,),),
        lambda a, m: a[0].approximate_float(), one, "one",
    ),
    *(
        LibraryFunction(
            name,
            (_m(QUANTITY, QUANTITY, QUANTITY), _m(QUANTITY, QUANTITY, INT)),
            ((_Q, _Q), (_Q, int)),
            _plus(sign),
            one,
            "one",
        )
        for name, sign in (("add", 1), ("sub", -1))
    ),
    # Comparisons, shared by the quantity and semver libraries
    LibraryFunction(
        "isGreaterThan", tuple(_m(BOOL, t, t) for t in (QUANTITY, SEMVER)), (),
        _ordering("isGreaterThan"), one, "one",
    ),
    LibraryFunction(
        "isLessThan", tuple(_m(BOOL, t, t) for t in (QUANTITY, SEMVER)), (),
        _ordering("isLessThan"), one, "one",
    ),
    LibraryFunction(
        "compareTo", tuple(_m(INT, t, t) for t in (QUANTITY, SEMVER)), (),
        _ordering("compareTo"), one, "one",
    ),
    # Kubernetes' semver library (version 1: the optional normalize flag)
    LibraryFunction(
        "semver", (_g(SEMVER, STRING), _g(SEMVER, STRING, BOOL)), ((str,), (str, bool)),
        _semver, _first_traversal, "string-argument",
    ),
    LibraryFunction(
        "isSemver", (_g(BOOL, STRING), _g(BOOL, STRING, BOOL)), ((str,), (str, bool)),
        lambda a, m: is_semver(a[0], bool(a[1]) if len(a) > 1 else False),
        _first_traversal, "string-argument",
    ),
    LibraryFunction("major", (_m(INT, SEMVER),), ((_S,),), lambda a, m: a[0].major, one, "one"),
    LibraryFunction("minor", (_m(INT, SEMVER),), ((_S,),), lambda a, m: a[0].minor, one, "one"),
    LibraryFunction("patch", (_m(INT, SEMVER),), ((_S,),), lambda a, m: a[0].patch, one, "one"),
    # cel-go's strings extension (ext/strings.go, version 2; string_ext.py has Go's semantics)
    LibraryFunction(
        "charAt", (_m(STRING, STRING, INT),), ((str, int),), _spread(string_ext.char_at), one,
        "cel-go",
    ),
    *(
        LibraryFunction(
            name,
            (_m(INT, STRING, STRING), _m(INT, STRING, STRING, INT)),
            ((str, str), (str, str, int)),
            _spread(fn),
            _target_tenth,
            "elements",
        )
        for name, fn in (
            ("indexOf", string_ext.index_of),
            ("lastIndexOf", string_ext.last_index_of),
        )
    ),
    *(
        LibraryFunction(
            name, (_m(STRING, STRING),), ((str,),), _spread(fn), _first_traversal,
            "string-target",
        )
        for name, fn in (
            ("lowerAscii", string_ext.lower_ascii),
            ("upperAscii", string_ext.upper_ascii),
            ("trim", str.strip),
        )
    ),
    LibraryFunction(
        "replace",
        (_m(STRING, STRING, STRING, STRING), _m(STRING, STRING, STRING, STRING, INT)),
        ((str, str, str), (str, str, str, int)),
        _spread(string_ext.replace),
        _twice_the_target,
        "replace",
    ),
    LibraryFunction(
        "split",
        (_m(list_of(STRING), STRING, STRING), _m(list_of(STRING), STRING, STRING, INT)),
        ((str, str), (str, str, int)),
        _spread(string_ext.split),
        _twice_the_target,
        "split",
    ),
    LibraryFunction(
        "substring", (_m(STRING, STRING, INT), _m(STRING, STRING, INT, INT)),
        ((str, int), (str, int, int)), _spread(string_ext.substring), _first_traversal,
        "string-target",
    ),
    LibraryFunction(
        "join", (_m(STRING, list_of(STRING)), _m(STRING, list_of(STRING), STRING)),
        ((list,), (list, str)), _spread(string_ext.join), _twice_the_result, "join",
    ),
    LibraryFunction(
        "strings.quote", (_g(STRING, STRING, id="strings_quote"),), ((str,),),
        _spread(string_ext.quote), _first_traversal, "cel-go",
    ),
]  # fmt: skip

LIBRARY: dict[str, LibraryFunction] = {f.name: f for f in _RECORDS}
assert len(LIBRARY) == len(_RECORDS), "one record per function"
assert not set(LIBRARY) & set(FUNCTIONS), "the core's functions are types.py's"

# What the checker declares: the core's functions (types.py) and the libraries'.
DECLARED: dict[str, Function] = {
    **FUNCTIONS,
    **{f.name: Function(list(f.overloads)) for f in _RECORDS},
}
IMPLEMENTED: dict[str, Impl] = {f.name: f.implementation() for f in _RECORDS}
CALL_COSTS: dict[str, CallCost] = {f.name: f.cost for f in _RECORDS if f.cost is not one}
SHAPES: dict[str, Shape] = {f.name: f.estimate for f in _RECORDS}
