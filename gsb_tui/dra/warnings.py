"""Things worth flagging in the device grid and the claims pane, in plain words.

A rule that needs to know an object is absent only judges when that kind's watch is synced
(and covers the namespace): a pod missing from a half-listed snapshot proves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.occupancy import claim_ref
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import KINDS, Kind, Snapshot


@dataclass(frozen=True)
class DraWarning:
    code: str  # leak, ghost-consumer, missing-claim, missing-template, claim-not-in-container,
    # stale-slice, orphan-result
    subject: str  # "ns/name" of the claim or pod; the slice name for stale-slice
    message: str  # what it means and what to do


def _knows_all(snapshot: Snapshot, kind: Kind, namespace: str) -> bool:
    """The kind is synced and its watch covers the namespace (scope "namespace X" or wider)."""
    state = snapshot.state(kind)
    if not state.usable:
        return False
    scope = state.scope
    return not scope.startswith("namespace ") or scope == f"namespace {namespace}"


def _leaks(view: DraView) -> list[DraWarning]:
    return [
        DraWarning(
            "leak",
            claim_ref(c),
            f"claim {c.name} is allocated ({', '.join(d.device for d in c.devices) or 'no device'})"
            " but reserved by no one: the devices stay taken while no pod uses them. Start a pod"
            " that uses the claim, or delete the claim to free them.",
        )
        for c in view.claims.values()
        if c.allocated and not c.reserved_for and not c.deleting
    ]


def _ghosts(view: DraView) -> list[DraWarning]:
    out = []
    for c in view.claims.values():
        if not _knows_all(view.snapshot, Kind.PODS, c.namespace):
            continue
        for consumer in c.reserved_for:
            if consumer.resource != "pods":
                continue
            pod = view.pods.get((c.namespace, consumer.name))
            if pod is None or (consumer.uid and pod.uid and consumer.uid != pod.uid):
                out.append(
                    DraWarning(
                        "ghost-consumer",
                        claim_ref(c),
                        f"claim {c.name} is reserved for pod {consumer.name}, which no longer"
                        " exists: the device stays held until the claim controller drops that"
                        " entry. If it does not, delete the claim (or the pod's leftovers).",
                    )
                )
    return out


def _missing_refs(view: DraView) -> list[DraWarning]:
    out = []
    for pod in view.pods.values():
        ref = f"{pod.namespace}/{pod.name}"
        for entry in pod.claims:
            # (name used, kind, what exists, code, consequence, field to fix)
            for name, kind, known, code, consequence, field in (
                (
                    entry.claim_name,
                    Kind.CLAIMS,
                    view.claims,
                    "missing-claim",
                    "the pod cannot be scheduled. Create the claim",
                    "resourceClaimName",
                ),
                (
                    entry.template_name,
                    Kind.TEMPLATES,
                    view.templates,
                    "missing-template",
                    "no claim can be made for it. Create the template",
                    "resourceClaimTemplateName",
                ),
            ):
                if (
                    name
                    and _knows_all(view.snapshot, kind, pod.namespace)
                    and (pod.namespace, name) not in known
                ):
                    what = KINDS[kind].object_kind
                    out.append(
                        DraWarning(
                            code,
                            ref,
                            f"pod {pod.name} uses {what} {name}, which does not exist in"
                            f" {pod.namespace}: {consequence} or fix {field}.",
                        )
                    )
    return out


def _not_in_container(view: DraView) -> list[DraWarning]:
    # Lab mistake 1: the entry is in spec.resourceClaims but no container lists it under
    # resources.claims, so the claim is allocated and the device never reaches a container.
    out = []
    for pod in view.pods.values():
        used = {name for names in pod.container_claims.values() for name in names}
        unused = [e.name for e in pod.claims if e.name not in used]
        if not unused:
            continue
        containers = ", ".join(pod.container_claims) or "its containers"
        out.append(
            DraWarning(
                "claim-not-in-container",
                f"{pod.namespace}/{pod.name}",
                f"pod {pod.name} lists {', '.join(unused)} in spec.resourceClaims but no container"
                f" ({containers}) lists it under resources.claims: the claim gets allocated but"
                " the device never reaches the container. Add"
                f" `resources: {{claims: [{{name: {unused[0]}}}]}}` to the container.",
            )
        )
    return out


def _stale(view: DraView) -> list[DraWarning]:
    newest = {(s.driver, s.pool): s.generation for s in view.slices}
    return [
        DraWarning(
            "stale-slice",
            s.name,
            f"slice {s.name} belongs to pool {s.pool} ({s.driver}) generation {s.generation},"
            f" but generation {newest.get((s.driver, s.pool), '?')} is published: its devices"
            " are ignored. The driver should delete it soon; nothing to do unless it stays.",
        )
        for s in view.stale_slices
    ]


def _orphans(view: DraView) -> list[DraWarning]:
    return [
        DraWarning(
            "orphan-result",
            claim_ref(claim),
            f"claim {claim.name} is allocated device {device}, which no current slice"
            " publishes: the driver may have restarted or removed it. Check the driver's"
            " slices; recreating the claim's pod gets a fresh allocation.",
        )
        for claim, device in view.orphan_results
    ]


def find_warnings(view: DraView) -> tuple[DraWarning, ...]:
    found = [
        *_leaks(view),
        *_ghosts(view),
        *_missing_refs(view),
        *_not_in_container(view),
        *_stale(view),
        *_orphans(view),
    ]
    # Same order on every snapshot so the panes do not flicker.
    return tuple(sorted(found, key=lambda w: (w.subject, w.code, w.message)))
