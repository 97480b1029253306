"""Every published device as one row: where it is, what state the grid shows, every reason
that applies, who holds it, what is wrong around it and the health a real node's kubelet
reports for it — `gsb-tui devices`, the `kubectl get devices` Kubernetes does not have — and
the ledger's counts beside.

Pure: built from one DraView and its warnings (dra/warnings.py). States and reasons are the
view's (dra/availability.py, dra/pool_health.py), so the grid, the ledger and this agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.occupancy import GROUP
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning


@dataclass(frozen=True)
class DeviceRow:
    node: str | None  # None: the pool is not tied to a node (allNodes, a node selector)
    id: DeviceId
    state: str
    reasons: tuple[str, ...]
    claims: tuple[str, ...]  # "ns/name" of the claims holding it (adminAccess ones too)
    pods: tuple[str, ...]  # "ns/name" of the pods consuming it
    warnings: tuple[str, ...]  # warning codes about it or its claims
    detail: str  # the reasons' facts: counters short, taints, the pool's problem
    groups: tuple[str, ...] = ()  # "ns/name" of PodGroups holding it for their pods (1.37)
    # The worst health the kubelet reports for it (dra/health.py): "Healthy", "Unhealthy",
    # "Unknown", or None when no kubelet reported (kwok nodes; no container lists the claim).
    health: str | None = None
    health_message: str | None = None  # the driver's words with that health (None: none)
    health_said_by: str | None = None  # "ns/pod/container" whose status said it


def _consumers(view: DraView, consumers: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(pods, PodGroups) behind a device's consumers: a PodGroup stands for its member pods."""
    pods: list[str] = []
    groups: list[str] = []
    for consumer in consumers:
        namespace, _, name = consumer.partition("/")
        if name.startswith(GROUP):
            group = name.removeprefix(GROUP)
            groups.append(f"{namespace}/{group}")
            pods += (f"{p.namespace}/{p.name}" for p in view.group_pods(namespace, group))
        else:
            pods.append(consumer)
    return tuple(dict.fromkeys(pods)), tuple(groups)


@dataclass(frozen=True)
class Summary:
    devices: int
    in_use: int
    free: int
    blocked: int
    tainted: int
    full: int
    binding: int
    incomplete_pool: int
    invalid_pool: int
    pending_pods: int
    unhealthy: int = 0  # devices the kubelet reports Unhealthy for a pod using them
    health_unknown: int = 0  # ... Unknown


def _reasons(view: DraView, id: DeviceId) -> tuple[tuple[str, ...], str]:
    reasons: list[str] = []
    facts: list[str] = []
    occ = view.occupancy.get(id)
    if occ is not None and occ.holders and not occ.device.multiple:
        reasons.append("held")
    found = view.availability.get(id)
    if found is not None:
        if found.short_counters:  # unheld and short (a held one's again_short is not a state)
            reasons.append("counters")
            facts.append("counters " + ", ".join(found.short_counters))
        if found.blocking_taints:
            reasons.append("tainted")
            facts.append("taints " + ", ".join(str(t) for t in found.blocking_taints))
        if found.state == "full":
            reasons.append("full")
        if found.binding_pending:
            reasons.append("binding")
        if found.binding_failed:
            reasons.append("binding-failed")
    problem = view.pool_problems.get((id.driver, id.pool))
    if problem is not None:
        reasons.append(problem[0])
        facts.append(problem[1])
    return tuple(reasons), "; ".join(facts)


def device_rows(
    view: DraView, warnings: Sequence[DraWarning] = (), node: str | None = None
) -> list[DeviceRow]:
    by_device: dict[DeviceId, list[str]] = {}
    by_claim: dict[tuple[str, str], list[str]] = {}
    for w in warnings:
        for d in w.devices:
            by_device.setdefault(d, []).append(w.code)
        for c in w.claims:
            by_claim.setdefault(c, []).append(w.code)
    rows = []
    for device in view.devices:
        if node is not None and device.node != node:
            continue
        occ = view.occupancy.get(device.id)
        claims = tuple(f"{c.namespace}/{c.name}" for c in occ.claims) if occ else ()
        pods, groups = _consumers(view, occ.consumers if occ else ())
        codes = list(by_device.get(device.id, ()))
        for holder in occ.claims if occ else ():
            codes += by_claim.get(holder.key, [])
        for ref in pods:
            ns, _, name = ref.partition("/")
            pod = view.pods.get((ns, name))
            if pod is not None and pod.disruption:
                codes.append("eviction")
        reasons, detail = _reasons(view, device.id)
        health = view.health.devices.get(device.id)
        rows.append(
            DeviceRow(
                node=device.node or None,
                id=device.id,
                state=view.state(device.id),
                reasons=reasons,
                claims=claims,
                pods=pods,
                warnings=tuple(dict.fromkeys(codes)),
                detail=detail,
                groups=groups,
                health=health.health if health is not None else None,
                health_message=(health.message or None) if health is not None else None,
                health_said_by=health.said_by if health is not None else None,
            )
        )
    return rows


def summary(view: DraView, rows: Sequence[DeviceRow]) -> Summary:
    ledger = view.ledger()
    ids = {r.id for r in rows}
    states = [r.state for r in rows]
    healths = [r.health for r in rows]
    return Summary(
        devices=len(rows),
        in_use=len(ledger.allocated & ids),
        free=len(ledger.allocatable & ids),
        blocked=states.count("blocked"),
        tainted=states.count("tainted"),
        full=states.count("full"),
        binding=states.count("binding") + states.count("binding-failed"),
        incomplete_pool=states.count("incomplete-pool"),
        invalid_pool=states.count("invalid-pool"),
        pending_pods=len(ledger.pending_keys),
        unhealthy=healths.count("Unhealthy"),
        health_unknown=healths.count("Unknown"),
    )
