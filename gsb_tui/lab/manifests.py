"""Checking the objects a learner's YAML file declares, as text, apart from the cluster.

Each function returns the first problem in plain words, or None. They mirror what the API server
would refuse (a flat request in v1, a container naming an unknown claim, count as a string) and
the lab's own rules (one device of the lab's class, the right template or claim by name).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gsb_tui.lab.parse import Manifest, YamlDocs
from gsb_tui.lab.steps import LAB_NAMESPACE
from gsb_tui.words import Text, t

RESOURCE_API = "resource.k8s.io/v1"


def _d(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, Mapping):
        return "mapping"
    return type(value).__name__


def similar(word: str, candidates: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return close[0] if close else ""


# ------------------------------------------------------------------ finding the objects


def find(docs: YamlDocs, kind: str, name: str, file: str) -> tuple[Manifest | None, Text | None]:
    """The object of that kind and name, or why it is not there (a typo, the wrong kind)."""
    for obj in docs.objects:
        if obj.kind == kind and obj.name == name:
            return obj, None
    same_kind = [o.name for o in docs.objects if o.kind == kind]
    close = similar(name, same_kind)
    if close:
        return None, t("yaml.name_typo", file=file, kind=kind, found=close, name=name)
    for obj in docs.objects:
        if obj.name == name:
            return None, t("yaml.wrong_kind", file=file, name=name, found=obj.kind, kind=kind)
    if kind.lower() in (o.kind.lower() for o in docs.objects):
        found = next(o.kind for o in docs.objects if o.kind.lower() == kind.lower())
        return None, t("yaml.kind_case", file=file, found=found, kind=kind)
    return None, t("yaml.not_declared", file=file, kind=kind, name=name)


def extra_objects(docs: YamlDocs, wanted: Sequence[tuple[str, str]], file: str) -> Text | None:
    """Objects the step does not ask for (a Namespace for the lab namespace is harmless)."""
    for obj in docs.objects:
        if (obj.kind, obj.name) in wanted:
            continue
        if obj.kind == "Namespace" and obj.name == LAB_NAMESPACE:
            continue
        if any(obj.kind == k and similar(obj.name, [n]) for k, n in wanted):
            continue  # a typo of a wanted object: `find` names it more precisely
        return t("yaml.extra", file=file, what=obj.describe(), doc=obj.document)
    return None


def header(obj: Manifest, file: str) -> Text | None:
    """apiVersion and namespace."""
    wanted = "v1" if obj.kind == "Pod" else RESOURCE_API
    if obj.api_version != wanted:
        return t(
            "yaml.api_version", file=file, what=obj.describe(), found=obj.api_version, wanted=wanted
        )
    if obj.namespace and obj.namespace != LAB_NAMESPACE:
        return t(
            "yaml.namespace", file=file, what=obj.describe(), found=obj.namespace, lab=LAB_NAMESPACE
        )
    return None


# ------------------------------------------------------------------ claims and templates


@dataclass(frozen=True)
class RequestRule:
    count: int  # devices the one request must ask for
    explicit: bool = False  # allocationMode and count must be written out (step 7)
    selector: bool = False  # the request must carry at least one CEL selector (step 5)


@dataclass(frozen=True)
class DeclaredRequest:
    name: str
    device_class: str
    selectors: tuple[str, ...]


def claim_spec(obj: Manifest, file: str) -> tuple[Mapping[str, Any] | None, Text | None]:
    """The ResourceClaimSpec inside a claim (spec) or a template (spec.spec)."""
    spec = obj.body.get("spec")
    if not isinstance(spec, Mapping):
        return None, t("yaml.no_spec", file=file, what=obj.describe())
    if obj.kind == "ResourceClaimTemplate":
        if "devices" in spec and "spec" not in spec:
            return None, t("yaml.template_not_nested", file=file, what=obj.describe())
        inner = spec.get("spec")
        if not isinstance(inner, Mapping):
            return None, t("yaml.no_spec", file=file, what=obj.describe())
        return inner, None
    return spec, None


def request(
    obj: Manifest, file: str, lab_class: str, rule: RequestRule
) -> tuple[DeclaredRequest | None, Text | None]:
    """The single device request of a claim or template, checked against the step's rule."""
    spec, problem = claim_spec(obj, file)
    if spec is None:
        return None, problem
    what = obj.describe()
    requests = _d(spec.get("devices")).get("requests")
    if not isinstance(requests, list) or not requests:
        return None, t("yaml.no_requests", file=file, what=what)
    if len(requests) != 1:
        key = "yaml.split_requests" if rule.count > 1 else "yaml.many_requests"
        return None, t(key, file=file, what=what, n=len(requests), count=rule.count)
    req = requests[0]
    if not isinstance(req, Mapping):
        return None, t(
            "yaml.wrong_type",
            file=file,
            field="requests[0]",
            what=what,
            found=type_name(req),
            wanted="mapping",
        )
    name = req.get("name")
    if not isinstance(name, str) or not name:
        return None, t("yaml.request_no_name", file=file, what=what)
    if "exactly" not in req:
        if "deviceClassName" in req:
            return None, t("yaml.flat_request", file=file, what=what)
        if "firstAvailable" in req:
            return None, t("yaml.first_available", file=file, what=what)
        return None, t("yaml.no_exactly", file=file, what=what)
    exactly = req.get("exactly")
    if not isinstance(exactly, Mapping):
        return None, t(
            "yaml.wrong_type",
            file=file,
            field="exactly",
            what=what,
            found=type_name(exactly),
            wanted="mapping",
        )
    cls = exactly.get("deviceClassName")
    if not isinstance(cls, str) or not cls:
        return None, t("yaml.no_class", file=file, what=what)
    if lab_class and cls != lab_class:
        return None, t("yaml.wrong_class", file=file, what=what, found=cls, wanted=lab_class)
    problem = _count(exactly, file, what, rule)
    if problem is not None:
        return None, problem
    selectors, problem = _selectors(exactly.get("selectors"), file, what)
    if problem is not None:
        return None, problem
    if rule.selector and not selectors:
        return None, t("yaml.no_selector", file=file, what=what)
    return DeclaredRequest(name, cls, selectors), None


