"""The types and declarations Kubernetes gives device selectors, and cel-go's unification rules.

cel-go type-checks a selector against the `device` variable (kubernetes.DRADevice) and the
function libraries of Kubernetes' base CEL environment. This module declares the part of that
environment selectors use, with the overloads cel-go has, so check.py can report the same
"found no matching overload" errors with the same type spellings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- types -----------------------------------------------------------------------------------

DYN_KINDS = ("dyn", "any")


# Types nest as deep as list and map literals do, and the parser admits no deeper ones (cel-go's
# 250 nested rules): a guard. Comparing and hashing walk no stack (deep types meet in the
# checker and the cost estimate); spelling one is only for error messages.
MAX_TYPE_DEPTH = 256


class TypeDepthError(ValueError):
    """A type nested deeper than MAX_TYPE_DEPTH."""


@dataclass(frozen=True, eq=False)
class T:
    kind: str  # int uint double bool string bytes null dyn any error list map type object param
    name: str = ""  # object type name or type parameter name
    params: tuple[T, ...] = ()
    depth: int = field(default=1, compare=False, repr=False)
    _hash: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.params:
            depth = 1 + max(p.depth for p in self.params)
            if depth > MAX_TYPE_DEPTH:
                raise TypeDepthError(f"types nested deeper than {MAX_TYPE_DEPTH}")
            object.__setattr__(self, "depth", depth)
        # From the parameters' own hashes, made when they were: no walk.
        made = hash((self.kind, self.name, tuple(p._hash for p in self.params)))
        object.__setattr__(self, "_hash", made)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        """Equal kind, name and parameters, compared with a list of pairs, not the stack."""
        if not isinstance(other, T):
            return NotImplemented
        pairs = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if a._hash != b._hash or a.kind != b.kind or a.name != b.name:
                return False
            if len(a.params) != len(b.params):
                return False
            pairs.extend(zip(a.params, b.params, strict=True))
        return True

    def __str__(self) -> str:
        """cel-go's FormatCELType: the spelling of checker errors."""
        special = {"any": "any", "null": "null", "error": "!error!"}
        if self.kind in special:
            return special[self.kind]
        if self.kind in ("object", "param"):
            return self.name
        if self.params:
            return f"{self.kind}({', '.join(str(p) for p in self.params)})"
        return self.kind

    def go_string(self) -> str:
        """cel-go's Type.String(): the spelling of "must evaluate to bool" errors."""
        names = {
            "any": "google.protobuf.Any",
            "null": "null_type",
            "timestamp": "google.protobuf.Timestamp",
            "duration": "google.protobuf.Duration",
        }
        base = names.get(self.kind) or (
            self.name if self.kind in ("object", "param") else self.kind
        )
        if self.params:
            return f"{base}({', '.join(p.go_string() for p in self.params)})"
        return base


INT, UINT, DOUBLE, BOOL = T("int"), T("uint"), T("double"), T("bool")
STRING, BYTES, NULL, DYN, ANY = T("string"), T("bytes"), T("null"), T("dyn"), T("any")
ERROR, TIMESTAMP, DURATION = T("error"), T("timestamp"), T("duration")
QUANTITY = T("object", "kubernetes.Quantity")
SEMVER = T("object", "kubernetes.Semver")
DEVICE = T("object", "kubernetes.DRADevice")
A, B = T("param", "A"), T("param", "B")


def list_of(elem: T) -> T:
    return T("list", params=(elem,))


def map_of(key: T, value: T) -> T:
    return T("map", params=(key, value))


def type_of(t: T) -> T:
    return T("type", params=(t,))


ATTRIBUTES = map_of(STRING, map_of(STRING, ANY))
CAPACITY = map_of(STRING, map_of(STRING, QUANTITY))
DEVICE_FIELDS = {
    "driver": STRING,
    "attributes": ATTRIBUTES,
    "capacity": CAPACITY,
    "allowMultipleAllocations": BOOL,
}
OBJECT_FIELDS = {DEVICE.name: DEVICE_FIELDS}
TYPE_IDENTS = {
    n: type_of(t)
    for n, t in [
        ("int", INT),
        ("uint", UINT),
        ("double", DOUBLE),
        ("bool", BOOL),
        ("string", STRING),
        ("bytes", BYTES),
        ("null_type", NULL),
        ("list", list_of(DYN)),
        ("map", map_of(DYN, DYN)),
        ("type", type_of(DYN)),
    ]
}

# --- declarations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Overload:
    params: tuple[T, ...]
    result: T
    member: bool = False
    # cel-go's overload id where its cost estimate depends on it (cost.py), else "".
    id: str = ""


