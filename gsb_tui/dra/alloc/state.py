"""What the scheduler gathers before it allocates: the allocated state of every claim and the
slices with DeviceTaintRules applied.

Mirrors kube-scheduler 1.36.3's DynamicResources plugin: allocateddevices.go
(foreachAllocatedDevice: adminAccess results are not "allocated"; a result with a shareID is
one share of a device that allows multiple allocations, its consumedCapacity aggregated) and
the slice tracker's taint patching (`resourceslice/tracker`: a rule's deviceSelector names a
driver, pool and device; a field left out matches every one, so a rule without a selector
taints every device in 1.36.3 — 1.37 changed that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gsb_tui.dra.alloc.pools import exact
from gsb_tui.dra.alloc.results import AllocatedState
from gsb_tui.dra.model import DeviceId, TaintRule
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.dra.model.features import DeviceTaint
from gsb_tui.snapshot import Obj


def allocated_state(claims: Iterable[Obj]) -> AllocatedState:
    """GatherAllocatedState over every claim with status.allocation."""
    state = AllocatedState()
    for claim in claims:
        meta = _d(claim.get("metadata"))
        ref = f"{meta.get('namespace') or ''}/{meta.get('name') or ''}"
        allocation = _d(claim.get("status")).get("allocation")
        if allocation is None:
            continue
        for result in _l(_d(_d(allocation).get("devices")).get("results")):
            result = _d(result)
            if result.get("adminAccess"):
                continue
            id = DeviceId(
                str(result.get("driver") or ""),
                str(result.get("pool") or ""),
                str(result.get("device") or ""),
            )
            holders = state.holders.setdefault(id, [])
            if ref not in holders:
                holders.append(ref)
            share = result.get("shareID")
            if share is not None:
                state.shared.add((id, str(share)))
                consumed = result.get("consumedCapacity")
                if consumed is not None:
                    bucket = state.capacity.setdefault(id, {})
                    for name, text in _d(consumed).items():
                        value = exact(text)
                        if value is not None:
                            bucket[str(name)] = bucket.get(str(name), 0) + value
                continue
            state.devices.add(id)
    return state


def rule_taints(
    rules: Iterable[TaintRule], slices: Iterable[Obj]
) -> Mapping[DeviceId, tuple[DeviceTaint, ...]]:
    """The taints DeviceTaintRules add to each device they select (ListPatchedResourceSlices)."""
    rules = list(rules)
    if not rules:
        return {}
    out: dict[DeviceId, tuple[DeviceTaint, ...]] = {}
    for s in slices:
        spec = _d(s.get("spec"))
        driver = str(spec.get("driver") or "")
        pool = str(_d(spec.get("pool")).get("name") or "")
        for device in _l(spec.get("devices")):
            id = DeviceId(driver, pool, str(_d(device).get("name") or ""))
            for rule in rules:
                if rule.selects(id):
                    out[id] = (*out.get(id, ()), rule.taint)
    return out