def _count(exactly: Mapping[str, Any], file: str, what: str, rule: RequestRule) -> Text | None:
    mode = exactly.get("allocationMode")
    count = exactly.get("count")
    if mode is not None and not isinstance(mode, str):
        return t(
            "yaml.wrong_type",
            file=file,
            field="allocationMode",
            what=what,
            found=type_name(mode),
            wanted="string",
        )
    if mode is not None and mode != "ExactCount":
        if mode == "All":
            return t("yaml.mode_all", file=file, what=what, count=rule.count)
        return t("yaml.mode_invalid", file=file, what=what, found=mode)
    if rule.explicit and mode is None:
        return t("yaml.mode_missing", file=file, what=what)
    if count is None:
        if rule.explicit or rule.count != 1:
            return t("yaml.count_missing", file=file, what=what, count=rule.count)
        return None
    if isinstance(count, bool) or not isinstance(count, int):
        return t("yaml.count_type", file=file, what=what, found=repr(count), kind=type_name(count))
    if count != rule.count:
        return t("yaml.count_wrong", file=file, what=what, found=count, count=rule.count)
    return None


def _selectors(value: Any, file: str, what: str) -> tuple[tuple[str, ...], Text | None]:
    if value is None:
        return (), None
    if not isinstance(value, list):
        return (), t(
            "yaml.wrong_type",
            file=file,
            field="selectors",
            what=what,
            found=type_name(value),
            wanted="list",
        )
    out = []
    for item in value:
        expr = _d(_d(item).get("cel")).get("expression")
        if not isinstance(expr, str):
            return (), t("yaml.selector_shape", file=file, what=what)
        out.append(expr)
    return tuple(out), None


# ------------------------------------------------------------------ pods


def pod_entry(obj: Manifest, file: str, *, template: str = "", claim: str = "") -> Text | None:
    """The pod names the template (or claim) in spec.resourceClaims, and a container points at
    that entry from resources.claims (common mistake 1 when it does not)."""
    spec = obj.body.get("spec")
    pod = obj.name
    if not isinstance(spec, Mapping):
        return t("yaml.no_spec", file=file, what=obj.describe())
    entries = spec.get("resourceClaims")
    if entries is None:
        return t("pod.no_resource_claims", file=file, pod=pod)
    if not isinstance(entries, list):
        return t(
            "yaml.wrong_type",
            file=file,
            field="spec.resourceClaims",
            what=obj.describe(),
            found=type_name(entries),
            wanted="list",
        )
    wanted = template or claim
    field = "resourceClaimTemplateName" if template else "resourceClaimName"
    other = "resourceClaimName" if template else "resourceClaimTemplateName"
    names = [str(_d(e).get("name") or "") for e in entries]
    entry = next((e for e in entries if _d(e).get(field) == wanted), None)
    if entry is None:
        if any(_d(e).get(other) == wanted for e in entries):
            key = "pod.claim_for_template" if template else "pod.template_for_claim"
            return t(key, file=file, pod=pod, name=wanted)
        refs = [str(_d(e).get(field) or _d(e).get(other) or "") for e in entries]
        close = similar(wanted, refs)
        if close:
            return t("pod.ref_typo", file=file, pod=pod, found=close, field=field, name=wanted)
        if not entries:
            return t("pod.no_resource_claims", file=file, pod=pod)
        return t(
            "pod.ref_missing",
            file=file,
            pod=pod,
            field=field,
            name=wanted,
            found=", ".join(r for r in refs if r) or "-",
        )
    entry_name = _d(entry).get("name")
    if not isinstance(entry_name, str) or not entry_name:
        return t("pod.entry_no_name", file=file, pod=pod)
    containers = [
        c
        for key in ("initContainers", "containers")
        if isinstance(spec.get(key), list)
        for c in spec[key]
    ]
    if not containers:
        return t("pod.no_containers", file=file, pod=pod)
    used: set[str] = set()
    for c in containers:
        claim_refs = _d(_d(c).get("resources")).get("claims")
        if claim_refs is None:
            continue
        if not isinstance(claim_refs, list):
            return t(
                "yaml.wrong_type",
                file=file,
                field="resources.claims",
                what=obj.describe(),
                found=type_name(claim_refs),
                wanted="list",
            )
        for ref in claim_refs:
            ref_name = _d(ref).get("name") if isinstance(ref, Mapping) else ref
            if not isinstance(ref_name, str) or ref_name not in names:
                return t(
                    "pod.container_unknown_claim",
                    file=file,
                    pod=pod,
                    container=str(_d(c).get("name") or "?"),
                    found=str(ref_name),
                    entries=", ".join(n for n in names if n) or "-",
                )
            used.add(ref_name)
    if entry_name not in used:
        return t("mistake.no_container_claim", pod=pod, entry=entry_name)
    return None