@dataclass
class Function:
    overloads: list[Overload] = field(default_factory=list)


# The core's functions: cel-go's operators, standard functions and conversions (the libraries'
# are extensions.py's records; extensions.DECLARED is the checker's whole table).
FUNCTIONS: dict[str, Function] = {}


def _declare(name: str, *overloads: Overload) -> None:
    fn = FUNCTIONS.setdefault(name, Function())
    fn.overloads.extend(overloads)


def _g(result: T, *params: T, id: str = "") -> Overload:
    return Overload(params, result, id=id)


def _m(result: T, *params: T, id: str = "") -> Overload:
    return Overload(params, result, member=True, id=id)


_COMPARISON_IDS = {"_<_": "less", "_<=_": "less_equals", "_>_": "greater", "_>=_": "greater_equals"}


_NUMBERS = (INT, UINT, DOUBLE)
_ORDERED = (BOOL, INT, UINT, DOUBLE, STRING, BYTES, TIMESTAMP, DURATION)
_declare("_==_", _g(BOOL, A, A, id="equals"))
_declare("_!=_", _g(BOOL, A, A, id="not_equals"))
for _op in ("_<_", "_<=_", "_>_", "_>=_"):
    _declare(
        _op,
        *(
            _g(BOOL, t, t, id=f"{_COMPARISON_IDS[_op]}_{t.kind}" if t in (STRING, BYTES) else "")
            for t in _ORDERED
        ),
    )
    # cel.CrossTypeNumericComparisons(true) is part of the Kubernetes base environment.
    _declare(_op, *(_g(BOOL, a, b) for a in _NUMBERS for b in _NUMBERS if a != b))
_declare("_+_", *(_g(t, t, t) for t in (*_NUMBERS, DURATION)))
_declare(
    "_+_", _g(STRING, STRING, STRING, id="add_string"), _g(BYTES, BYTES, BYTES, id="add_bytes")
)
_declare("_+_", _g(list_of(A), list_of(A), list_of(A), id="add_list"))
_declare("_+_", _g(TIMESTAMP, TIMESTAMP, DURATION), _g(TIMESTAMP, DURATION, TIMESTAMP))
_declare("_-_", *(_g(t, t, t) for t in (*_NUMBERS, DURATION)))
_declare("_-_", _g(DURATION, TIMESTAMP, TIMESTAMP), _g(TIMESTAMP, TIMESTAMP, DURATION))
for _op in ("_*_", "_/_"):
    _declare(_op, *(_g(t, t, t) for t in _NUMBERS))
_declare("_%_", _g(INT, INT, INT), _g(UINT, UINT, UINT))
_declare("-_", _g(INT, INT), _g(DOUBLE, DOUBLE))
_declare("!_", _g(BOOL, BOOL))
_declare("_?_:_", _g(A, BOOL, A, A, id="conditional"))
_declare("_[_]", _g(A, list_of(A), INT, id="index_list"), _g(B, map_of(A, B), A, id="index_map"))
_declare("@in", _g(BOOL, A, list_of(A), id="in_list"), _g(BOOL, A, map_of(A, B), id="in_map"))
for _t in (STRING, BYTES, list_of(A), map_of(A, B)):
    _declare("size", _g(INT, _t), _m(INT, _t))
_declare("contains", _m(BOOL, STRING, STRING, id="contains_string"))
_declare("startsWith", _m(BOOL, STRING, STRING, id="starts_with_string"))
_declare("endsWith", _m(BOOL, STRING, STRING, id="ends_with_string"))
_declare(
    "matches", _g(BOOL, STRING, STRING, id="matches"), _m(BOOL, STRING, STRING, id="matches_string")
)
_declare("int", *(_g(INT, t) for t in (INT, UINT, DOUBLE, STRING, TIMESTAMP)))
_declare("uint", *(_g(UINT, t) for t in (INT, UINT, DOUBLE, STRING)))
_declare("double", *(_g(DOUBLE, t) for t in (INT, UINT, DOUBLE, STRING)))
_declare("string", *(_g(STRING, t, id="bytes_to_string" if t == BYTES else "") for t in _ORDERED))
_declare("string", _g(STRING, STRING))
_declare("bytes", _g(BYTES, BYTES), _g(BYTES, STRING, id="string_to_bytes"))
_declare("dyn", _g(DYN, A))
_declare("type", _g(type_of(A), A))
_declare("duration", _g(DURATION, STRING), _g(DURATION, DURATION))
_declare("timestamp", _g(TIMESTAMP, STRING), _g(TIMESTAMP, INT), _g(TIMESTAMP, TIMESTAMP))
_declare("bool", _g(BOOL, BOOL), _g(BOOL, STRING))
# Accepted by the API server (its base environment has these libraries) but not evaluated here.
_UNSUPPORTED_NAMES = """
    mul div divInt find findAll isSorted sum min max reverse format url isURL getScheme getHost
    getHostname getPort getEscapedPath getQuery ip isIP cidr isCIDR family isUnspecified
    isLoopback isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast containsIP containsCIDR
    masked prefixLength sets.contains sets.equivalent sets.intersects optional.of optional.none
    optional.ofNonZeroValue hasValue value orValue or transformList transformMap transformMapEntry
    getFullYear getMonth getDayOfYear getDayOfMonth getDate getDayOfWeek getHours getMinutes
    getSeconds getMilliseconds image isImage includes lists.range base64.encode base64.decode
    math.greatest math.least"""
