"""CEL's type conversions as cel-go runs them: int(), uint(), double(), string(), bytes(),
bool() and type(), with cel-go's overflow and conversion errors (functions.py's table holds
them)."""

from __future__ import annotations

import math
import re
from typing import Any

from gsb_tui.dra.cel.semantics import (
    _UINT_MAX,
    CelError,
    CelType,
    Uint,
    _check_int,
    _check_uint,
    _fail,
    _is_int,
    _is_number,
    _overload,
    go_float,
    type_name,
)


def _convert_int(args: list[Any], member: bool) -> Any:
    v = args[0]
    if _is_int(v):
        return v
    if isinstance(v, Uint):
        return _check_int(int(v))
    if isinstance(v, float):
        if math.isnan(v) or not (-9.223372036854776e18 < v < 9.223372036854776e18):
            raise _fail("integer overflow")
        return int(v)
    if isinstance(v, str):
        try:
            return _check_int(int(v, 10)) if re.fullmatch(r"[+-]?[0-9]+", v) else _bad(v)
        except CelError:
            raise _fail("type conversion error from 'string' to 'int'") from None
    raise _overload("int", v)


def _bad(_: Any) -> Any:
    raise CelError("conversion")


def _convert_uint(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, Uint):
        return v
    if _is_int(v):
        return _check_uint(v)
    if isinstance(v, float):
        if math.isnan(v) or not (-1 < v < 1.8446744073709552e19):
            raise _fail("unsigned integer overflow")
        return Uint(int(v))
    if isinstance(v, str):
        if re.fullmatch(r"\+?[0-9]+", v) and int(v) <= _UINT_MAX:
            return Uint(int(v))
        raise _fail("type conversion error from 'string' to 'uint'")
    raise _overload("uint", v)


def _convert_double(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, float):
        return v
    if _is_number(v):
        return float(v)
    if isinstance(v, str):
        try:
            value = float(v)
        except ValueError:
            raise _fail("type conversion error from 'string' to 'double'") from None
        if math.isinf(value) and not re.fullmatch(r"[+-]?(inf|infinity)", v.lower()):
            raise _fail("type conversion error from 'string' to 'double'")
        return value
    raise _overload("double", v)


def _convert_string(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return go_float(v)
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("invalid UTF-8 in bytes, cannot convert to string") from None
    raise _overload("string", v)


def _convert_bytes(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogatepass")
    raise _overload("bytes", v)


def _convert_bool(args: list[Any], member: bool) -> Any:
    v = args[0]
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        if v in ("1", "t", "true", "TRUE", "True"):
            return True
        if v in ("0", "f", "false", "FALSE", "False"):
            return False
        raise _fail("type conversion error from 'string' to 'bool'")
    raise _overload("bool", v)


def _type(args: list[Any], member: bool) -> Any:
    return CelType(type_name(args[0]))
