"""The worst-case cost of a device selector, estimated as the API server estimates it.

The API server refuses a selector whose estimated cost exceeds 1,000,000 (`Forbidden: too
complex, exceeds cost limit`): k8s.io/kubernetes pkg/apis/resource/validation checks
`CompilationResult.MaxCost` from k8s.io/dynamic-resource-allocation/cel against
resource.k8s.io/v1 `CELSelectorExpressionMaxCost`. The estimate is cel-go's
(checker/cost.go) with Kubernetes' function costs (k8s.io/apiserver pkg/cel/library/cost.go)
and DRA's size declarations: every string, list and map a selector can reach through `device`
has a declared maximum (attribute values 64 characters, 32 attributes per domain, ...), so
nested comprehensions multiply those maxima, and a string built from unknown sizes costs the
maximum. This module ports that arithmetic over syntax.py's tree, expanding the macros as
cel-go expands them, so gsb-tui refuses what the API server refuses, for the same reason; the
sizes and Kubernetes' function costs it adds up are cost_sizes.py's.

The scheduler applies the same 1,000,000 as a runtime limit (interp.py counts it).
"""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.cel.check import Checked
from gsb_tui.dra.cel.cost_sizes import (
    _REGEX_LENGTH,
    _SIZE_COMPARED,
    _STRING_TRAVERSAL,
    _U64,
    ONE,
    UNKNOWN,
    ZERO,
    Est,
    _Arg,
    _declared_size,
    _Entry,
    _fixed,
    _kubernetes_estimate,
    _literal_size,
)
from gsb_tui.dra.cel.stackless import Step, run
from gsb_tui.dra.cel.syntax import Call, Ident, ListLit, Lit, Macro, MapLit, Node, Select
from gsb_tui.dra.cel.types import BOOL, INT, T, list_of

# resource.k8s.io/v1 CELSelectorExpressionMaxCost: the estimated-cost limit at admission and
# the runtime limit in the scheduler.
MAX_COST = 1_000_000
# resource.k8s.io/v1 CELSelectorExpressionMaxLength, in bytes (Go's len of the string).
MAX_LENGTH = 10 * 1024

_ACCUMULATOR = "@result"  # cel-go's hidden accumulator variable
_LIST_CREATE, _MAP_CREATE = 10, 30  # cel-go common.ListCreateBaseCost, MapCreateBaseCost


@dataclass
class _Local:
    path: list[str] | None
    size: Est | None
    entry: _Entry | None


# --- the estimator ------------------------------------------------------------------------------


_SCALARS = ("bool", "double", "duration", "int", "timestamp", "uint")