UNSUPPORTED = frozenset(_UNSUPPORTED_NAMES.split())

# --- unification (cel-go's checker rules) -----------------------------------------------------

Substitution = dict[str, T]


def dyn_or_error(t: T) -> bool:
    return t.kind in (*DYN_KINDS, "error")


def _default_assignable(target: T, source: T) -> bool:
    if target == source or target.kind in (*DYN_KINDS, "param"):
        return True
    if (target.kind, target.name, len(target.params)) != (
        source.kind,
        source.name,
        len(source.params),
    ):
        return False
    return all(_default_assignable(t, s) for t, s in zip(target.params, source.params, strict=True))


def _nullable(t: T) -> bool:
    return t.kind in ("object", "any", "timestamp", "duration")


def less_specific(t1: T, t2: T) -> bool:
    """isEqualOrLessSpecific: t1 is t2 or more general."""
    if t1.kind in (*DYN_KINDS, "param"):
        return True
    if t2.kind in (*DYN_KINDS, "param") or t1.kind != t2.kind:
        return False
    if t1.kind in ("list", "map"):
        return all(less_specific(a, b) for a, b in zip(t1.params, t2.params, strict=True))
    if t1.kind == "type":
        return True
    return t1 == t2


def _not_referenced_in(m: Substitution, param: T, within: T) -> bool:
    while within.kind == "param":  # a chain of bound parameters: followed without recursion
        if param == within:
            return False
        sub = m.get(within.name)
        if sub is None:
            return True
        within = sub
    if param == within:
        return False
    return all(_not_referenced_in(m, param, p) for p in within.params)


def _valid_substitution(m: Substitution, t1: T, t2: T) -> tuple[bool, bool]:
    """Whether param t2 (or its binding) can stand for t1, and whether t2 was already bound."""
    if t1 == t2:
        return True, True
    sub = m.get(t2.name)
    if sub is not None:
        if t1 == sub:
            return True, True
        if assignable(m, t1, sub):
            general = t1 if less_specific(t1, sub) else sub  # cel-go's mostGeneral
            if _not_referenced_in(m, t2, general):
                m[t2.name] = general
            return True, True
        return False, True
    if _not_referenced_in(m, t2, t1):
        m[t2.name] = t1
        return True, False
    return False, False


def assignable(m: Substitution, t1: T, t2: T) -> bool:
    """internalIsAssignable: may a value of type t1 go where t2 is expected (binding params)."""
    if t2.kind == "param":
        valid, bound = _valid_substitution(m, t1, t2)
        if valid:
            return True
        if bound:
            return False
    if t1.kind == "param":
        return _valid_substitution(m, t2, t1)[0]
    if dyn_or_error(t1) or dyn_or_error(t2):
        return True
    if t1.kind == "null":
        return _nullable(t2)
    if t2.kind == "null":
        return _nullable(t1)
    if t1.kind == "type":
        return t2.kind == "type"
    if t1.kind in ("list", "map"):
        return (
            t1.kind == t2.kind
            and len(t1.params) == len(t2.params)
            and all(assignable(m, a, b) for a, b in zip(t1.params, t2.params, strict=True))
        )
    return _default_assignable(t1, t2)


def substitute(m: Substitution, t: T, to_dyn: bool) -> T:
    while t.kind == "param":  # a chain of bound parameters: followed without recursion
        sub = m.get(t.name)
        if sub is None:
            return DYN if to_dyn else t
        t = sub
    if t.params:
        return T(t.kind, t.name, tuple(substitute(m, p, to_dyn) for p in t.params))
    return t
