"""Device health as the kubelet reports it for the pods that use each device (KEP-4680).

A pod's containers carry `allocatedResourcesStatus` (dra/model/kubelet.py): per claim entry
(and request), a resourceID and its health. The resourceID is the device's first CDI device ID
when the driver gave one (the practice driver's `gpu.example.com/gpu=<claim uid>-gpu-3`), else
`<driver>/<pool>/<device>`; it is matched to a device of the claim's allocation results
(only the request's results when the status names a request):

1. `<driver>/<pool>/<device>` exactly;
2. a CDI ID whose name (after "=") is the device's name or ends with "-<device name>" (the
   longest device name wins: gpu-11 over gpu-1);
3. when those results hold exactly one device, that one;
4. else unmatched: kept with its claim and said so, never dropped.

A device's health is the worst any running pod's container reports for it
(Unhealthy > Unknown > Healthy), with that report's message and who said it. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from gsb_tui.dra.model import AllocationResult, Claim, DeviceId, Pod, ResourceHealth
from gsb_tui.snapshot import ObjKey

RANK = {"Healthy": 0, "Unknown": 1, "Unhealthy": 2}
DONE_PHASES = ("Succeeded", "Failed")  # their last status is history, not the device's health


@dataclass(frozen=True)
class HealthReport:
    """One resourceID's health as one pod's container reports it, and the device it names."""

    pod: ObjKey
    container: str
    claim: ObjKey | None  # None: the entry resolves to no claim (not made yet, or gone)
    entry: str
    request: str
    resource_id: str
    health: str
    message: str
    device: DeviceId | None  # None: no device of the claim's results could be told

    @property
    def said_by(self) -> str:
        """ "ns/pod/container": who reported it."""
        return f"{self.pod[0]}/{self.pod[1]}/{self.container}"


@dataclass(frozen=True)
class DeviceHealth:
    """The worst health reported for one device, with its message and who said it."""

    device: DeviceId
    health: str
    message: str
    pod: ObjKey
    container: str
    reports: tuple[HealthReport, ...]  # every report about the device, worst first

    @property
    def said_by(self) -> str:
        return f"{self.pod[0]}/{self.pod[1]}/{self.container}"


@dataclass(frozen=True)
class HealthIndex:
    devices: Mapping[DeviceId, DeviceHealth] = field(default_factory=dict)
    # Reports no device could be told for, kept with their claim (and pod).
    unmatched: tuple[HealthReport, ...] = ()
    by_pod: Mapping[ObjKey, tuple[HealthReport, ...]] = field(default_factory=dict)

    def of_claim(self, claim: ObjKey) -> tuple[HealthReport, ...]:
        """Every report about a claim (matched or not), in pod order."""
        return tuple(r for reports in self.by_pod.values() for r in reports if r.claim == claim)

    def unmatched_of(self, claim: ObjKey) -> tuple[HealthReport, ...]:
        return tuple(r for r in self.unmatched if r.claim == claim)

    def counts(self, devices: Iterable[DeviceId] | None = None) -> tuple[int, int]:
        """(unhealthy, unknown) devices, among `devices` when given."""
        chosen = self.devices.values() if devices is None else self._among(devices)
        healths = [d.health for d in chosen]
        return healths.count("Unhealthy"), healths.count("Unknown")

    def _among(self, devices: Iterable[DeviceId]) -> list[DeviceHealth]:
        return [found for d in devices if (found := self.devices.get(d)) is not None]


NO_HEALTH = HealthIndex()


def _cdi_name(resource_id: str) -> str:
    """The device part of a CDI device ID ("vendor/class=name"), "" when it is not one."""
    kind, sep, name = resource_id.partition("=")
    return name if sep and "/" in kind else ""


def match_device(resource_id: str, results: Sequence[AllocationResult]) -> DeviceId | None:
    """The device of `results` the kubelet's resourceID names (see the module's rules)."""
    for result in results:
        if str(result.id) == resource_id:
            return result.id
    name = _cdi_name(resource_id)
    if name:
        named = [
            r.id
            for r in results
            if r.id.device and (name == r.id.device or name.endswith(f"-{r.id.device}"))
        ]
        if named:
            return max(named, key=lambda d: len(d.device))
    distinct = {r.id for r in results}
    return next(iter(distinct)) if len(distinct) == 1 else None


def results_for(claim: Claim, request: str) -> tuple[AllocationResult, ...]:
    """The claim's results for a request ("" for all): a firstAvailable result names
    "<request>/<subrequest>", and the kubelet reports the request."""
    if not request:
        return claim.results
    return tuple(r for r in claim.results if r.request.split("/", 1)[0] == request)


def reports_of(pod: Pod, claim_of_entry: Callable[[Pod, str], Claim | None]) -> list[HealthReport]:
    """The pod's allocatedResourcesStatus as reports, each matched to a device."""
    out = []
    for said in pod.resource_health:
        claim = claim_of_entry(pod, said.entry)
        device = match_device(said.resource_id, results_for(claim, said.request)) if claim else None
        out.append(_report(pod, said, claim, device))
    return out


def _report(
    pod: Pod, said: ResourceHealth, claim: Claim | None, device: DeviceId | None
) -> HealthReport:
    return HealthReport(
        pod=pod.key,
        container=said.container,
        claim=claim.key if claim is not None else None,
        entry=said.entry,
        request=said.request,
        resource_id=said.resource_id,
        health=said.health,
        message=said.message,
        device=device,
    )


def _worst_first(reports: Iterable[HealthReport]) -> list[HealthReport]:
    # Worst first; of equal health one with the driver's message, then by pod and container.
    return sorted(
        reports, key=lambda r: (-RANK.get(r.health, 1), not r.message, r.pod, r.container)
    )


def compute_health(
    pods: Iterable[Pod], claim_of_entry: Callable[[Pod, str], Claim | None]
) -> HealthIndex:
    """The health index of the pods' reports (pods done running do not count)."""
    by_pod: dict[ObjKey, tuple[HealthReport, ...]] = {}
    for pod in pods:
        if not pod.resource_health or pod.phase in DONE_PHASES:
            continue
        by_pod[pod.key] = tuple(reports_of(pod, claim_of_entry))
    if not by_pod:
        return NO_HEALTH
    by_device: dict[DeviceId, list[HealthReport]] = {}
    unmatched: list[HealthReport] = []
    for key in sorted(by_pod):
        for report in by_pod[key]:
            if report.device is None:
                unmatched.append(report)
            else:
                by_device.setdefault(report.device, []).append(report)
    devices = {}
    for device, reports in by_device.items():
        ordered = _worst_first(reports)
        worst = ordered[0]
        devices[device] = DeviceHealth(
            device, worst.health, worst.message, worst.pod, worst.container, tuple(ordered)
        )
    return HealthIndex(
        MappingProxyType(devices), tuple(unmatched), MappingProxyType(dict(sorted(by_pod.items())))
    )
