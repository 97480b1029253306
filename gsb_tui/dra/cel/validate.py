"""cel-go's AST validators in Kubernetes' CEL environment, run after a successful type check.

The API server rejects a selector whose `duration(...)`, `timestamp(...)` or `matches(...)`
literal does not parse (`invalid duration argument`, ...), and one whose list or map literal
mixes element types (`expected type 'int' but found 'string'`): cel-go's checker types such a
literal dyn, and ValidateHomogeneousAggregateLiterals (cel/validator.go) reports it.
"""

from __future__ import annotations

import re
from datetime import datetime

from gsb_tui.dra.cel.check import Checked, CheckError, string_key, walk
from gsb_tui.dra.cel.syntax import Call, ListLit, MapLit, Node
from gsb_tui.dra.cel.types import T

_GO_DURATION = re.compile(
    r"[-+]?(?:0|(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)"
)
_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
# What Python's re accepts and RE2 (Go's regexp, cel-go's matches) does not.
_NOT_RE2 = re.compile(r"\(\?[=!<>]|\(\?P=|\\[1-9Z]|[*+?}]\+")


def _valid_regex(pattern: str) -> bool:
    if _NOT_RE2.search(pattern):
        return False
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def _valid_timestamp(text: str) -> bool:
    m = _RFC3339.fullmatch(text)
    if m is None:
        return False
    try:
        year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
        datetime(year, month, day, hour, minute, second)
    except ValueError:
        return False
    return True


def validate_literals(checked: Checked) -> list[CheckError]:
    """cel-go's AST validators in Kubernetes' environment: duration, timestamp and regex
    literals must parse; every list element, map key and map value of a literal has the type
    of the first one (homogeneous aggregate literals)."""
    errors: list[CheckError] = []
    literal_checks = (
        ("duration", lambda text: bool(_GO_DURATION.fullmatch(text))),
        ("timestamp", _valid_timestamp),
        ("matches", _valid_regex),
    )
    nodes = walk(checked.root)
    for name, valid in literal_checks:
        for node in nodes:
            if isinstance(node, Call) and node.function == name and node.args:
                arg = node.args[0]
                text = string_key(arg)
                if text is not None and not valid(text):
                    errors.append(CheckError(arg.pos, f"invalid {name} argument"))

    def mismatch(node: Node, expected: T, found: T) -> None:
        errors.append(CheckError(node.pos, f"expected type '{expected}' but found '{found}'"))

    for node in nodes:
        if isinstance(node, ListLit) and node.elements:
            first = checked.types[id(node.elements[0])]
            for e in node.elements[1:]:
                if not _equivalent(first, checked.types[id(e)]):
                    mismatch(e, first, checked.types[id(e)])
                    break
        elif isinstance(node, MapLit) and node.entries:
            key, value = (checked.types[id(x)] for x in node.entries[0])
            for k, v in node.entries[1:]:
                if not _equivalent(key, checked.types[id(k)]):
                    mismatch(k, key, checked.types[id(k)])
                if not _equivalent(value, checked.types[id(v)]):
                    mismatch(v, value, checked.types[id(v)])
    return errors


def _equivalent(a: T, b: T) -> bool:
    """cel-go's Type.IsEquivalentType: the same type, type parameter names aside."""
    if a.kind != b.kind or len(a.params) != len(b.params):
        return False
    if a.kind != "param" and a.name != b.name:
        return False
    return all(_equivalent(x, y) for x, y in zip(a.params, b.params, strict=True))
