"""The "template plus pod" steps (3: one.yaml, 7: two.yaml) as one check.

Each declares a ResourceClaimTemplate asking for `count` devices of the lab's class and a Pod that
names it in spec.resourceClaims and passes it to a container; the sub-checks are the file, the two
declared objects, the served template, the Running pod and the claim generated for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster, manifests
from gsb_tui.lab.checks.common import (
    class_name,
    declared,
    live_requests,
    manifest_step,
    next_hint,
    pod_check,
    request_check,
)
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.steps import LAB_NAMESPACE
from gsb_tui.lab.verdict import SubCheck, Verdict, failed, not_yet, passed, verdict
from gsb_tui.words import t


@dataclass(frozen=True)
class TemplatePod:
    """What one template-plus-pod step asks for. Its answer file (name and path) and the objects
    it may declare come from the step (gsb_tui.lab.steps)."""

    step: int
    template: str  # the ResourceClaimTemplate's name
    pod: str  # the Pod using it
    count: int  # devices the template's one request asks for
    explicit: bool = False  # the file must write out allocationMode: ExactCount and count
    # Catalog key of the hint for a wrongly declared template (filled with {file}).
    template_hint: str = "hint.fix_yaml"
    # Catalog key (filled with {claim}, {n}) for an allocated claim holding another number of
    # distinct devices than `count`; None leaves that to the claim's other sub-checks.
    results_key: str | None = None


def check_template_pod(view: DraView, files: LabFiles, spec: TemplatePod) -> Verdict:
    file, path, file_sub, docs, started, block = manifest_step(view, files, spec.step)
    lab_class = class_name(view)
    rule = manifests.RequestRule(count=spec.count, explicit=spec.explicit)
    subs = [
        file_sub,
        declared(
            docs,
            file,
            "ResourceClaimTemplate",
            spec.template,
            request_check(file, lab_class, rule),
            t(spec.template_hint, file=file),
        ),
        declared(
            docs,
            file,
            "Pod",
            spec.pod,
            pod_check(file, template=spec.template),
            t("hint.fix_yaml", file=file),
        ),
    ]
    labels = (f"cluster: {spec.template}", f"cluster: {spec.pod}", "cluster: claim")
    if block is not None:
        return verdict(spec.step, subs + cluster.blocked_all(labels, block), started)
    subs.append(_live_template(view, spec.template, path, lab_class, spec.count))
    pod_sub, pod, entry = cluster.live_pod(
        view, f"cluster: {spec.pod}", spec.pod, path, template=spec.template
    )
    subs.append(pod_sub)
    claim_sub, claim = _generated_claim(view, "cluster: claim", pod, entry)
    if spec.results_key is not None and claim is not None and claim.allocated:
        distinct = len({r.id for r in claim.results})
        if distinct != spec.count:
            claim_sub = failed("cluster: claim", t(spec.results_key, claim=claim.name, n=distinct))
    subs.append(claim_sub)
    return verdict(spec.step, subs, started, next_hint(spec.step))


def _live_template(view: DraView, name: str, file: str, lab_class: str, count: int) -> SubCheck:
    label = f"cluster: {name}"
    template = view.templates.get((LAB_NAMESPACE, name))
    if template is None:
        return cluster.missing_object(view, label, "ResourceClaimTemplate", name, file)
    wrong = live_requests(
        label, f"ResourceClaimTemplate {name}", template.requests, lab_class, count, file
    )
    return wrong or passed(label)


def _generated_claim(
    view: DraView, label: str, pod: Pod | None, entry_pod_claim: Any
) -> tuple[SubCheck, Claim | None]:
    if pod is None or entry_pod_claim is None:
        return not_yet(label, t("claim.no_pod")), None
    claim = cluster.claim_for_entry(view, pod, entry_pod_claim)
    if claim is None:
        return not_yet(label, t("claim.not_made", pod=pod.name)), None
    return cluster.claim_allocated(view, label, claim, [pod]), claim
