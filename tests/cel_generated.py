"""Random device selectors from a small typed grammar, for the CEL limit and parity tests.

`selector(rng)` draws one expression from one of these families (`FAMILIES`):
- valid: comparisons, arithmetic, string functions, quantities, semvers, macros, cel.bind, over
  the practice cluster's attributes (index int, model/uuid string, driverVersion version) and
  capacities (memory, compute);
- invalid: type errors, undeclared names, syntax errors, results that are not bool;
- costly: nested comprehensions over a domain's attributes, string doubling through nested
  binds, big list literals in loops, string functions on values of unknown size;
- runtime: type errors on dynamic values (size() of a version, a version compared with a
  string or in a list, string functions on an int), division by zero, missing keys, bad
  quantities and versions;
- deep: long `&&` chains, runs of `!` and `-`, nested parentheses, lists, calls and ternaries
  around cel-go's 250 limits, and expressions over the 10,240-byte limit.

Deterministic for a given random.Random, so a fixed seed gives a fixed set.
"""

from __future__ import annotations

import random
from collections.abc import Callable

DOMAIN = "gpu.example.com"
A = f"device.attributes['{DOMAIN}']"
C = f"device.capacity['{DOMAIN}']"
INTS = [f"{A}.index"]
STRINGS = [f"{A}.model", f"{A}.uuid", "device.driver"]
VERSIONS = [f"{A}.driverVersion"]
QUANTITIES = [f"{C}.memory", f"{C}.compute"]
WORDS = ["LATEST-GPU-MODEL", "gpu", "GPU", "", "a", "gpu-", "MODEL", "é", "-"]
VERSION_TEXTS = ["1.0.0", "0.9.0", "1.0.1", "2.0.0-rc.1", "1.0.0+build", "01.0.0", "x"]
QUANTITY_TEXTS = ["4Gi", "80Gi", "100", "1000m", "0.5", "1e3", "81920Mi", "bad", "1Ki"]


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def pick(self, options: list[str]) -> str:
        return self.r.choice(options)

    def lit_int(self) -> str:
        return str(self.r.choice([0, 1, 2, 3, 6, 7, 8, 100, -1, 9223372036854775807]))

    def lit_str(self) -> str:
        return repr(self.r.choice(WORDS)).replace('"', "'")

    # -- typed expressions

    def int_expr(self, depth: int) -> str:
        r = self.r.random()
        if depth <= 0 or r < 0.35:
            return self.pick(INTS) if self.r.random() < 0.6 else self.lit_int()
        if r < 0.55:
            op = self.pick(["+", "-", "*", "/", "%"])
            return f"({self.int_expr(depth - 1)} {op} {self.int_expr(depth - 1)})"
        if r < 0.65:
            return f"size({self.str_expr(depth - 1)})"
        if r < 0.72:
            return f"{self.str_expr(depth - 1)}.indexOf({self.lit_str()})"
        if r < 0.8:
            return f"{self.pick(QUANTITIES)}.compareTo(quantity('{self.pick(QUANTITY_TEXTS)}'))"
        if r < 0.87:
            return f"{self.pick(VERSIONS)}.{self.pick(['major', 'minor', 'patch'])}()"
        if r < 0.93:
            return f"{self.pick(QUANTITIES)}.asInteger()"
        return f"int({self.str_expr(depth - 1)})"

    def str_expr(self, depth: int) -> str:
        r = self.r.random()
        if depth <= 0 or r < 0.45:
            return self.pick(STRINGS) if self.r.random() < 0.6 else self.lit_str()
        if r < 0.6:
            return f"({self.str_expr(depth - 1)} + {self.str_expr(depth - 1)})"
        if r < 0.7:
            return f"{self.str_expr(depth - 1)}.{self.pick(['lowerAscii', 'upperAscii', 'trim'])}()"
        if r < 0.78:
            return f"{self.str_expr(depth - 1)}.substring({self.r.choice([0, 1, 3])})"
        if r < 0.85:
            return f"{self.str_expr(depth - 1)}.replace({self.lit_str()}, {self.lit_str()})"
        if r < 0.9:
            return f"string({self.int_expr(depth - 1)})"
        if r < 0.95:
            return f"{self.str_expr(depth - 1)}.split('-').join('+')"
        return f"{self.str_expr(depth - 1)}.charAt(0)"

    def bool_expr(self, depth: int) -> str:
        r = self.r.random()
        if depth <= 0 or r < 0.3:
            return self.comparison(depth - 1)
        if r < 0.45:
            op = self.pick(["&&", "||"])
            return f"({self.bool_expr(depth - 1)} {op} {self.bool_expr(depth - 1)})"
        if r < 0.5:
            return f"!({self.bool_expr(depth - 1)})"
        if r < 0.58:
            return self.macro(depth - 1)
        if r < 0.64:
            var = self.pick(["x", "d", "a"])
            return (
                f"cel.bind({var}, {A}, {var}.index {self.pick(['>', '==', '<'])} {self.lit_int()})"
            )
        if r < 0.7:
            cond = self.bool_expr(depth - 1)
            return f"({cond} ? {self.bool_expr(depth - 1)} : {self.bool_expr(depth - 1)})"
        if r < 0.76:
            return f"has({A}.{self.pick(['index', 'model', 'idx', 'driverVersion'])})"
        if r < 0.82:
            fn = self.pick(["startsWith", "endsWith", "contains"])
            return f"{self.str_expr(depth - 1)}.{fn}({self.lit_str()})"
        if r < 0.86:
            pattern = self.pick(["^L", "GPU", "[0-9]+$", "a|b"])
            return f"{self.str_expr(depth - 1)}.matches('{pattern}')"
        if r < 0.9:
            fn = self.pick(["isGreaterThan", "isLessThan"])
            return f"{self.pick(VERSIONS)}.{fn}(semver('{self.pick(VERSION_TEXTS)}'))"
        if r < 0.94:
            fn = self.pick(["isGreaterThan", "isLessThan"])
            text = self.pick(QUANTITY_TEXTS)
            return f"{self.pick(QUANTITIES)}.{fn}(quantity('{text}'))"
        if r < 0.97:
            return f"{self.int_expr(depth - 1)} in [{self.lit_int()}, {self.lit_int()}]"
        return (
            f"isSemver('{self.pick(VERSION_TEXTS)}') && isQuantity('{self.pick(QUANTITY_TEXTS)}')"
        )

    def comparison(self, depth: int) -> str:
        op = self.pick(["==", "!=", "<", "<=", ">", ">="])
        if self.r.random() < 0.5:
            return f"{self.int_expr(depth)} {op} {self.int_expr(depth)}"
        return f"{self.str_expr(depth)} {op} {self.str_expr(depth)}"

    def macro(self, depth: int) -> str:
        kind = self.pick(["all", "exists", "exists_one", "filter", "map"])
        numbers = f"[{self.lit_int()}, {self.lit_int()}, 3]"
        source = self.pick([A, numbers, f"{A}.model.split('-')"])
        on_ints = source == numbers
        if kind in ("all", "exists", "exists_one"):
            if on_ints:
                body = self.pick(["k > 1", "k % 2 == 0", f"k == {A}.index"])
            else:
                body = self.pick(["k.size() > 0", "k != 'x'", "k == k", "k.startsWith('i')"])
            return f"{source}.{kind}(k, {body})"
        if kind == "filter":
            body = "k > 1" if on_ints else "k.size() > 3"
            size = self.r.choice([0, 1, 2])
            return f"{source}.filter(k, {body}).size() {self.pick(['>', '=='])} {size}"
        body = "k * 2" if on_ints else "k + '!'"
        return f"size({source}.map(k, {body})) > {self.r.choice([0, 1, 3])}"

    # -- families

    def valid(self) -> str:
        return self.bool_expr(self.r.randint(1, 3))

    def invalid(self) -> str:
        return self.pick(
            [
                f"{A}.index == 'seven' && 1 == 'a'",
                "device.attributes.index == 7",
                f"device.attrs['{DOMAIN}'].index == 7",
                "attributes['x'].y == 1",
                f"{A}.index +",
                f"({A}.index == 7",
                f"{A}.index = 7",
                f"{A}.index + 1",
                f"{C}.memory > quantity('1Gi')",
                "size(1) == 1",
                "[1, 'a'] == []",
                f"{A}.index.all(x, true)",
                "'unterminated == 'x'",
                f"{self.int_expr(1)} == {self.lit_str()}",
                f"{C}.memory.x == 1",
                f"{A}.model.size() == 'a'",
                "[1].exists_one(x, 1)",
                "[1].map(x, 1, x) == []",
                f"{self.str_expr(1)}",
            ]
        )

    def costly(self) -> str:
        r = self.r.random()
        if r < 0.35:
            n = self.r.randint(2, 6)
            expr = "true"
            for i in range(n):
                v = f"v{i}"
                body = expr if i else f"{v} != ''"
                expr = f"{A}.{self.pick(['all', 'exists'])}({v}, {body})"
            return expr
        if r < 0.55:  # a string doubled n times through nested binds
            n = self.r.randint(8, 40)
            body = f"s{n}.size() > 0"
            for i in range(n, 0, -1):
                body = f"cel.bind(s{i}, s{i - 1} + s{i - 1}, {body})"
            return f"cel.bind(s0, {A}.model, {body})"
        if r < 0.75:
            n = self.r.randint(100, 1500)
            items = ", ".join(str(i) for i in range(n))
            inner = self.pick(["x == y", "x != y || x > 3"])
            return f"[{items}].exists(x, [{items}].exists(y, {inner}))"
        if r < 0.9:
            return self.pick(
                [
                    f"device.attributes.{DOMAIN.split('.')[0]}.model.contains('x')",
                    f"type({A}.index) == int",
                    f"{A}.model.contains({A}.uuid)",
                    f"{A}.model.matches({A}.uuid)",
                    f"{A}.all(a, {A}.all(b, {A}.all(c, {A}.all(d, a + b + c + d != ''))))",
                    "device.attributes.all(d, device.attributes[d].all(a,"
                    " device.attributes[d][a] == 1))",
                ]
            )
        n = self.r.randint(1, 4)
        expr = "true"
        for i in range(n):
            expr = f"{A}.all(w{i}, {A}[w{i}] == {A}[w{i}] && {expr})"
        return expr

    def runtime(self) -> str:
        v, s, i, q = VERSIONS[0], STRINGS[0], INTS[0], QUANTITIES[0]
        return self.pick(
            [
                f"size({v}) == 2",
                f"{v}.size() == 2",
                f"{v} == 'x'",
                f"{v} == 1",
                f"{v} in [1, 2]",
                f"{v} in ['1.0.0']",
                f"{s} in [1, 2]",
                f"{i} in ['a']",
                f"{s} < 1",
                f"{i} + 'a' == 'b'",
                f"{v} + 1 == 2",
                f"-{v} == 1",
                f"{i}.startsWith('a')",
                f"{i}.lowerAscii() == ''",
                f"{v}.lowerAscii() == ''",
                f"{s}.major() == 1",
                f"{i}.compareTo(semver('1.0.0')) == 0",
                f"{v}.compareTo(quantity('1')) == 0",
                f"int({v}) == 1",
                f"string({v}) == '1.0.0'",
                f"bool({i})",
                f"int({s}) == 1",
                f"double({s}) > 0.0",
                f"{i} / 0 == 1",
                f"{i} % ({i} - {i}) == 1",
                f"{A}.idx == 7",
                "device.attributes['index'].index == 7",
                f"{i}[0] == 1",
                f"{s}.x == 1",
                f"has({i}.a)",
                f"{s} ? true : false",
                f"{i} && true",
                f"quantity('{self.pick(QUANTITY_TEXTS)}').isInteger()",
                f"semver('{self.pick(VERSION_TEXTS)}').major() == 1",
                f"{q}.add(1).asInteger() > 0",
                f"{q}.asApproximateFloat() > 1.0",
                f"dyn({q}) == 1",
                f"{q} == dyn(1)",
                f"{i} + 9223372036854775807 > 0",
                f"'{self.pick(['é', 'héllo', 'abc'])}'.size() == {self.r.choice([3, 5, 6])}",
                f"string(double({i}) / 3.0) == '0'",
                "has(device.attributes.nope)",
                "'nope' in device.attributes",
                f"{A}.filter(k, k.startsWith('d')).size() == 1",
                f"cel.bind(x, {A}, x.driverVersion == 'x')",
                f"{A}.exists(k, {A}[k] == 1)",
                f"{A}.all(k, {A}[k] != 'x')",
            ]
        )

    def deep(self) -> str:
        r = self.r.random()
        if r < 0.15:
            return " && ".join(["true"] * self.r.randint(2, 1500))
        if r < 0.25:
            return "!" * self.r.randint(1, 3000) + "true"
        if r < 0.35:
            return "-" * self.r.randint(1, 5001) + "1 == 1"
        n = self.r.choice([80, 95, 97, 124, 125, 200, 248, 249, 250, 251, 300])
        shapes: list[Callable[[int], str]] = [
            lambda n: "(" * n + "true" + ")" * n,
            lambda n: "[" * n + "]" * n + " == []",
            lambda n: "1 + (" * n + "1" + ")" * n + " == 2",
            lambda n: "1 + " * n + "1 > 0",
            lambda n: "true ? true : " * n + "false",
            lambda n: "size(" * n + "'a'" + ")" * n + " > 0",
            lambda n: "[1]" + ".map(x, x)" * n + " == [1]",
            lambda n: "x" * (10240 + n - 200) + " == 1",
        ]
        return self.r.choice(shapes)(n)


FAMILIES = ("valid", "invalid", "costly", "runtime", "deep")
WEIGHTS = (0.35, 0.15, 0.15, 0.25, 0.10)


def selector(rng: random.Random, family: str | None = None) -> tuple[str, str]:
    """(family, expression), the family drawn by WEIGHTS unless given."""
    chosen = family or rng.choices(FAMILIES, WEIGHTS)[0]
    return chosen, getattr(_Gen(rng), chosen)()


def corpus(seed: int, n: int) -> list[tuple[str, str]]:
    """n selectors, the same for the same seed; duplicates dropped."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        family, expression = selector(rng)
        if expression not in seen:
            seen.add(expression)
            out.append((family, expression))
    return out
