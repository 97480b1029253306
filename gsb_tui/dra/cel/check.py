"""Type-check a device selector the way the API server does.

Kubernetes compiles selectors with cel-go against a declared `device` variable
(kubernetes.DRADevice) and rejects what does not type-check, e.g. `device.attributes.index == 7`:
`attributes.index` is the (empty) map of a domain called "index", and a map never equals an int.
The Rust CEL we evaluate with has no checker, so this module re-creates the part of cel-go's
checker that selectors meet (declarations and unification in types.py) and produces the same
messages; errors.py adds cel-go's columns and caret lines, validate.py cel-go's AST validators.

`needs` tells which parts of a device an expression reads, so evaluation converts only those.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gsb_tui.dra.cel.extensions import DECLARED as FUNCTIONS
from gsb_tui.dra.cel.stackless import Step, run
from gsb_tui.dra.cel.syntax import Call, Ident, ListLit, Lit, Macro, MapLit, Node, Select
from gsb_tui.dra.cel.types import (
    BOOL,
    BYTES,
    DEVICE,
    DOUBLE,
    DYN,
    DYN_KINDS,
    ERROR,
    INT,
    NULL,
    OBJECT_FIELDS,
    STRING,
    TYPE_IDENTS,
    UINT,
    UNSUPPORTED,
    Function,
    Substitution,
    T,
    assignable,
    dyn_or_error,
    less_specific,
    list_of,
    map_of,
    substitute,
)

__all__ = ["WHOLE", "CheckError", "Checked", "Leaf", "check", "children", "needs", "string_key"]
__all__ += ["walk"]

# --- the checker -----------------------------------------------------------------------------


@dataclass
class CheckError:
    pos: int
    message: str


@dataclass
class Checked:
    root: Node
    output: T
    types: dict[int, T]  # id(node) -> type, type parameters resolved (unbound ones to dyn)
    errors: list[CheckError]
    unsupported: list[str]  # functions the API server has but gsb-tui cannot evaluate
    device_refs: set[int]  # id() of Ident nodes that are the global `device`
    # id(call node) -> cel-go overload ids of the overloads that matched (cost.py needs them)
    overloads: dict[int, list[str]] = field(default_factory=dict)


# cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in Kubernetes' environment):
# accepted by the API server, not evaluated here.
_TWO_VARIABLE_MACROS = {"all": 3, "exists": 3, "existsOne": 3, "exists_one": 3}


class _Checker:
    """cel-go's checker (checker/checker.go) over syntax.py's tree; every method that recurses
    is a generator driven by stackless.run."""

    def __init__(self) -> None:
        self.m: Substitution = {}
        self.counter = 0
        self.types: dict[int, T] = {}
        self.errors: list[CheckError] = []
        self.unsupported: list[str] = []
        self.scopes: list[dict[str, T]] = []
        self.device_refs: set[int] = set()
        self.overloads: dict[int, list[str]] = {}

    def fresh(self) -> T:
        self.counter += 1
        return T("param", f"_var{self.counter}")

    def error(self, node: Node, message: str) -> T:
        self.errors.append(CheckError(node.pos, message))
        return ERROR

    def assignable(self, t1: T, t2: T) -> bool:
        trial = dict(self.m)
        if assignable(trial, t1, t2):
            self.m = trial
            return True
        return False

    def check(self, node: Node) -> Step[T]:
        t: T = yield self._check(node)
        self.types[id(node)] = t
        return t

    def _check(self, node: Node) -> Step[T]:
        if isinstance(node, Lit):
            return {"int": INT, "uint": UINT, "double": DOUBLE, "string": STRING}.get(
                node.kind
            ) or {"bytes": BYTES, "bool": BOOL, "null": NULL}[node.kind]
        if isinstance(node, Ident):
            return self.ident(node)
        if isinstance(node, Select):
            found: T = yield self.select(node)
            return found
        if isinstance(node, Call):
            found = yield self.call(node)
            return found
        if isinstance(node, ListLit):
            elem: T | None = None
            for e in node.elements:
                elem = self.join(elem, (yield self.check(e)))
            return list_of(elem or self.fresh())
        if isinstance(node, MapLit):
            key: T | None = None
            value: T | None = None
            for k, v in node.entries:
                key = self.join(key, (yield self.check(k)))
                value = self.join(value, (yield self.check(v)))
            return map_of(key or self.fresh(), value or self.fresh())
        assert isinstance(node, Macro)
        found = yield self.macro(node)
        return found

    def ident(self, node: Ident) -> T:
        for scope in reversed(self.scopes):
            if node.name in scope:
                return scope[node.name]
        name = node.name.removeprefix(".")
        if name == "device":
            self.device_refs.add(id(node))
            return DEVICE
        if name in TYPE_IDENTS:
            return TYPE_IDENTS[name]
        return self.error(node, f"undeclared reference to '{name}' (in container '')")

    def select(self, node: Select) -> Step[T]:
        target = substitute(self.m, (yield self.check(node.operand)), False)
        result = DYN
        if target.kind == "map":
            result = target.params[1]
        elif target.kind == "object":
            fields = OBJECT_FIELDS.get(target.name)
            if fields is None:  # kubernetes.Quantity, kubernetes.Semver: opaque to field access
                result = self.error(node, f"unexpected failed resolution of '{target.name}'")
            elif node.field in fields:
                result = fields[node.field]
            else:
                result = self.error(node, f"undefined field '{node.field}'")
        elif target.kind == "param":
            self.assignable(DYN, target)
        elif not dyn_or_error(target):
            self.error(node, f"type '{target}' does not support field selection")
        return BOOL if node.test_only else substitute(self.m, result, False)

    def join(self, previous: T | None, current: T) -> T:
        """cel-go's joinTypes: mixed literal elements make the literal's type dyn; the API
        server's homogeneous-literal validator (validate_literals) reports them afterwards."""
        if previous is None:
            return current
        if self.assignable(previous, current):
            return previous if less_specific(previous, current) else current
        return DYN

    def call(self, node: Call) -> Step[T]:
        name = node.function
        if node.target is not None and _TWO_VARIABLE_MACROS.get(name) == len(node.args):
            self.unsupported.append(f"{name}(k, v, …)")
            yield self.check(node.target)
            return BOOL
        for arg in node.args:
            yield self.check(arg)
        if name in ("_&&_", "_||_"):
            for arg in node.args:
                found = self.types[id(arg)]
                if not self.assignable(found, BOOL):
                    self.error(arg, f"expected type 'bool' but found '{found}'")
            self.overloads[id(node)] = ["logical_and" if name == "_&&_" else "logical_or"]
            return BOOL
        target = node.target
        if target is not None:
            qualified = _qualified_name(target)
            namespaced = f"{qualified}.{name}"
            if qualified and (namespaced in FUNCTIONS or namespaced in UNSUPPORTED):
                node.function = name = namespaced
                node.target = target = None
            else:
                yield self.check(target)
        fn = FUNCTIONS.get(name)
        if fn is None:
            if name in UNSUPPORTED:
                self.unsupported.append(f"{name}()")
                return DYN
            return self.error(node, f"undeclared reference to '{name}' (in container '')")
        args = [self.types[id(a)] for a in ([target] if target else []) + node.args]
        return self.resolve(node, name, fn, args, target is not None)

    def resolve(self, node: Node, name: str, fn: Function, args: list[T], member: bool) -> T:
        result: T | None = None
        ids: list[str] = []
        for overload in fn.overloads:
            if overload.member != member or len(overload.params) != len(args):
                continue
            fresh = {p: self.fresh() for p in ("A", "B")}
            params = [_instantiate(p, fresh) for p in overload.params]
            trial = dict(self.m)
            if all(assignable(trial, a, p) for a, p in zip(args, params, strict=True)):
                self.m = trial
                ids.append(overload.id)
                found = substitute(self.m, _instantiate(overload.result, fresh), False)
                if result is None:
                    result = found
                elif result.kind not in DYN_KINDS and found != result:
                    result = DYN
        if result is None:
            shown = [str(substitute(self.m, a, True)) for a in args]
            signature = "(" + ", ".join(shown[1:] if member else shown) + ")"
            if member:
                signature = f"{shown[0]}.{signature}"
            return self.error(
                node, f"found no matching overload for '{name}' applied to '{signature}'"
            )
        self.overloads[id(node)] = ids
        return result

    def macro(self, node: Macro) -> Step[T]:
        if node.name == "bind":
            init = yield self.check(node.args[0])
            self.scopes.append({node.var: init})
            body: T = yield self.check(node.args[1])
            self.scopes.pop()
            return body
        assert node.target is not None
        range_type = substitute(self.m, (yield self.check(node.target)), False)
        if range_type.kind in ("list", "map"):  # a map ranges over its keys
            var = range_type.params[0]
        elif range_type.kind in ("dyn", "error", "param"):
            self.assignable(DYN, range_type)
            var = DYN
        else:
            var = self.error(
                node.target,
                f"expression of type '{range_type}' cannot be range of a comprehension "
                "(must be list, map, or dynamic)",
            )
        self.scopes.append({node.var: var})
        # map(x, t) / map(x, p, t): the last argument is the transform, the rest are conditions.
        conditions = node.args[:-1] if node.name == "map" else node.args
        transform: T | None = None
        if node.name == "map":
            transform = yield self.check(node.args[-1])
        for cond in conditions:
            found = yield self.check(cond)
            self.condition(node, found, var, transform)
        result = BOOL
        if node.name == "map":
            assert transform is not None
            result = list_of(transform)
        elif node.name == "filter":
            result = list_of(var)
        self.scopes.pop()
        return result

    def condition(self, node: Macro, found: T, var: T, transform: T | None) -> None:
        """A macro's condition as cel-go checks its expansion: `all`/`exists` join it with
        `&&`/`||`, the others make it the condition of a `_?_:_` step."""
        cond = node.args[-2] if node.name == "map" else node.args[-1]
        if node.name in ("all", "exists"):
            if not self.assignable(found, BOOL):
                self.error(cond, f"expected type 'bool' but found '{found}'")
            return
        if node.name == "exists_one":
            step = INT
        else:
            step = list_of(transform if node.name == "map" and transform is not None else var)
        self.resolve(node, "_?_:_", FUNCTIONS["_?_:_"], [found, step, step], False)


