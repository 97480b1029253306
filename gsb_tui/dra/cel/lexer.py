"""The CEL lexer for syntax.py: tokens with the offsets cel-go reports.

String and bytes literals are decoded as cel-go decodes them (in bytes, hex and octal escapes
are single bytes); numbers carry their value, and integers whether they are unsigned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class ParseError(ValueError):
    """What the lexer or the parser does not understand, at an offset into the expression."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.pos = pos


_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\n\r\f]+|//[^\n]*)
  | (?P<double>[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?
              |[0-9]+[eE][+-]?[0-9]+
              |\.[0-9]+(?:[eE][+-]?[0-9]+)?)
  | (?P<hex>0[xX][0-9a-fA-F]+[uU]?)
  | (?P<int>[0-9]+[uU]?)
  | (?P<string>(?:[rR][bB]?|[bB][rR]?)?(?:'''|\"\"\"|'|\"))
  | (?P<ident>[_a-zA-Z][_a-zA-Z0-9]*)
  | (?P<op>==|!=|<=|>=|&&|\|\||[<>!?:.,\[\]{}()+\-*/%])
    """,
    re.VERBOSE,
)

_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "`": "`",
    "?": "?",
}


@dataclass
class Token:
    kind: str  # int, uint, double, string, bytes, ident, op, eof
    text: str
    pos: int
    value: object = None


def _read_string(src: str, pos: int, prefix_len: int) -> tuple[Token, int]:
    prefix = src[pos : pos + prefix_len].lower()
    raw, is_bytes = "r" in prefix, "b" in prefix
    start = pos + prefix_len
    quote = src[start : start + 3] if src[start : start + 3] in ("'''", '"""') else src[start]
    i = start + len(quote)
    out = bytearray()  # bytes literals: \xHH and octal escapes are single bytes
    chars: list[str] = []
    while True:
        if i >= len(src) or (len(quote) == 1 and src[i] in "\r\n"):
            raise ParseError("unterminated string", pos)
        if src.startswith(quote, i):
            i += len(quote)
            break
        ch = src[i]
        byte: int | None = None
        if ch == "\\" and not raw:
            i, ch, byte = _escape(src, i)
        else:
            i += 1
        chars.append(ch)
        if byte is not None and is_bytes:
            out.append(byte)
        else:
            out.extend(ch.encode("utf-8", "surrogatepass"))
    if is_bytes:
        return Token("bytes", src[pos:i], pos, bytes(out)), i
    return Token("string", src[pos:i], pos, "".join(chars)), i


def _escape(src: str, i: int) -> tuple[int, str, int | None]:
    """(next offset, the character, the byte value for \\x and octal escapes)."""
    nxt = src[i + 1] if i + 1 < len(src) else ""
    if nxt in _ESCAPES:
        return i + 2, _ESCAPES[nxt], None
    if nxt in "xX":
        value = int(src[i + 2 : i + 4], 16)
        return i + 4, chr(value), value
    if nxt == "u":
        return i + 6, chr(int(src[i + 2 : i + 6], 16)), None
    if nxt == "U":
        return i + 10, chr(int(src[i + 2 : i + 10], 16)), None
    if nxt in "0123":
        value = int(src[i + 1 : i + 4], 8)
        return i + 4, chr(value), value
    raise ParseError(f"invalid escape sequence \\{nxt}", i)


def tokenize(src: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise ParseError(f"unexpected character {src[pos]!r}", pos)
        kind = m.lastgroup or ""
        text = m.group()
        if kind == "ws":
            pos = m.end()
            continue
        if kind == "string":
            token, pos = _read_string(src, pos, len(text.rstrip("'\"")))
            tokens.append(token)
            continue
        if kind in ("int", "hex"):
            unsigned = text[-1] in "uU"
            digits = text[:-1] if unsigned else text
            value = int(digits, 16 if kind == "hex" else 10)
            tokens.append(Token("uint" if unsigned else "int", text, pos, value))
        elif kind == "double":
            tokens.append(Token("double", text, pos, float(text)))
        else:
            tokens.append(Token(kind, text, pos))
        pos = m.end()
    tokens.append(Token("eof", "", len(src)))
    return tokens
