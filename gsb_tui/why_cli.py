"""`gsb-tui why NAMESPACE/POD [--json]`: would a pod not yet bound get every device now, where,
and if not, why — decided as kube-scheduler decides (gsb_tui/dra/alloc), beside the
scheduler's own last words.

Exit 0 when it fits (or is already bound), 1 when it does not fit, is not decided within the
budget, or there is no such pod, 2 when the cluster cannot be read, 64 on a usage error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from gsb_tui import gc_pause
from gsb_tui.cli_io import EXIT_NOT_YET, EXIT_OK, EXIT_UNUSABLE
from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, begin_snapshot, fetch_snapshot, unreadable
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.words import localize, text

if TYPE_CHECKING:
    from gsb_tui.dra.builder import ViewBuilder

MAX_NODES = 50


NEEDED = (Kind.SLICES, Kind.CLASSES, Kind.CLAIMS, Kind.PODS, Kind.NODES)
READ = (*NEEDED, Kind.EVENTS, Kind.TAINT_RULES)


def parse_pod_ref(value: str) -> tuple[str, str]:
    namespace, sep, name = value.partition("/")
    if not sep or not namespace or not name or "/" in name:
        raise argparse.ArgumentTypeError(f"{value!r}: expected NAMESPACE/POD")
    return namespace, name


def field_value(value: str) -> str:
    """A value in a field selector, escaped as the API server reads one (\\ , = are its
    syntax)."""
    return "".join("\\" + c if c in "\\,=" else c for c in value)


def selectors_for(name: str) -> dict[Kind, str]:
    """The answer reads no other pod and no event about anything else: those two are read by
    name, in the pod's namespace (a cluster of 5,000 pods sends 40 MB of them otherwise)."""
    value = field_value(name)
    return {
        Kind.PODS: f"metadata.name={value}",
        Kind.EVENTS: f"involvedObject.kind=Pod,involvedObject.name={value}",
    }


def answer(view: Any, namespace: str, name: str, lang: str) -> dict[str, Any]:
    """The JSON answer for one pod of a view (every key always present)."""
    from gsb_tui.dra.alloc.explain import blockers, natural_key
    from gsb_tui.dra.alloc.from_view import inputs_of
    from gsb_tui.dra.alloc.scheduler import judge_pod
    from gsb_tui.dra.availability import format_quantity

    ref = f"{namespace}/{name}"
    pod = view.pods.get((namespace, name))
    out: dict[str, Any] = {
        "pod": ref,
        "found": pod is not None,
        "bound": None,
        "fits": False,
        "nodes": [],
        "nodes_total": 0,
        "allocation": [],
        "blockers": [],
        "scheduler": None,
        "gates": [],
        "notes": [],  # {code, text}: where gsb-tui and the scheduler's last words part
        "kubelet": None,  # a placed pod that does not run: the kubelet's words (node_side.py)
        "health": [],  # every device health the kubelet reports for the pod (dra/health.py)
        "warnings": [],  # {code, text}: mistakes about this pod (dra/warnings.py)
        "malformed": [],  # objects of this answer with a field of the wrong type, read absent
        "text": "",
    }
    if pod is None:
        out["text"] = text(lang, "why.not-found", pod=ref)
        return out
    from gsb_tui.dra.warnings import find_warnings

    out["warnings"] = [
        {"code": w.code, "text": localize(w.message, lang)}
        for w in find_warnings(view)
        if (namespace, name) in w.pods
    ]
    out["malformed"] = malformed_for(view, pod, lang)
    said = view.scheduler_said(pod)
    out["scheduler"] = said.message if said is not None else None
    out["gates"] = list(pod.scheduling_gates)
    if pod.node:
        out.update(bound=pod.node, fits=True, nodes=[pod.node], nodes_total=1)
        out.update(node_half(view, pod, lang))
        key = "why.bound-blocked" if out["kubelet"] is not None else "why.bound"
        out["text"] = text(lang, key, pod=ref, node=pod.node)
        return out
    inputs = inputs_of(view)
    judgement = judge_pod(pod.raw, inputs)
    nodes = sorted(judgement.nodes, key=natural_key)
    out["fits"] = judgement.fits
    out["nodes"] = nodes[:MAX_NODES]
    out["nodes_total"] = len(nodes)
    if nodes:
        verdict = judgement.per_node[nodes[0]]
        claims = verdict.claims
        out["allocation"] = [
            {
                "claim": claims[i],
                "request": r.request_name,
                "driver": r.id.driver,
                "pool": r.id.pool,
                "device": r.id.device,
                # a share of a device (allowMultipleAllocations): what it takes of it
                "consumed": {k: format_quantity(Fraction(v)) for k, v in r.consumed.items()}
                if r.share
                else None,
            }
            for i, results in enumerate(verdict.results)
            for r in results
        ]
    found = blockers(judgement, inputs) if judgement.fits is not True else []
    out["blockers"] = []
    for b in found:
        words = text(lang, f"blocker.{b.key}", **b.values())
        out["blockers"].append(
            {
                "code": b.code,
                "nodes": b.nodes,
                "node_names": b.node_names,
                "claim": b.claim or None,
                "request": b.request or None,
                "devices": b.devices,
                "text": words,
            }
        )
    said_text = out["scheduler"] or ""
    if "timed out trying to allocate devices" in said_text:
        # the scheduler's own search ran out of its filter time (10 s); this one finished
        key = "why.scheduler-timeout-fits" if judgement.fits else "why.scheduler-timeout"
        out["notes"].append({"code": "scheduler-timeout", "text": text(lang, key)})
    elif judgement.fits and said_text and not out["gates"] and "0/" in said_text:
        out["notes"].append({"code": "disagree", "text": text(lang, "why.disagree")})
    if judgement.fits:
        where = ", ".join(nodes[:8]) + (f", +{len(nodes) - 8}" if len(nodes) > 8 else "")
        out["text"] = text(lang, "why.fits", pod=ref, nodes=len(nodes), where=where)
    elif judgement.fits is None:
        out["text"] = text(lang, "why.undecided", pod=ref)
    else:
        out["text"] = text(lang, "why.no-fit", pod=ref)
    return out


