"""The cost estimator's size model (cost.py walks the tree with it): cel-go's [min, max]
estimates that saturate at 2^64-1, DRA's declared maxima for everything a selector reaches
through `device` (dynamic-resource-allocation/cel sizeEstimator), the exact sizes of literals,
and Kubernetes' estimates of its library functions' costs (k8s.io/apiserver pkg/cel/library
cost.go CostEstimator.EstimateCallCost)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from gsb_tui.dra.cel.extensions import SHAPES
from gsb_tui.dra.cel.syntax import ListLit, Lit, MapLit, Node
from gsb_tui.dra.cel.types import QUANTITY, SEMVER, T

_U64 = 2**64 - 1
_TWO_TO_64 = math.ldexp(1.0, 64)
_STRING_TRAVERSAL = 0.1  # cel-go common.StringTraversalCostFactor
_REGEX_LENGTH = 0.25  # cel-go common.RegexStringLengthCostFactor

# DRA's declared maxima (k8s.io/api resource/v1 and dynamic-resource-allocation/cel/compile.go)
_DRIVER_MAX = 63  # DriverNameMaxLength
_DOMAIN_MAX = 63  # DeviceMaxDomainLength
_ID_MAX = 32  # DeviceMaxIDLength
_ATTRIBUTE_MAX = 64  # DeviceAttributeMaxValueLength
_PER_DEVICE = 32  # ResourceSliceMaxAttributesAndCapacitiesPerDevice


@dataclass(frozen=True)
class Est:
    """cel-go's SizeEstimate / CostEstimate: a [min, max] range that saturates at 2^64-1."""

    min: int
    max: int

    def add(self, other: Est) -> Est:
        return Est(min(self.min + other.min, _U64), min(self.max + other.max, _U64))

    def multiply(self, other: Est) -> Est:
        return Est(min(self.min * other.min, _U64), min(self.max * other.max, _U64))

    def factor(self, per_unit: float) -> Est:
        return Est(_by_factor(self.min, per_unit), _by_factor(self.max, per_unit))

    def union(self, other: Est) -> Est:
        return Est(min(self.min, other.min), max(self.max, other.max))


def _by_factor(x: int, y: float) -> int:
    """cel-go's multiplyByCostFactor: ceil(x*y) in float64, saturating."""
    fx = float(x)
    if fx > 0 and y > 0 and fx > _TWO_TO_64 / y:
        return _U64
    product = math.ceil(fx * y)
    return _U64 if product >= _TWO_TO_64 else product


def _fixed(n: int) -> Est:
    return Est(n, n)


UNKNOWN = Est(0, _U64)
ZERO = _fixed(0)
ONE = _fixed(1)


@dataclass(frozen=True)
class _Entry:
    """cel-go's entrySizeEstimate: the sizes of a container's keys (or indices) and values."""

    container: str  # "list" or "map"
    key: Est
    val: Est

    def union(self, other: _Entry | None) -> _Entry | None:
        if other is None:
            return None
        return _Entry(self.container, self.key.union(other.key), self.val.union(other.val))


@dataclass
class _Arg:
    """cel-go's AstNode as the function estimators see it."""

    node: Node | None
    path: list[str] | None
    type: T
    size: Est | None  # ComputedSize


# --- DRA's size declarations (dynamic-resource-allocation/cel sizeEstimator) ------------------


@dataclass(frozen=True)
class _Decl:
    max: int
    fields: dict[str, _Decl] = field(default_factory=dict)
    key: _Decl | None = None
    elem: _Decl | None = None


_ATTRIBUTE = _Decl(_ATTRIBUTE_MAX)
_QUANTITY_DECL = _Decl(0)
_ID, _DOMAIN = _Decl(_ID_MAX), _Decl(_DOMAIN_MAX)
_DEVICE = _Decl(
    0,
    {
        "driver": _Decl(_DRIVER_MAX),
        "allowMultipleAllocations": _Decl(1),
        "attributes": _Decl(
            _PER_DEVICE, key=_DOMAIN, elem=_Decl(_PER_DEVICE, key=_ID, elem=_ATTRIBUTE)
        ),
        "capacity": _Decl(
            _PER_DEVICE, key=_DOMAIN, elem=_Decl(_PER_DEVICE, key=_ID, elem=_QUANTITY_DECL)
        ),
    },
)


