"""A CEL interpreter with cel-go's runtime semantics, its runtime cost count and a deadline:
gsb-tui's one evaluator of selectors.

It evaluates the checked tree with cel-go's rules (trait dispatch and its error texts,
heterogeneous equality, error absorption by `&&`/`||`, the `device.attributes[domain]` default
map, attribute qualification, typed quantities and semvers: `size(version)` is `no such
overload: size` as in the scheduler) and counts cel-go's runtime cost, stopping at the
scheduler's limit with the scheduler's words. Every evaluation also has a wall-clock deadline.
interp_flow.py holds the evaluation state and how cel-go decides `&&`, `||`, `?:` and the
comprehension macros; this module compiles the tree into closures. runtime.py runs it on
every device, once per distinct value where the selector looks.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from gsb_tui.dra.cel.call_costs import CALL_COSTS
from gsb_tui.dra.cel.call_sizes import one
from gsb_tui.dra.cel.check import Checked, walk
from gsb_tui.dra.cel.cost import MAX_COST
from gsb_tui.dra.cel.functions import FUNCTIONS, index
from gsb_tui.dra.cel.interp_flow import (
    COST_EXCEEDED,
    Eval,
    Run,
    Timeout,
    _collect,
    _conditional,
    _exists_one,
    _Lazy,
    _literal,
    _logic,
    _quantifier,
    _range,
    _set_membership,
)
from gsb_tui.dra.cel.semantics import (
    _TYPE_VALUES,
    CelError,
    DefaultMap,
    _find,
    _key_text,
    not_bool,
    type_name,
)
from gsb_tui.dra.cel.stackless import on_fresh_stack
from gsb_tui.dra.cel.syntax import Call, Ident, ListLit, Lit, Macro, MapLit, Node, Select

# The parser admits no deeper tree (cel-go's 250 nested rules): a guard, never reached.
MAX_TREE_DEPTH = 256
# Closures call their children: ~2.3 Python frames a level. A tree deeper than this runs on a
# thread of its own, whose fresh stack holds 256 levels (~600 of the 1,000 frames Python
# allows) however deep the caller's stack already is.
DEEP_TREE = 96


class Unported(Exception):
    """The selector uses something this interpreter does not evaluate."""


# --- compiling the tree into closures ------------------------------------------------------------


def tree_depth(root: Node) -> int:
    """Levels of the tree (1: a leaf), walked without the stack."""
    depth = {id(root): 1}
    deepest = 1
    for node in walk(root):
        d = depth[id(node)]
        deepest = max(deepest, d)
        for child in _kids(node):
            depth[id(child)] = d + 1
    return deepest


def _kids(node: Node) -> list[Node]:
    if isinstance(node, Select):
        return [node.operand]
    if isinstance(node, Call | Macro):
        return [*([node.target] if node.target is not None else []), *node.args]
    if isinstance(node, ListLit):
        return list(node.elements)
    if isinstance(node, MapLit):
        return [x for e in node.entries for x in e]
    return []


def _constant(node: Node) -> bool:
    """A literal, or a list/map literal of them (cel-go folds these: no cost to build)."""
    if isinstance(node, Lit):
        return True
    if isinstance(node, ListLit):
        return all(_constant(e) for e in node.elements)
    if isinstance(node, MapLit):
        return all(_constant(k) and _constant(v) for k, v in node.entries)
    return False


class Program:
    """A checked selector compiled into closures; `run` evaluates it on one device value."""

    def __init__(self, checked: Checked) -> None:
        depth = tree_depth(checked.root)
        if depth > MAX_TREE_DEPTH:
            raise Unported("the selector nests too deeply")
        self.deep = depth > DEEP_TREE
        self.checked = checked
        # Children before parents, without recursion: each node's closure takes its children's.
        self.done: dict[int, Eval] = {}
        for node in reversed(walk(checked.root)):
            self.done[id(node)] = self.compile(node)
        self.fn = self.done[id(checked.root)]

    def run(self, device: Any, *, limit: int = MAX_COST, deadline: float | None = None) -> Any:
        """The selector's value on one device; CelError for a runtime error, Timeout past the
        deadline (default: one second from now)."""
        started = time.monotonic()
        state = Run(device, limit, deadline if deadline is not None else started + 1.0)
        if self.deep:
            return _on_fresh_stack(self.fn, state)
        try:
            return self.fn(state)
        except RecursionError as exc:  # defensive: depth is bounded at compile time
            raise Unported("the selector nests too deeply") from exc

    # -- node kinds

    def of(self, node: Node) -> Eval:
        """The closure of a child, compiled already."""
        return self.done[id(node)]

    def compile(self, node: Node) -> Eval:
        if isinstance(node, Lit):
            value = _literal(node)
            return lambda run: value
        if isinstance(node, Ident):
            return self.ident(node)
        if isinstance(node, Select):
            return self.select(node)
        if isinstance(node, ListLit):
            return self.list_literal(node)
        if isinstance(node, MapLit):
            return self.map_literal(node)
        if isinstance(node, Macro):
            return self.bind(node) if node.name == "bind" else self.comprehension(node)
        assert isinstance(node, Call)
        return self.call(node)

    def ident(self, node: Ident) -> Eval:
        name = node.name.removeprefix(".")
        type_value = _TYPE_VALUES.get(name)

        def ident(run: Run) -> Any:
            run.add(1)
            for scope in reversed(run.scopes):
                if name in scope:
                    value = scope[name]
                    if isinstance(value, _Lazy):
                        value = scope[name] = value.force(run)
                    return value
            if type_value is not None:
                return type_value
            raise CelError(f"no such attribute(s): {name}")

        return ident

    def select(self, node: Select) -> Eval:
        operand = self.of(node.operand)
        field = node.field
        if node.test_only:

            def has(run: Run) -> Any:
                value = operand(run)
                run.add(1)
                return isinstance(value, dict) and _find(value, field)[0]

            return has

        def select(run: Run) -> Any:
            return _qualify(operand(run), field, run)

        return select

    def list_literal(self, node: ListLit) -> Eval:
        elements = [self.of(e) for e in node.elements]
        base = 0 if _constant(node) else 10

        def create(run: Run) -> Any:
            out = [e(run) for e in elements]
            run.add(base)
            return out

        return create

    def map_literal(self, node: MapLit) -> Eval:
        entries = [(self.of(k), self.of(v)) for k, v in node.entries]
        base = 0 if _constant(node) else 30

        def create(run: Run) -> Any:
            out: dict[Any, Any] = {}
            for k, v in entries:
                key = k(run)
                if not isinstance(key, str | int) or isinstance(key, float):
                    raise CelError(f"unsupported key type: {type_name(key)}")
                if _find(out, key)[0]:
                    raise CelError(f"Failed with repeated key: {_key_text(key)}")
                out[key] = v(run)
            run.add(base)
            return out

        return create

    def bind(self, node: Macro) -> Eval:
        init, body = (self.of(a) for a in node.args)
        var = node.var

        def bind(run: Run) -> Any:
            run.scopes.append({var: _Lazy(init)})
            try:
                return body(run)
            finally:
                run.scopes.pop()

        return bind

    def comprehension(self, node: Macro) -> Eval:
        assert node.target is not None
        target = self.of(node.target)
        var, name = node.var, node.name
        args = [self.of(a) for a in node.args]

        def comprehend(run: Run) -> Any:
            items = _range(target(run))
            scope: dict[str, Any] = {}
            run.scopes.append(scope)
            try:
                if name == "all":
                    return _quantifier(run, items, scope, var, args[0], True)
                if name == "exists":
                    return _quantifier(run, items, scope, var, args[0], False)
                if name == "exists_one":
                    return _exists_one(run, items, scope, var, args[0])
                return _collect(run, items, scope, var, name, args)
            finally:
                run.scopes.pop()

        return comprehend

    def call(self, node: Call) -> Eval:
        name = node.function
        args = [self.of(a) for a in node.args]
        if name == "_&&_" or name == "_||_":
            return _logic(args[0], args[1], name == "_&&_")
        if name == "_?_:_":
            return _conditional(*args)
        if node.target is not None:
            args = [self.of(node.target), *args]
        if name == "@in" and isinstance(node.args[1], ListLit) and _constant(node.args[1]):
            return _set_membership(args[0], args[1], node.args[1])
        impl = FUNCTIONS.get(name)
        if impl is None:
            raise Unported(f"{name}() is not interpreted")
        cost_of = CALL_COSTS.get(name, one)
        member = node.target is not None

        def call(run: Run) -> Any:
            values = [a(run) for a in args]
            run.tick()
            result = impl(values, member)
            run.add(cost_of(values, result))
            return result

        return call


def _on_fresh_stack(fn: Eval, state: Run) -> Any:
    """fn(state) on a fresh stack (stackless.on_fresh_stack), RecursionError said as Unported."""

    def guarded(run: Run) -> Any:
        try:
            return fn(run)
        except RecursionError:  # defensive: MAX_TREE_DEPTH keeps far from it
            raise Unported("the selector nests too deeply") from None

    return on_fresh_stack(guarded, state)


def _qualify(value: Any, key: Any, run: Run) -> Any:
    """cel-go's attribute qualification (`.field` or `[key]`), cost 1."""
    run.add(1)
    return index(value, key)


