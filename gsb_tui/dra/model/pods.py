"""Who consumes claims and what was said about them: Pods (with their claim entries) and Events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from gsb_tui.dra.model.fields import Bad, FieldProblem, entries, ident, integer, mapping, string
from gsb_tui.dra.model.kubelet import ContainerWaiting, ResourceHealth, parse_kubelet_status
from gsb_tui.snapshot import Obj


@dataclass(frozen=True)
class PodClaim:
    """An entry of pod.spec.resourceClaims, with the claim it resolves to."""

    name: str  # the entry's name, referenced by containers' resources.claims
    claim_name: str  # resourceClaimName ("" when a template is used)
    template_name: str  # resourceClaimTemplateName ("" when a claim is named)
    generated_claim: str  # from status.resourceClaimStatuses (template entries only)

    @property
    def resolved_claim(self) -> str:
        """The ResourceClaim this entry uses, or "" while the controller has not made it yet."""
        return self.claim_name or self.generated_claim


@dataclass(frozen=True)
class Pod:
    namespace: str
    name: str
    uid: str
    phase: str
    node: str
    claims: tuple[PodClaim, ...]
    container_claims: Mapping[str, tuple[str, ...]]  # container -> resources.claims names
    scheduled: str  # PodScheduled condition status: "True", "False" or ""
    unschedulable_message: str  # PodScheduled=False message (the scheduler's own words)
    deleting: bool
    raw: Obj
    # status.extendedResourceClaimStatus.resourceClaimName: the claim the scheduler made for the
    # pod's extended resources (DRAExtendedResource)
    extended_claim: str = ""
    # DisruptionTarget=True's reason: the pod is being evicted (DeletionByDeviceTaintManager when
    # a NoExecute device taint evicts it)
    disruption: str = ""
    # spec.schedulingGroup.podGroupName (1.37): the PodGroup the pod is scheduled with
    pod_group: str = ""
    # What a real node's kubelet wrote (dra/model/kubelet.py; kwok writes neither): each
    # container's allocatedResourcesStatus entries, and the containers that wait, with why.
    resource_health: tuple[ResourceHealth, ...] = ()
    waiting: tuple[ContainerWaiting, ...] = ()
    scheduling_gates: tuple[str, ...] = ()  # spec.schedulingGates[].name
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def pending(self) -> bool:
        """Pending and not placed: what the lab's report counts as a pending pod."""
        return self.phase == "Pending" and not self.node

    @cached_property  # asked for every pod on every repaint (dra/warnings.py)
    def unlisted_entries(self) -> tuple[PodClaim, ...]:
        """Entries of spec.resourceClaims no container lists under resources.claims (the lab's
        common mistake 1: the claim is allocated, the device never reaches a container)."""
        used = {name for names in self.container_claims.values() for name in names}
        return tuple(e for e in self.claims if e.name not in used)


def _containers(spec: Mapping[str, Any], bad: Bad) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for field in ("initContainers", "containers"):
        for c, mine in entries(spec.get(field), f"spec.{field}", bad):
            resources = mapping(c.get("resources"), "resources", mine)
            out[string(c.get("name"), "name", mine)] = tuple(
                string(rc.get("name"), "name", theirs)
                for rc, theirs in entries(resources.get("claims"), "resources.claims", mine)
            )
    return out


