"""Step 4, claim.json: the claim generated for dra-1, its allocated device, and the variable the
driver puts into the container for that device."""

from __future__ import annotations

from gsb_tui.dra.model import Claim
from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster
from gsb_tui.lab.checks.common import json_object, json_str, next_hint, waiting
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.steps import LAB_NAMESPACE, step
from gsb_tui.lab.verdict import Verdict, failed, not_yet, passed, verdict
from gsb_tui.snapshot import Kind
from gsb_tui.words import t

_CLAIM_KEYS = ("claim", "device", "env_var")


def check_claim(view: DraView, files: LabFiles) -> Verdict:
    name = step(4).file
    file_sub, obj, started = json_object(files, name)
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
        return verdict(4, subs + waiting(_CLAIM_KEYS, name), started)
    if claim is None:
        return verdict(4, subs + [not_yet(k, t("s4.waiting_claim")) for k in _CLAIM_KEYS], started)
    # claim
    value, problem = json_str(obj, "claim", name, _CLAIM_KEYS)
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
    value, problem = json_str(obj, "device", name, _CLAIM_KEYS)
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
    value, problem = json_str(obj, "env_var", name, _CLAIM_KEYS)
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
    return verdict(4, subs, started, next_hint(4))
