"""The structured allocator's search: a first-fit search with backtracking over all requests
of all claims a pod still needs, on one node.

Mirrors `structured/internal/incubating/allocator_incubating.go` at v0.36.3–v0.37.2 (release
differences: features.py), function by function: NewAllocator, Allocate, allocateOne,
isSelectable, selectorsMatch, allocateDevice, rollbackDevice, deviceInUse and friends. Beside
it: validate.py, counters.py, capacity_check.py, taints.py, constraints.py, results.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence

from gsb_tui.dra import cel
from gsb_tui.dra.alloc import capacity as cap
from gsb_tui.dra.alloc.capacity_check import CapacityCheck
from gsb_tui.dra.alloc.constraints import Constraint
from gsb_tui.dra.alloc.counters import CounterBook, PoolKey
from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.alloc.gather import SliceIndex, gather_pools
from gsb_tui.dra.alloc.nodes import NodeFacts, node_matches
from gsb_tui.dra.alloc.pools import (
    Amount,
    Counters,
    Pool,
    ReadSlice,
    SliceDevice,
)
from gsb_tui.dra.alloc.requests import ClaimInput
from gsb_tui.dra.alloc.results import (
    MAX_RESULTS,
    AllocatedState,
    AllocError,
    DeviceResult,
    MaxSize,
    NodeFailure,
    PoolDevice,
    RequestData,
    Undecided,
    not_mirrored,
    runtime_error,
)
from gsb_tui.dra.alloc.taints import taint_prevents_allocation
from gsb_tui.dra.alloc.validate import validate_claims
from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.snapshot import Obj


class Allocator:
    """structured.Allocator (incubating): built once per pod from the cluster's state, then
    asked node by node."""

    def __init__(
        self,
        features: Features,
        state: AllocatedState,
        classes: Mapping[str, Obj],
        slices: SliceIndex,
        deadline: float | None = None,
        session: cel.CelSession | None = None,
    ) -> None:
        self.cel, self.features = session or cel.CelSession(), features
        self.state = state
        self.classes = classes
        self.index = slices
        self.on_node = slices.on_node
        self.shared = slices.shared
        self.deadline = deadline
        self.available_counters: dict[PoolKey, dict[str, Counters]] = {}
        self.overdrawn: dict[PoolKey, bool] = {}  # per pool: some available counter < 0
        self.invocations = 0

    def slices_for(self, node: NodeFacts) -> tuple[ReadSlice, ...]:
        return self.on_node.get(node.name, ()) + self.shared

    def allocate(
        self, node: NodeFacts, claims: Sequence[ClaimInput]
    ) -> list[list[DeviceResult]] | None:
        """Allocate: one list of results per claim, or None when they cannot all be
        allocated here. Raises AllocError, NodeFailure or Undecided."""
        run = _Run(self, node, claims)
        return run.allocate()


class _Run:
    """The `allocator` of one Allocate call."""

    def __init__(self, owner: Allocator, node: NodeFacts, claims: Sequence[ClaimInput]) -> None:
        self.a = owner
        self.features = owner.features
        self.node = node
        self.claims = list(claims)
        self.pools: list[Pool] = []
        self.matches: dict[tuple[DeviceId, int, int, int], bool] = {}
        self.constraints: list[list[Constraint]] = [[] for _ in claims]
        self.counters = CounterBook(
            owner.available_counters,
            owner.overdrawn,
            owner.state,
            owner.features.counters_by_pool_id,
        )
        self.data: dict[tuple[int, int, int], RequestData] = {}
        self.results: list[list[DeviceResult]] = [[] for _ in claims]
        self.allocating: dict[DeviceId, set[int]] = {}
        self.capacity = CapacityCheck(owner.features, owner.state, [c.ref for c in claims])
        self.allocating_capacity = self.capacity.allocating

    # -- Allocate ------------------------------------------------------------------------

    def allocate(self) -> list[list[DeviceResult]] | None:
        try:
            self.pools = gather_pools(
                self.a.slices_for(self.node), self.node, self.features, self.a.index
            )
        except ValueError as exc:
            raise AllocError(f"gather pool information: {exc}") from exc
        not_mirrored(self.features, self.pools)
        self.data, self.constraints = validate_claims(
            self.claims, self.features, self.a.classes, self.pools, self._fits_all
        )
        try:
            done = self._allocate_one((0, 0, 0, 0), False, (0, 0, 0))
        except MaxSize:  # not reachable from the top, as upstream
            done = False
        except RecursionError as exc:
            raise Undecided("the search went too deep") from exc
        if not done:
            if any(p.invalid for p in self.pools):
                raise NodeFailure("invalid resource pools were encountered")
            return None
        return self.results

    # -- allocateOne ---------------------------------------------------------------------

    def _allocate_one(
        self, r: tuple[int, int, int, int], sub_request: bool, start: tuple[int, int, int]
    ) -> bool:
        a = self.a
        a.invocations += 1
        if a.deadline is not None and time.monotonic() > a.deadline:
            raise Undecided("the time budget ran out")
        ci, ri, si, di = r
        if ci >= len(self.claims):
            return True
        claim = self.claims[ci]
        if ri >= len(claim.requests):
            try:
                return self._allocate_one((ci + 1, 0, 0, 0), False, (0, 0, 0))
            except MaxSize:
                return False
        data = self.data[(ci, ri, si)]
        if not sub_request and data.parent:
            all_exceeded = True
            sub = 0
            while True:
                if (ci, ri, sub) not in self.data:
                    if all_exceeded:
                        raise MaxSize
                    return False
                try:
                    ok = self._allocate_one((ci, ri, sub, di), True, (0, 0, 0))
                except MaxSize:
                    sub += 1
                    continue
                all_exceeded = False
                if ok:
                    self.data[(ci, ri, 0)].selected_sub = sub
                    return True
                sub += 1
        request = data.request
        all_mode = request.mode == "All"
        if all_mode and not data.all_devices:
            return False
        if di >= data.num_devices:
            return self._allocate_one((ci, ri + 1, 0, 0), False, (0, 0, 0))
        if len(self.results[ci]) + data.num_devices - di > MAX_RESULTS:
            raise MaxSize
        if all_mode:
            wanted = data.all_devices[di]
            ok, undo = self._allocate_device(r, wanted, True)
            if not ok:
                return False
            try:
                done = self._allocate_one((ci, ri, si, di + 1), sub_request, (0, 0, 0))
            except MaxSize:
                assert undo is not None
                undo()
                raise
            if not done:
                assert undo is not None
                undo()
            return done
        if self._too_few_left((ci, ri, si), data, start, data.num_devices - di):
            return False
        for pi, sli, dvi, pool, s, device in self._devices_from(start):
            id = DeviceId(pool.driver, pool.pool, device.id.device)
            if request.admin_access and ci in self.allocating.get(id, ()):
                continue
            if not request.admin_access and self._in_use(id):
                continue
            if not self._fits((ci, ri, si), data, s, device):
                continue
            ok, undo = self._allocate_device(r, PoolDevice(device, pool), False)
            if not ok:
                continue
            assert undo is not None
            try:
                done = self._allocate_one((ci, ri, si, di + 1), sub_request, (pi, sli, dvi + 1))
            except MaxSize:
                undo()
                raise
            if done:
                return True
            undo()
        return False

    def _devices_from(
        self, start: tuple[int, int, int]
    ) -> Iterator[tuple[int, int, int, Pool, ReadSlice, SliceDevice]]:
        """allocateOne's walk: pools (never an incomplete or invalid one), their slices,
        their devices, in order, from a start location (pool, slice, device)."""
        for pi in range(start[0], len(self.pools)):
            pool = self.pools[pi]
            if pool.incomplete or pool.invalid:
                continue
            for sli in range(start[1] if pi == start[0] else 0, len(pool.slices_targeting_node)):
                s = pool.slices_targeting_node[sli]
                first = start[2] if pi == start[0] and sli == start[1] else 0
                for dvi in range(first, len(s.devices)):
                    yield pi, sli, dvi, pool, s, s.devices[dvi]

    def _too_few_left(
        self, key: tuple[int, int, int], data: RequestData, start: tuple[int, int, int], need: int
    ) -> bool:
        """Not upstream's: a bound that changes no answer. Fewer devices left (from `start`,
        not in use, selectable) than still needed means the loop below cannot succeed; then
        it only ever evaluates this request's selectors on those devices, in this order, so
        evaluating them here raises the same first error. Without it, a count no node can
        meet costs 2^devices steps per node (upstream's search pays that in Go)."""
        request = data.request
        left = 0
        for _pi, _sli, _dvi, pool, s, device in self._devices_from(start):
            id = DeviceId(pool.driver, pool.pool, device.id.device)
            if request.admin_access and key[0] in self.allocating.get(id, ()):
                continue
            if not request.admin_access and self._in_use(id):
                continue
            if self._is_selectable(key, data, s, device):
                left += 1
                if left >= need:
                    return False
        return True

    # -- isSelectable, selectorsMatch ------------------------------------------------------

    def _is_selectable(
        self, key: tuple[int, int, int], data: RequestData, s: ReadSlice, device: SliceDevice
    ) -> bool:
        if not self.features.device_binding_and_status and device.binding_conditions:
            return False
        id = DeviceId(s.driver, s.pool, device.id.device)
        mkey = (id, *key)
        known = self.matches.get(mkey)
        if known is not None:
            return known
        if data.class_obj is not None:
            cls = data.class_obj
            name = str(_d(cls.get("metadata")).get("name") or "")
            selectors = [
                str(_d(_d(x).get("cel")).get("expression") or "")
                for x in _l(_d(cls.get("spec")).get("selectors"))
            ]
            if not self._selectors_match(id, device, f"class {name}", selectors):
                self.matches[mkey] = False
                return False
        claim = self.claims[key[0]]
        exprs = [x or "" for x in data.request.selectors]
        if not self._selectors_match(id, device, f"claim {claim.ref}", exprs):
            self.matches[mkey] = False
            return False
        if s.per_device and not node_matches(
            self.node, device.node_name, device.all_nodes, device.node_selector
        ):
            self.matches[mkey] = False
            return False
        self.matches[mkey] = True
        return True

    def _selectors_match(
        self, id: DeviceId, device: SliceDevice, who: str, selectors: Sequence[str]
    ) -> bool:
        for i, expression in enumerate(selectors):
            try:
                selector = self.a.cel.compile(expression, device.id.driver)
            except cel.CelUnsupportedError as exc:
                raise Undecided(f"{who}: selector #{i}: {exc}") from exc
            except cel.CelCompileError as exc:
                raise AllocError(f"{who}: selector #{i}: CEL compile error: {exc}") from exc
            outcome = selector.evaluate(device.model, self.a.deadline)
            if outcome.unfinished:
                raise Undecided(outcome.error or "the time budget ran out")
            if outcome.error:
                raise AllocError(runtime_error(self.features, who, i, id, outcome.error))
            if not outcome.matched:
                return False
        return True

    # -- capacity, devices in use ----------------------------------------------------------

    def _fits(
        self, key: tuple[int, int, int], data: RequestData, s: ReadSlice, device: SliceDevice
    ) -> bool:
        """Selectable, and (ConsumableCapacity) the request's capacity fits what is left; a
        capacity the device lacks only rules it out, as upstream skips it."""
        return self._is_selectable(key, data, s, device) and (
            not self.features.consumable_capacity
            or self.capacity.ok(key[0], data.request, device, "checking")
        )

    def _fits_all(
        self, key: tuple[int, int, int], data: RequestData, s: ReadSlice, device: SliceDevice
    ) -> bool:
        """An All request's candidates: up to 1.36 as the search's; from 1.37 by the device's
        static capacity only (one used up stays in the list, and the request fails)."""
        if not self.features.since_137:
            return self._fits(key, data, s, device)
        return self._is_selectable(key, data, s, device) and (
            not self.features.consumable_capacity
            or self.capacity.ok(key[0], data.request, device, "checking", static=True)
        )

    def _in_use(self, id: DeviceId) -> bool:
        """deviceInUse."""
        return id in self.a.state.devices or bool(self.allocating.get(id))

    # -- allocateDevice ------------------------------------------------------------------

    def _allocate_device(
        self, r: tuple[int, int, int, int], pd: PoolDevice, must: bool
    ) -> tuple[bool, Callable[[], None] | None]:
        ci, ri, si, _ = r
        claim = self.claims[ci]
        data = self.data[(ci, ri, si)]
        request = data.request
        device = pd.device
        id = pd.id
        multiple = self.features.consumable_capacity and device.multiple
        if not multiple and request.admin_access and ci in self.allocating.get(id, ()):
            return False, None
        if not request.admin_access and self._in_use(id):
            return False, None
        if not self.features.partitionable_devices and device.consumes:
            return False, None
        skip_counters = multiple and self.capacity.in_use(id)
        counters_reserved = False
        if not skip_counters and device.consumes:
            if not self.counters.reserve(pd):
                return False, None
            counters_reserved = True
        base = data.parent or request.name
        sub = request.name if data.parent else ""
        added = 0
        marked = False
        inserted: dict[str, Amount] | None = None
        existed = False
        n_before = len(self.results[ci])
        result_added = False

        def rollback() -> None:
            if result_added:
                del self.results[ci][n_before:]
            if inserted is not None:
                cap.remove_share(self.allocating_capacity, id, inserted)
                if existed and id not in self.allocating_capacity:
                    self.allocating_capacity[id] = {}
            if marked:
                self.allocating[id].discard(ci)
            for c in reversed(self.constraints[ci][:added]):
                c.remove(base, sub, device)
            if counters_reserved:
                self.counters.release(pd)

        if self.features.device_taints and taint_prevents_allocation(device, request):
            rollback()
            return False, None
        for c in self.constraints[ci]:
            if not c.add(base, sub, device):
                rollback()
                if must:
                    raise AllocError(
                        f"claim {claim.ref}, request {request.name}: cannot add device {id} "
                        "because a claim constraint would not be satisfied"
                    )
                return False, None
            added += 1
        if not multiple:
            self.allocating.setdefault(id, set()).add(ci)
            marked = True
        consumed: dict[str, Amount] = {}
        share = False
        if self.features.consumable_capacity:
            # An AllocError from these stops the whole attempt: nothing to roll back for.
            if not self.capacity.ok(ci, request, device, "rechecking"):
                rollback()
                return False, None
            if multiple:
                consumed = self.capacity.consumed(ci, request, device)
                share = True
                existed = id in self.allocating_capacity
                cap.add_share(self.allocating_capacity, id, consumed)
                inserted = consumed
        self.results[ci].append(
            DeviceResult(
                request.name, data.parent, id, device, share, consumed, request.admin_access
            )
        )
        result_added = True
        return True, rollback