def malformed_for(view: Any, pod: Any, lang: str) -> list[dict[str, Any]]:
    """The malformed objects the answer reads (dra/model/malformed.py): the pod, its claims
    and templates, and every slice, class and DeviceTaintRule (any may decide where it fits)."""
    from gsb_tui.dra.model.malformed import as_json

    claims = {c.key for c in view.claims_of_pod(pod)}
    templates = {(pod.namespace, e.template_name) for e in pod.claims if e.template_name}
    wanted = {Kind.PODS: {pod.key}, Kind.CLAIMS: claims, Kind.TEMPLATES: templates}
    return [
        as_json(m, lang)
        for m in view.malformed()
        if m.kind in (Kind.SLICES, Kind.CLASSES, Kind.TAINT_RULES)
        or m.key in wanted.get(m.kind, ())
    ]


def node_half(view: Any, pod: Any, lang: str) -> dict[str, Any]:
    """A placed pod's kubelet blocker, the health of its devices, and a note when a claim's
    devices are on a pool whose driver went away (every key always present)."""
    from gsb_tui.dra.node_side import kubelet_blocker, plugin_hint, vanished_pools, vanished_words

    out: dict[str, Any] = {"kubelet": None, "health": [], "notes": []}
    blocker = kubelet_blocker(view, pod)
    if blocker is not None:
        hint = plugin_hint(blocker, lang)
        if blocker.code == "image-pull":
            hint = text(lang, "kubelet.hint.image")
        values = {"pod": pod.name, "node": blocker.node, "reason": blocker.reason}
        out["kubelet"] = {
            "code": blocker.code,
            "reason": blocker.reason,
            "message": blocker.message or None,
            "container": blocker.container or None,
            "count": blocker.count,
            "last_seen": blocker.last_seen or None,
            "source": blocker.source,
            "text": text(lang, f"kubelet.{blocker.code}", container=blocker.container, **values),
            "hint": hint or None,
        }
    for report in view.health.by_pod.get(pod.key, ()):
        device = report.device
        out["health"].append(
            {
                "claim": f"{report.claim[0]}/{report.claim[1]}" if report.claim else None,
                "entry": report.entry,
                "request": report.request or None,
                "container": report.container,
                "resource_id": report.resource_id,
                "driver": device.driver if device else None,
                "pool": device.pool if device else None,
                "device": device.device if device else None,
                "health": report.health,
                "message": report.message or None,
            }
        )
    mine = {c.key for c in view.claims_of_pod(pod)}
    for pool in vanished_pools(view):
        if mine.intersection(pool.claims):
            words = "; ".join(vanished_words(view, pool, lang))
            out["notes"].append({"code": "driver-gone", "text": words})
    return out