def _declared_size(path: list[str] | None) -> Est | None:
    if not path or path[0] != "device":
        return None
    node = _DEVICE
    for name in path[1:]:
        if name in ("@items", "@values"):
            if node.elem is None:
                return None
            node = node.elem
        elif name == "@keys":
            if node.key is None:
                return None
            node = node.key
        elif name in node.fields:
            node = node.fields[name]
        elif node.elem is _ATTRIBUTE:  # any attribute of a domain: an attribute value
            node = _ATTRIBUTE
        else:
            return None
    return Est(0, node.max)


_SIZE_COMPARED = frozenset(
    f"{op}_{kind}"
    for op in ("less", "greater", "less_equals", "greater_equals")
    for kind in ("string", "bytes")
) | {"equals", "not_equals"}


def _literal_size(node: Node) -> Est | None:
    """cel-go's computeExprSize: the exact size of a literal, a list or a map literal."""
    if isinstance(node, Lit):
        if node.kind == "string":
            assert isinstance(node.value, str)
            return _fixed(len(node.value))
        if node.kind == "bytes":
            assert isinstance(node.value, bytes)
            return _fixed(len(node.value))
        return ONE
    if isinstance(node, ListLit):
        return _fixed(len(node.elements))
    if isinstance(node, MapLit):
        return _fixed(len(node.entries))
    return None


def _estimated_size(arg: _Arg) -> Est:
    """Kubernetes' CostEstimator.sizeEstimate: the computed size, the declared one, or any."""
    if arg.size is not None:
        return arg.size
    return _declared_size(arg.path) or UNKNOWN


def _elements(arg: _Arg) -> _Arg | None:
    """Kubernetes' listElementNode: the element of a list-typed node."""
    if not arg.type.params:
        return None
    path = [*arg.path, "@items"] if arg.path is not None else None
    return _Arg(None, path, arg.type.params[0], None)


# Kubernetes' estimates of functions the API server's environment declares but gsb-tui does not
# evaluate (types.UNSUPPORTED: such a selector is declined before its cost is asked); kept as
# the estimator has them, by the same shapes as the libraries' records.
_UNEVALUATED: dict[str, str] = {
    **dict.fromkeys(
        [
            "format.named",
            "getScheme",
            "getHostname",
            "getHost",
            "getPort",
            "getEscapedPath",
            "getQuery",
            "masked",
            "prefixLength",
            "family",
            "isUnspecified",
            "isLoopback",
            "isLinkLocalMulticast",
            "isLinkLocalUnicast",
            "isGlobalUnicast",
        ],
        "one",
    ),
    **dict.fromkeys(("isSorted", "sum", "max", "min"), "elements"),
    **dict.fromkeys(("url", "jsonpatch.escapeKey"), "url"),
    **dict.fromkeys(("find", "findAll"), "find"),
    **dict.fromkeys(("cidr", "isIP", "isCIDR", "ip"), "string-argument"),
    "ip.isCanonical": "canonical-ip",
}
_Estimate = tuple[Est, Est | None] | None


def _kubernetes_estimate(function: str, target: _Arg | None, args: list[_Arg]) -> _Estimate:
    """k8s.io/apiserver pkg/cel/library CostEstimator.EstimateCallCost for the functions a
    device selector can call: (cost, result size), or None to let cel-go's rules decide. Each
    library function's shape is its record's (extensions.py)."""
    shape = SHAPES.get(function) or _UNEVALUATED.get(function)
    if shape is not None:
        found = _SHAPES[shape](target, args)
        if found is not None:
            return found
    same = len(args) == 2 and args[0].type == args[1].type
    if function == "_==_" and same and args[0].type in (QUANTITY, SEMVER):
        return ONE, None
    return None


