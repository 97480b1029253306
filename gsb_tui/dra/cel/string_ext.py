"""cel-go's strings extension (ext/strings.go, version 2) for the interpreter: charAt, indexOf,
lastIndexOf, lowerAscii, upperAscii, replace, split, substring, join and strings.quote, with
Go's semantics and cel-go's errors (extensions.py declares each, with the runtime types its
overloads take)."""

from __future__ import annotations

from typing import Any

from gsb_tui.dra.cel.semantics import _fail


def _ascii(s: str, upper: bool) -> str:
    return "".join((c.upper() if upper else c.lower()) if c < "\x80" else c for c in s)


def lower_ascii(s: str) -> str:
    return _ascii(s, False)


def upper_ascii(s: str) -> str:
    return _ascii(s, True)


def char_at(s: str, i: int) -> str:
    if i < 0 or i > len(s):
        raise _fail(f"index out of range: {i}")
    return s[i] if i < len(s) else ""


def _at_offset(s: str, sub: str, offset: int) -> int | None:
    """cel-go's offset rules shared by indexOf and lastIndexOf: an empty needle is found at the
    offset, a negative offset is an error, one past the end finds nothing; None: search."""
    if sub == "":
        return offset
    if offset < 0:
        raise _fail(f"index out of range: {offset}")
    return -1 if offset >= len(s) else None


def index_of(s: str, sub: str, offset: int = 0) -> int:
    decided = _at_offset(s, sub, offset)
    return s.find(sub, offset) if decided is None else decided


def last_index_of(s: str, sub: str, offset: int | None = None) -> int:
    if offset is None:
        if sub == "":
            return len(s)
        if len(s.encode("utf-8", "surrogatepass")) < len(sub.encode("utf-8", "surrogatepass")):
            return -1
        offset = len(s) - 1
    decided = _at_offset(s, sub, offset)
    if decided is not None:
        return decided
    return s.rfind(sub, 0, min(offset, len(s) - len(sub)) + len(sub))


def substring(s: str, start: int, end: int | None = None) -> str:
    if end is None:
        if start < 0 or start > len(s):
            raise _fail(f"index out of range: {start}")
        return s[start:]
    if start > end:
        raise _fail(f"invalid substring range. start: {start}, end: {end}")
    for i in (start, end):
        if i < 0 or i > len(s):
            raise _fail(f"index out of range: {i}")
    return s[start:end]


def replace(s: str, old: str, new: str, n: int = -1) -> str:
    return s.replace(old, new, n if n >= 0 else -1)


def split(s: str, sep: str, n: int = -1) -> list[str]:
    """Go's strings.SplitN."""
    if n == 0:
        return []
    if sep == "":
        parts = list(s)
        if 0 < n < len(parts):
            parts = [*parts[: n - 1], "".join(parts[n - 1 :])]
        return parts
    return s.split(sep, n - 1 if n > 0 else -1)


def join(items: list[Any], sep: str = "") -> str:
    for item in items:
        if not isinstance(item, str):
            raise _fail(f"join: invalid input: {item}")
    return sep.join(items)


def quote(s: str) -> str:
    """strings.quote: Go's escapes for the nine characters cel-go escapes, every other rune as
    it is; a lone surrogate (no valid rune) becomes U+FFFD, as cel-go's sanitize makes it."""
    out = ['"']
    for c in s:
        if "\ud800" <= c <= "\udfff":
            out.append("\ufffd")
        else:
            out.append(_QUOTED.get(c, c))
    out.append('"')
    return "".join(out)


_QUOTED = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}
