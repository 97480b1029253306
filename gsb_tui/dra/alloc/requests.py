"""A claim's requests as the allocator reads them (upstream's `requestAccessor`:
exactDeviceRequestAccessor and deviceSubRequestAccessor), and its constraints."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.alloc.pools import Amount, exact, whole
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.dra.model.features import Toleration, tolerations
from gsb_tui.snapshot import Obj


@dataclass(frozen=True)
class Req:
    """One request or subrequest (requestAccessor)."""

    name: str
    class_name: str
    selectors: tuple[str | None, ...]  # CEL expressions; None: a selector that is not CEL
    mode: str  # allocationMode as stored ("ExactCount", "All", or something unknown)
    count: int
    admin_access: bool
    tolerations: tuple[Toleration, ...]
    capacity: Mapping[str, Amount] | None  # capacity.requests; None when not asked
    derived: bool = False  # derivedAttributes given (1.37, DRADerivedAttributes)


@dataclass(frozen=True)
class ClaimRequest:
    """spec.devices.requests[i]: `exactly` (one Req) or `firstAvailable` (subrequests)."""

    name: str
    exactly: Req | None
    first_available: tuple[Req, ...]


@dataclass(frozen=True)
class ClaimConstraint:
    kind: str  # "matchAttribute", "distinctAttribute" or "" (unsupported)
    attribute: str
    requests: frozenset[str]


@dataclass(frozen=True)
class ClaimInput:
    key: tuple[str, str]
    requests: tuple[ClaimRequest, ...]
    constraints: tuple[ClaimConstraint, ...]
    raw: Obj

    @property
    def ref(self) -> str:
        return f"{self.key[0]}/{self.key[1]}"


def _req(name: str, spec: Mapping[str, Any]) -> Req:
    # The API server defaults allocationMode to ExactCount and count to 1 (stored objects
    # always carry them); the same defaults here for objects not stored yet.
    mode = str(spec.get("allocationMode") or "ExactCount")
    caps = _d(_d(spec.get("capacity")).get("requests"))
    capacity = None
    if "capacity" in spec and isinstance(spec.get("capacity"), Mapping):
        capacity = {str(k): q for k, v in caps.items() if (q := exact(v)) is not None}
    return Req(
        name=name,
        class_name=str(spec.get("deviceClassName") or ""),
        selectors=tuple(
            str(_d(_d(s).get("cel")).get("expression") or "")
            if isinstance(_d(s).get("cel"), Mapping)
            else None
            for s in _l(spec.get("selectors"))
        ),
        mode=mode,
        count=whole(spec.get("count"), 1 if mode == "ExactCount" else 0),
        admin_access=bool(spec.get("adminAccess")),
        tolerations=tolerations(spec.get("tolerations")),
        capacity=capacity,
        derived=bool(_l(spec.get("derivedAttributes"))),
    )


def claim_input(obj: Obj) -> ClaimInput:
    meta = _d(obj.get("metadata"))
    devices = _d(_d(obj.get("spec")).get("devices"))
    requests = []
    for raw in _l(devices.get("requests")):
        raw = _d(raw)
        name = str(raw.get("name") or "")
        subs = _l(raw.get("firstAvailable"))
        if subs:
            requests.append(
                ClaimRequest(
                    name, None, tuple(_req(str(_d(s).get("name") or ""), _d(s)) for s in subs)
                )
            )
        else:
            exactly = raw.get("exactly")
            requests.append(ClaimRequest(name, _req(name, _d(exactly)) if exactly else None, ()))
    constraints = []
    for raw in _l(devices.get("constraints")):
        raw = _d(raw)
        names = frozenset(str(r) for r in _l(raw.get("requests")))
        if raw.get("matchAttribute"):
            constraints.append(ClaimConstraint("matchAttribute", str(raw["matchAttribute"]), names))
        elif raw.get("distinctAttribute"):
            constraints.append(
                ClaimConstraint("distinctAttribute", str(raw["distinctAttribute"]), names)
            )
        else:
            constraints.append(ClaimConstraint("", "", names))
    return ClaimInput(
        (str(meta.get("namespace") or ""), str(meta.get("name") or "")),
        tuple(requests),
        tuple(constraints),
        obj,
    )
