"""One check per lab step: (DraView, LabFiles) -> Verdict.

Sub-checks run file first, cluster second, so the first failing one is the earliest thing the
learner should fix. Expected values are read from the view (driver, device count, node, model,
served selector, generated claim, allocated device, ledger); the lab's object names and namespace
are the only fixed words, as the lab text gives them to the learner.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster, manifests, selectors
from gsb_tui.lab.files import (
    FileRead,
    KeyValues,
    LabFiles,
    Manifest,
    YamlDocs,
    parse_json,
    parse_key_values,
    parse_yaml,
    unquote,
)
from gsb_tui.lab.steps import BIG_DEVICES, LAB_NAMESPACE, step
from gsb_tui.lab.text import Text, t
from gsb_tui.lab.verdict import SubCheck, Verdict, failed, not_yet, passed, verdict
from gsb_tui.snapshot import Kind

CheckFn = Callable[[DraView, LabFiles], Verdict]

_WORKLOAD_KINDS = (Kind.CLASSES, Kind.SLICES, Kind.TEMPLATES, Kind.CLAIMS, Kind.PODS)


def _next_hint(step_id: int) -> Text:
    return t("hint.next", next=step_id + 1) if step_id < 8 else t("hint.done")


# ------------------------------------------------------------------ answer files


def _file(files: LabFiles, name: str) -> tuple[SubCheck, FileRead]:
    read = files.read(name)
    path = str(files.path(name))
    if read.ok:
        return passed(name), read
    assert read.problem is not None
    if read.missing:
        return not_yet(name, read.problem, t("hint.write_file", path=path)), read
    return failed(name, read.problem, t("hint.fix_file", file=name)), read


def _waiting(names: Sequence[str], file: str) -> list[SubCheck]:
    return [not_yet(n, t("sub.waiting_file", file=file)) for n in names]


def _key_values(
    files: LabFiles, name: str, keys: Sequence[str]
) -> tuple[SubCheck, KeyValues | None, bool]:
    """The key=value file: (its sub-check, the parsed lines, whether the file exists)."""
    sub, read = _file(files, name)
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


def _value(
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


# ------------------------------------------------------------------ step 1: slices.txt

_SLICE_KEYS = ("driver", "devices", "node", "model")


def check_slices(view: DraView, files: LabFiles) -> Verdict:
    name = step(1).file
    file_sub, kv, started = _key_values(files, name, _SLICE_KEYS)
    subs = [file_sub]
    block = cluster.blocked_reason(view, (Kind.SLICES,))
    if block is not None:
        return verdict(1, subs + cluster.blocked_all(_SLICE_KEYS, block), started)
    if not view.slices:
        subs += [not_yet(k, t("slices.none"), t("hint.wait_driver")) for k in _SLICE_KEYS]
        return verdict(1, subs, started)
    if kv is None or file_sub.ok is False:
        return verdict(1, subs + _waiting(_SLICE_KEYS, name), started)
    published = cluster.drivers(view)
    values: dict[str, str] = {}
    for key in _SLICE_KEYS:
        value, problem = _value(kv, key, name, _SLICE_KEYS)
        if problem is not None:
            subs.append(problem)
        else:
            assert value is not None
            values[key] = value
    # Compare the other values with the driver the learner named, when it is a real one.
    driver = values.get("driver", "")
    if "driver" in values:
        if driver in published:
            subs.insert(1, passed("driver"))
        else:
            subs.insert(1, failed("driver", t("s1.driver", value=driver), t("hint.s1_driver")))
            driver = ""
    driver = driver or cluster.lab_driver(view)
    slices = [s for s in view.slices if s.driver == driver]
    devices = cluster.driver_devices(view, driver)
    if "devices" in values:
        subs.append(_devices_sub(values["devices"], len(devices), driver, len(slices)))
    if "node" in values:
        nodes = sorted({s.node for s in slices if s.node})
        given = [n.strip() for n in values["node"].split(",") if n.strip()]
        if values["node"] in nodes or (given and sorted(given) == nodes):
            subs.append(passed("node"))
        elif values["node"] in {s.name for s in slices} or values["node"] in {
            s.pool for s in slices
        }:
            subs.append(
                failed("node", t("s1.node_is_slice", value=values["node"]), t("hint.s1_node"))
            )
        else:
            subs.append(
                failed("node", t("s1.node", value=values["node"], driver=driver), t("hint.s1_node"))
            )
    if "model" in values:
        models = {str(m) for d in devices if (m := d.attribute("model")) is not None}
        if not models:
            subs.append(not_yet("model", t("s1.no_model", driver=driver)))
        elif values["model"] in models:
            subs.append(passed("model"))
        else:
            subs.append(
                failed(
                    "model", t("s1.model", value=values["model"], driver=driver), t("hint.s1_model")
                )
            )
    order = {"slices.txt": 0, **{k: i + 1 for i, k in enumerate(_SLICE_KEYS)}}
    subs.sort(key=lambda s: order.get(s.name, 99))
    return verdict(1, subs, started, _next_hint(1))


def _devices_sub(value: str, expected: int, driver: str, slices: int) -> SubCheck:
    if not re.fullmatch(r"\d+", value):
        return failed("devices", t("s1.devices_not_number", value=value), t("hint.s1_devices"))
    if int(value) == expected:
        return passed("devices")
    return failed(
        "devices", t("s1.devices", value=value, driver=driver, slices=slices), t("hint.s1_devices")
    )


# ------------------------------------------------------------------ step 2: class.txt

_CLASS_KEYS = ("deviceclass", "selector")
_SELECTOR_PREFIX = re.compile(r"^\s*(?:-\s*)?(?:cel\s*:\s*)?(?:expression\s*:\s*)", re.I)


def check_class(view: DraView, files: LabFiles) -> Verdict:
    name = step(2).file
    file_sub, kv, started = _key_values(files, name, _CLASS_KEYS)
    subs = [file_sub]
    block = cluster.blocked_reason(view, (Kind.CLASSES,))
    if block is not None:
        return verdict(2, subs + cluster.blocked_all(_CLASS_KEYS, block), started)
    cls = cluster.lab_class(view)
    if cls is None:
        subs += [not_yet(k, t("s2.no_class"), t("hint.wait_driver")) for k in _CLASS_KEYS]
        return verdict(2, subs, started)
    if kv is None or file_sub.ok is False:
        return verdict(2, subs + _waiting(_CLASS_KEYS, name), started)
    value, problem = _value(kv, "deviceclass", name, _CLASS_KEYS)
    if problem is not None:
        subs.append(problem)
    elif value == cls.name:
        subs.append(passed("deviceclass"))
    elif value in view.classes:
        subs.append(
            failed(
                "deviceclass", t("s2.other_class", value=value, wanted=cls.name), t("hint.s2_class")
            )
        )
    else:
        subs.append(
            failed("deviceclass", t("s2.no_such_class", value=value or ""), t("hint.s2_class"))
        )
    subs.append(_selector_sub(kv, name, cls.name, cls.selectors))
    node = next((s.node for s in view.slices if s.node), "")
    done = t("hint.s2_allocatable", node=node or "<node>", next=3)
    return verdict(2, subs, started, done)


def _selector_sub(kv: KeyValues, file: str, cls: str, served: tuple[str, ...]) -> SubCheck:
    value, problem = _value(kv, "selector", file, _CLASS_KEYS)
    if problem is not None:
        return problem
    assert value is not None
    if not served:
        return not_yet("selector", t("s2.no_selector_served", cls=cls))
    wanted = {served[0]} if len(served) == 1 else {" && ".join(served), *served}
    raw = kv.raw.get("selector", value)
    candidates = {value, raw.strip(), _unquote(raw)}
    if candidates & wanted:
        return passed("selector")
    bare = _SELECTOR_PREFIX.sub("", value)
    if bare != value and {bare, _unquote(bare)} & wanted:
        return failed("selector", t("s2.selector_prefix", value=value[:40]), t("hint.s2_selector"))
    squeeze = {re.sub(r"\s+", "", w) for w in wanted}
    if re.sub(r"\s+", "", value) in squeeze:
        return failed("selector", t("s2.selector_spaces"), t("hint.s2_selector"))
    return failed("selector", t("s2.selector", value=value[:80], cls=cls), t("hint.s2_selector"))


def _unquote(value: str) -> str:
    return unquote(value.strip())


# ------------------------------------------------------------------ YAML steps, shared parts


def _manifest_step(
    view: DraView, files: LabFiles, step_id: int
) -> tuple[str, str, SubCheck, YamlDocs | None, bool, Text | None]:
    """What every manifest step (3, 5, 6, 7) starts from: its file read and parsed, whether the
    learner has started (file or objects), and whether the cluster can judge it yet."""
    s = step(step_id)
    file = s.file
    path = str(files.path(file))  # cluster hints name the file to apply
    file_sub, docs, started = _yaml(files, file, s.objects)
    started = started or cluster.any_exists(view, s.objects)
    return file, path, file_sub, docs, started, cluster.blocked_reason(view, _WORKLOAD_KINDS)


def _yaml(
    files: LabFiles, name: str, wanted: Sequence[tuple[str, str]]
) -> tuple[SubCheck, YamlDocs | None, bool]:
    sub, read = _file(files, name)
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


def _declared(
    docs: YamlDocs | None,
    file: str,
    kind: str,
    name: str,
    check: Callable[[Manifest], Text | None],
    hint: Text,
) -> SubCheck:
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


def _request_check(
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


def _pod_check(file: str, **ref: str) -> Callable[[Manifest], Text | None]:
    def check(obj: Manifest) -> Text | None:
        return manifests.pod_entry(obj, file, **ref)

    return check


def _class_name(view: DraView) -> str:
    cls = cluster.lab_class(view)
    return cls.name if cls is not None else ""


def _live_requests(
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


def _generated_claim(
    view: DraView, label: str, pod: Pod | None, entry_pod_claim: Any
) -> tuple[SubCheck, Claim | None]:
    if pod is None or entry_pod_claim is None:
        return not_yet(label, t("claim.no_pod")), None
    claim = cluster.claim_for_entry(view, pod, entry_pod_claim)
    if claim is None:
        return not_yet(label, t("claim.not_made", pod=pod.name)), None
    return cluster.claim_allocated(view, label, claim, [pod]), claim


def _live_template(view: DraView, name: str, file: str, lab_class: str, count: int) -> SubCheck:
    label = f"cluster: {name}"
    template = view.templates.get((LAB_NAMESPACE, name))
    if template is None:
        return cluster.missing_object(view, label, "ResourceClaimTemplate", name, file)
    wrong = _live_requests(
        label, f"ResourceClaimTemplate {name}", template.requests, lab_class, count, file
    )
    return wrong or passed(label)


# ------------------------------------------------------------------ step 3: one.yaml


def check_one(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = _manifest_step(view, files, 3)
    lab_class = _class_name(view)
    rule = manifests.RequestRule(count=1)
    subs = [
        file_sub,
        _declared(
            docs,
            file,
            "ResourceClaimTemplate",
            "one-gpu",
            _request_check(file, lab_class, rule),
            t("hint.fix_yaml", file=file),
        ),
        _declared(
            docs,
            file,
            "Pod",
            "dra-1",
            _pod_check(file, template="one-gpu"),
            t("hint.fix_yaml", file=file),
        ),
    ]
    labels = ("cluster: one-gpu", "cluster: dra-1", "cluster: claim")
    if block is not None:
        return verdict(3, subs + cluster.blocked_all(labels, block), started)
    subs.append(_live_template(view, "one-gpu", path, lab_class, 1))
    pod_sub, pod, entry = cluster.live_pod(
        view, "cluster: dra-1", "dra-1", path, template="one-gpu"
    )
    subs.append(pod_sub)
    subs.append(_generated_claim(view, "cluster: claim", pod, entry)[0])
    return verdict(3, subs, started, _next_hint(3))


# ------------------------------------------------------------------ step 4: claim.json

_CLAIM_KEYS = ("claim", "device", "env_var")


def _json_object(files: LabFiles, name: str) -> tuple[SubCheck, Mapping[str, Any] | None, bool]:
    sub, read = _file(files, name)
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


def _json_key(
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


def _json_str(
    obj: Mapping[str, Any], key: str, file: str, keys: Sequence[str]
) -> tuple[str | None, SubCheck | None]:
    value, problem = _json_key(obj, key, file, keys)
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


def check_claim(view: DraView, files: LabFiles) -> Verdict:
    name = step(4).file
    file_sub, obj, started = _json_object(files, name)
    subs = [file_sub]
    block = cluster.blocked_reason(view, (Kind.PODS, Kind.CLAIMS))
    if block is not None:
        return verdict(
            4, subs + cluster.blocked_all(("cluster: dra-1 claim", *_CLAIM_KEYS), block), started
        )
    pod = view.pods.get((LAB_NAMESPACE, "dra-1"))
    claim: Claim | None = None
    if pod is None:
        subs.append(not_yet("cluster: dra-1 claim", t("s4.no_pod"), t("hint.step_first", n=3)))
    else:
        claims = [c for e in pod.claims if (c := cluster.claim_for_entry(view, pod, e)) is not None]
        claim = claims[0] if claims else None
        if claim is None:
            subs.append(
                not_yet(
                    "cluster: dra-1 claim",
                    t("claim.not_made", pod="dra-1"),
                    t("hint.step_first", n=3),
                )
            )
        elif not claim.results:
            subs.append(
                not_yet(
                    "cluster: dra-1 claim",
                    t("claim.pending", claim=claim.name),
                    t("hint.step_first", n=3),
                )
            )
            claim = None
        else:
            subs.insert(0, passed("cluster: dra-1 claim"))
    if obj is None:
        return verdict(4, subs + _waiting(_CLAIM_KEYS, name), started)
    if claim is None:
        return verdict(4, subs + [not_yet(k, t("s4.waiting_claim")) for k in _CLAIM_KEYS], started)
    # claim
    value, problem = _json_str(obj, "claim", name, _CLAIM_KEYS)
    if problem is not None:
        subs.append(problem)
    elif value == claim.name:
        subs.append(passed("claim"))
    elif value == "one-gpu" or (LAB_NAMESPACE, value) in view.templates:
        subs.append(failed("claim", t("s4.claim_is_template", value=value), t("hint.s4_claim")))
    elif (LAB_NAMESPACE, value) in view.claims:
        subs.append(failed("claim", t("s4.claim_other", value=value), t("hint.s4_claim")))
    else:
        subs.append(failed("claim", t("s4.claim_unknown", value=value), t("hint.s4_claim")))
    # device
    devices = [r.id.device for r in claim.results]
    full = {str(r.id) for r in claim.results}
    value, problem = _json_str(obj, "device", name, _CLAIM_KEYS)
    if problem is not None:
        subs.append(problem)
    elif value in devices or value in full:
        subs.append(passed("device"))
    else:
        subs.append(
            failed(
                "device",
                t("s4.device", value=value, claim=claim.name),
                t("hint.s4_device", claim=claim.name),
            )
        )
    # env_var, derived from the allocated device's name
    value, problem = _json_str(obj, "env_var", name, _CLAIM_KEYS)
    wanted = {cluster.env_var_for(d): d for d in devices}
    if problem is not None:
        subs.append(problem)
    else:
        assert value is not None
        var, _, val = value.partition("=")
        var = var.strip().removeprefix("$")
        if var in wanted and (not val or val.strip() == wanted[var]):
            subs.append(passed("env_var"))
        else:
            subs.append(failed("env_var", t("s4.env_var", value=value), t("hint.s4_env")))
    order = {"cluster: dra-1 claim": 0, name: 1, "claim": 2, "device": 3, "env_var": 4}
    subs.sort(key=lambda s: order.get(s.name, 9))
    return verdict(4, subs, started, _next_hint(4))


# ------------------------------------------------------------------ step 5: pick.yaml


def check_pick(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = _manifest_step(view, files, 5)
    driver = cluster.lab_driver(view)
    lab_class = _class_name(view)
    rule = manifests.RequestRule(count=1, selector=True)
    declared_mistake: list[Text] = []

    def selector(req: manifests.DeclaredRequest) -> Text | None:
        # What the selectors admit on the published devices, however they are written; the
        # text is read only when the cluster cannot tell yet.
        judged = selectors.judge(view, req, driver, "index", 7)
        if judged is not None:
            if judged.rejected and judged.reason is not None:
                declared_mistake.append(judged.reason)
            return judged.reason
        for expr in req.selectors:
            found = selectors.mistake(expr, driver)
            if found is not None:
                if selectors.rejected_at_admission(expr, driver):
                    declared_mistake.append(found)
                return found
        problems = [selectors.selects_value(e, driver, "index", 7) for e in req.selectors]
        return None if any(p is None for p in problems) else problems[0]

    subs = [
        file_sub,
        _declared(
            docs,
            file,
            "ResourceClaim",
            "pick-seven",
            _request_check(file, lab_class, rule, selector),
            t("hint.s5_selector", driver=driver),
        ),
        _declared(
            docs,
            file,
            "Pod",
            "dra-7",
            _pod_check(file, claim="pick-seven"),
            t("hint.fix_yaml", file=file),
        ),
    ]
    labels = ("cluster: pick-seven", "cluster: dra-7", "cluster: device")
    if block is not None:
        return verdict(5, subs + cluster.blocked_all(labels, block), started)
    claim = view.claims.get((LAB_NAMESPACE, "pick-seven"))
    if claim is None:
        if declared_mistake:
            subs.append(
                failed(
                    "cluster: pick-seven",
                    t("mistake.rejected", claim="pick-seven"),
                    t("hint.s5_selector", driver=driver),
                )
            )
        else:
            subs.append(
                cluster.missing_object(
                    view, "cluster: pick-seven", "ResourceClaim", "pick-seven", path
                )
            )
    else:
        served = next(
            (
                m
                for r in claim.requests
                for e in r.selectors
                if (m := selectors.mistake(e, driver)) is not None
            ),
            None,
        )
        wrong = _live_requests(
            "cluster: pick-seven", "ResourceClaim pick-seven", claim.requests, lab_class, 1, path
        )
        if served is not None:
            subs.append(
                failed(
                    "cluster: pick-seven",
                    served,
                    t("hint.recreate_claim", claim="pick-seven", file=path),
                )
            )
        else:
            subs.append(wrong or passed("cluster: pick-seven"))
    pod_sub, pod, _ = cluster.live_pod(view, "cluster: dra-7", "dra-7", path, claim="pick-seven")
    subs.append(pod_sub)
    subs.append(_picked_device(view, claim, pod, driver, path))
    return verdict(5, subs, started, _next_hint(5))


def _picked_device(
    view: DraView, claim: Claim | None, pod: Pod | None, driver: str, file: str
) -> SubCheck:
    label = "cluster: device"
    if claim is None:
        return not_yet(label, t("claim.missing", claim="pick-seven"))
    wanted = cluster.device_name_with(view, driver, "index", 7)
    if not wanted:
        return failed(label, t("s5.no_index7", driver=driver))
    if not claim.allocated:
        return not_yet(label, t("claim.pending", claim=claim.name))
    got = [r.id.device for r in claim.results]
    if len(got) != 1 or got[0] not in wanted:
        return failed(
            label,
            t("s5.wrong_device", claim=claim.name, got=", ".join(got) or "-"),
            t("hint.recreate_claim", claim=claim.name, file=file),
        )
    if pod is not None:
        return cluster.claim_allocated(view, label, claim, [pod])
    return passed(label)


# ------------------------------------------------------------------ step 6: shared.yaml


def check_shared(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = _manifest_step(view, files, 6)
    lab_class = _class_name(view)
    rule = manifests.RequestRule(count=1)
    subs = [
        file_sub,
        _declared(
            docs,
            file,
            "ResourceClaim",
            "shared",
            _request_check(file, lab_class, rule),
            t("hint.fix_yaml", file=file),
        ),
    ]
    for pod_name in ("share-a", "share-b"):
        subs.append(
            _declared(
                docs,
                file,
                "Pod",
                pod_name,
                _pod_check(file, claim="shared"),
                t("hint.fix_yaml", file=file),
            )
        )
    labels = ("cluster: shared", "cluster: share-a", "cluster: share-b", "cluster: reservedFor")
    if block is not None:
        return verdict(6, subs + cluster.blocked_all(labels, block), started)
    claim = view.claims.get((LAB_NAMESPACE, "shared"))
    if claim is None:
        subs.append(
            cluster.missing_object(view, "cluster: shared", "ResourceClaim", "shared", path)
        )
    else:
        wrong = _live_requests(
            "cluster: shared", "ResourceClaim shared", claim.requests, lab_class, 1, path
        )
        if wrong is not None:
            subs.append(wrong)
        elif not claim.allocated:
            subs.append(not_yet("cluster: shared", t("claim.pending", claim="shared")))
        elif len({r.id for r in claim.results}) != 1:
            subs.append(failed("cluster: shared", t("s6.devices", n=len(claim.results))))
        else:
            subs.append(passed("cluster: shared"))
    pods: list[Pod] = []
    for pod_name in ("share-a", "share-b"):
        pod_sub, pod, _ = cluster.live_pod(
            view, f"cluster: {pod_name}", pod_name, path, claim="shared"
        )
        subs.append(pod_sub)
        if pod is not None:
            pods.append(pod)
    if claim is None or len(pods) < 2:
        subs.append(not_yet("cluster: reservedFor", t("s6.waiting")))
    else:
        subs.append(cluster.claim_allocated(view, "cluster: reservedFor", claim, pods))
    return verdict(6, subs, started, _next_hint(6))


# ------------------------------------------------------------------ step 7: two.yaml


def check_two(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = _manifest_step(view, files, 7)
    lab_class = _class_name(view)
    rule = manifests.RequestRule(count=2, explicit=True)
    subs = [
        file_sub,
        _declared(
            docs,
            file,
            "ResourceClaimTemplate",
            "two-gpus",
            _request_check(file, lab_class, rule),
            t("hint.s7_count"),
        ),
        _declared(
            docs,
            file,
            "Pod",
            "dra-2x",
            _pod_check(file, template="two-gpus"),
            t("hint.fix_yaml", file=file),
        ),
    ]
    labels = ("cluster: two-gpus", "cluster: dra-2x", "cluster: claim")
    if block is not None:
        return verdict(7, subs + cluster.blocked_all(labels, block), started)
    subs.append(_live_template(view, "two-gpus", path, lab_class, 2))
    pod_sub, pod, entry = cluster.live_pod(
        view, "cluster: dra-2x", "dra-2x", path, template="two-gpus"
    )
    subs.append(pod_sub)
    claim_sub, claim = _generated_claim(view, "cluster: claim", pod, entry)
    if claim is not None and claim.allocated and len({r.id for r in claim.results}) != 2:
        claim_sub = failed(
            "cluster: claim",
            t("s7.results", claim=claim.name, n=len({r.id for r in claim.results})),
        )
    subs.append(claim_sub)
    return verdict(7, subs, started, _next_hint(7))


# ------------------------------------------------------------------ step 8: dra-big + report.json

_REPORT_KEYS = ("allocated_devices", "free_devices", "pending_pods")


def _big_pod(view: DraView) -> SubCheck:
    label = "cluster: dra-big"
    pod = view.pods.get((LAB_NAMESPACE, "dra-big"))
    if pod is None:
        return cluster.missing_object(
            view, label, "Pod", "dra-big", step(8).example, t("hint.s8_create", n=BIG_DEVICES)
        )
    count, takes_all = cluster.requested_count(view, pod)
    if takes_all:
        return failed(label, t("s8.takes_all"), t("hint.s8_big", n=BIG_DEVICES))
    if not pod.claims:
        return failed(label, t("s8.no_claims"), t("hint.s8_big", n=BIG_DEVICES))
    if count == 0:
        return not_yet(label, t("s8.count_unknown"))
    if count != BIG_DEVICES:
        return failed(
            label, t("s8.count", found=count, n=BIG_DEVICES), t("hint.s8_big", n=BIG_DEVICES)
        )
    for entry in pod.claims:
        mistake = cluster.container_problem(pod, entry)
        if mistake is not None:
            return failed(
                label,
                mistake,
                t(
                    "hint.add_container_claim",
                    pod="dra-big",
                    entry=entry.name,
                    file=step(8).example,
                ),
            )
    if pod.pending:
        message = cluster.scheduler_message(view, pod)
        if not message:
            return not_yet(label, t("pod.waiting_scheduler", pod="dra-big"))
        if cluster.UNSCHEDULABLE_NO_DEVICE in message:
            return passed(label)
        return failed(
            label,
            t("pod.unschedulable", pod="dra-big", message=message),
            t("hint.describe_pod", pod="dra-big", lab=LAB_NAMESPACE),
        )
    return failed(
        label, t("s8.not_pending", phase=pod.phase or "?", n=BIG_DEVICES), t("hint.s8_fewer")
    )


def _json_int(obj: Mapping[str, Any], key: str, file: str) -> tuple[int | None, SubCheck | None]:
    value, problem = _json_key(obj, key, file, _REPORT_KEYS)
    if problem is not None:
        return None, problem
    if isinstance(value, bool) or not isinstance(value, int | float):
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
            return None, failed(
                key,
                t("json.number_as_string", file=file, key=key, value=value.strip()),
                t("hint.fix_json", file=file),
            )
        return None, failed(
            key,
            t("json.not_number", file=file, key=key, found=manifests.type_name(value)),
            t("hint.fix_json", file=file),
        )
    if isinstance(value, float) and not value.is_integer():
        return None, failed(
            key, t("json.not_whole", file=file, key=key, value=value), t("hint.fix_json", file=file)
        )
    return int(value), None


def check_report(view: DraView, files: LabFiles) -> Verdict:
    name = step(8).file
    file_sub, obj, started = _json_object(files, name)
    started = started or cluster.any_exists(view, step(8).objects)
    block = cluster.blocked_reason(view, (Kind.SLICES, Kind.CLAIMS, Kind.PODS, Kind.TEMPLATES))
    if block is not None:
        return verdict(
            8, [file_sub, *cluster.blocked_all(("cluster: dra-big", *_REPORT_KEYS), block)], started
        )
    subs = [_big_pod(view), file_sub]
    if obj is None:
        return verdict(8, subs + _waiting(_REPORT_KEYS, name), started)
    driver = cluster.lab_driver(view)
    ledger = view.ledger(driver=driver or None, namespace=LAB_NAMESPACE)
    allocated = len(ledger.allocated)
    # What counting every claim's results gives (a shared device twice): a common slip.
    naive = sum(
        1
        for c in view.claims.values()
        for r in c.results
        if not r.admin_access and (not driver or r.id.driver == driver)
    )
    value, problem = _json_int(obj, "allocated_devices", name)
    if problem is not None:
        subs.append(problem)
    elif value == allocated:
        subs.append(passed("allocated_devices"))
    elif value == naive:
        subs.append(
            failed(
                "allocated_devices",
                t("s8.counted_twice", key="allocated_devices", value=value),
                t("hint.s8_ledger"),
            )
        )
    else:
        subs.append(
            failed("allocated_devices", t("s8.allocated", value=value), t("hint.s8_ledger"))
        )
    value, problem = _json_int(obj, "free_devices", name)
    if problem is not None:
        subs.append(problem)
    elif value == ledger.free:
        subs.append(passed("free_devices"))
    elif value == ledger.total - naive and naive != allocated:
        subs.append(
            failed(
                "free_devices",
                t("s8.counted_twice", key="free_devices", value=value),
                t("hint.s8_ledger"),
            )
        )
    else:
        subs.append(failed("free_devices", t("s8.free", value=value), t("hint.s8_ledger")))
    subs.append(_pending_sub(obj, name, ledger.pending_pods, view))
    return verdict(8, subs, started, _next_hint(8))


def _pending_sub(
    obj: Mapping[str, Any], file: str, pending: Sequence[str], view: DraView
) -> SubCheck:
    key = "pending_pods"
    value, problem = _json_key(obj, key, file, _REPORT_KEYS)
    if problem is not None:
        return problem
    if isinstance(value, str):
        return failed(key, t("s8.pending_string", file=file), t("hint.fix_json", file=file))
    if not isinstance(value, list):
        return failed(
            key,
            t("json.not_list", file=file, key=key, found=manifests.type_name(value)),
            t("hint.fix_json", file=file),
        )
    for item in value:
        if not isinstance(item, str):
            return failed(
                key,
                t("s8.pending_item", found=manifests.type_name(item)),
                t("hint.fix_json", file=file),
            )
    names = [v.strip() for v in value]
    counts = Counter(names)  # not list.count: a 1 MiB list must not take minutes
    dup = next((n for n in names if counts[n] > 1), None)
    if dup is not None:
        return failed(key, t("s8.pending_dup", pod=dup), t("hint.s8_pending", lab=LAB_NAMESPACE))
    extra = sorted(set(names) - set(pending))
    if extra:
        pod = view.pods.get((LAB_NAMESPACE, extra[0].rsplit("/", 1)[-1]))
        if pod is None:
            return failed(
                key,
                t("s8.pending_unknown", pod=extra[0], lab=LAB_NAMESPACE),
                t("hint.s8_pending", lab=LAB_NAMESPACE),
            )
        return failed(
            key,
            t("s8.pending_not", pod=extra[0], phase=pod.phase or "?"),
            t("hint.s8_pending", lab=LAB_NAMESPACE),
        )
    missing = set(pending) - set(names)
    if missing:
        return failed(
            key,
            t("s8.pending_missing", n=len(missing), lab=LAB_NAMESPACE),
            t("hint.s8_pending", lab=LAB_NAMESPACE),
        )
    return passed(key)


CHECKS: dict[int, CheckFn] = {
    1: check_slices,
    2: check_class,
    3: check_one,
    4: check_claim,
    5: check_pick,
    6: check_shared,
    7: check_two,
    8: check_report,
}
