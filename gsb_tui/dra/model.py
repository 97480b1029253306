"""Typed, read-only views over the raw objects the API server sent.

Every view keeps its raw dict (`raw`) so the YAML view can show the server's truth. Parsing is
forgiving: a missing or odd field becomes an empty value, never an exception, because the
dashboard must keep drawing whatever a half-written object looks like.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from gsb_tui.snapshot import Obj

AttrValue = int | bool | str  # version attributes are kept as their string


class DeviceId(NamedTuple):
    """A device's identity in DRA: (driver, pool, device)."""

    driver: str
    pool: str
    device: str

    def __str__(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"


def _d(value: Any) -> Mapping[str, Any]:
    if type(value) is dict:  # the common case, and the hot path of build_view
        return value
    return value if isinstance(value, Mapping) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def meta(obj: Obj) -> Mapping[str, Any]:
    return _d(obj.get("metadata"))


def attr_value(raw: Any) -> AttrValue | None:
    """{"int": 7} -> 7, {"string": "x"} -> "x", {"version": "1.0.0"} -> "1.0.0"."""
    raw = _d(raw)
    for key in ("int", "bool", "string", "version"):
        if key in raw:
            value = raw[key]
            return value if isinstance(value, int | bool | str) else str(value)
    return None


@dataclass(frozen=True)
class Device:
    id: DeviceId
    slice_name: str
    node: str  # the slice's nodeName ("" for network-attached pools)
    attributes: Mapping[str, AttrValue]  # names as published ("index" or "domain/name")
    capacity: Mapping[str, str]  # name -> quantity string ("80Gi")
    raw: Obj

    @property
    def name(self) -> str:
        return self.id.device

    def attribute(self, name: str) -> AttrValue | None:
        """Look up an attribute by bare or driver-qualified name."""
        if name in self.attributes:
            return self.attributes[name]
        return self.attributes.get(f"{self.id.driver}/{name}")


@dataclass(frozen=True)
class Slice:
    name: str
    driver: str
    pool: str
    generation: int
    slice_count: int
    node: str
    devices: tuple[Device, ...]
    raw: Obj


def parse_slice(obj: Obj) -> Slice:
    spec = _d(obj.get("spec"))
    pool = _d(spec.get("pool"))
    driver = str(spec.get("driver") or "")
    pool_name = str(pool.get("name") or "")
    node = str(spec.get("nodeName") or "")
    name = str(meta(obj).get("name") or "")
    devices = []
    for dev in _l(spec.get("devices")):
        dev = _d(dev)
        attrs = {
            str(k): v
            for k, raw in _d(dev.get("attributes")).items()
            if (v := attr_value(raw)) is not None
        }
        cap = {str(k): str(_d(v).get("value", "")) for k, v in _d(dev.get("capacity")).items()}
        devices.append(
            Device(
                id=DeviceId(driver, pool_name, str(dev.get("name") or "")),
                slice_name=name,
                node=node,
                attributes=attrs,
                capacity=cap,
                raw=dev,
            )
        )
    return Slice(
        name=name,
        driver=driver,
        pool=pool_name,
        generation=int(pool.get("generation") or 0),
        slice_count=int(pool.get("resourceSliceCount") or 0),
        node=node,
        devices=tuple(devices),
        raw=obj,
    )


@dataclass(frozen=True)
class DeviceClass:
    name: str
    selectors: tuple[str, ...]  # CEL expressions exactly as served
    raw: Obj


def _selectors(value: Any) -> tuple[str, ...]:
    return tuple(
        str(_d(_d(s).get("cel")).get("expression") or "")
        for s in _l(value)
        if _d(_d(s).get("cel")).get("expression") is not None
    )


def parse_class(obj: Obj) -> DeviceClass:
    spec = _d(obj.get("spec"))
    return DeviceClass(str(meta(obj).get("name") or ""), _selectors(spec.get("selectors")), obj)


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

    def describe_count(self) -> str:
        return "all" if self.allocation_mode == "All" else str(self.count)


def _exact(name: str, spec: Mapping[str, Any]) -> Request:
    mode = str(spec.get("allocationMode") or "ExactCount")
    count = int(spec.get("count") or (1 if mode == "ExactCount" else 0))
    return Request(
        name=name,
        device_class=str(spec.get("deviceClassName") or ""),
        selectors=_selectors(spec.get("selectors")),
        allocation_mode=mode,
        count=count,
        admin_access=bool(spec.get("adminAccess")),
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
class AllocationResult:
    request: str
    id: DeviceId
    admin_access: bool


@dataclass(frozen=True)
class ConsumerRef:
    """An entry of status.reservedFor."""

    resource: str
    name: str
    uid: str


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
        for field in _l(_d(term).get("matchFields")):
            field = _d(field)
            values = _l(field.get("values"))
            if field.get("key") == "metadata.name" and field.get("operator") == "In" and values:
                return str(values[0])
    return ""


def parse_claim(obj: Obj) -> Claim:
    m = meta(obj)
    status = _d(obj.get("status"))
    allocation = _d(status.get("allocation"))
    results = tuple(
        AllocationResult(
            request=str(_d(r).get("request") or ""),
            id=DeviceId(
                str(_d(r).get("driver") or ""),
                str(_d(r).get("pool") or ""),
                str(_d(r).get("device") or ""),
            ),
            admin_access=bool(_d(r).get("adminAccess")),
        )
        for r in _l(_d(allocation.get("devices")).get("results"))
    )
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
            )
            for c in _l(status.get("reservedFor"))
        ),
        owner_pod=owner,
        pod_claim_name=str(
            _d(m.get("annotations")).get("resource.kubernetes.io/pod-claim-name") or ""
        ),
        deleting=bool(m.get("deletionTimestamp")),
        created=str(m.get("creationTimestamp") or ""),
        raw=obj,
    )


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

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def pending(self) -> bool:
        """Pending and not placed: what the lab's report counts as a pending pod."""
        return self.phase == "Pending" and not self.node

    @property
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
    scheduled, message = "", ""
    for cond in _l(status.get("conditions")):
        cond = _d(cond)
        if cond.get("type") == "PodScheduled":
            scheduled = str(cond.get("status") or "")
            if scheduled == "False":
                message = str(cond.get("message") or "")
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
