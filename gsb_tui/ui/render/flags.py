"""Where each DraWarning shows up: on the claims it is about, on those claims' devices, or (for
a pod whose claim or template does not exist, so there is nothing to hang it on) on its own.

Pure: built from find_warnings' result once per view, from the keys each warning carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.words import localize

ClaimKey = tuple[str, str]

MARK = "⚠"


def short(warnings: Iterable[DraWarning], lang: str = "en") -> str:
    """ "leak, ghost pod": the distinct short names, in the warnings' order."""
    names: dict[str, None] = {}
    for w in warnings:
        names.setdefault(localize(w.short, lang), None)
    return ", ".join(names)


@dataclass(frozen=True)
class WarningIndex:
    by_claim: Mapping[ClaimKey, tuple[DraWarning, ...]] = field(default_factory=dict)
    by_device: Mapping[DeviceId, tuple[DraWarning, ...]] = field(default_factory=dict)
    # Pod warnings no claim row can carry: the claim or template it names does not exist.
    unattached: tuple[DraWarning, ...] = ()


def index_warnings(warnings: Sequence[DraWarning]) -> WarningIndex:
    by_claim: dict[ClaimKey, list[DraWarning]] = {}
    by_device: dict[DeviceId, list[DraWarning]] = {}
    unattached: list[DraWarning] = []
    for warning in warnings:
        if warning.code == "stale-slice":  # the Slices pane shows stale generations
            continue
        if not warning.claims:
            if warning.code in ("missing-claim", "missing-template"):
                unattached.append(warning)
            continue
        for claim in warning.claims:
            by_claim.setdefault(claim, []).append(warning)
        for device in warning.devices:
            if warning not in by_device.get(device, []):
                by_device.setdefault(device, []).append(warning)
    return WarningIndex(
        MappingProxyType({k: tuple(v) for k, v in by_claim.items()}),
        MappingProxyType({k: tuple(v) for k, v in by_device.items()}),
        tuple(unattached),
    )


NO_WARNINGS = WarningIndex()
