"""Where each DraWarning shows up: on the claims it is about, on those claims' devices, or (for
a pod whose claim or template does not exist, so there is nothing to hang it on) on its own.

Pure: built from the DraView and find_warnings' result, once per view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from gsb_tui.dra.model import Claim, DeviceId, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning

ClaimKey = tuple[str, str]

# A few words for a grid cell's title or a claims row; the details spell the warning out.
SHORT = MappingProxyType(
    {
        "leak": "leak",
        "ghost-consumer": "ghost pod",
        "missing-claim": "missing claim",
        "missing-template": "missing template",
        "claim-not-in-container": "not in container",
        "orphan-result": "unpublished device",
        "stale-slice": "stale slice",
    }
)
MARK = "⚠"


def short(warnings: Iterable[DraWarning]) -> str:
    """ "leak, ghost pod": the distinct short names, in the warnings' order."""
    names: dict[str, None] = {}
    for w in warnings:
        names.setdefault(SHORT.get(w.code, w.code), None)
    return ", ".join(names)


@dataclass(frozen=True)
class WarningIndex:
    by_claim: Mapping[ClaimKey, tuple[DraWarning, ...]] = field(default_factory=dict)
    by_device: Mapping[DeviceId, tuple[DraWarning, ...]] = field(default_factory=dict)
    # Pod warnings no claim row can carry: the claim or template it names does not exist.
    unattached: tuple[DraWarning, ...] = ()


def _pod(view: DraView, subject: str) -> Pod | None:
    namespace, _, name = subject.partition("/")
    return view.pods.get((namespace, name))


def _unused_claims(view: DraView, pod: Pod) -> list[Claim]:
    """The claims of the pod's resourceClaims entries that no container lists."""
    used = {name for names in pod.container_claims.values() for name in names}
    resolved = view.claims_of_pod(pod)
    out: list[Claim] = []
    for entry in pod.claims:
        if entry.name in used:
            continue
        if entry.resolved_claim:
            claim = view.claims.get((pod.namespace, entry.resolved_claim))
            out.extend([claim] if claim is not None else [])
        else:
            out.extend(c for c in resolved if c.pod_claim_name == entry.name)
    return out


def _claims_of(view: DraView, warning: DraWarning) -> Sequence[Claim]:
    if warning.code in ("leak", "ghost-consumer", "orphan-result"):
        namespace, _, name = warning.subject.partition("/")
        claim = view.claims.get((namespace, name))
        return [claim] if claim is not None else []
    if warning.code == "claim-not-in-container":
        pod = _pod(view, warning.subject)
        return _unused_claims(view, pod) if pod is not None else []
    return []


def index_warnings(view: DraView, warnings: Sequence[DraWarning]) -> WarningIndex:
    by_claim: dict[ClaimKey, list[DraWarning]] = {}
    by_device: dict[DeviceId, list[DraWarning]] = {}
    unattached: list[DraWarning] = []
    for warning in warnings:
        if warning.code == "stale-slice":  # the Slices pane shows stale generations
            continue
        claims = _claims_of(view, warning)
        if not claims:
            if warning.code in ("missing-claim", "missing-template"):
                unattached.append(warning)
            continue
        for claim in claims:
            by_claim.setdefault(claim.key, []).append(warning)
            for device in claim.devices:
                if warning not in by_device.get(device, []):
                    by_device.setdefault(device, []).append(warning)
    return WarningIndex(
        MappingProxyType({k: tuple(v) for k, v in by_claim.items()}),
        MappingProxyType({k: tuple(v) for k, v in by_device.items()}),
        tuple(unattached),
    )


NO_WARNINGS = WarningIndex()
