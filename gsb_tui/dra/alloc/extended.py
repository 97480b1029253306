"""Extended resources backed by DRA (DRAExtendedResource, beta and on in 1.36): a pod asking
`resources.requests[<name>]` that a DeviceClass maps (`spec.extendedResourceName`, or the
implicit `deviceclass.resource.kubernetes.io/<class>`) gets, on a node whose allocatable
does not offer that resource, one claim the scheduler makes for it.

Mirrors kube-scheduler 1.36.3's extendeddynamicresources.go: hasDeviceClassMappedExtendedResource,
findExtendedResourceClaim, filterExtendedResources (per node: DRA when the node's allocatable
has none of it, "cannot fit resource" when neither DRA nor the node offers it),
createRequestsAndMappings / createResourceRequestAndMappings (one request per container and
resource, `container-<i>-request-<j>`, ExactCount; init containers reuse what later
long-lived containers ask and only the largest init request is kept) and the pod's requests
as resourcehelper.PodRequests sums them (the larger of the long-lived sum and any init
container's need).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gsb_tui.dra.alloc.nodes import NodeFacts
from gsb_tui.dra.alloc.pools import exact
from gsb_tui.dra.alloc.requests import ClaimInput, claim_input
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.snapshot import Obj

CLASS_PREFIX = "deviceclass.resource.kubernetes.io/"
ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
_NATIVE = ("cpu", "memory", "ephemeral-storage", "storage", "pods")


def is_extended_name(name: str) -> bool:
    """IsDRAExtendedResourceName: not native, not kubernetes.io's, not requests.*/hugepages."""
    if name.startswith(CLASS_PREFIX):
        return True
    if name in _NATIVE or name.startswith(("hugepages-", "requests.")) or "/" not in name:
        return False
    domain = name.split("/", 1)[0]
    return not (domain == "kubernetes.io" or domain.endswith(".kubernetes.io"))


def class_for(name: str, classes: Mapping[str, Obj]) -> str:
    """The DeviceClass a resource name maps to ("" for none): explicit names first."""
    for class_name, cls in sorted(classes.items()):
        if str(_d(cls.get("spec")).get("extendedResourceName") or "") == name:
            return class_name
    if name.startswith(CLASS_PREFIX) and name[len(CLASS_PREFIX) :] in classes:
        return name[len(CLASS_PREFIX) :]
    return ""


def _requests(container: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, value in _d(_d(_d(container).get("resources")).get("requests")).items():
        amount = exact(value)
        if amount is not None and amount == int(amount):
            out[str(name)] = int(amount)
    return out


def _containers(pod: Obj) -> tuple[list[Any], int]:
    spec = _d(pod.get("spec"))
    init = _l(spec.get("initContainers"))
    return init + _l(spec.get("containers")), len(init)


def _long_lived(containers: list[Any], n_init: int) -> tuple[list[int], list[int]]:
    long: list[int] = []
    short: list[int] = []
    for i, c in enumerate(containers):
        sidecar = _d(c).get("restartPolicy") == "Always"
        (short if i < n_init and not sidecar else long).append(i)
    return long, short


def pod_extended(pod: Obj, classes: Mapping[str, Obj]) -> dict[str, int]:
    """The DRA-mapped extended resources the pod asks for, by name (PodRequests)."""
    containers, n_init = _containers(pod)
    long, short = _long_lived(containers, n_init)
    total: dict[str, int] = {}
    for i in long:
        for name, amount in _requests(containers[i]).items():
            total[name] = total.get(name, 0) + amount
    for i in short:
        for name, amount in _requests(containers[i]).items():
            total[name] = max(total.get(name, 0), amount)
    return {
        name: amount
        for name, amount in total.items()
        if amount and is_extended_name(name) and class_for(name, classes)
    }


def existing_claim(pod: Obj, claims: Mapping[tuple[str, str], Obj]) -> Obj | None:
    """findExtendedResourceClaim: the claim made for the pod in an earlier attempt."""
    meta = _d(pod.get("metadata"))
    ns, uid = str(meta.get("namespace") or ""), meta.get("uid")
    for (claim_ns, _), claim in claims.items():
        cmeta = _d(claim.get("metadata"))
        if claim_ns != ns or _d(cmeta.get("annotations")).get(ANNOTATION) != "true":
            continue
        if any(
            _d(r).get("controller") and _d(r).get("uid") == uid
            for r in _l(cmeta.get("ownerReferences"))
        ):
            return claim
    return None


def node_claim(
    pod: Obj, wanted: Mapping[str, int], node: NodeFacts, classes: Mapping[str, Obj]
) -> tuple[ClaimInput | None, str]:
    """filterExtendedResources on one node: the claim to allocate there (None when the node's
    allocatable offers everything), or ("", a resource the node cannot fit)."""
    allocatable = _d(_d(node.raw.get("status")).get("allocatable"))
    on_dra: dict[str, int] = {}
    for name, amount in sorted(wanted.items()):
        have = exact(allocatable.get(name)) if name in allocatable else None
        if not have:
            on_dra[name] = amount
    if not on_dra:
        return None, ""
    requests = _requests_for(pod, on_dra, classes)
    meta = _d(pod.get("metadata"))
    claim = {
        "metadata": {
            "namespace": meta.get("namespace"),
            "name": f"{meta.get('name')}-extended-resources",
            "annotations": {ANNOTATION: "true"},
        },
        "spec": {"devices": {"requests": requests}},
    }
    return claim_input(claim), ""


def _requests_for(
    pod: Obj, wanted: Mapping[str, int], classes: Mapping[str, Obj]
) -> list[dict[str, Any]]:
    """createRequestsAndMappings (the requests; the mappings are the kubelet's business)."""
    containers, n_init = _containers(pod)
    long, short = _long_lived(containers, n_init)
    out: list[dict[str, Any]] = []
    for name in sorted(wanted):
        cls = class_for(name, classes)
        per_container: list[dict[str, Any] | None] = [None] * len(containers)
        for i in long:
            per_container[i] = _request(i, containers[i], name, cls, [])
        biggest: dict[str, Any] | None = None
        for i in short:
            made = _request(i, containers[i], name, cls, per_container[i:])
            if made is not None and (
                biggest is None or biggest["exactly"]["count"] < made["exactly"]["count"]
            ):
                biggest = made
        if biggest is not None:
            out.append(biggest)
        out.extend(r for r in per_container if r is not None)
    return sorted(out, key=lambda r: str(r["name"]))


def _request(
    index: int, container: Any, name: str, cls: str, reusable: list[dict[str, Any] | None]
) -> dict[str, Any] | None:
    asked = _requests(container)
    amount = asked.get(name, 0)
    if not amount:
        return None
    reused = 0
    for r in reusable:
        if r is not None:
            reused += int(r["exactly"]["count"])
            if reused >= amount:
                return None
    every = sorted(str(k) for k in _d(_d(_d(container).get("resources")).get("requests")))
    position = every.index(name) if name in every else 0
    return {
        "name": f"container-{index}-request-{position}",
        "exactly": {
            "deviceClassName": cls,
            "allocationMode": "ExactCount",
            "count": amount - reused,
        },
    }
