"""The interpreter's evaluation state and cel-go's control flow (interp.py compiles the tree
into closures over these): the cost count with the scheduler's limit and words, the deadline,
cel.bind's lazy values, and how cel-go decides `&&` / `||` (error absorption), `?:`, the
comprehension macros as cel-go expands them (with their per-iteration costs) and `in` on a
constant list (folded into a set lookup)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from gsb_tui.dra.cel.quantity import Quantity
from gsb_tui.dra.cel.semantics import (
    _NO_OVERLOAD,
    CelError,
    CelType,
    Uint,
    _is_number,
    _num_cmp,
    _safe_equal,
    _same_kind,
    type_name,
)
from gsb_tui.dra.cel.semver import Semver
from gsb_tui.dra.cel.syntax import ListLit, Lit

# cel-go's runtime cost limit error (interpreter/runtimecost.go), as the scheduler reports it.
COST_EXCEEDED = "operation cancelled: actual cost limit exceeded"


class Timeout(Exception):
    """The evaluation ran past its wall-clock deadline."""


# --- the evaluation state ------------------------------------------------------------------------


class Run:
    """One evaluation: the variables in scope, the cost so far, the limit and the deadline."""

    __slots__ = ("cost", "deadline", "limit", "scopes", "ticks")

    def __init__(self, device: Any, limit: int, deadline: float) -> None:
        self.scopes: list[dict[str, Any]] = [{"device": device}]
        self.cost = 0
        self.limit = limit
        self.deadline = deadline
        self.ticks = 0

    def add(self, n: int) -> None:
        self.cost += n
        if self.cost > self.limit:
            raise CelError(COST_EXCEEDED)

    def tick(self) -> None:
        self.ticks += 1
        if not self.ticks & 63 and time.monotonic() > self.deadline:
            raise Timeout()


class _Lazy:
    """cel.bind's value, computed on first use (cel-go binds lazily)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Run], Any]) -> None:
        self.fn = fn

    def force(self, run: Run) -> Any:
        return self.fn(run)


Eval = Callable[[Run], Any]


def _literal(node: Lit) -> Any:
    if node.kind == "uint":
        assert isinstance(node.value, int)
        return Uint(node.value)
    return node.value


# Go's %T of cel-go's values, for "got '%T', expected iterable type".
_GO_TYPES = {
    "int": "types.Int",
    "uint": "types.Uint",
    "double": "types.Double",
    "bool": "types.Bool",
    "string": "types.String",
    "bytes": "types.Bytes",
    "null_type": "types.Null",
    "type": "*types.Type",
    "kubernetes.Semver": "cel.Semver",
    "kubernetes.Quantity": "cel.Quantity",
}


def _range(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return list(value)
    go_type = _GO_TYPES.get(type_name(value), type_name(value))
    raise CelError(f"got '{go_type}', expected iterable type")


def _logic(left: Eval, right: Eval, is_and: bool) -> Eval:
    """cel-go's evalAnd / evalOr: left to right, short-circuit on the deciding value, the first
    error (or non-bool) otherwise."""
    decide = not is_and

    def logic(run: Run) -> Any:
        error: CelError | None = None
        for term in (left, right):
            try:
                value = term(run)
            except CelError as exc:
                if error is None:
                    error = exc
                continue
            if value is decide:
                return decide
            if not isinstance(value, bool) and error is None:
                error = CelError(_NO_OVERLOAD)
        if error is not None:
            raise error
        return not decide

    return logic


def _conditional(cond: Eval, yes: Eval, no: Eval) -> Eval:
    def conditional(run: Run) -> Any:
        value = cond(run)
        if value is True:
            return yes(run)
        if value is False:
            return no(run)
        raise CelError(_NO_OVERLOAD)

    return conditional


def _quantifier(
    run: Run, items: Iterable[Any], scope: dict[str, Any], var: str, pred: Eval, is_all: bool
) -> Any:
    """all() as cel-go expands it: accu = true; while accu is not false: accu = accu && pred
    (exists: the dual with false, ||). Cost per iteration as the expansion's: the loop test
    (2 for all, 3 for exists) and the accumulator (1)."""
    decide = not is_all  # the value that decides: false for all, true for exists
    accu: bool | CelError = is_all
    test_cost = 2 if is_all else 3
    for item in items:
        run.add(test_cost)
        if accu is decide:
            break
        run.tick()
        scope[var] = item
        run.add(1)
        try:
            value = pred(run)
        except CelError as exc:
            if not isinstance(accu, CelError):
                accu = exc
            continue
        if value is decide:
            accu = decide
        elif not isinstance(value, bool) and not isinstance(accu, CelError):
            accu = CelError(_NO_OVERLOAD)
    run.add(1)
    if isinstance(accu, CelError):
        raise accu
    return accu


def _exists_one(run: Run, items: Iterable[Any], scope: dict[str, Any], var: str, pred: Eval) -> Any:
    count: int | CelError = 0
    for item in items:
        run.tick()
        scope[var] = item
        value: Any
        try:
            value = pred(run)
        except CelError as exc:
            value = exc
        run.add(2)
        if isinstance(count, CelError):
            continue
        if isinstance(value, CelError):
            count = value
        elif value is True:
            count += 1
        elif value is not False:
            count = CelError(_NO_OVERLOAD)
    run.add(2)
    if isinstance(count, CelError):
        raise count
    return count == 1


def _collect(
    run: Run, items: Iterable[Any], scope: dict[str, Any], var: str, name: str, args: list[Eval]
) -> Any:
    out: list[Any] = []
    for item in items:
        run.tick()
        scope[var] = item
        if name == "filter" or len(args) == 2:
            keep = args[0](run)
            if keep is not True:
                if keep is False:
                    run.add(1)
                    continue
                raise CelError(_NO_OVERLOAD)
        out.append(args[-1](run) if name == "map" else item)
        run.add(12)
    run.add(1)
    return out


def _set_membership(value_fn: Eval, list_fn: Eval, literal: ListLit) -> Eval:
    """cel-go folds `x in [constant, ...]` into a hash-set lookup (OptOptimize)."""
    members = [_literal(e) for e in literal.elements if isinstance(e, Lit)]
    hashable = all(not isinstance(m, bytes) for m in members)

    def member(run: Run) -> Any:
        value = value_fn(run)
        if not hashable:
            return any(_safe_equal(value, m) for m in members)
        if isinstance(value, Semver):
            raise CelError("internal error: runtime error: hash of unhashable type cel.Semver")
        if value is None or isinstance(value, list | dict | Quantity | CelType):
            return False
        return any(_same_member(value, m) for m in members)

    return member


def _same_member(value: Any, member: Any) -> bool:
    if _is_number(value) and _is_number(member):
        return _num_cmp(value, member) == 0
    return _same_kind(value, member) and value == member
