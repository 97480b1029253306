"""Step 8, dra-big and report.json: a Pod asking for more devices than are left stays Pending, and
the report counts allocated devices (a shared one once), free devices and the Pending pods."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster, manifests
from gsb_tui.lab.checks.common import json_key, json_object, next_hint, waiting
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.steps import BIG_DEVICES, LAB_NAMESPACE, step
from gsb_tui.lab.verdict import SubCheck, Verdict, failed, not_yet, passed, verdict
from gsb_tui.snapshot import Kind
from gsb_tui.words import t

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
        said = view.scheduler_said(pod)
        message = said.message if said is not None else ""
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
    value, problem = json_key(obj, key, file, _REPORT_KEYS)
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
    file_sub, obj, started = json_object(files, name)
    started = started or cluster.any_exists(view, step(8).objects)
    block = cluster.blocked_reason(view, (Kind.SLICES, Kind.CLAIMS, Kind.PODS, Kind.TEMPLATES))
    if block is not None:
        return verdict(
            8, [file_sub, *cluster.blocked_all(("cluster: dra-big", *_REPORT_KEYS), block)], started
        )
    subs = [_big_pod(view), file_sub]
    if obj is None:
        return verdict(8, subs + waiting(_REPORT_KEYS, name), started)
    driver = view.lab_driver()
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
    return verdict(8, subs, started, next_hint(8))


def _pending_sub(
    obj: Mapping[str, Any], file: str, pending: Sequence[str], view: DraView
) -> SubCheck:
    key = "pending_pods"
    value, problem = json_key(obj, key, file, _REPORT_KEYS)
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
