"""Print a checked selector as plain CEL that the Rust library runs with Kubernetes' semantics.

- an unknown attribute/capacity domain yields an empty map instead of a missing key;
- quantities and semvers are small maps (values.py): comparisons become string comparisons
  of their sort keys; other methods are Python functions named `k8s_<method>` (the library only
  calls plain functions, so `q.asInteger()` becomes `k8s_asInteger(q)`);
- literals such as `quantity('4Gi')` are computed here once, not per device;
- `cel.bind(x, init, body)` becomes `[init].map(x, body)[0]` (same scoping, no bind macro).
"""

from __future__ import annotations

from gsb_tui.dra.cel.check import Checked, string_key
from gsb_tui.dra.cel.quantity import is_quantity, parse_quantity
from gsb_tui.dra.cel.semver import is_semver, parse_semver
from gsb_tui.dra.cel.syntax import (
    Call,
    Ident,
    ListLit,
    Lit,
    Macro,
    MapLit,
    Node,
    Select,
    literal,
    quote,
)
from gsb_tui.dra.cel.types import FUNCTIONS, QUANTITY, SEMVER
from gsb_tui.dra.cel.values import QUANTITY_KEY, SEMVER_KEY, encode_quantity, encode_semver

_PYTHON_PREFIX = "k8s_"


def python_name(function: str) -> str:
    """The name a Python-implemented function is registered under."""
    return _PYTHON_PREFIX + function.replace(".", "_")


def calls_python(source: str) -> bool:
    """Whether printed CEL calls a Python function (a `k8s_` name outside string literals)."""
    from gsb_tui.dra.cel.lexer import tokenize

    return any(t.kind == "ident" and t.text.startswith(_PYTHON_PREFIX) for t in tokenize(source))


