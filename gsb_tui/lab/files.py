"""Reading the learner's answer files: never raising, never writing, always saying what is wrong.

Every reader returns a result with a plain-words `problem` instead of raising, because a half-saved
file, a directory in the wrong place or a file in the wrong encoding is an everyday lab state,
not an error of the dashboard. The lab directory is only ever opened read-only.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from gsb_tui.words import Text, t

MAX_BYTES = 1 << 20  # 1 MiB: answer files are a few lines; a bigger one is a mistake, not read

ReadStatus = Literal[
    "ok",
    "missing",
    "empty",
    "directory",
    "not-regular",
    "loop",
    "denied",
    "too-large",
    "binary",
    "not-utf8",
    "error",
]


@dataclass(frozen=True)
class FileRead:
    """One answer file as read: its text (BOM dropped, line ends made LF) or what went wrong."""

    name: str
    path: Path
    status: ReadStatus
    text: str = ""
    problem: Text | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def missing(self) -> bool:
        return self.status == "missing"


def _fail(name: str, path: Path, status: ReadStatus, problem: Text) -> FileRead:
    return FileRead(name, path, status, "", problem)


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode(name: str, path: Path, data: bytes) -> FileRead:
    """Bytes to text: UTF-8 (with or without BOM); CRLF and lone CR become LF."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _fail(name, path, "not-utf8", t("file.utf16", file=name))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        return _fail(name, path, "binary", t("file.binary", file=name))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _fail(
            name,
            path,
            "not-utf8",
            t(
                "file.not_utf8",
                file=name,
                byte=f"0x{data[exc.start]:02x}",
                line=_line_of(data, exc.start),
            ),
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return _fail(name, path, "empty", t("file.empty", file=name))
    return FileRead(name, path, "ok", text)


def read_file(path: Path, name: str | None = None, max_bytes: int = MAX_BYTES) -> FileRead:
    """Read one answer file; every failure becomes a FileRead with a problem, never an exception."""
    name = name or path.name
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return _fail(name, path, "missing", t("file.dangling", file=name))
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except NotADirectoryError:
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except PermissionError:
        return _fail(name, path, "denied", t("file.denied", file=name))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _fail(name, path, "loop", t("file.loop", file=name))
        return _fail(name, path, "error", t("file.error", file=name, error=exc.strerror or exc))
    except ValueError:  # an embedded NUL in the path
        return _fail(name, path, "error", t("file.error", file=name, error="invalid path"))
    if stat.S_ISDIR(st.st_mode):
        return _fail(name, path, "directory", t("file.directory", file=name))
    if not stat.S_ISREG(st.st_mode):
        return _fail(name, path, "not-regular", t("file.not_regular", file=name))
    if st.st_size > max_bytes:
        return _too_large(name, path, st.st_size, max_bytes)
    try:
        data = _read_capped(path, max_bytes)
    except PermissionError:
        return _fail(name, path, "denied", t("file.denied", file=name))
    except _NotRegular:
        return _fail(name, path, "not-regular", t("file.not_regular", file=name))
    except FileNotFoundError:  # removed between stat and open
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _fail(name, path, "loop", t("file.loop", file=name))
        return _fail(name, path, "error", t("file.error", file=name, error=exc.strerror or exc))
    if len(data) > max_bytes:  # it grew after the stat
        return _too_large(name, path, len(data), max_bytes)
    if not data.strip():
        return _fail(name, path, "empty", t("file.empty", file=name))
    return decode(name, path, data)


def _too_large(name: str, path: Path, size: int, max_bytes: int) -> FileRead:
    return _fail(
        name,
        path,
        "too-large",
        t("file.too_large", file=name, size=size, limit=f"{max_bytes // 1024} KiB"),
    )


class _NotRegular(OSError):
    pass


def _read_capped(path: Path, max_bytes: int) -> bytes:
    # O_NONBLOCK: a FIFO swapped in after the stat must not hang the dashboard.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotRegular(path)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- key=value (slices.txt, class.txt)


@dataclass(frozen=True)
class Duplicate:
    key: str
    lines: tuple[int, ...]
    values: tuple[str, ...]


@dataclass(frozen=True)
class KeyValues:
    """key=value lines. `values` keeps the first occurrence; `raw` keeps quotes as written."""

    values: Mapping[str, str] = field(default_factory=dict)
    raw: Mapping[str, str] = field(default_factory=dict)
    lines: Mapping[str, int] = field(default_factory=dict)
    duplicates: tuple[Duplicate, ...] = ()
    bad_lines: tuple[tuple[int, str], ...] = ()  # (line number, text) of lines without '='


