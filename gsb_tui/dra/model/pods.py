"""Who consumes claims and what was said about them: Pods (with their claim entries) and Events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from gsb_tui.dra.model.base import _d, _l, meta
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


def parse_pod(obj: Obj) -> Pod:
    m = meta(obj)
    spec = _d(obj.get("spec"))
    status = _d(obj.get("status"))
    generated = {
        str(_d(s).get("name") or ""): str(_d(s).get("resourceClaimName") or "")
        for s in _l(status.get("resourceClaimStatuses"))
    }
    claims = tuple(
        PodClaim(
            name=str(_d(c).get("name") or ""),
            claim_name=str(_d(c).get("resourceClaimName") or ""),
            template_name=str(_d(c).get("resourceClaimTemplateName") or ""),
            generated_claim=generated.get(str(_d(c).get("name") or ""), ""),
        )
        for c in _l(spec.get("resourceClaims"))
    )
    containers = {
        str(_d(c).get("name") or ""): tuple(
            str(_d(rc).get("name") or "") for rc in _l(_d(_d(c).get("resources")).get("claims"))
        )
        for c in _l(spec.get("initContainers")) + _l(spec.get("containers"))
    }
    scheduled, message, disruption = "", "", ""
    for cond in _l(status.get("conditions")):
        cond = _d(cond)
        if cond.get("type") == "PodScheduled":
            scheduled = str(cond.get("status") or "")
            if scheduled == "False":
                message = str(cond.get("message") or "")
        elif cond.get("type") == "DisruptionTarget" and cond.get("status") == "True":
            disruption = str(cond.get("reason") or "DisruptionTarget")
    health, waiting = parse_kubelet_status(status)
    return Pod(
        namespace=str(m.get("namespace") or ""),
        name=str(m.get("name") or ""),
        uid=str(m.get("uid") or ""),
        phase=str(status.get("phase") or ""),
        node=str(spec.get("nodeName") or ""),
        claims=claims,
        container_claims=containers,
        scheduled=scheduled,
        unschedulable_message=message,
        deleting=bool(m.get("deletionTimestamp")),
        raw=obj,
        disruption=disruption,
        extended_claim=str(
            _d(status.get("extendedResourceClaimStatus")).get("resourceClaimName") or ""
        ),
        pod_group=str(_d(spec.get("schedulingGroup")).get("podGroupName") or ""),
        resource_health=health,
        waiting=waiting,
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


def _last_seen(obj: Obj) -> str:
    # Old-style events carry lastTimestamp; events written through events.k8s.io carry eventTime
    # and, once repeated, series.lastObservedTime, which is then newer than eventTime.
    series = _d(obj.get("series"))
    for value in (
        obj.get("lastTimestamp"),
        series.get("lastObservedTime"),
        obj.get("eventTime"),
        meta(obj).get("creationTimestamp"),
    ):
        if value:
            return str(value)
    return ""


def parse_event(obj: Obj) -> Event:
    m = meta(obj)
    involved = _d(obj.get("involvedObject"))
    series = _d(obj.get("series"))
    count = obj.get("count") or series.get("count") or 1
    return Event(
        namespace=str(m.get("namespace") or ""),
        name=str(m.get("name") or ""),
        type=str(obj.get("type") or ""),
        reason=str(obj.get("reason") or ""),
        message=str(obj.get("message") or ""),
        object_kind=str(involved.get("kind") or ""),
        object_name=str(involved.get("name") or ""),
        object_namespace=str(involved.get("namespace") or ""),
        object_uid=str(involved.get("uid") or ""),
        count=count if isinstance(count, int) else 1,
        last_seen=_last_seen(obj),
        # core/v1 names it reportingComponent; events.k8s.io/v1 calls it reportingController.
        source=str(
            obj.get("reportingComponent")
            or obj.get("reportingController")
            or _d(obj.get("source")).get("component")
            or ""
        ),
        raw=obj,
    )
