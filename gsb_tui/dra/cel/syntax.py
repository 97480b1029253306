"""A CEL parser that keeps positions the way cel-go reports them, and a printer back to CEL.

The evaluating library (common-expression-language, a Rust CEL) parses and runs expressions but
does not type-check them, so Kubernetes' admission errors cannot come from it. This module gives
the type checker (check.py) an AST whose node offsets match cel-go's error columns: the operator
token for operators, '(' for calls, '.' for field selection, '[' for indexing.

Syntax errors are not reported from here: the library's parser (the same ANTLR grammar as
cel-go) runs first and its message is the one the user sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gsb_tui.dra.cel.lexer import ParseError, Token, tokenize

# --- AST -------------------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    pos: int  # offset into the expression, of the token cel-go uses for this node


@dataclass(eq=False)
class Lit(Node):
    kind: str  # int, uint, double, string, bytes, bool, null
    value: object


@dataclass(eq=False)
class Ident(Node):
    name: str


@dataclass(eq=False)
class Select(Node):
    operand: Node
    field: str
    test_only: bool = False  # has(operand.field)


@dataclass(eq=False)
class Call(Node):
    function: str  # operators use cel-go's names: _==_, _[_], !_, -_, _?_:_, @in ...
    args: list[Node]
    target: Node | None = None  # receiver of a member call


@dataclass(eq=False)
class ListLit(Node):
    elements: list[Node]


@dataclass(eq=False)
class MapLit(Node):
    entries: list[tuple[Node, Node]]


@dataclass(eq=False)
class Macro(Node):
    """all/exists/exists_one/map/filter over `target`, and cel.bind (target is None)."""

    name: str
    target: Node | None
    var: str
    args: list[Node] = field(default_factory=list)


# --- parser ----------------------------------------------------------------------------------

_RELATIONS = {
    "==": "_==_",
    "!=": "_!=_",
    "<": "_<_",
    "<=": "_<=_",
    ">": "_>_",
    ">=": "_>=_",
    "in": "@in",
}
_ADDITIVE = {"+": "_+_", "-": "_-_"}
_MULTIPLICATIVE = {"*": "_*_", "/": "_/_", "%": "_%_"}
MACROS = {"all": (2,), "exists": (2,), "exists_one": (2,), "map": (2, 3), "filter": (2,)}


class _Parser:
    def __init__(self, src: str) -> None:
        self.tokens = tokenize(src)
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def at(self, text: str) -> bool:
        tok = self.tok
        return tok.kind in ("op", "ident") and tok.text == text

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise ParseError(f"expected {text!r}", self.tok.pos)
        return self.take()

    def parse(self) -> Node:
        node = self.expr()
        if self.tok.kind != "eof":
            raise ParseError(f"unexpected {self.tok.text!r}", self.tok.pos)
        return node

    def expr(self) -> Node:
        cond = self.logical("||", self.logical_and)
        if self.at("?"):
            q = self.take()
            yes = self.logical("||", self.logical_and)
            self.expect(":")
            no = self.expr()
            return Call(q.pos, "_?_:_", [cond, yes, no])
        return cond

    def logical_and(self) -> Node:
        return self.logical("&&", self.relation)

    def logical(self, op: str, operand: Callable[[], Node]) -> Node:
        node = operand()
        while self.at(op):
            tok = self.take()
            node = Call(tok.pos, f"_{op}_", [node, operand()])
        return node

    def relation(self) -> Node:
        node = self.binary(self.additive_term, _ADDITIVE)
        while self.tok.text in _RELATIONS and self.tok.kind in ("op", "ident"):
            tok = self.take()
            right = self.binary(self.additive_term, _ADDITIVE)
            node = Call(tok.pos, _RELATIONS[tok.text], [node, right])
        return node

    def additive_term(self) -> Node:
        return self.binary(self.unary, _MULTIPLICATIVE)

    def binary(self, operand: Callable[[], Node], ops: dict[str, str]) -> Node:
        node = operand()
        while self.tok.kind == "op" and self.tok.text in ops:
            tok = self.take()
            node = Call(tok.pos, ops[tok.text], [node, operand()])
        return node

    def unary(self) -> Node:
        if self.at("!") or self.at("-"):
            ops = []
            kind = self.tok.text
            while self.at(kind):
                ops.append(self.take())
            if kind == "-" and self.tok.kind in ("int", "double"):
                # cel-go folds one '-' into a numeric literal (so the int64 minimum parses).
                lit = self.take()
                node: Node = Lit(ops[-1].pos, lit.kind, -lit.value)  # type: ignore[operator]
                node = self.member_suffix(node)
                ops = ops[:-1]
            else:
                node = self.member()
            for tok in reversed(ops):
                node = Call(tok.pos, f"{kind}_", [node])
            return node
        return self.member()

    def member(self) -> Node:
        return self.member_suffix(self.primary())

    def member_suffix(self, node: Node) -> Node:
        while True:
            if self.at("."):
                dot = self.take()
                name = self.take()
                if name.kind != "ident":
                    raise ParseError("expected a field name", name.pos)
                if self.at("("):
                    open_ = self.take()
                    args = self.args(")")
                    node = self.member_call(open_.pos, node, name.text, args)
                else:
                    node = Select(dot.pos, node, name.text)
            elif self.at("["):
                open_ = self.take()
                index = self.expr()
                self.expect("]")
                node = Call(open_.pos, "_[_]", [node, index])
            else:
                return node

    def member_call(self, pos: int, target: Node, name: str, args: list[Node]) -> Node:
        if name in MACROS and len(args) in MACROS[name]:
            var = args[0]
            if not isinstance(var, Ident):
                raise ParseError("argument must be a simple name", var.pos)
            return Macro(pos, name, target, var.name, args[1:])
        if name == "bind" and isinstance(target, Ident) and target.name == "cel" and len(args) == 3:
            var = args[0]
            if not isinstance(var, Ident):
                raise ParseError("cel.bind() variable names must be simple identifiers", var.pos)
            return Macro(pos, "bind", None, var.name, args[1:])
        return Call(pos, name, args, target)

    def args(self, close: str) -> list[Node]:
        out: list[Node] = []
        while not self.at(close):
            out.append(self.expr())
            if not self.at(close):
                self.expect(",")
        self.take()
        return out

    def primary(self) -> Node:
        tok = self.take()
        if tok.kind in ("int", "uint", "double", "string", "bytes"):
            return Lit(tok.pos, tok.kind, tok.value)
        if tok.kind == "ident" or (tok.kind == "op" and tok.text == "."):
            name = tok.text
            if tok.text == ".":  # leading dot: a root-scoped identifier
                name = "." + self.take().text
            if name in ("true", "false"):
                return Lit(tok.pos, "bool", name == "true")
            if name == "null":
                return Lit(tok.pos, "null", None)
            if self.at("("):
                open_ = self.take()
                args = self.args(")")
                if name == "has" and len(args) == 1:
                    arg = args[0]
                    if not isinstance(arg, Select):
                        raise ParseError("invalid argument to has() macro", arg.pos)
                    return Select(arg.pos, arg.operand, arg.field, test_only=True)
                return Call(open_.pos, name, args)
            return Ident(tok.pos, name)
        if tok.kind == "op" and tok.text == "(":
            node = self.expr()
            self.expect(")")
            return node
        if tok.kind == "op" and tok.text == "[":
            return ListLit(tok.pos, self.args("]"))
        if tok.kind == "op" and tok.text == "{":
            entries: list[tuple[Node, Node]] = []
            while not self.at("}"):
                key = self.expr()
                self.expect(":")
                entries.append((key, self.expr()))
                if not self.at("}"):
                    self.expect(",")
            self.take()
            return MapLit(tok.pos, entries)
        raise ParseError(f"unexpected {tok.text or 'end of input'!r}", tok.pos)


def parse(src: str) -> Node:
    """Parse a CEL expression; ParseError for what this parser does not understand."""
    return _Parser(src).parse()


# --- printer ---------------------------------------------------------------------------------


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