def unquote(value: str) -> str:
    """Drop one pair of matching surrounding quotes: "x" or 'x' -> x."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].strip()
    return value


_INLINE_COMMENT = re.compile(r"\s+#.*$")


def _strip_comment(value: str) -> str:
    # "model=X  # from the slice": a # after whitespace starts a comment unless it sits in quotes.
    if "#" not in value:
        return value
    quote = ""
    for i, ch in enumerate(value):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and i > 0 and value[i - 1].isspace():
            return value[:i].rstrip()
    return value


def parse_key_values(text: str) -> KeyValues:
    """Lines of key=value: spaces around '=', quotes, blank lines and # comments are tolerated;
    keys are matched case-insensitively; a key given twice is reported, not silently merged."""
    values: dict[str, str] = {}
    raw: dict[str, str] = {}
    lines: dict[str, int] = {}
    seen: dict[str, list[tuple[int, str]]] = {}
    bad: list[tuple[int, str]] = []
    for lineno, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, eq, value = stripped.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            bad.append((lineno, stripped))
            continue
        value = _strip_comment(value.strip())
        seen.setdefault(key, []).append((lineno, unquote(value)))
        if key not in values:
            values[key] = unquote(value)
            raw[key] = value
            lines[key] = lineno
    dups = tuple(
        Duplicate(k, tuple(n for n, _ in occ), tuple(v for _, v in occ))
        for k, occ in seen.items()
        if len(occ) > 1
    )
    return KeyValues(values, raw, lines, dups, tuple(bad))


# ---------------------------------------------------------------- JSON (claim.json, report.json)


@dataclass(frozen=True)
class JsonDoc:
    value: Any = None
    problem: Text | None = None
    duplicates: tuple[str, ...] = ()  # keys given twice in one object

    @property
    def ok(self) -> bool:
        return self.problem is None


def parse_json(text: str, name: str) -> JsonDoc:
    dups: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out and key not in dups:
                dups.append(key)
            out.setdefault(key, value)
        return out

    def constant(word: str) -> Any:
        raise ValueError(f"{word} is not a JSON number")

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        return JsonDoc(
            problem=t("json.syntax", file=name, error=exc.msg, line=exc.lineno, col=exc.colno)
        )
    except (ValueError, RecursionError) as exc:
        return JsonDoc(problem=t("json.syntax_plain", file=name, error=str(exc)[:200]))
    return JsonDoc(value=value, duplicates=tuple(dups))


# ---------------------------------------------------------------- YAML manifests (one.yaml, …)


@dataclass(frozen=True)
class Manifest:
    """One object a YAML file declares."""

    api_version: str
    kind: str
    name: str
    namespace: str  # "" when the file leaves it to `kubectl apply -n`
    body: Mapping[str, Any]
    document: int  # 1-based document number in the file
    line: int  # 1-based line where the document starts

    def describe(self) -> str:
        return f"{self.kind} {self.name}" if self.name else self.kind


@dataclass(frozen=True)
class YamlDocs:
    objects: tuple[Manifest, ...] = ()
    problem: Text | None = None  # a syntax error (with its line) or an unusable document
    others: tuple[Text, ...] = ()  # documents that are not objects (named, not fatal)

    @property
    def ok(self) -> bool:
        return self.problem is None


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


# libyaml's parser when PyYAML has it (4x faster on a big file); the constructor stays Python.
_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeBase):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses a mapping key given twice (kubectl apply refuses it too)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(
                key_node, yaml.ScalarNode
            ):
                continue
            key = self.construct_object(key_node, deep=False)
            if key in seen:
                raise _DuplicateKey(
                    None, None, f"mapping key {key!r} appears twice", key_node.start_mark
                )
            seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


def _documents(text: str) -> Iterator[tuple[int, Any]]:
    loader = _Loader(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            line = node.start_mark.line + 1 if node is not None else 1
            yield line, loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def parse_yaml(text: str, name: str) -> YamlDocs:
    """All documents of a multi-document YAML file, as the objects kubectl apply would send."""
    objects: list[Manifest] = []
    others: list[Text] = []
    try:
        docs = list(_documents(text))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        problem = exc.problem or exc.context or "syntax error"
        return YamlDocs(
            problem=t("yaml.syntax", file=name, error=problem, line=where[0], col=where[1])
        )
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        return YamlDocs(problem=t("yaml.syntax_plain", file=name, error=str(exc)[:200]))
    for number, (line, doc) in enumerate(docs, 1):
        if doc is None:
            continue  # an empty document (a stray ---) is harmless
        items: list[Any] = [doc]
        if (
            isinstance(doc, dict)
            and doc.get("kind") == "List"
            and isinstance(doc.get("items"), list)
        ):
            items = doc["items"]
        for item in items:
            if not isinstance(item, dict):
                others.append(t("yaml.not_object", file=name, doc=number, line=line))
                continue
            kind, api = _str(item.get("kind")), _str(item.get("apiVersion"))
            if not kind or not api:
                others.append(t("yaml.no_kind", file=name, doc=number, line=line))
                continue
            meta = item.get("metadata")
            meta = meta if isinstance(meta, dict) else {}
            objects.append(
                Manifest(
                    api_version=api,
                    kind=kind,
                    name=_str(meta.get("name")),
                    namespace=_str(meta.get("namespace")),
                    body=item,
                    document=number,
                    line=line,
                )
            )
    if not objects and not others:
        return YamlDocs(problem=t("yaml.no_objects", file=name))
    return YamlDocs(tuple(objects), None, tuple(others))


# ---------------------------------------------------------------- the lab directory


class LabFiles:
    """Read-only access to the learner's lab directory (injectable for tests).

    Reads are cached per instance: build one LabFiles per evaluation so a file that changed
    since the last evaluation is read again.
    """

    def __init__(self, root: Path | str, max_bytes: int = MAX_BYTES) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self._cache: dict[str, FileRead] = {}

    def path(self, name: str) -> Path:
        return self.root / name

    def read(self, name: str) -> FileRead:
        if name not in self._cache:
            self._cache[name] = read_file(self.path(name), name, self.max_bytes)
        return self._cache[name]

    def exists(self, name: str) -> bool:
        return not self.read(name).missing