def parse_pod(obj: Obj) -> Pod:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    spec = mapping(obj.get("spec"), "spec", bad)
    status = mapping(obj.get("status"), "status", bad)
    generated = {
        ident(s.get("name"), "name", mine): ident(
            s.get("resourceClaimName"), "resourceClaimName", mine
        )
        for s, mine in entries(
            status.get("resourceClaimStatuses"), "status.resourceClaimStatuses", bad
        )
    }
    claims = []
    for c, mine in entries(spec.get("resourceClaims"), "spec.resourceClaims", bad):
        entry = ident(c.get("name"), "name", mine)
        claims.append(
            PodClaim(
                name=entry,
                claim_name=ident(c.get("resourceClaimName"), "resourceClaimName", mine),
                template_name=ident(
                    c.get("resourceClaimTemplateName"), "resourceClaimTemplateName", mine
                ),
                generated_claim=generated.get(entry, ""),
            )
        )
    scheduled, message, disruption = "", "", ""
    for cond, mine in entries(status.get("conditions"), "status.conditions", bad):
        kind = cond.get("type")
        if kind == "PodScheduled":
            scheduled = string(cond.get("status"), "status", mine)
            if scheduled == "False":
                message = string(cond.get("message"), "message", mine)
        elif kind == "DisruptionTarget" and cond.get("status") == "True":
            disruption = string(cond.get("reason"), "reason", mine) or "DisruptionTarget"
    health, waiting = parse_kubelet_status(status, bad)
    extended = mapping(
        status.get("extendedResourceClaimStatus"), "status.extendedResourceClaimStatus", bad
    )
    group = mapping(spec.get("schedulingGroup"), "spec.schedulingGroup", bad)
    gates = tuple(
        string(g.get("name"), "name", mine)
        for g, mine in entries(spec.get("schedulingGates"), "spec.schedulingGates", bad)
    )
    return Pod(
        namespace=ident(m.get("namespace"), "metadata.namespace", bad),
        name=ident(m.get("name"), "metadata.name", bad),
        uid=string(m.get("uid"), "metadata.uid", bad),
        phase=string(status.get("phase"), "status.phase", bad),
        node=ident(spec.get("nodeName"), "spec.nodeName", bad),
        claims=tuple(claims),
        container_claims=_containers(spec, bad),
        scheduled=scheduled,
        unschedulable_message=message,
        deleting=bool(m.get("deletionTimestamp")),
        raw=obj,
        disruption=disruption,
        extended_claim=ident(
            extended.get("resourceClaimName"),
            "status.extendedResourceClaimStatus.resourceClaimName",
            bad,
        ),
        pod_group=ident(group.get("podGroupName"), "spec.schedulingGroup.podGroupName", bad),
        resource_health=health,
        waiting=waiting,
        scheduling_gates=gates,
        problems=tuple(bad),
    )


@dataclass(frozen=True)
class Event:
    """A core/v1 Event: what the scheduler, kubelet and controllers said about an object."""

    namespace: str
    name: str
    type: str  # "Normal" or "Warning"
    reason: str
    message: str
    object_kind: str  # involvedObject.kind: "Pod", "ResourceClaim", ...
    object_name: str
    object_namespace: str
    object_uid: str  # involvedObject.uid: tells an earlier pod of the same name apart
    count: int
    last_seen: str  # ISO timestamp of the latest occurrence ("" when the server gave none)
    source: str  # the component that reported it ("default-scheduler", "kubelet", ...)
    raw: Obj
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)


def _last_seen(obj: Obj, m: Mapping[str, Any], series: Mapping[str, Any], bad: Bad) -> str:
    # Old-style events carry lastTimestamp; events written through events.k8s.io carry eventTime
    # and, once repeated, series.lastObservedTime, which is then newer than eventTime.
    for value, path in (
        (obj.get("lastTimestamp"), "lastTimestamp"),
        (series.get("lastObservedTime"), "series.lastObservedTime"),
        (obj.get("eventTime"), "eventTime"),
        (m.get("creationTimestamp"), "metadata.creationTimestamp"),
    ):
        if value:
            return string(value, path, bad)
    return ""


def parse_event(obj: Obj) -> Event:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    involved = mapping(obj.get("involvedObject"), "involvedObject", bad)
    series = mapping(obj.get("series"), "series", bad)
    count = integer(obj.get("count"), "count", bad) or integer(
        series.get("count"), "series.count", bad
    )
    source = mapping(obj.get("source"), "source", bad)
    # core/v1 names it reportingComponent; events.k8s.io/v1 calls it reportingController.
    reporter = (
        string(obj.get("reportingComponent"), "reportingComponent", bad)
        or string(obj.get("reportingController"), "reportingController", bad)
        or string(source.get("component"), "source.component", bad)
    )
    return Event(
        namespace=ident(m.get("namespace"), "metadata.namespace", bad),
        name=ident(m.get("name"), "metadata.name", bad),
        type=string(obj.get("type"), "type", bad),
        reason=string(obj.get("reason"), "reason", bad),
        message=string(obj.get("message"), "message", bad),
        object_kind=string(involved.get("kind"), "involvedObject.kind", bad),
        object_name=ident(involved.get("name"), "involvedObject.name", bad),
        object_namespace=ident(involved.get("namespace"), "involvedObject.namespace", bad),
        object_uid=string(involved.get("uid"), "involvedObject.uid", bad),
        count=count if count > 0 else 1,
        last_seen=_last_seen(obj, m, series, bad),
        source=reporter,
        raw=obj,
        problems=tuple(bad),
    )