def _instantiate(t: T, fresh: dict[str, T]) -> T:
    if t.kind == "param":
        return fresh[t.name]
    if t.params:
        return T(t.kind, t.name, tuple(_instantiate(p, fresh) for p in t.params))
    return t


def _qualified_name(node: Node) -> str:
    parts: list[str] = []
    while isinstance(node, Select) and not node.test_only:
        parts.append(node.field)
        node = node.operand
    if not isinstance(node, Ident):
        return ""
    return ".".join([node.name, *reversed(parts)])


def check(root: Node) -> Checked:
    """Type-check as the API server does; TypeDepthError for types nested too deep. cel-go's
    AST validators run after it (validate.py; selector.py calls them)."""
    checker = _Checker()
    run(checker.check(root))
    types = {k: substitute(checker.m, t, True) for k, t in checker.types.items()}
    output = types[id(root)]
    checked = Checked(
        root,
        output,
        types,
        checker.errors,
        checker.unsupported,
        checker.device_refs,
        checker.overloads,
    )
    return checked


def walk(root: Node) -> list[Node]:
    """Every node of the tree, parents before children (without recursion)."""
    out: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(children(node)))
    return out


# --- which parts of the device an expression reads ----------------------------------------------

# A leaf: ("driver",), ("allowMultipleAllocations",), ("attributes"|"capacity", domain, name);
# domain or name "*" means all of them. None means the whole device.
Leaf = tuple[str, ...]
WHOLE: Leaf = ("*",)
WHOLE_DEVICE: frozenset[Leaf] = frozenset({WHOLE})


