"""A CEL parser that keeps positions the way cel-go reports them, and cel-go's depth limits.

The evaluating library (common-expression-language, a Rust CEL) parses and runs expressions but
does not type-check them, so Kubernetes' admission errors cannot come from it. This module gives
the type checker (check.py) an AST whose node offsets match cel-go's error columns: the operator
token for operators, '(' for calls, '.' for field selection, '[' for indexing.

It also trips cel-go's parser depth limits where cel-go does (LimitError, the API server's
words). Other syntax errors are not reported from here: the library's parser (the same ANTLR
grammar as cel-go) reads the text too, and its message is the one the user sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gsb_tui.dra.cel.lexer import ParseError, Token, tokenize
from gsb_tui.dra.cel.stackless import Step, run

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

# cel-go's parser limits (parser/parser.go, defaults kept by Kubernetes): the ANTLR parse stops
# when one grammar rule nests deeper than 250 ("expression recursion limit exceeded: 250"), and
# building the syntax tree stops past 250 nested operators, selections, calls or indexes ("max
# recursion depth exceeded"). Both are reported without a location (`<input>:-1:0`).
MAX_RECURSION_DEPTH = 250
RULE_DEPTH_EXCEEDED = f"expression recursion limit exceeded: {MAX_RECURSION_DEPTH}"
TREE_DEPTH_EXCEEDED = "max recursion depth exceeded"


class LimitError(ParseError):
    """cel-go's own parser limit: the API server rejects the selector with this message."""

    def __init__(self, message: str) -> None:
        super().__init__(message, -1)


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
MACROS = {
    "all": (2,),
    "exists": (2,),
    "exists_one": (2,),
    "existsOne": (2,),
    "map": (2, 3),
    "filter": (2,),
}