def _one_unit(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    return ONE, None


def _elements_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    """A list target's elements (strings traversed each), or a string target traversed."""
    if target is None:
        return None
    elements = _elements(target)
    if elements is None:  # a string (indexOf, lastIndexOf)
        return _estimated_size(target).factor(_STRING_TRAVERSAL), None
    each = ONE
    if elements.type.kind in ("string", "bytes"):
        each = each.add(_estimated_size(elements).factor(_STRING_TRAVERSAL))
    return _estimated_size(target).multiply(each), None


def _string_target(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if target is None:
        return None
    sz = _estimated_size(target)
    return sz.factor(_STRING_TRAVERSAL), sz


def _string_argument(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if not args:
        return None
    return _estimated_size(args[0]).factor(_STRING_TRAVERSAL), None


def _url_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if len(args) != 1:
        return None
    sz = _estimated_size(args[0])
    return sz.factor(_STRING_TRAVERSAL), sz


def _canonical_ip(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if not args:
        return None
    return _estimated_size(args[0]).factor(2 * _STRING_TRAVERSAL), None


def _replace_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if target is None or len(args) < 2:
        return None
    size = _estimated_size
    return _replace(size(target), size(args[0]), size(args[1]))


def _split_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if target is None:
        return None
    sz = _estimated_size(target)
    most = sz.max
    if len(args) > 1 and isinstance(args[1].node, Lit) and args[1].node.kind == "int":
        assert isinstance(args[1].node.value, int)
        most = args[1].node.value % 2**64  # Go's uint64(int64)
    return sz.factor(2 * _STRING_TRAVERSAL), Est(0, most)


def _join_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if target is None:
        return None
    size = _estimated_size
    items = size(target)
    elements = _elements(target)
    total = items.multiply(size(elements)) if elements is not None else ZERO
    if args:
        separators = Est(max(items.min - 1, 0), max(items.max - 1, 0))
        total = total.add(size(args[0]).multiply(separators))
    return total.factor(_STRING_TRAVERSAL), total


def _find_shape(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    if target is None or not args:
        return None
    sz = _estimated_size(target)
    text = sz.add(ONE).factor(_STRING_TRAVERSAL)
    regex = _estimated_size(args[0]).factor(_REGEX_LENGTH)
    return text.multiply(regex), Est(0, sz.max)


def _cel_go(target: _Arg | None, args: list[_Arg]) -> _Estimate:
    return None


_SHAPES: dict[str, Callable[[_Arg | None, list[_Arg]], _Estimate]] = {
    "one": _one_unit,
    "elements": _elements_shape,
    "string-target": _string_target,
    "string-argument": _string_argument,
    "replace": _replace_shape,
    "split": _split_shape,
    "join": _join_shape,
    "cel-go": _cel_go,
    "url": _url_shape,
    "find": _find_shape,
    "canonical-ip": _canonical_ip,
}


def _replacements(size: int, old_len: int, no_growth: bool) -> tuple[int, int]:
    """(how many replacements, how much of the string is kept) at one bound of Kubernetes'
    estimate: `old_len` the shortest `old` for the longest result, the longest for the
    shortest; `no_growth` when `new` is no longer than `old` at that bound."""
    if old_len == 0:
        return (size + 1 if size < _U64 else size), size
    if no_growth:
        return 0, size
    return math.ceil(float(size) / float(old_len)), 0


def _replace(sz: Est, old: Est, new: Est) -> tuple[Est, Est]:
    """Kubernetes' estimate of `s.replace(old, new)`: the longest and shortest results."""
    count_max, retained_max = _replacements(sz.max, old.min, new.max <= old.min)
    count_min, retained_min = _replacements(sz.min, old.max, old.max <= new.min)
    result = Est(count_min, min(count_max, _U64)).multiply(new).add(Est(retained_min, retained_max))
    return sz.factor(2 * _STRING_TRAVERSAL), result
