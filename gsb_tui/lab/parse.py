"""What the learner's answer files say, from their decoded text: key=value lines, JSON, YAML.

Like files.py it never raises: a syntax error, a key given twice or a document that is not an
object becomes a plain-words problem. Apart from files.py because it is pure text in, values out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from gsb_tui.words import Text, t

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
