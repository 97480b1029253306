"""What several step checks share: reading the answer files (key=value text, JSON, YAML) into
sub-checks, and the parts every manifest step (3, 5, 6, 7) starts from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster, manifests
from gsb_tui.lab.files import FileRead, LabFiles
from gsb_tui.lab.parse import (
    KeyValues,
    Manifest,
    YamlDocs,
    parse_json,
    parse_key_values,
    parse_yaml,
)
from gsb_tui.lab.steps import step
from gsb_tui.lab.verdict import SubCheck, failed, not_yet, passed
from gsb_tui.snapshot import Kind
from gsb_tui.words import Text, t

WORKLOAD_KINDS = (Kind.CLASSES, Kind.SLICES, Kind.TEMPLATES, Kind.CLAIMS, Kind.PODS)


def next_hint(step_id: int) -> Text:
    return t("hint.next", next=step_id + 1) if step_id < 8 else t("hint.done")


# ------------------------------------------------------------------ answer files


def answer_file(files: LabFiles, name: str) -> tuple[SubCheck, FileRead]:
    read = files.read(name)
    path = str(files.path(name))
    if read.ok:
        return passed(name), read
    assert read.problem is not None
    if read.missing:
        return not_yet(name, read.problem, t("hint.write_file", path=path)), read
    return failed(name, read.problem, t("hint.fix_file", file=name)), read


def waiting(names: Sequence[str], file: str) -> list[SubCheck]:
    return [not_yet(n, t("sub.waiting_file", file=file)) for n in names]


# ------------------------------------------------------------------ key=value files (steps 1, 2)


def key_values(
    files: LabFiles, name: str, keys: Sequence[str]
) -> tuple[SubCheck, KeyValues | None, bool]:
    """The key=value file: (its sub-check, the parsed lines, whether the file exists)."""
    sub, read = answer_file(files, name)
    if not read.ok:
        return sub, None, not read.missing
    kv = parse_key_values(read.text)
    if kv.bad_lines:
        lineno, text = kv.bad_lines[0]
        return (
            failed(
                name,
                t("kv.bad_line", file=name, line=lineno, text=text[:60]),
                t("hint.kv_format", file=name, keys=", ".join(f"{k}=" for k in keys)),
            ),
            kv,
            True,
        )
    # The same value twice is harmless; two different values leave the answer ambiguous.
    dup = next((d for d in kv.duplicates if len(set(d.values)) > 1), None)
    if dup is not None:
        lines = ", ".join(str(n) for n in dup.lines)
        reason = t("kv.duplicate", file=name, key=dup.key, lines=lines)
        return failed(name, reason, t("hint.kv_duplicate", key=dup.key)), kv, True
    return sub, kv, True


def kv_value(
    kv: KeyValues, key: str, file: str, keys: Sequence[str]
) -> tuple[str | None, SubCheck | None]:
    if key not in kv.values:
        unknown = [k for k in kv.values if k not in keys]
        close = manifests.similar(key, unknown)
        reason = (
            t("kv.missing_close", file=file, key=key, found=close)
            if close
            else t("kv.missing", file=file, key=key)
        )
        return None, failed(key, reason, t("hint.kv_format", file=file, keys=f"{key}="))
    value = kv.values[key]
    if not value:
        return None, failed(
            key,
            t("kv.empty_value", file=file, key=key),
            t("hint.kv_format", file=file, keys=f"{key}="),
        )
    return value, None


# ------------------------------------------------------------------ JSON files (steps 4, 8)


def json_object(files: LabFiles, name: str) -> tuple[SubCheck, Mapping[str, Any] | None, bool]:
    sub, read = answer_file(files, name)
    if not read.ok:
        return sub, None, not read.missing
    doc = parse_json(read.text, name)
    if doc.problem is not None:
        return failed(name, doc.problem, t("hint.fix_json", file=name)), None, True
    if not isinstance(doc.value, dict):
        return (
            failed(
                name,
                t("json.not_object", file=name, found=manifests.type_name(doc.value)),
                t("hint.fix_json", file=name),
            ),
            None,
            True,
        )
    if doc.duplicates:
        return (
            failed(
                name,
                t("json.duplicate", file=name, key=doc.duplicates[0]),
                t("hint.fix_json", file=name),
            ),
            None,
            True,
        )
    return sub, doc.value, True


def json_key(
    obj: Mapping[str, Any], key: str, file: str, keys: Sequence[str]
) -> tuple[Any, SubCheck | None]:
    if key not in obj:
        close = manifests.similar(key, [k for k in obj if k not in keys])
        reason = (
            t("json.missing_close", file=file, key=key, found=close)
            if close
            else t("json.missing", file=file, key=key)
        )
        return None, failed(key, reason, t("hint.fix_json", file=file))
    return obj[key], None


def json_str(
    obj: Mapping[str, Any], key: str, file: str, keys: Sequence[str]
) -> tuple[str | None, SubCheck | None]:
    value, problem = json_key(obj, key, file, keys)
    if problem is not None:
        return None, problem
    if not isinstance(value, str):
        return None, failed(
            key,
            t("json.not_string", file=file, key=key, found=manifests.type_name(value)),
            t("hint.fix_json", file=file),
        )
    value = value.strip()
    if not value:
        return None, failed(
            key, t("json.empty_value", file=file, key=key), t("hint.fix_json", file=file)
        )
    return value, None


# ------------------------------------------------------------------ YAML steps (3, 5, 6, 7)


def manifest_step(
    view: DraView, files: LabFiles, step_id: int
) -> tuple[str, str, SubCheck, YamlDocs | None, bool, Text | None]:
    """What every manifest step (3, 5, 6, 7) starts from: its file read and parsed, whether the
    learner has started (file or objects), and whether the cluster can judge it yet."""
    s = step(step_id)
    file = s.file
    path = str(files.path(file))  # cluster hints name the file to apply
    file_sub, docs, started = _yaml(files, file, s.objects)
    started = started or cluster.any_exists(view, s.objects)
    return file, path, file_sub, docs, started, cluster.blocked_reason(view, WORKLOAD_KINDS)


def _yaml(
    files: LabFiles, name: str, wanted: Sequence[tuple[str, str]]
) -> tuple[SubCheck, YamlDocs | None, bool]:
    sub, read = answer_file(files, name)
    if not read.ok:
        return sub, None, not read.missing
    docs = parse_yaml(read.text, name)
    if docs.problem is not None:
        return failed(name, docs.problem, t("hint.fix_yaml", file=name)), None, True
    if docs.others:
        return failed(name, docs.others[0], t("hint.fix_yaml", file=name)), docs, True
    extra = manifests.extra_objects(docs, wanted, name)
    if extra is not None:
        return failed(name, extra, t("hint.extra", file=name)), docs, True
    return sub, docs, True


def declared(
    docs: YamlDocs | None,
    file: str,
    kind: str,
    name: str,
    check: Callable[[Manifest], Text | None],
    hint: Text,
) -> SubCheck:
    """The object as the file declares it: present, well formed, and passing `check`."""
    label = f"{file}: {name}"
    if docs is None:
        return not_yet(label, t("sub.waiting_file", file=file))
    obj, problem = manifests.find(docs, kind, name, file)
    if obj is None:
        assert problem is not None
        return failed(label, problem, hint)
    problem = manifests.header(obj, file) or check(obj)
    if problem is not None:
        better = _PROBLEM_HINTS.get(problem.key)
        return failed(label, problem, better(file) if better is not None else hint)
    return passed(label)


# Hints that fit a problem better than the object's general one.
_PROBLEM_HINTS: dict[str, Callable[[str], Text]] = {
    "mistake.no_container_claim": lambda file: t("hint.container_claims_file", file=file),
    "pod.claim_for_template": lambda file: t("hint.claim_field", file=file),
    "pod.template_for_claim": lambda file: t("hint.claim_field", file=file),
}


def request_check(
    file: str,
    lab_class: str,
    rule: manifests.RequestRule,
    extra: Callable[[manifests.DeclaredRequest], Text | None] | None = None,
) -> Callable[[Manifest], Text | None]:
    def check(obj: Manifest) -> Text | None:
        req, problem = manifests.request(obj, file, lab_class, rule)
        if problem is not None:
            return problem
        assert req is not None
        return extra(req) if extra is not None else None

    return check


def pod_check(file: str, **ref: str) -> Callable[[Manifest], Text | None]:
    def check(obj: Manifest) -> Text | None:
        return manifests.pod_entry(obj, file, **ref)

    return check


def class_name(view: DraView) -> str:
    cls = cluster.lab_class(view)
    return cls.name if cls is not None else ""


def live_requests(
    label: str, what: str, requests: Sequence[Any], lab_class: str, count: int, file: str
) -> SubCheck | None:
    """The served request matches the lab (the object on the cluster may predate a fix)."""
    if len(requests) != 1:
        return failed(
            label,
            t("cluster.requests", what=what, n=len(requests)),
            t("hint.reapply", what=what, file=file),
        )
    req = requests[0]
    if lab_class and req.device_class != lab_class:
        return failed(
            label,
            t("cluster.class", what=what, found=req.device_class, wanted=lab_class),
            t("hint.reapply", what=what, file=file),
        )
    if req.allocation_mode != "ExactCount" or req.count != count:
        return failed(
            label,
            t("cluster.count", what=what, found=req.describe_count(), count=count),
            t("hint.reapply", what=what, file=file),
        )
    return None