# --- what cel-go does before and after evaluating ---------------------------------------------

_CONVERSIONS = frozenset(["bool", "bytes", "double", "dyn", "int", "string", "type", "uint"])


def instantiation_error(checked: Checked) -> str:
    """cel-go folds a type conversion of a constant when it plans the program (OptOptimize):
    `int('a')` fails there, and the API server rejects the selector with that error. The
    error, or ""."""
    constant: dict[int, Any] = {}
    for node in reversed(walk(checked.root)):  # children before parents
        if isinstance(node, Lit):
            constant[id(node)] = _literal(node)
        elif isinstance(node, ListLit):
            if all(id(e) in constant for e in node.elements):
                constant[id(node)] = [constant[id(e)] for e in node.elements]
        elif isinstance(node, MapLit):
            if all(id(k) in constant and id(v) in constant for k, v in node.entries):
                constant[id(node)] = {constant[id(k)]: constant[id(v)] for k, v in node.entries}
        elif (
            isinstance(node, Call)
            and node.target is None
            and node.function in _CONVERSIONS
            and len(node.args) == 1
            and id(node.args[0]) in constant
        ):
            try:
                constant[id(node)] = FUNCTIONS[node.function]([constant[id(node.args[0])]], False)
            except CelError as exc:
                return str(exc)
    return ""


# --- the device as this interpreter sees it ------------------------------------------------------


def device_value(variable: Mapping[str, Any]) -> dict[str, Any]:
    """The `device` variable as this interpreter evaluates it: device.py's values (quantities
    and semvers typed already), attributes and capacity under Kubernetes' default map."""
    out: dict[str, Any] = {}
    for key, value in variable.items():
        out[key] = DefaultMap(value) if key in ("attributes", "capacity") else value
    return out


__all__ = [
    "COST_EXCEEDED",
    "CelError",
    "Program",
    "Timeout",
    "Unported",
    "device_value",
    "instantiation_error",
    "not_bool",
    "type_name",
]
