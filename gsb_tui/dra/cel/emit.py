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
from gsb_tui.dra.cel.stackless import Step, run
from gsb_tui.dra.cel.syntax import (
    Call,
    Ident,
    ListLit,
    Lit,
    Macro,
    MapLit,
    Node,
    Select,
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

    if _PYTHON_PREFIX not in source:  # the common case, without tokenizing
        return False
    return any(t.kind == "ident" and t.text.startswith(_PYTHON_PREFIX) for t in tokenize(source))


# Precedence of what a printed piece is, from the loosest: the printer parenthesizes only where
# the grammar needs it, so long chains stay flat for the library's parser (it gives up past 96
# nested brackets, cel-go past 250).
_TERNARY, _OR, _AND, _RELATION, _ADD, _MUL, _UNARY, _MEMBER = range(8)
_BINARY = {
    "_||_": ("||", _OR),
    "_&&_": ("&&", _AND),
    "_==_": ("==", _RELATION),
    "_!=_": ("!=", _RELATION),
    "_<_": ("<", _RELATION),
    "_<=_": ("<=", _RELATION),
    "_>_": (">", _RELATION),
    "_>=_": (">=", _RELATION),
    "@in": ("in", _RELATION),
    "_+_": ("+", _ADD),
    "_-_": ("-", _ADD),
    "_*_": ("*", _MUL),
    "_/_": ("/", _MUL),
    "_%_": ("%", _MUL),
}

Piece = tuple[str, int]  # printed text, and its precedence


def _at(piece: Piece, least: int) -> str:
    """The piece where an operand of precedence `least` or tighter is needed."""
    text, precedence = piece
    return text if precedence >= least else f"({text})"


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

    def typed(self, node: Node, kind: str) -> bool:
        found = self.c.types.get(id(node))
        return found is not None and found.kind == kind

    def dynamic_or_double(self, node: Node) -> bool:
        found = self.c.types.get(id(node))
        return found is None or found.kind in ("double", "dyn", "any")

    def dynamic_or_string(self, node: Node) -> bool:
        found = self.c.types.get(id(node))
        return found is None or found.kind in ("string", "dyn", "any")

    def emit(self, node: Node) -> Step[Piece]:
        if isinstance(node, Lit):
            text = literal(node.kind, node.value)
            return text, _UNARY if text.startswith("-") else _MEMBER
        if isinstance(node, Ident):
            return node.name, _MEMBER
        if isinstance(node, Select):
            operand = _at((yield self.emit(node.operand)), _MEMBER)
            if node.test_only and self.domain_map(node.operand):
                return "true", _MEMBER  # Kubernetes' default map has every domain
            if node.test_only:
                return f"has({operand}.{node.field})", _MEMBER
            if self.domain_map(node.operand):
                return _default_empty(operand, quote(node.field)), _MEMBER
            return f"{operand}.{node.field}", _MEMBER
        if isinstance(node, ListLit):
            items = []
            for e in node.elements:
                items.append(_at((yield self.emit(e)), _TERNARY))
            return "[" + ", ".join(items) + "]", _MEMBER
        if isinstance(node, MapLit):
            entries = []
            for k, v in node.entries:
                key = _at((yield self.emit(k)), _TERNARY)
                entries.append(f"{key}: {_at((yield self.emit(v)), _TERNARY)}")
            return "{" + ", ".join(entries) + "}", _MEMBER
        if isinstance(node, Macro):
            args = []
            for a in node.args:
                args.append(_at((yield self.emit(a)), _TERNARY))
            if node.name == "bind":
                init, body = args
                return f"[{init}].map({node.var}, {body})[0]", _MEMBER
            assert node.target is not None
            target = _at((yield self.emit(node.target)), _MEMBER)
            return f"{target}.{node.name}({', '.join([node.var, *args])})", _MEMBER
        assert isinstance(node, Call)
        found: Piece = yield self.call(node)
        return found

    def call(self, node: Call) -> Step[Piece]:
        pieces: list[Piece] = []
        for a in node.args:
            pieces.append((yield self.emit(a)))
        args = [_at(p, _TERNARY) for p in pieces]
        name = node.function
        if name in ("_==_", "_!=_") and any(self.is_quantity(a) for a in node.args):
            # Quantities are equal by value ("1" == "1000m"): compare sort keys when both sides
            # are quantities; against a dyn value it is a Python call (cel-go's Equal).
            lhs, rhs = (_at(p, _MEMBER) for p in pieces)
            if all(self.is_quantity(a) for a in node.args):
                eq = f"{_key(lhs, QUANTITY_KEY)} == {_key(rhs, QUANTITY_KEY)}"
            else:
                eq = f"{python_name('eq')}({args[0]}, {args[1]})"
            return (eq, _RELATION) if name == "_==_" else (f"!({eq})", _UNARY)
        if name == "@in" and self.is_quantity(node.args[0]):
            return f"{python_name('in')}({args[0]}, {args[1]})", _MEMBER
        if name == "_[_]":
            container = _at(pieces[0], _MEMBER)
            if self.domain_map(node.args[0]):
                return _default_empty(container, args[1]), _MEMBER
            return f"{container}[{args[1]}]", _MEMBER
        if name == "_?_:_":
            cond, yes, no = pieces
            return f"{_at(cond, _OR)} ? {_at(yes, _OR)} : {_at(no, _TERNARY)}", _TERNARY
        if name == "-_" and not self.typed(node.args[0], "double"):
            # The library negates the int64 minimum without cel-go's "integer overflow".
            if self.typed(node.args[0], "int"):
                return f"0 - {_at(pieces[0], _MUL)}", _ADD
            return f"{python_name('negate')}({args[0]})", _MEMBER
        if name in ("!_", "-_"):
            inner, precedence = pieces[0]
            if precedence < _MEMBER or inner.startswith("-"):
                return f"{name[0]}({inner})", _UNARY
            return f"{name[0]}{inner}", _UNARY
        if name in _BINARY:
            op, precedence = _BINARY[name]
            left, right = pieces
            return f"{_at(left, precedence)} {op} {_at(right, precedence + 1)}", precedence
        native = yield self.native_comparison(node)
        if native is not None:
            return native, _MEMBER
        target: str | None = None
        if node.target is not None:
            target = _at((yield self.emit(node.target)), _MEMBER)
        sized = node.target if node.target is not None else node.args[0] if node.args else None
        if name == "size" and sized is not None and self.dynamic_or_string(sized):
            # The library counts a string's bytes, cel-go its code points; and a semver is a
            # map to the library: sizes of strings and dynamic values are counted in Python.
            return f"{python_name('size')}({target or args[0]})", _MEMBER
        if name == "string" and sized is not None and self.dynamic_or_double(sized):
            # Doubles print as Go's %g (1e+20, not 100000000000000000000).
            return f"{python_name('string')}({args[0]})", _MEMBER
        fn = FUNCTIONS.get(name)
        folded = _fold(node)
        if folded is not None:
            return (_map_literal(folded) if isinstance(folded, dict) else folded), _MEMBER
        if fn is not None and fn.native:
            if target is not None:
                return f"{target}.{name}({', '.join(args)})", _MEMBER
            return f"{name}({', '.join(args)})", _MEMBER
        all_args = ([target] if target else []) + args
        return f"{python_name(name)}({', '.join(all_args)})", _MEMBER

    def native_comparison(self, node: Call) -> Step[str | None]:
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
        a = yield self.key_of(node.target, key)
        b = yield self.key_of(node.args[0], key)
        if node.function == "isGreaterThan":
            return f"({a} > {b})"
        if node.function == "isLessThan":
            return f"({a} < {b})"
        return f"({a} > {b} ? 1 : ({a} < {b} ? -1 : 0))"

    def key_of(self, node: Node, key: str) -> Step[str]:
        folded = _fold(node)
        if isinstance(folded, dict) and key in folded:
            return quote(folded[key])  # a literal: its sort key, not a map built per device
        return _key(_at((yield self.emit(node)), _MEMBER), key)


def _key(value: str, key: str) -> str:
    return f"{value}[{quote(key)}]"


def _default_empty(domains: str, key: str) -> str:
    return f"({key} in {domains} ? {domains}[{key}] : {{}})"


def emit(checked: Checked) -> str:
    """Plain CEL for the Rust evaluator, with Kubernetes' semantics spelled out."""
    return run(_Emitter(checked).emit(checked.root))[0]


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


# --- literals --------------------------------------------------------------------------------


def quote(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def literal(kind: str, value: object) -> str:
    if kind == "string":
        assert isinstance(value, str)
        return quote(value)
    if kind == "bytes":
        assert isinstance(value, bytes)
        return 'b"' + "".join(f"\\x{b:02x}" for b in value) + '"'
    if kind == "bool":
        return "true" if value else "false"
    if kind == "null":
        return "null"
    if kind == "uint":
        return f"{value}u"
    if kind == "double":
        assert isinstance(value, float)
        text = repr(value)
        return text if any(c in text for c in ".e") else text + ".0"
    return str(value)
