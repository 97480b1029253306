"""What users ask for: ResourceClaims, their requests and allocation results, and templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gsb_tui.dra.model.base import DeviceId, _d, _int, _l, _selectors, meta
from gsb_tui.dra.model.features import (
    EMPTY_MAP,
    DeviceStatus,
    Toleration,
    _quantities,
    device_statuses,
    tolerations,
)
from gsb_tui.snapshot import Obj

EXTENDED_RESOURCE_ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
_PLAIN_RESULT = frozenset({"request", "driver", "pool", "device", "adminAccess"})


@dataclass(frozen=True)
class Request:
    """One device request of a claim (an `exactly` request or one firstAvailable alternative)."""

    name: str
    device_class: str
    selectors: tuple[str, ...]
    allocation_mode: str  # "ExactCount" or "All"
    count: int  # meaningful for ExactCount
    admin_access: bool
    alternatives: tuple[Request, ...] = ()  # firstAvailable subrequests, in priority order
    tolerations: tuple[Toleration, ...] = ()  # of device taints
    capacity: Mapping[str, str] = field(
        default_factory=lambda: EMPTY_MAP
    )  # capacity.requests: a share of a device

    def describe_count(self) -> str:
        return "all" if self.allocation_mode == "All" else str(self.count)


def _exact(name: str, spec: Mapping[str, Any]) -> Request:
    mode = str(spec.get("allocationMode") or "ExactCount")
    count = _int(spec.get("count"), 0) or (1 if mode == "ExactCount" else 0)
    return Request(
        name=name,
        device_class=str(spec.get("deviceClassName") or ""),
        selectors=_selectors(spec.get("selectors")),
        allocation_mode=mode,
        count=count,
        admin_access=bool(spec.get("adminAccess")),
        tolerations=tolerations(spec.get("tolerations")),
        capacity=_quantities(_d(spec.get("capacity")).get("requests")),
    )


def parse_requests(claim_spec: Any) -> tuple[Request, ...]:
    out = []
    for req in _l(_d(_d(claim_spec).get("devices")).get("requests")):
        req = _d(req)
        name = str(req.get("name") or "")
        if "firstAvailable" in req:
            alts = tuple(
                _exact(f"{name}/{_d(sub).get('name', '')}", _d(sub))
                for sub in _l(req.get("firstAvailable"))
            )
            first = alts[0] if alts else _exact(name, {})
            out.append(
                Request(
                    name,
                    first.device_class,
                    first.selectors,
                    first.allocation_mode,
                    first.count,
                    False,
                    alts,
                )
            )
        else:
            # v1 nests the request under `exactly`; tolerate the flat v1beta1 shape too.
            out.append(_exact(name, _d(req.get("exactly")) or req))
    return tuple(out)


@dataclass(frozen=True)
class Constraint:
    """spec.devices.constraints[]: the requests it binds (none = all) and how."""

    kind: str  # "matchAttribute", "distinctAttribute" (where served) or ""
    attribute: str  # fully qualified, e.g. "gpu.example.com/model"
    requests: tuple[str, ...]

    def __str__(self) -> str:
        over = ", ".join(self.requests) or "*"
        return (
            f"{self.kind} {self.attribute} over {over}" if self.kind else f"constraint over {over}"
        )

    def binds(self, request: str) -> bool:
        """A request (or a firstAvailable alternative "<req>/<sub>") the constraint covers."""
        return (
            not self.requests or request in self.requests or request.split("/")[0] in self.requests
        )


@dataclass(frozen=True)
class AllocationResult:
    request: str  # "<req>" or, for a firstAvailable alternative, "<req>/<sub>"
    id: DeviceId
    admin_access: bool
    share_id: str = ""  # one share of a device that allows multiple allocations
    consumed: Mapping[str, str] = field(
        default_factory=lambda: EMPTY_MAP
    )  # consumedCapacity of that share
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()
    tolerations: tuple[Toleration, ...] = ()


@dataclass(frozen=True)
class ConsumerRef:
    """An entry of status.reservedFor: a pod, or (1.37, DRAWorkloadResourceClaims) a PodGroup
    that holds the claim for its pods."""

    resource: str
    name: str
    uid: str
    api_group: str = ""

    @property
    def pod_group(self) -> bool:
        return self.resource == "podgroups" and self.api_group == "scheduling.k8s.io"


@dataclass(frozen=True)
class Claim:
    namespace: str
    name: str
    uid: str
    requests: tuple[Request, ...]
    allocated: bool
    results: tuple[AllocationResult, ...]
    allocated_node: str  # from allocation.nodeSelector (node-local devices); "" if none
    reserved_for: tuple[ConsumerRef, ...]
    owner_pod: str  # name of the controlling Pod (claims made from a template); "" otherwise
    pod_claim_name: str  # annotation resource.kubernetes.io/pod-claim-name
    deleting: bool
    created: str
    raw: Obj
    allocated_at: str = ""  # allocation.allocationTimestamp: when binding conditions started
    device_status: tuple[DeviceStatus, ...] = ()  # status.devices[]: what the driver reports
    constraints: tuple[Constraint, ...] = ()  # spec.devices.constraints[]
    config_count: int = 0  # spec.devices.config[] entries (opaque driver configuration)
    extended: bool = False  # made by the scheduler for a pod's extended resource

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def state(self) -> str:
        """STATE exactly as `kubectl get resourceclaims` prints it."""
        parts = []
        if self.deleting:
            parts.append("deleted")
        if not self.allocated:
            if not self.deleting:
                parts.append("pending")
        else:
            parts.append("allocated")
            if self.reserved_for:
                parts.append("reserved")
        return ",".join(parts)

    @property
    def devices(self) -> tuple[DeviceId, ...]:
        return tuple(r.id for r in self.results)


def _allocated_node(allocation: Mapping[str, Any]) -> str:
    for term in _l(_d(allocation.get("nodeSelector")).get("nodeSelectorTerms")):
        for match in _l(_d(term).get("matchFields")):
            match = _d(match)
            values = _l(match.get("values"))
            if match.get("key") == "metadata.name" and match.get("operator") == "In" and values:
                return str(values[0])
    return ""


def parse_claim(obj: Obj) -> Claim:
    m = meta(obj)
    status = _d(obj.get("status"))
    allocation = _d(status.get("allocation"))
    results = tuple(_result(_d(r)) for r in _l(_d(allocation.get("devices")).get("results")))
    devices_spec = _d(_d(obj.get("spec")).get("devices"))
    annotations = _d(m.get("annotations"))
    owner = ""
    for ref in _l(m.get("ownerReferences")):
        ref = _d(ref)
        if ref.get("kind") == "Pod" and ref.get("controller"):
            owner = str(ref.get("name") or "")
    return Claim(
        namespace=str(m.get("namespace") or ""),
        name=str(m.get("name") or ""),
        uid=str(m.get("uid") or ""),
        requests=parse_requests(obj.get("spec")),
        allocated="allocation" in status and status.get("allocation") is not None,
        results=results,
        allocated_node=_allocated_node(allocation),
        reserved_for=tuple(
            ConsumerRef(
                str(_d(c).get("resource") or ""),
                str(_d(c).get("name") or ""),
                str(_d(c).get("uid") or ""),
                str(_d(c).get("apiGroup") or ""),
            )
            for c in _l(status.get("reservedFor"))
        ),
        owner_pod=owner,
        pod_claim_name=str(annotations.get("resource.kubernetes.io/pod-claim-name") or ""),
        deleting=bool(m.get("deletionTimestamp")),
        created=str(m.get("creationTimestamp") or ""),
        raw=obj,
        allocated_at=str(allocation.get("allocationTimestamp") or ""),
        device_status=device_statuses(status.get("devices")),
        constraints=tuple(_constraint(_d(c)) for c in _l(devices_spec.get("constraints"))),
        config_count=len(_l(devices_spec.get("config"))),
        extended=str(annotations.get(EXTENDED_RESOURCE_ANNOTATION) or "") == "true",
    )


def _result(r: Mapping[str, Any]) -> AllocationResult:
    result = AllocationResult(
        request=str(r.get("request") or ""),
        id=DeviceId(
            str(r.get("driver") or ""), str(r.get("pool") or ""), str(r.get("device") or "")
        ),
        admin_access=bool(r.get("adminAccess")),
    )
    if _PLAIN_RESULT.issuperset(r):  # the lab's shape: nothing more to read (the hot case)
        return result
    return replace(
        result,
        share_id=str(r.get("shareID") or ""),
        consumed=_quantities(r.get("consumedCapacity")),
        binding_conditions=tuple(str(c) for c in _l(r.get("bindingConditions"))),
        binding_failure_conditions=tuple(str(c) for c in _l(r.get("bindingFailureConditions"))),
        tolerations=tolerations(r.get("tolerations")),
    )


def _constraint(c: Mapping[str, Any]) -> Constraint:
    for kind in ("matchAttribute", "distinctAttribute"):
        if c.get(kind):
            return Constraint(kind, str(c.get(kind)), tuple(str(r) for r in _l(c.get("requests"))))
    return Constraint("", "", tuple(str(r) for r in _l(c.get("requests"))))


@dataclass(frozen=True)
class Template:
    namespace: str
    name: str
    requests: tuple[Request, ...]
    raw: Obj


def parse_template(obj: Obj) -> Template:
    m = meta(obj)
    return Template(
        namespace=str(m.get("namespace") or ""),
        name=str(m.get("name") or ""),
        requests=parse_requests(_d(obj.get("spec")).get("spec")),
        raw=obj,
    )
