"""What users ask for: ResourceClaims, their requests and allocation results, and templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gsb_tui.dra.model.base import DeviceId, _selectors
from gsb_tui.dra.model.features import (
    DeviceStatus,
    Toleration,
    _quantities,
    device_statuses,
    tolerations,
)
from gsb_tui.dra.model.fields import (
    EMPTY_MAP,
    Bad,
    FieldProblem,
    entries,
    flag,
    ident,
    integer,
    items,
    mapping,
    string,
    strings,
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


def _exact(name: str, spec: Mapping[str, Any], bad: Bad) -> Request:
    mode = string(spec.get("allocationMode"), "allocationMode", bad) or "ExactCount"
    count = integer(spec.get("count"), "count", bad) or (1 if mode == "ExactCount" else 0)
    capacity = mapping(spec.get("capacity"), "capacity", bad)
    return Request(
        name=name,
        device_class=string(spec.get("deviceClassName"), "deviceClassName", bad),
        selectors=_selectors(spec.get("selectors"), "selectors", bad),
        allocation_mode=mode,
        count=count,
        admin_access=flag(spec.get("adminAccess"), "adminAccess", bad),
        tolerations=tolerations(spec.get("tolerations"), "tolerations", bad),
        capacity=_quantities(capacity.get("requests"), "capacity.requests", bad),
    )


def parse_requests(
    claim_spec: Any, path: str = "spec", bad: Bad | None = None
) -> tuple[Request, ...]:
    """spec.devices.requests[] of a claim's spec (a template's spec.spec)."""
    bad = [] if bad is None else bad
    devices = mapping(mapping(claim_spec, path, bad).get("devices"), f"{path}.devices", bad)
    out = []
    for req, mine in entries(devices.get("requests"), f"{path}.devices.requests", bad):
        name = string(req.get("name"), "name", mine)
        if "firstAvailable" in req:
            alts = []
            for sub, theirs in entries(req.get("firstAvailable"), "firstAvailable", mine):
                sub_name = string(sub.get("name"), "name", theirs)
                alts.append(_exact(f"{name}/{sub_name}", sub, theirs))
            first = alts[0] if alts else _exact(name, {}, mine)
            out.append(
                Request(
                    name,
                    first.device_class,
                    first.selectors,
                    first.allocation_mode,
                    first.count,
                    False,
                    tuple(alts),
                )
            )
        elif "exactly" in req:
            exactly: Bad = []
            out.append(_exact(name, mapping(req.get("exactly"), "", exactly), exactly))
            mine.extend(p.under("exactly") for p in exactly)
        else:  # the flat v1beta1 shape
            out.append(_exact(name, req, mine))
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
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)

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


def _allocated_node(allocation: Mapping[str, Any], bad: Bad) -> str:
    at = "status.allocation.nodeSelector"
    selector = mapping(allocation.get("nodeSelector"), at, bad)
    for term, mine in entries(selector.get("nodeSelectorTerms"), f"{at}.nodeSelectorTerms", bad):
        for match, theirs in entries(term.get("matchFields"), "matchFields", mine):
            values = strings(match.get("values"), "values", theirs)
            if match.get("key") == "metadata.name" and match.get("operator") == "In" and values:
                return values[0]
    return ""


def _consumer(c: Mapping[str, Any], bad: Bad) -> ConsumerRef:
    return ConsumerRef(
        string(c.get("resource"), "resource", bad),
        ident(c.get("name"), "name", bad),
        string(c.get("uid"), "uid", bad),
        string(c.get("apiGroup"), "apiGroup", bad),
    )


def parse_claim(obj: Obj) -> Claim:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    status = mapping(obj.get("status"), "status", bad)
    allocation = mapping(status.get("allocation"), "status.allocation", bad)
    at = "status.allocation.devices"
    results = mapping(allocation.get("devices"), at, bad).get("results")
    spec = mapping(obj.get("spec"), "spec", bad)
    devices_spec = mapping(spec.get("devices"), "spec.devices", [])  # said by parse_requests
    annotations = mapping(m.get("annotations"), "metadata.annotations", bad)
    owner = ""
    for ref, mine in entries(m.get("ownerReferences"), "metadata.ownerReferences", bad):
        if ref.get("kind") == "Pod" and flag(ref.get("controller"), "controller", mine):
            owner = ident(ref.get("name"), "name", mine)
    requests = parse_requests(spec, "spec", bad) if spec else ()
    return Claim(
        namespace=ident(m.get("namespace"), "metadata.namespace", bad),
        name=ident(m.get("name"), "metadata.name", bad),
        uid=string(m.get("uid"), "metadata.uid", bad),
        requests=requests,
        allocated="allocation" in status and status.get("allocation") is not None,
        results=tuple(_result(r, mine) for r, mine in entries(results, f"{at}.results", bad)),
        allocated_node=_allocated_node(allocation, bad),
        reserved_for=tuple(
            _consumer(c, mine)
            for c, mine in entries(status.get("reservedFor"), "status.reservedFor", bad)
        ),
        owner_pod=owner,
        pod_claim_name=string(
            annotations.get("resource.kubernetes.io/pod-claim-name"),
            "metadata.annotations.resource.kubernetes.io/pod-claim-name",
            bad,
        ),
        deleting=bool(m.get("deletionTimestamp")),
        created=string(m.get("creationTimestamp"), "metadata.creationTimestamp", bad),
        raw=obj,
        allocated_at=string(
            allocation.get("allocationTimestamp"), "status.allocation.allocationTimestamp", bad
        ),
        device_status=device_statuses(status.get("devices"), "status.devices", bad),
        constraints=tuple(
            _constraint(c, mine)
            for c, mine in entries(devices_spec.get("constraints"), "spec.devices.constraints", bad)
        ),
        config_count=len(items(devices_spec.get("config"), "spec.devices.config", bad)),
        extended=annotations.get(EXTENDED_RESOURCE_ANNOTATION) == "true",
        problems=tuple(bad),
    )


def _result(r: Mapping[str, Any], bad: Bad) -> AllocationResult:
    result = AllocationResult(
        request=string(r.get("request"), "request", bad),
        id=DeviceId(
            string(r.get("driver"), "driver", bad),
            string(r.get("pool"), "pool", bad),
            string(r.get("device"), "device", bad),
        ),
        admin_access=flag(r.get("adminAccess"), "adminAccess", bad),
    )
    if _PLAIN_RESULT.issuperset(r):  # the lab's shape: nothing more to read (the hot case)
        return result
    return replace(
        result,
        share_id=string(r.get("shareID"), "shareID", bad),
        consumed=_quantities(r.get("consumedCapacity"), "consumedCapacity", bad),
        binding_conditions=strings(r.get("bindingConditions"), "bindingConditions", bad),
        binding_failure_conditions=strings(
            r.get("bindingFailureConditions"), "bindingFailureConditions", bad
        ),
        tolerations=tolerations(r.get("tolerations"), "tolerations", bad),
    )


def _constraint(c: Mapping[str, Any], bad: Bad) -> Constraint:
    requests = strings(c.get("requests"), "requests", bad)
    for kind in ("matchAttribute", "distinctAttribute"):
        if c.get(kind):
            return Constraint(kind, string(c.get(kind), kind, bad), requests)
    return Constraint("", "", requests)


@dataclass(frozen=True)
class Template:
    namespace: str
    name: str
    requests: tuple[Request, ...]
    raw: Obj
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)


def parse_template(obj: Obj) -> Template:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    spec = mapping(obj.get("spec"), "spec", bad)
    inner = spec.get("spec")
    return Template(
        namespace=ident(m.get("namespace"), "metadata.namespace", bad),
        name=ident(m.get("name"), "metadata.name", bad),
        requests=parse_requests(inner, "spec.spec", bad) if inner is not None else (),
        raw=obj,
        problems=tuple(bad),
    )
