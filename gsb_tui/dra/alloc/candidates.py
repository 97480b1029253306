"""A request's devices on one node sorted by what keeps each from it, in the allocator's
own order of checks (search.py): held by another claim, counters used up, a taint not
tolerated, too little capacity left; the rest are its candidates. Used to explain a failed
search, never to decide one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gsb_tui.dra import cel
from gsb_tui.dra.alloc import capacity as cap
from gsb_tui.dra.alloc.nodes import NodeFacts, node_matches
from gsb_tui.dra.alloc.pools import Amount, Pool, SliceDevice
from gsb_tui.dra.alloc.requests import Req
from gsb_tui.dra.alloc.scheduler import Inputs
from gsb_tui.dra.alloc.taints import taint_prevents_allocation
from gsb_tui.dra.model.base import _d, _l


@dataclass
class Sorted:
    need: int
    candidates: list[SliceDevice] = field(default_factory=list)
    held: list[SliceDevice] = field(default_factory=list)
    counters: list[SliceDevice] = field(default_factory=list)
    tainted: list[SliceDevice] = field(default_factory=list)
    capacity: list[SliceDevice] = field(default_factory=list)
    left_out: list[SliceDevice] = field(default_factory=list)  # All: too little capacity
    selectable: int = 0


def _selectable(req: Req, inputs: Inputs, device: SliceDevice, node: NodeFacts) -> bool:
    cls = inputs.classes.get(req.class_name)
    exprs = [
        str(_d(_d(x).get("cel")).get("expression") or "")
        for x in _l(_d((cls or {}).get("spec")).get("selectors"))
    ] + [x or "" for x in req.selectors]
    for expression in exprs:
        try:
            outcome = inputs.cel.compile(expression, device.id.driver).evaluate(device.model)
        except (cel.CelCompileError, cel.CelUnsupportedError):
            return False
        if outcome.error or not outcome.matched:
            return False
    return not device.slice.per_device or node_matches(
        node, device.node_name, device.all_nodes, device.node_selector
    )


def _counters_left(pool: Pool, inputs: Inputs) -> dict[str, dict[str, Amount]]:
    """The pool's counters left after what the allocated state's devices consume."""
    available = {name: dict(c) for name, c in pool.counter_sets.items()}
    for slices in (pool.slices_targeting_node, pool.slices_not_targeting_node):
        for s in slices:
            for d in s.devices:
                if not inputs.state.is_allocated(d.id):
                    continue
                for set_name, counters in d.consumes:
                    for name, value in counters.items():
                        if name in available.get(set_name, {}):
                            available[set_name][name] -= value
    return available


def _counters_short(device: SliceDevice, available: dict[str, dict[str, Amount]]) -> bool:
    """checkAvailableCounters for this device alone against the allocated state."""
    used: dict[str, dict[str, Amount]] = {}
    for set_name, counters in device.consumes:
        for name, value in counters.items():
            used.setdefault(set_name, {})[name] = used.get(set_name, {}).get(name, 0) + value
    return any(
        value < used.get(set_name, {}).get(name, 0)
        for set_name, counters in available.items()
        for name, value in counters.items()
    )


def sort_devices(req: Req, pools: Sequence[Pool], inputs: Inputs, node: NodeFacts) -> Sorted:
    found = Sorted(req.count if req.mode == "ExactCount" else 0)
    all_mode = req.mode == "All"
    for pool in pools:
        if pool.incomplete or pool.invalid:
            continue
        left: dict[str, dict[str, Amount]] | None = None  # read once per pool, when asked
        for s in pool.slices_targeting_node:
            for device in s.devices:
                if not _selectable(req, inputs, device, node):
                    continue
                if all_mode and not _capacity_ok(req, device, inputs):
                    found.left_out.append(device)  # validateDeviceRequest leaves it out of "all"
                    continue
                found.selectable += 1
                multiple = inputs.features.consumable_capacity and device.multiple
                if not req.admin_access and device.id in inputs.state.devices:
                    found.held.append(device)
                elif (
                    device.consumes
                    and not (multiple and device.id in inputs.state.capacity)
                    and _counters_short(
                        device, left := left if left is not None else _counters_left(pool, inputs)
                    )
                ):
                    found.counters.append(device)
                elif inputs.features.device_taints and taint_prevents_allocation(device, req):
                    found.tainted.append(device)
                elif not _capacity_ok(req, device, inputs):
                    found.capacity.append(device)
                else:
                    found.candidates.append(device)
    if all_mode:
        found.need = found.selectable or 1  # every one of them, and at least one
    return found


def _capacity_ok(req: Req, device: SliceDevice, inputs: Inputs) -> bool:
    if not inputs.features.consumable_capacity:
        return True
    try:
        return cap.request_over_capacity(
            inputs.state.capacity.get(device.id), req.capacity, device.capacity, None
        )
    except cap.UnknownCapacity:
        return False
