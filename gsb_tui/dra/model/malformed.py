"""Malformed objects: kept, shown, and counted apart.

An object with a field of the wrong type (model/fields.py) is read with that field absent and
carries its `problems`; `Malformed` names the object (kind as kubectl prints it, namespace,
name) with them, for the panes, `why`, `devices`, `check` and `match` to say in one sentence:

    ResourceSlice lab-node-gpus is malformed: spec.pool.generation: expected an integer,
    found the string 'v2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gsb_tui.dra.model.claims import Claim, Template
from gsb_tui.dra.model.devices import DeviceClass, Slice
from gsb_tui.dra.model.fields import FieldProblem, printable
from gsb_tui.dra.model.pods import Event, Pod
from gsb_tui.dra.model.rules import TaintRule
from gsb_tui.snapshot import KINDS, Kind
from gsb_tui.words import Text, localize, t

SAID_MOST = 3  # fields said in one line; the rest are counted ("and 2 more")


class _Read(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def problems(self) -> tuple[FieldProblem, ...]: ...


@dataclass(frozen=True)
class Malformed:
    kind: Kind
    namespace: str  # "" for cluster-scoped kinds
    name: str
    problems: tuple[FieldProblem, ...]

    @property
    def object_kind(self) -> str:
        return KINDS[self.kind].object_kind

    @property
    def ref(self) -> str:
        """namespace/name (name alone when cluster-scoped), printable anywhere."""
        name = f"{self.namespace}/{self.name}" if self.namespace else self.name
        return printable(name)

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)


def of(kind: Kind, obj: _Read) -> Malformed:
    """One object as a Malformed (its problems may be none)."""
    return Malformed(kind, getattr(obj, "namespace", ""), obj.name, obj.problems)


def collect(kinds: Iterable[tuple[Kind, Iterable[_Read]]]) -> tuple[Malformed, ...]:
    """Every object of these kinds with a problem, in the order given."""
    return tuple(of(kind, obj) for kind, objs in kinds for obj in objs if obj.problems)


def field_text(problem: FieldProblem) -> Text:
    return t(
        "malformed.field",
        path=printable(problem.path) or "(object)",
        expected=t(f"malformed.expected.{problem.expected}"),
        found=t(f"malformed.found.{problem.found}", sample=problem.sample),
    )


def fields_text(problems: Sequence[FieldProblem], lang: str, most: int = SAID_MOST) -> str:
    """The first few fields in one language, "; "-separated, the rest counted."""
    said = [localize(field_text(p), lang) for p in problems[:most]]
    if len(problems) > most:
        said.append(localize(t("malformed.more", n=len(problems) - most), lang))
    return "; ".join(said)


def object_text(m: Malformed, lang: str, most: int = SAID_MOST) -> str:
    """ "ResourceSlice x is malformed: spec.pool.generation: expected an integer, found …"."""
    fields = fields_text(m.problems, lang, most)
    return localize(t("malformed.object", kind=m.object_kind, name=m.ref, fields=fields), lang)


def device_text(problems: Sequence[FieldProblem], lang: str, most: int = 1) -> str:
    """ "malformed: spec.devices[0].capacity.memory.value: expected a quantity, …"."""
    return localize(t("malformed.device", fields=fields_text(problems, lang, most)), lang)


def words(m: Malformed) -> Text:
    """ "malformed: <fields>" in both languages (for `check`'s findings)."""
    en, ko = (device_text(m.problems, lang, most=SAID_MOST) for lang in ("en", "ko"))
    return Text(en, ko, key="malformed.device")


def count_text(n: int, lang: str) -> str:
    return localize(t("malformed.count", n=n), lang)


def with_count(note: str, n: int, lang: str) -> str:
    """A pane's note with " · N malformed object(s)" after it (the note alone when none)."""
    count = count_text(n, lang) if n else ""
    return " · ".join(part for part in (note, count) if part)


def said(obj: _Read, lang: str) -> list[str]:
    """[the one line saying the object is malformed], or [] when it is not."""
    if not obj.problems:
        return []
    kind = next(k for k, of_kind in _KINDS if isinstance(obj, of_kind))
    return [object_text(of(kind, obj), lang)]


def short(problems: Sequence[FieldProblem], lang: str) -> str:
    """ "  malformed: <the first field>" for a one-line form; "" when there are none."""
    return f"  {device_text(problems, lang)}" if problems else ""


_KINDS: tuple[tuple[Kind, type], ...] = (
    (Kind.SLICES, Slice),
    (Kind.CLASSES, DeviceClass),
    (Kind.CLAIMS, Claim),
    (Kind.TEMPLATES, Template),
    (Kind.PODS, Pod),
    (Kind.EVENTS, Event),
    (Kind.TAINT_RULES, TaintRule),
)


def as_json(m: Malformed, lang: str) -> dict[str, Any]:
    """{kind, namespace, name, text, fields: [{path, expected, found, text}]}."""
    return {
        "kind": m.object_kind,
        "namespace": printable(m.namespace) or None,
        "name": printable(m.name),
        "text": object_text(m, lang, most=len(m.problems)),
        "fields": [
            {
                "path": printable(p.path),
                "expected": p.expected,
                "found": p.found,
                "text": localize(field_text(p), lang),
            }
            for p in m.problems
        ],
    }