def string_key(node: Node) -> str | None:
    return node.value if isinstance(node, Lit) and isinstance(node.value, str) else None


def needs(checked: Checked) -> frozenset[Leaf]:
    """The device leaves the expression can read, so a device's CEL value may hold only those.

    Converting a whole device into the library's values is the expensive step of evaluation;
    selectors usually read one or two attributes."""
    parents: dict[int, Node] = {}
    idents: list[Ident] = []
    for node in walk(checked.root):
        if isinstance(node, Ident) and id(node) in checked.device_refs:
            idents.append(node)
        for child in children(node):
            parents[id(child)] = node
    leaves: set[Leaf] = set()
    for ident in idents:
        leaf = _leaf(ident, parents)
        if leaf is None:
            return WHOLE_DEVICE
        leaves.add(leaf)
    return frozenset(leaves)


def _leaf(ident: Ident, parents: dict[int, Node]) -> Leaf | None:
    top = parents.get(id(ident))
    if not (isinstance(top, Select) and not top.test_only):
        return None
    if top.field in ("driver", "allowMultipleAllocations"):
        return (top.field,)
    if top.field not in ("attributes", "capacity"):
        return None
    kind, by_domain = top.field, parents.get(id(top))
    domain: str | None = None
    if isinstance(by_domain, Select) and not by_domain.test_only:
        domain = by_domain.field
    elif isinstance(by_domain, Call) and by_domain.function == "_[_]" and by_domain.args[0] is top:
        domain = string_key(by_domain.args[1])
    if by_domain is None or domain is None:
        return (kind, "*", "*")
    by_name = parents.get(id(by_domain))
    name: str | None = None
    if isinstance(by_name, Select):  # also has(device.attributes['d'].name)
        name = by_name.field
    elif isinstance(by_name, Call) and by_name.function == "_[_]" and by_name.args[0] is by_domain:
        name = string_key(by_name.args[1])
    return (kind, domain, name or "*")


def children(node: Node) -> list[Node]:
    """The direct subexpressions of a node."""
    if isinstance(node, Select):
        return [node.operand]
    if isinstance(node, Call):
        return [*([node.target] if node.target is not None else []), *node.args]
    if isinstance(node, Macro):
        return [*([node.target] if node.target is not None else []), *node.args]
    if isinstance(node, ListLit):
        return list(node.elements)
    if isinstance(node, MapLit):
        return [x for entry in node.entries for x in entry]
    return []