class _Emitter:
    def __init__(self, checked: Checked) -> None:
        self.c = checked

    def domain_map(self, node: Node) -> bool:
        """device.attributes / device.capacity on the global device: missing domains are {}."""
        return (
            isinstance(node, Select)
            and not node.test_only
            and node.field in ("attributes", "capacity")
            and isinstance(node.operand, Ident)
            and id(node.operand) in self.c.device_refs
        )

    def is_quantity(self, node: Node) -> bool:
        return self.c.types.get(id(node)) == QUANTITY

    def emit(self, node: Node) -> str:
        if isinstance(node, Lit):
            return literal(node.kind, node.value)
        if isinstance(node, Ident):
            return node.name
        if isinstance(node, Select):
            operand = self.emit(node.operand)
            if node.test_only:
                return f"has({operand}.{node.field})"
            if self.domain_map(node.operand):
                return _default_empty(operand, quote(node.field))
            return f"{operand}.{node.field}"
        if isinstance(node, ListLit):
            return "[" + ", ".join(self.emit(e) for e in node.elements) + "]"
        if isinstance(node, MapLit):
            return "{" + ", ".join(f"{self.emit(k)}: {self.emit(v)}" for k, v in node.entries) + "}"
        if isinstance(node, Macro):
            args = ", ".join([node.var, *(self.emit(a) for a in node.args)])
            if node.name == "bind":
                init, body = (self.emit(a) for a in node.args)
                return f"[{init}].map({node.var}, {body})[0]"
            assert node.target is not None
            return f"{self.emit(node.target)}.{node.name}({args})"
        assert isinstance(node, Call)
        return self.call(node)

    def call(self, node: Call) -> str:
        args = [self.emit(a) for a in node.args]
        name = node.function
        if name in ("_==_", "_!=_") and any(self.is_quantity(a) for a in node.args):
            # Quantities are equal by value ("1" == "1000m"): compare sort keys when both sides
            # are quantities; against a dyn value Quantity.Equal is false, not an error.
            if all(self.is_quantity(a) for a in node.args):
                eq = f"({_key(args[0], QUANTITY_KEY)} == {_key(args[1], QUANTITY_KEY)})"
            else:
                eq = f"{python_name('eq')}({args[0]}, {args[1]})"
            return eq if name == "_==_" else f"(!{eq})"
        if name == "@in" and self.is_quantity(node.args[0]):
            return f"{python_name('in')}({args[0]}, {args[1]})"
        if name == "_[_]":
            if self.domain_map(node.args[0]):
                return _default_empty(args[0], args[1])
            return f"{args[0]}[{args[1]}]"
        if name == "_?_:_":
            return f"({args[0]} ? {args[1]} : {args[2]})"
        if name in ("!_", "-_"):
            return f"({name[0]}{args[0]})"
        if (name.startswith("_") and name.endswith("_")) or name == "@in":
            op = "in" if name == "@in" else name.strip("_")
            return f"({args[0]} {op} {args[1]})"
        native = self.native_comparison(node)
        if native is not None:
            return native
        fn = FUNCTIONS.get(name)
        folded = _fold(node)
        if folded is not None:
            return _map_literal(folded) if isinstance(folded, dict) else folded
        target = self.emit(node.target) if node.target is not None else None
        if fn is not None and fn.native:
            if target is not None:
                return f"{target}.{name}({', '.join(args)})"
            return f"{name}({', '.join(args)})"
        return f"{python_name(name)}({', '.join(([target] if target else []) + args)})"

    def native_comparison(self, node: Call) -> str | None:
        """compareTo/isGreaterThan/isLessThan on quantities or semvers, as string comparisons
        of their sort keys (see values.py) instead of a Python call per device."""
        if node.function not in ("compareTo", "isGreaterThan", "isLessThan"):
            return None
        if node.target is None or len(node.args) != 1:
            return None
        types = {self.c.types.get(id(node.target)), self.c.types.get(id(node.args[0]))}
        if QUANTITY in types:
            key = QUANTITY_KEY
        elif SEMVER in types:
            key = SEMVER_KEY
        else:  # both sides dyn: which library applies is known only at runtime
            return None
        a, b = (self.key_of(n, key) for n in (node.target, node.args[0]))
        if node.function == "isGreaterThan":
            return f"({a} > {b})"
        if node.function == "isLessThan":
            return f"({a} < {b})"
        return f"({a} > {b} ? 1 : ({a} < {b} ? -1 : 0))"

    def key_of(self, node: Node, key: str) -> str:
        folded = _fold(node)
        if isinstance(folded, dict) and key in folded:
            return quote(folded[key])  # a literal: its sort key, not a map built per device
        return _key(self.emit(node), key)


def _key(value: str, key: str) -> str:
    return f"{value}[{quote(key)}]"


def _default_empty(domains: str, key: str) -> str:
    return f"({key} in {domains} ? {domains}[{key}] : {{}})"


def emit(checked: Checked) -> str:
    """Plain CEL for the Rust evaluator, with Kubernetes' semantics spelled out."""
    return _Emitter(checked).emit(checked.root)


def _fold(node: Node) -> dict[str, str] | str | None:
    """quantity('4Gi') and friends on a literal, computed once here instead of per device:
    the value (a map) for quantity/semver, CEL text for isQuantity/isSemver, else None."""
    if not (isinstance(node, Call) and node.target is None and len(node.args) == 1):
        return None
    text = string_key(node.args[0])
    if text is None:
        return None
    try:
        if node.function == "quantity":
            return encode_quantity(parse_quantity(text))
        if node.function == "semver":
            return encode_semver(parse_semver(text))
    except ValueError:
        return None  # stays a call: a runtime error on every device, as in the API server
    if node.function == "isQuantity":
        return "true" if is_quantity(text) else "false"
    if node.function == "isSemver":
        return "true" if is_semver(text) else "false"
    return None


def _map_literal(value: dict[str, str]) -> str:
    return "{" + ", ".join(f"{quote(k)}: {quote(v)}" for k, v in value.items()) + "}"
