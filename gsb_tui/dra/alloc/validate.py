"""What each request of the pod's claims needs before the search starts: Allocate's checks of
the claims and validateDeviceRequest (`structured/internal/incubating/allocator_incubating.go`
at v0.36.3), worded as upstream words its errors. "All" is resolved here to the node's devices
that `fits` admits, as upstream does before it searches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gsb_tui.dra.alloc.constraints import Constraint, DistinctAttribute, MatchAttribute
from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.alloc.pools import Pool, ReadSlice, SliceDevice
from gsb_tui.dra.alloc.requests import ClaimInput, Req
from gsb_tui.dra.alloc.results import (
    MAX_RESULTS,
    AllocError,
    PoolDevice,
    RequestData,
    Undecided,
)
from gsb_tui.snapshot import Obj

# isSelectable and, with consumable capacity, CmpRequestOverCapacity for one device
Fits = Callable[[tuple[int, int, int], RequestData, ReadSlice, SliceDevice], bool]


def _count(claim: ClaimInput, request: str, adding: int, counted: int, features: Features) -> None:
    """From v1.36.5 the claim limit is checked as each request is counted (no overflow)."""
    if features.claim_limit_per_request and adding > MAX_RESULTS - counted:
        raise AllocError(
            f"claim {claim.ref}, request {request}: adding {adding} devices exceeds the claim "
            f"limit of {MAX_RESULTS}, with {counted} already accounted for"
        )


def validate_claims(
    claims: Sequence[ClaimInput],
    features: Features,
    classes: Mapping[str, Obj],
    pools: Sequence[Pool],
    fits: Fits,
) -> tuple[dict[tuple[int, int, int], RequestData], list[list[Constraint]]]:
    """Allocate's checks before the search: every request (and subrequest) validated and
    counted, the per-claim device limit, the claims' constraints made."""
    data_by: dict[tuple[int, int, int], RequestData] = {}
    constraints: list[list[Constraint]] = [[] for _ in claims]
    for ci, claim in enumerate(claims):
        min_devices = 0
        for ri, request in enumerate(claim.requests):
            if request.first_available and not features.prioritized_list:
                raise AllocError(
                    f"claim {claim.ref}, request {request.name}: has subrequests, "
                    "but the DRAPrioritizedList feature is disabled"
                )
            if not features.consumable_capacity:
                if request.exactly is not None and request.exactly.capacity is not None:
                    raise AllocError(
                        f"claim {claim.ref}, request {request.name}: has capacity requests, "
                        "but the DRAConsumableCapacity feature is disabled"
                    )
                for sub in request.first_available:
                    if sub.capacity is not None:
                        raise AllocError(
                            f"claim {claim.ref}, subrequest {sub.name}: has capacity "
                            "requests, but the DRAConsumableCapacity feature is disabled"
                        )
            if request.first_available:
                fewest = None
                for si, sub in enumerate(request.first_available):
                    data = validate_request(
                        claim, features, classes, pools, fits, sub, request.name, (ci, ri, si)
                    )
                    data_by[(ci, ri, si)] = data
                    fewest = data.num_devices if fewest is None else min(fewest, data.num_devices)
                _count(claim, request.name, fewest or 0, min_devices, features)
                min_devices += fewest or 0
            else:
                if request.exactly is None:
                    raise AllocError(
                        f"claim {claim.ref}, request {request.name}: unsupported request type"
                    )
                data = validate_request(
                    claim, features, classes, pools, fits, request.exactly, "", (ci, ri, 0)
                )
                data_by[(ci, ri, 0)] = data
                _count(claim, request.name, data.num_devices, min_devices, features)
                min_devices += data.num_devices
        if min_devices > MAX_RESULTS:  # up to v1.36.4; later ones stopped at the request
            raise AllocError(
                f"claim {claim.ref}: number of requested devices {min_devices} exceeds "
                f"the claim limit of {MAX_RESULTS}"
            )
        for i, c in enumerate(claim.constraints):
            if c.kind == "matchAttribute":
                constraints[ci].append(MatchAttribute(c))
            elif c.kind == "distinctAttribute":
                constraints[ci].append(DistinctAttribute(c, by_list=features.since_137))
            else:
                raise AllocError(
                    f"claim {claim.ref}, constraint #{i}: empty constraint "
                    "(unsupported constraint type?)"
                )
    return data_by, constraints


def validate_request(
    claim: ClaimInput,
    features: Features,
    classes: Mapping[str, Obj],
    pools: Sequence[Pool],
    fits: Fits,
    request: Req,
    parent: str,
    key: tuple[int, int, int],
) -> RequestData:
    """validateDeviceRequest."""
    data = RequestData(request, parent, None)
    if request.derived and features.derived_attributes:  # "experimental" computes them
        raise Undecided("DRADerivedAttributes is on: that allocator is not mirrored")
    if request.derived and features.since_137:  # the incubating allocator refuses them
        raise AllocError(
            f"claim {claim.ref}, request {request.name}: cannot handle request with derived "
            "attributes, the feature is disabled"
        )
    for i, selector in enumerate(request.selectors):
        if selector is None:
            raise AllocError(
                f"claim {claim.ref}, request {request.name}, selector #{i}: CEL expression "
                "empty (unsupported selector type?)"
            )
    if not features.admin_access and request.admin_access:
        raise AllocError(
            f"claim {claim.ref}, request {request.name}: admin access is requested, but "
            "the feature is disabled"
        )
    if not request.class_name:
        raise AllocError(
            f"claim {claim.ref}, request {request.name}: missing device class name "
            "(unsupported request type?)"
        )
    cls = classes.get(request.class_name)
    if cls is None:
        raise AllocError(
            f"claim {claim.ref}, request {request.name}: could not retrieve device class "
            f'{request.class_name}: deviceclass.resource.k8s.io "{request.class_name}" '
            "not found"
        )
    data.class_obj = cls
    if request.mode == "ExactCount":
        data.num_devices = request.count
    elif request.mode == "All":
        for pool in pools:
            if pool.incomplete:
                raise AllocError(
                    f"claim {claim.ref}, request {request.name}: asks for all devices, but "
                    f"resource pool {pool.id} is currently being updated"
                )
            if pool.invalid:
                raise AllocError(
                    f"claim {claim.ref}, request {request.name}: asks for all devices, but "
                    f"resource pool {pool.id} is currently invalid"
                )
            for s in pool.slices_targeting_node:
                data.all_devices.extend(
                    PoolDevice(device, pool) for device in s.devices if fits(key, data, s, device)
                )
        data.num_devices = len(data.all_devices)
    else:
        raise AllocError(
            f"claim {claim.ref}, request {request.name}: unsupported count mode {request.mode}"
        )
    return data