class _Parser:
    """Recursive descent in the shape of cel-go's ANTLR grammar (parser/gen/CEL.g4), so that
    the two depth limits trip where cel-go's do: `depth` counts nested invocations of each
    grammar rule as ANTLR's listener does, `tree` the nested operators, selections, calls and
    indexes cel-go's visitor counts. The tree is built as cel-go builds it: `&&`/`||` chains
    balanced, runs of `!` or `-` folded by parity. Every method is a generator (stackless.py)."""

    def __init__(self, src: str) -> None:
        self.tokens = tokenize(src)
        self.i = 0
        self.depth: dict[str, int] = {}
        self.tree: dict[int, int] = {}  # id(node) -> cel-go visitor depth of its subtree

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

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

    def enter(self, rule: str) -> None:
        depth = self.depth.get(rule, 0) + 1
        if depth > MAX_RECURSION_DEPTH:
            raise LimitError(RULE_DEPTH_EXCEEDED)
        self.depth[rule] = depth

    def leave(self, rule: str) -> None:
        self.depth[rule] -= 1

    def mark(self, node: Node, counted: bool, *children: Node) -> Node:
        below = max((self.tree.get(id(c), 0) for c in children), default=0)
        self.tree[id(node)] = below + (1 if counted else 0)
        return node

    def parse(self) -> Node:
        node = run(self.expr())
        if self.tok.kind != "eof":
            raise ParseError(f"unexpected {self.tok.text!r}", self.tok.pos)
        if self.tree.get(id(node), 0) > MAX_RECURSION_DEPTH:
            raise LimitError(TREE_DEPTH_EXCEEDED)
        return node

    def expr(self) -> Step[Node]:
        self.enter("expr")
        node: Node = yield self.conditional("||", self.conditional_and)
        if self.at("?"):
            q = self.take()
            yes = yield self.conditional("||", self.conditional_and)
            self.expect(":")
            no = yield self.expr()
            node = self.mark(Call(q.pos, "_?_:_", [node, yes, no]), True, node, yes, no)
        self.leave("expr")
        return node

    def conditional_and(self) -> Step[Node]:
        return self.conditional("&&", lambda: self.relation(0))

    def conditional(self, op: str, operand: Callable[[], Step[Node]]) -> Step[Node]:
        rule = "conditionalOr" if op == "||" else "conditionalAnd"
        self.enter(rule)
        terms = [(yield operand())]
        ops: list[int] = []
        while self.at(op):
            ops.append(self.take().pos)
            terms.append((yield operand()))
        self.leave(rule)
        return self.balanced(f"_{op}_", terms, ops, 0, len(ops) - 1) if ops else terms[0]

    def balanced(self, function: str, terms: list[Node], ops: list[int], lo: int, hi: int) -> Node:
        """cel-go's logicManager.balancedTree: a chain of && (or ||) as a balanced tree."""
        mid = (lo + hi + 1) // 2
        left = terms[mid] if mid == lo else self.balanced(function, terms, ops, lo, mid - 1)
        right = terms[mid + 1] if mid == hi else self.balanced(function, terms, ops, mid + 1, hi)
        return self.mark(Call(ops[mid], function, [left, right]), False, left, right)

    def relation(self, precedence: int) -> Step[Node]:
        self.enter("relation")
        node: Node = yield self.calc(0)
        while precedence <= 1 and self.tok.text in _RELATIONS and self.tok.kind in ("op", "ident"):
            tok = self.take()
            right = yield self.relation(2)
            node = self.mark(Call(tok.pos, _RELATIONS[tok.text], [node, right]), True, node, right)
        self.leave("relation")
        return node

    def calc(self, precedence: int) -> Step[Node]:
        self.enter("calc")
        node: Node = yield self.unary()
        while self.tok.kind == "op":
            if self.tok.text in _MULTIPLICATIVE and precedence <= 2:
                tok = self.take()
                right = yield self.calc(3)
                function = _MULTIPLICATIVE[tok.text]
            elif self.tok.text in _ADDITIVE and precedence <= 1:
                tok = self.take()
                right = yield self.calc(2)
                function = _ADDITIVE[tok.text]
            else:
                break
            node = self.mark(Call(tok.pos, function, [node, right]), True, node, right)
        self.leave("calc")
        return node

    def unary(self) -> Step[Node]:
        self.enter("unary")
        negative_literal = self.at("-") and self.peek().kind in ("int", "double")
        node: Node
        if (self.at("!") or self.at("-")) and not negative_literal:
            kind = self.tok.text
            ops = []
            while self.at(kind):  # ANTLR's loop is greedy: `--1` is two negations of 1
                ops.append(self.take())
            node = yield self.member()
            if len(ops) % 2:  # cel-go keeps one operator for an odd run, none for an even one
                node = self.mark(Call(ops[0].pos, f"{kind}_", [node]), False, node)
        else:
            node = yield self.member()
        self.leave("unary")
        return node

    def member(self) -> Step[Node]:
        self.enter("member")
        node: Node = yield self.primary()
        while True:
            if self.at("."):
                dot = self.take()
                if self.at("?"):
                    raise ParseError("unsupported syntax '.?'", dot.pos)
                name = self.take()
                if name.kind != "ident":
                    raise ParseError("expected a field name", name.pos)
                if self.at("("):
                    open_ = self.take()
                    args = yield self.args(")")
                    call = self.member_call(open_.pos, node, name.text, args)
                    node = self.mark(call, True, node, *args)
                else:
                    node = self.mark(Select(dot.pos, node, name.text), True, node)
            elif self.at("["):
                open_ = self.take()
                if self.at("?"):
                    raise ParseError("unsupported syntax '[?'", open_.pos)
                index = yield self.expr()
                self.expect("]")
                node = self.mark(Call(open_.pos, "_[_]", [node, index]), True, node, index)
            else:
                break
        self.leave("member")
        return node

    def member_call(self, pos: int, target: Node, name: str, args: list[Node]) -> Node:
        if name in MACROS and len(args) in MACROS[name]:
            var = args[0]
            if not isinstance(var, Ident):
                raise ParseError("argument must be a simple name", var.pos)
            return Macro(
                pos, "exists_one" if name == "existsOne" else name, target, var.name, args[1:]
            )
        if name == "bind" and isinstance(target, Ident) and target.name == "cel" and len(args) == 3:
            var = args[0]
            if not isinstance(var, Ident):
                raise ParseError("cel.bind() variable names must be simple identifiers", var.pos)
            return Macro(pos, "bind", None, var.name, args[1:])
        return Call(pos, name, args, target)

    def args(self, close: str) -> Step[list[Node]]:
        """exprList (call arguments): no trailing comma."""
        out: list[Node] = []
        if not self.at(close):
            self.enter("exprList")
            out.append((yield self.expr()))
            while self.at(","):
                self.take()
                out.append((yield self.expr()))
            self.leave("exprList")
        self.expect(close)
        return out

    def opt_expr(self) -> Step[Node]:
        self.enter("optExpr")
        if self.at("?"):
            raise ParseError("unsupported syntax '?'", self.tok.pos)
        node: Node = yield self.expr()
        self.leave("optExpr")
        return node

    def primary(self) -> Step[Node]:
        self.enter("primary")
        tok = self.take()
        node: Node
        if tok.kind == "op" and tok.text == "-":  # a negative literal (unary() checked)
            lit = self.take()
            node = Lit(tok.pos, lit.kind, -lit.value)  # type: ignore[operator]
        elif tok.kind in ("int", "uint", "double", "string", "bytes"):
            node = Lit(tok.pos, tok.kind, tok.value)
        elif tok.kind == "ident" or (tok.kind == "op" and tok.text == "."):
            node = yield self.identifier(tok)
        elif tok.kind == "op" and tok.text == "(":
            node = yield self.expr()
            self.expect(")")
        elif tok.kind == "op" and tok.text == "[":
            elements: list[Node] = []
            if not self.at("]") and not self.at(","):
                self.enter("listInit")
                elements.append((yield self.opt_expr()))
                while self.at(",") and self.peek().text != "]":
                    self.take()
                    elements.append((yield self.opt_expr()))
                self.leave("listInit")
            if self.at(","):
                self.take()
            self.expect("]")
            node = self.mark(ListLit(tok.pos, elements), False, *elements)
        elif tok.kind == "op" and tok.text == "{":
            entries: list[tuple[Node, Node]] = []
            if not self.at("}") and not self.at(","):
                self.enter("mapInitializerList")
                while True:
                    key = yield self.opt_expr()
                    self.expect(":")
                    entries.append((key, (yield self.expr())))
                    if not (self.at(",") and self.peek().text != "}"):
                        break
                    self.take()
                self.leave("mapInitializerList")
            if self.at(","):
                self.take()
            self.expect("}")
            node = self.mark(MapLit(tok.pos, entries), False, *[x for e in entries for x in e])
        else:
            raise ParseError(f"unexpected {tok.text or 'end of input'!r}", tok.pos)
        self.leave("primary")
        return node

    def identifier(self, tok: Token) -> Step[Node]:
        name = tok.text
        if tok.text == ".":  # leading dot: a root-scoped identifier
            following = self.take()
            if following.kind != "ident":
                raise ParseError("expected an identifier", following.pos)
            name = "." + following.text
        if name in ("true", "false"):
            return Lit(tok.pos, "bool", name == "true")
        if name == "null":
            return Lit(tok.pos, "null", None)
        if self.at("{"):
            raise ParseError("unsupported syntax: message creation", self.tok.pos)
        if not self.at("("):
            return Ident(tok.pos, name)
        open_ = self.take()
        args = yield self.args(")")
        if name == "has" and len(args) == 1:
            arg = args[0]
            if not isinstance(arg, Select):
                raise ParseError("invalid argument to has() macro", arg.pos)
            # cel-go places the presence test at the macro call: has's '('
            test = Select(open_.pos, arg.operand, arg.field, test_only=True)
            return self.mark(test, True, arg.operand)
        return self.mark(Call(open_.pos, name, args), False, *args)


def parse(src: str) -> Node:
    """Parse a CEL expression; ParseError for what this parser does not understand, LimitError
    (a ParseError) where cel-go's parser gives up on depth."""
    return _Parser(src).parse()
