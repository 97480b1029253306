"""Typed at the boundary: the one set of readers every field of a view goes through.

Each reader takes the raw value, the field's path (as kubectl names it: "spec.pool.generation")
and the list of problems of the object being read. A value of the expected type is returned as
it is; an absent one (None) is the empty value, silently; anything else (a string where an
integer belongs, a list for a map, NaN, ±inf, an integer past int64, a lone surrogate) is read
as absent too, and a `FieldProblem` naming the field and what was expected is added to the
list. The object is kept, and said to be malformed where it is shown (model/malformed.py).

The hot path of build_view (10,000 devices) only pays a type test per field: paths are
constants, and the paths of list entries ("spec.devices[3]") are made only when one is wrong
(`under`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

EMPTY_MAP: Mapping[str, Any] = MappingProxyType({})
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
SAMPLE_MAX = 40  # characters of a wrong value quoted back
# apimachinery's resource.ParseQuantity syntax (its ErrFormatWrong regular expression)
_QUANTITY = re.compile(r"[+-]?[0-9.]+[eEinumkKMGTP]*[-+]?[0-9]*")


@dataclass(frozen=True)
class FieldProblem:
    """One field that is not what the API says it is."""

    path: str  # "spec.pool.generation", "spec.devices[3].attributes.model"
    expected: str  # integer, string, boolean, list, map, quantity, attribute
    found: str  # string, integer, boolean, number, nan, infinity, -infinity, huge, surrogate,
    # list, map, out-of-range
    sample: str = ""  # the value, short and printable ("'v2'"), or a digit count for "huge"

    def under(self, prefix: str) -> FieldProblem:
        """The same problem, its path read from an enclosing object."""
        return replace(self, path=f"{prefix}.{self.path}" if self.path else prefix)


Bad = list[FieldProblem]


def printable(value: str) -> str:
    """A string with every lone surrogate spelled out ("\\ud800"): safe to encode anywhere."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def _sample(value: str) -> str:
    shown = printable(value)
    if len(shown) > SAMPLE_MAX:
        shown = shown[: SAMPLE_MAX - 1] + "…"
    return f"'{shown}'"


def found(value: Any) -> tuple[str, str]:
    """(what a wrong value is, a short sample of it) for a FieldProblem."""
    if value is True or value is False:
        return "boolean", "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value)))  # JSON decoders refuse more than 4,300 digits
        if digits > 19:
            return "huge", str(digits)
        return ("integer" if INT64_MIN <= value <= INT64_MAX else "out-of-range"), str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan", ""
        if math.isinf(value):
            return ("infinity" if value > 0 else "-infinity"), ""
        return "number", repr(value)
    if isinstance(value, str):
        return ("string" if value == printable(value) else "surrogate"), _sample(value)
    if isinstance(value, Mapping):
        return "map", ""
    if isinstance(value, list | tuple):
        return "list", ""
    return "other", _sample(type(value).__name__)


def problem(path: str, expected: str, value: Any) -> FieldProblem:
    what, sample = found(value)
    return FieldProblem(path, expected, what, sample)


def mapping(value: Any, path: str, bad: Bad) -> Mapping[str, Any]:
    if type(value) is dict:  # the common case, and the hot path of build_view
        return value
    if value is None:
        return EMPTY_MAP
    if isinstance(value, Mapping):
        return value
    bad.append(problem(path, "map", value))
    return EMPTY_MAP


def items(value: Any, path: str, bad: Bad) -> list[Any]:
    if type(value) is list:
        return value
    if value is not None:
        bad.append(problem(path, "list", value))
    return []


def string(value: Any, path: str, bad: Bad) -> str:
    """A string field; a lone surrogate is spelled out (the CEL library, a terminal and JSON
    cannot carry one) and said."""
    if type(value) is str:
        if value.isascii():
            return value
        shown = printable(value)
        if shown != value:
            bad.append(FieldProblem(path, "string", "surrogate", _sample(value)))
        return shown
    if value is not None:
        bad.append(problem(path, "string", value))
    return ""


def ident(value: Any, path: str, bad: Bad) -> str:
    """A name an object is keyed by (metadata.name, a claim a pod names): read exactly as the
    Store keys objects (snapshot.obj_key), so references still meet; a wrong type is said."""
    if type(value) is str:
        if not value.isascii() and printable(value) != value:
            bad.append(FieldProblem(path, "string", "surrogate", _sample(value)))
        return value
    if value is not None:
        bad.append(problem(path, "string", value))
    return str(value or "")


def integer(value: Any, path: str, bad: Bad, default: int = 0) -> int:
    if type(value) is int and INT64_MIN <= value <= INT64_MAX:
        return value
    if value is not None:  # 3.0 too: the API server never writes an integer so
        bad.append(problem(path, "integer", value))
    return default


def flag(value: Any, path: str, bad: Bad) -> bool:
    if value is True or value is False:
        return value
    if value is not None:
        bad.append(problem(path, "boolean", value))
    return False


def strings(value: Any, path: str, bad: Bad) -> tuple[str, ...]:
    """A list of strings; a wrong entry is left out and said."""
    out = []
    for index, entry in enumerate(items(value, path, bad)):
        mine: Bad = []
        text = string(entry, "", mine)
        if mine:
            bad.extend(p.under(f"{path}[{index}]") for p in mine)
        elif entry is not None:
            out.append(text)
    return tuple(out)


@functools.lru_cache(maxsize=4096)  # a few distinct strings, read on every device
def is_quantity(text: str) -> bool:
    return _QUANTITY.fullmatch(text) is not None


def quantity(value: Any, path: str, bad: Bad) -> str | None:
    """A resource.Quantity as its string ("80Gi"); JSON numbers are read as apimachinery reads
    them. None when absent or wrong (then said)."""
    if type(value) is str:
        if is_quantity(value):
            return value
    elif value is None:
        return None
    elif type(value) is int and INT64_MIN <= value <= INT64_MAX:
        return str(value)
    elif type(value) is float and math.isfinite(value) and is_quantity(repr(value)):
        return repr(value)
    bad.append(problem(path, "quantity", value))
    return None


def entries(value: Any, path: str, bad: Bad) -> Iterable[tuple[Mapping[str, Any], Bad]]:
    """Each entry of a list of objects, with the list its reader adds problems to (paths
    relative to the entry); they are added to `bad` under "<path>[<index>]" once read on.
    Read to the end (a for loop, a comprehension), or the last entry's problems are lost."""
    if type(value) is list:
        return _entries(value, path, bad) if value else ()
    if value is not None:  # most lists are absent or empty: no generator made for them
        bad.append(problem(path, "list", value))
    return ()


def _entries(value: list[Any], path: str, bad: Bad) -> Iterator[tuple[Mapping[str, Any], Bad]]:
    for index, raw in enumerate(value):
        mine: Bad = []
        yield mapping(raw, "", mine), mine
        if mine:
            bad.extend(p.under(f"{path}[{index}]") for p in mine)
