"""Step 5, pick.yaml: ResourceClaim pick-seven selecting only the device whose attribute index is
7, and Pod dra-7 using it; pick-seven must be allocated that device."""

from __future__ import annotations

from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster, manifests, selectors
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
from gsb_tui.words import Text, t


def check_pick(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = manifest_step(view, files, 5)
    driver = view.lab_driver()
    lab_class = class_name(view)
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
        declared(
            docs,
            file,
            "ResourceClaim",
            "pick-seven",
            request_check(file, lab_class, rule, selector),
            t("hint.s5_selector", driver=driver),
        ),
        declared(
            docs,
            file,
            "Pod",
            "dra-7",
            pod_check(file, claim="pick-seven"),
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
        wrong = live_requests(
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
    return verdict(5, subs, started, next_hint(5))


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
