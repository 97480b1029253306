"""Whether a device's taints keep a request away (the allocator's taintPreventsAllocation,
taintTolerated and resourceclaim.ToleratesTaint at v0.36.3)."""

from __future__ import annotations

from gsb_tui.dra.alloc.pools import SliceDevice
from gsb_tui.dra.alloc.requests import Req
from gsb_tui.dra.model.features import DeviceTaint, Toleration


def tolerates(tol: Toleration, taint: DeviceTaint) -> bool:
    """resourceclaim.ToleratesTaint."""
    if tol.effect and tol.effect != taint.effect:
        return False
    if tol.key and tol.key != taint.key:
        return False
    if tol.operator in ("", "Equal"):
        return tol.value == taint.value
    return tol.operator == "Exists"


def taint_prevents_allocation(device: SliceDevice, request: Req) -> bool:
    """taintPreventsAllocation: a NoSchedule or NoExecute taint no toleration covers."""
    for taint in device.taints:
        if taint.effect in ("NoExecute", "NoSchedule") and not any(
            tolerates(t, taint) for t in request.tolerations
        ):
            return True
    return False