class _Coster:
    def __init__(self, checked: Checked) -> None:
        self.checked = checked
        self.types = dict(checked.types)
        self.overloads = dict(checked.overloads)
        self.paths: dict[int, list[str]] = {}
        self.sizes: dict[int, Est] = {}
        self.entries: dict[int, _Entry] = {}
        self.locals: dict[str, list[_Local]] = {}
        self.keep: list[Node] = []  # the macro expansions' nodes: their id()s stay theirs

    # -- bookkeeping (cel-go's coster helpers)

    def type(self, node: Node) -> T:
        return self.types.get(id(node), T("dyn"))

    def local(self, name: str) -> _Local | None:
        stack = self.locals.get(name)
        return stack[-1] if stack else None

    def path(self, node: Node) -> list[str] | None:
        if isinstance(node, Ident):
            var = self.local(node.name)
            if var is not None:
                return var.path
        return self.paths.get(id(node))

    def push(
        self, name: str, path: list[str] | None, size: Est | None, entry: _Entry | None
    ) -> None:
        self.locals.setdefault(name, []).append(_Local(path, size, entry))

    def pop(self, name: str) -> None:
        self.locals[name].pop()

    def size(self, node: Node) -> Est | None:
        """cel-go's computeSize."""
        found = self.sizes.get(id(node))
        if found is not None:
            return found
        literal = _literal_size(node)
        if literal is not None:
            return literal
        declared = _declared_size(self.path(node))
        if declared is not None:
            self.sizes[id(node)] = declared
            return declared
        if self.type(node).kind in _SCALARS:
            return ONE
        if isinstance(node, Ident):
            var = self.local(node.name)
            if var is not None and var.size is not None:
                return var.size
        return None

    def size_or_unknown(self, node: Node) -> Est:
        return self.size(node) or UNKNOWN

    def entry(self, node: Node) -> _Entry | None:
        found = self.entries.get(id(node))
        if found is not None:
            return found
        if isinstance(node, Ident):
            var = self.local(node.name)
            if var is not None:
                return var.entry
        return None

    def arg(self, node: Node) -> _Arg:
        path = self.path(node)
        if path and path[0] == _ACCUMULATOR:
            path = None
        return _Arg(node, path, self.type(node), self.size(node))

    def set_size(self, node: Node, size: Est | None) -> None:
        if size is not None:
            self.sizes[id(node)] = size

    def set_entry(self, node: Node, entry: _Entry | None) -> None:
        if entry is not None:
            self.entries[id(node)] = entry

    # -- cost of each kind of node

    def cost(self, node: Node) -> Step[Est]:
        if isinstance(node, Lit):
            return ZERO
        if isinstance(node, Ident):
            if self.local(node.name) is None:
                self.paths[id(node)] = [node.name]
            return ONE
        if isinstance(node, Select):
            found: Est = yield self.select(node)
            return found
        if isinstance(node, Call):
            found = yield self.call(node)
            return found
        if isinstance(node, ListLit):
            found = yield self.create_list(node)
            return found
        if isinstance(node, MapLit):
            found = yield self.create_map(node)
            return found
        assert isinstance(node, Macro)
        if node.name == "bind":
            found = yield self.bind(node)
            return found
        found = yield self.comprehension(node)
        return found

    def select(self, node: Select) -> Step[Est]:
        operand_cost: Est = yield self.cost(node.operand)
        if node.test_only:  # has(): free in Kubernetes (PresenceTestHasCost(false))
            return operand_cost
        kind = self.type(node.operand).kind
        total = operand_cost.add(ONE) if kind in ("map", "object", "param") else operand_cost
        self.paths[id(node)] = [*(self.path(node.operand) or []), node.field]
        return total

    def call(self, node: Call) -> Step[Est]:
        if node.function == "dyn" and len(node.args) == 1 and node.target is None:
            arg_cost = yield self.cost(node.args[0])
            self.set_size(node, self.size(node.args[0]))
            self.set_entry(node, self.entry(node.args[0]))
            return ONE.add(arg_cost)
        arg_costs = []
        for a in node.args:
            arg_costs.append((yield self.cost(a)))
        args = [self.arg(a) for a in node.args]
        ids = self.overloads.get(id(node))
        if not ids:  # no overload resolved (a function gsb-tui does not port): no cost
            return ZERO
        total = ZERO
        target: _Arg | None = None
        if node.target is not None:
            total = total.add((yield self.cost(node.target)))
            target = self.arg(node.target)
        fn_cost: Est | None = None
        result_size: Est | None = None
        for overload in ids:
            cost, size = self.function_cost(node, overload, target, args, arg_costs)
            fn_cost = cost if fn_cost is None else fn_cost.union(cost)
            if size is not None:
                result_size = size if result_size is None else result_size.union(size)
            if overload in ("index_list", "index_map") and args:
                entry = self.entry(node.args[0])
                result_size = entry.val if entry is not None else None
                items = "@items" if overload == "index_list" else "@values"
                self.paths[id(node)] = [*(self.path(node.args[0]) or []), items]
            if result_size is None:
                result_size = self.size(node)
        self.set_size(node, result_size)
        assert fn_cost is not None
        return total.add(fn_cost)

    def create_list(self, node: ListLit) -> Step[Est]:
        total = ZERO
        items = Est(0 if not node.elements else _U64, 0)
        for e in node.elements:
            total = total.add((yield self.cost(e)))
            items = items.union(self.size_or_unknown(e))
        self.entries[id(node)] = _Entry("list", ONE, items)
        return total.add(_fixed(_LIST_CREATE))

    def create_map(self, node: MapLit) -> Step[Est]:
        total = ZERO
        empty = not node.entries
        keys, values = Est(0 if empty else _U64, 0), Est(0 if empty else _U64, 0)
        for k, v in node.entries:
            total = total.add((yield self.cost(k)))
            total = total.add((yield self.cost(v)))
            keys = keys.union(self.size_or_unknown(k))
            values = values.union(self.size_or_unknown(v))
        self.entries[id(node)] = _Entry("map", keys, values)
        return total.add(_fixed(_MAP_CREATE))

    def bind(self, node: Macro) -> Step[Est]:
        """cel.bind(v, init, body): a comprehension over [] (its cost stays), init, body."""
        init, body = node.args
        total: Est = yield self.cost(self.virtual(ListLit(node.pos, []), list_of(T("dyn"))))
        total = total.add((yield self.cost(init)))
        self.push(node.var, self.path(init), self.size(init), self.entry(init))
        total = total.add((yield self.cost(body)))
        self.pop(node.var)
        self.set_size(node, self.size(body))
        self.set_entry(node, self.entry(body))
        return total

    def comprehension(self, node: Macro) -> Step[Est]:
        assert node.target is not None
        init, condition, step, result = self.expand(node)
        total: Est = yield self.cost(node.target)
        total = total.add((yield self.cost(init)))
        self.push(_ACCUMULATOR, self.path(init), self.size(init), self.entry(init))
        range_entry = self.entry(node.target)
        container = range_entry.container if range_entry is not None else ""
        if not container:
            container = "list" if self.type(node.target).kind == "list" else "map"
        var_size = range_entry.key if range_entry is not None else None
        sub = "@keys"
        if container == "list":
            var_size = range_entry.val if range_entry is not None else None
            sub = "@items"
        self.push(node.var, [*(self.path(node.target) or []), sub], var_size, None)
        loop = yield self.cost(condition)
        each = yield self.cost(step)
        self.pop(node.var)
        total = total.add((yield self.cost(result)))
        self.pop(_ACCUMULATOR)
        count = self.size_or_unknown(node.target)
        total = total.add(count.multiply(each.add(loop)))
        if isinstance(init, Lit):
            self.set_size(node, self.size(init))
        else:  # map() and filter() build a list: as long as the range, entries from the step
            self.set_size(node, count)
            self.set_entry(node, self.entry(step))
        return total

    def virtual(self, node: Node, t: T, overload: str = "") -> Node:
        """A node of cel-go's macro expansion, with its type (and overload) as checked."""
        self.keep.append(node)
        self.types[id(node)] = t
        if overload:
            self.overloads[id(node)] = [overload]
        return node

    def expand(self, node: Macro) -> tuple[Node, Node, Node, Node]:
        """The accumulator's init, the loop condition, the step and the result of cel-go's
        expansion of all/exists/exists_one/map/filter (parser/macro.go)."""
        v = self.virtual
        pos = node.pos

        def accu(t: T) -> Node:
            return v(Ident(pos, _ACCUMULATOR), t)

        if node.name in ("all", "exists"):
            init = v(Lit(pos, "bool", node.name == "all"), BOOL)
            test: Node = accu(BOOL)
            if node.name == "exists":
                test = v(Call(pos, "!_", [test]), BOOL, "logical_not")
            condition = v(Call(pos, "@not_strictly_false", [test]), BOOL, "not_strictly_false")
            op = "_&&_" if node.name == "all" else "_||_"
            step_id = "logical_and" if node.name == "all" else "logical_or"
            step = v(Call(pos, op, [accu(BOOL), node.args[0]]), BOOL, step_id)
            return init, condition, step, accu(BOOL)
        if node.name == "exists_one":
            init = v(Lit(pos, "int", 0), INT)
            plus = v(Call(pos, "_+_", [accu(INT), v(Lit(pos, "int", 1), INT)]), INT, "add_int64")
            step = v(Call(pos, "_?_:_", [node.args[0], plus, accu(INT)]), INT, "conditional")
            result = v(Call(pos, "_==_", [accu(INT), v(Lit(pos, "int", 1), INT)]), BOOL, "equals")
            return init, v(Lit(pos, "bool", True), BOOL), step, result
        transform = node.args[-1] if node.name == "map" else v(Ident(pos, node.var), T("dyn"))
        if node.name == "filter":
            assert node.target is not None
            range_params = self.type(node.target).params
            self.types[id(transform)] = range_params[0] if range_params else T("dyn")
        elem = self.type(transform)
        acc = list_of(elem)
        init = v(ListLit(pos, []), acc)
        one = v(ListLit(pos, [transform]), acc)
        step = v(Call(pos, "_+_", [accu(acc), one]), acc, "add_list")
        condition_node = None
        if node.name == "filter" or len(node.args) == 2:
            condition_node = node.args[0]
        if condition_node is not None:
            step = v(Call(pos, "_?_:_", [condition_node, step, accu(acc)]), acc, "conditional")
        return init, v(Lit(pos, "bool", True), BOOL), step, accu(acc)

    # -- the cost of one function call (checker/cost.go functionCost + Kubernetes' estimator)

    def function_cost(
        self, node: Call, overload: str, target: _Arg | None, args: list[_Arg], costs: list[Est]
    ) -> tuple[Est, Est | None]:
        arg_sum = ZERO
        for c in costs:
            arg_sum = arg_sum.add(c)
        k8s = _kubernetes_estimate(node.function, target, args)
        if k8s is not None:
            return k8s[0].add(arg_sum), k8s[1]
        size = self.arg_size
        if overload in ("string_to_bytes", "bytes_to_string", "strings_quote") and len(args) == 1:
            sz = size(args[0])
            result = {
                "string_to_bytes": Est(sz.min, min(sz.max * 4, _U64)),
                "bytes_to_string": Est(sz.min // 4, sz.max),
                "strings_quote": Est(min(sz.min + 2, _U64), min(sz.max * 2 + 2, _U64)),
            }[overload]
            return sz.factor(_STRING_TRAVERSAL).add(arg_sum), result
        if overload in ("starts_with_string", "ends_with_string") and len(args) == 1:
            return size(args[0]).factor(_STRING_TRAVERSAL).add(arg_sum), None
        if overload == "in_list" and len(args) == 2:
            return size(args[1]).factor(1).add(arg_sum), None
        if overload == "matches_string" and target is not None and len(args) == 1:
            text = size(target).add(ONE).factor(_STRING_TRAVERSAL)
            regex = size(args[0]).factor(_REGEX_LENGTH)
            return text.multiply(regex).add(arg_sum), None
        if overload == "contains_string" and target is not None and len(args) == 1:
            text = size(target).factor(_STRING_TRAVERSAL)
            sub = size(args[0]).factor(_STRING_TRAVERSAL)
            return text.multiply(sub).add(arg_sum), None
        if overload in ("logical_or", "logical_and"):
            lhs, rhs = costs
            return Est(lhs.min, lhs.add(rhs).max), None
        if overload == "conditional":
            assert node.args[1] is args[1].node and node.args[2] is args[2].node
            result_size = size(args[1]).union(size(args[2]))
            left, right = self.entry(node.args[1]), self.entry(node.args[2])
            if left is not None:
                self.set_entry(node, left.union(right))
            return costs[0].add(costs[1].union(costs[2])), result_size
        if overload in ("add_string", "add_bytes", "add_list") and len(args) == 2:
            result_size = size(args[0]).add(size(args[1]))
            left, right = self.entry(node.args[0]), self.entry(node.args[1])
            if left is not None:
                self.set_entry(node, left.union(right))
            if overload == "add_list":
                return ONE.add(arg_sum), result_size
            return result_size.factor(_STRING_TRAVERSAL).add(arg_sum), result_size
        if overload in _SIZE_COMPARED:
            lhs, rhs = size(args[0]), size(args[1])
            smallest = min(lhs.max, rhs.max)
            return Est(1 if smallest > 0 else 0, smallest).factor(_STRING_TRAVERSAL).add(
                arg_sum
            ), None
        return ONE.add(arg_sum), None

    @staticmethod
    def arg_size(arg: _Arg) -> Est:
        return arg.size or UNKNOWN


def estimate(checked: Checked) -> Est:
    """The [min, max] cost cel-go estimates for a checked selector (MaxCost is .max)."""
    return run(_Coster(checked).cost(checked.root))


__all__ = ["MAX_COST", "MAX_LENGTH", "Est", "estimate"]