def _print_node_half(out: dict[str, Any], lang: str) -> None:
    said = out["kubelet"]
    if said is not None:
        print(f"  · {said['text']}")
        count = f" ×{said['count']}" if said["count"] > 1 else ""
        if said["message"]:
            reason = said["reason"]
            print(text(lang, "why.kubelet", reason=reason, count=count, message=said["message"]))
        if said["hint"]:
            print(f"  ! {said['hint']}")
    for row in out["health"]:
        if row["health"] == "Healthy":
            continue
        message = f": {row['message']}" if row["message"] else ""
        if row["device"] is None:
            words = text(
                lang,
                "why.health-unmatched",
                resource=row["resource_id"],
                health=row["health"],
                container=row["container"],
                claim=row["claim"] or row["entry"],
            )
            print(f"  {words}{message}")
            continue
        device = f"{row['driver']}/{row['pool']}/{row['device']}"
        print(
            "  "
            + text(
                lang,
                "why.health",
                device=device,
                health=row["health"],
                container=row["container"],
                message=message,
            )
        )


def _print_text(out: dict[str, Any], lang: str) -> None:
    print(out["text"])
    _print_node_half(out, lang)
    grouped: dict[tuple[str, str, str, str], list[str]] = {}
    for row in out["allocation"]:  # one line per request and pool
        key = (row["claim"], row["request"], row["driver"], row["pool"])
        grouped.setdefault(key, []).append(row["device"])
    for (claim, request, driver, pool), names in grouped.items():
        device = (
            f"{driver}/{pool}/{names[0]}"
            if len(names) == 1
            else f"{', '.join(names)} ({driver}/{pool})"
        )
        print(text(lang, "why.allocation", claim=claim, request=request, device=device))
    for b in out["blockers"]:
        print(f"  · {b['text']}")
    if out["gates"]:
        print(text(lang, "why.gated", gates=", ".join(out["gates"])))
    if out["found"] and out["bound"] is None:
        if out["scheduler"]:
            print(text(lang, "why.scheduler", message=out["scheduler"]))
        else:
            print(text(lang, "why.scheduler-none"))
    for note in out["notes"]:
        print(f"  ! {note['text']}")
    for warning in out["warnings"]:
        print(f"  ! {warning['text']}")
    for found in out["malformed"]:
        print(f"  ! {found['text']}")


def _import_judges() -> None:
    """What deciding needs, imported ahead: the view's builder, the allocator, and the CEL
    library (`import cel` alone is ~0.4 s; a broken one is said where a selector needs it)."""
    import gsb_tui.dra.alloc.explain
    import gsb_tui.dra.alloc.from_view
    import gsb_tui.dra.alloc.scheduler
    import gsb_tui.dra.builder  # noqa: F401
    from gsb_tui.dra.cel.prepared import library

    with contextlib.suppress(Exception):
        library()


def _parse_ahead(builder: ViewBuilder, snapshot: Snapshot) -> None:
    with gc_pause.paused():
        builder.parse_ahead(snapshot)


def run_why(args: argparse.Namespace, target: Target, lang: str) -> int:
    namespace, name = args.pod
    target = replace(target, namespace=namespace)  # pods and events are read where the pod is

    source = begin_snapshot(target, READ, selectors_for(name))
    _import_judges()  # while the API server answers (~1 s for 5,000 claims)
    from gsb_tui.dra.builder import ViewBuilder

    builder = ViewBuilder()  # parses each list as it comes, while the others are on their way
    try:
        snapshot = asyncio.run(
            fetch_snapshot(target, source=source, listed=partial(_parse_ahead, builder))
        )
    except (KubeconfigError, Unreachable) as exc:
        if args.json:
            print(json.dumps({"pod": f"{namespace}/{name}", "error": str(exc)}))
        else:
            print(f"gsb-tui why: {localize(exc.text, lang)}", file=sys.stderr)
        return EXIT_UNUSABLE
    problem = unreadable(snapshot, NEEDED)
    if problem is not None:
        message = localize(problem, lang)
        if args.json:
            print(json.dumps({"pod": f"{namespace}/{name}", "error": message}))
        else:
            print(f"gsb-tui why: {message}", file=sys.stderr)
        return EXIT_UNUSABLE
    with gc_pause.paused():  # a short-lived process: the collector would only walk the heap
        out = answer(builder.build(snapshot), namespace, name, lang)
    from gsb_tui.dra.alloc.features import features_for, mirrored

    version = snapshot.server_version
    decided_as = features_for(version).name  # the release whose allocator decided
    out["server_version"] = version or None
    out["mirrors"] = decided_as
    if version and not mirrored(version):
        words = text(lang, "why.other-version", server=version, mirrored=decided_as)
        out["notes"].append({"code": "other-version", "text": words})
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        _print_text(out, lang)
    return EXIT_OK if out["fits"] is True else EXIT_NOT_YET
