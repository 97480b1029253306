"""Step 6, shared.yaml: ResourceClaim shared (one device) used by Pods share-a and share-b through
resourceClaimName; both Running on the same device and both in the claim's status.reservedFor."""

from __future__ import annotations

from gsb_tui.dra.model import Pod
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
from gsb_tui.lab.verdict import Verdict, failed, not_yet, passed, verdict
from gsb_tui.words import t


def check_shared(view: DraView, files: LabFiles) -> Verdict:
    file, path, file_sub, docs, started, block = manifest_step(view, files, 6)
    lab_class = class_name(view)
    rule = manifests.RequestRule(count=1)
    subs = [
        file_sub,
        declared(
            docs,
            file,
            "ResourceClaim",
            "shared",
            request_check(file, lab_class, rule),
            t("hint.fix_yaml", file=file),
        ),
    ]
    for pod_name in ("share-a", "share-b"):
        subs.append(
            declared(
                docs,
                file,
                "Pod",
                pod_name,
                pod_check(file, claim="shared"),
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
        wrong = live_requests(
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
    return verdict(6, subs, started, next_hint(6))
