"""GatherPools: the pools one node's allocation may use.

Mirrors GatherPools, addSlice, checkSlicesInPool and poolHasBindingConditions of
`k8s.io/dynamic-resource-allocation/structured/internal/incubating/pools_incubating.go` at
v0.36.3, and NewAllocator's split of the slices by node (`SliceIndex`). What a node gathers
is upstream's; how often it is built is ours: a pool made of the same slices is the same Pool
for every node, so the index keeps it, and at 1,000 nodes each pool is built once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.dra.alloc.features import Features
from gsb_tui.dra.alloc.nodes import NodeFacts, node_matches
from gsb_tui.dra.alloc.pools import Pool, ReadSlice, build_pool

PoolKey = tuple[str, str]  # (driver, pool)
Built = tuple[Pool | None, bool]  # a pool (None: obsolete) and whether it has binding conditions
# The slices every node gathers: their ids, their pools' slices, their pools built.
Always = tuple[frozenset[int], dict[PoolKey, list[ReadSlice]], dict[PoolKey, Built]]


def _add_slice(pools: dict[PoolKey, list[ReadSlice]], s: ReadSlice) -> None:
    """addSlice: the highest generation of a pool wins; older slices are out-dated."""
    key = (s.driver, s.pool)
    found = pools.get(key)
    if found is None:
        pools[key] = [s]
    elif s.generation < found[0].generation:
        return
    elif s.generation > found[0].generation:
        pools[key] = [s]
    else:
        found.append(s)


def gather_pools(
    slices_for_node: Sequence[ReadSlice],
    node: NodeFacts | None,
    features: Features,
    index: SliceIndex,
) -> list[Pool]:
    """GatherPools: every pool with devices reachable from the node, incomplete and invalid
    ones marked (they are never allocated from). Raises SelectorError like upstream's error.
    `slices_for_node` is `index.on_node[node] + index.shared`, in that order."""
    always, always_pools = index.always_relevant(features)
    touched: dict[PoolKey, list[ReadSlice]] = {}
    ignored = _ignores_groups(features)
    for s in slices_for_node:
        if id(s) in always:
            continue  # every node gathers it: added below, read once per index
        if not features.partitionable_devices and (s.per_device or s.shared_counters):
            continue
        if ignored and s.compatibility_groups:
            continue  # its pool is then incomplete: none of it is allocated
        if s.node_name or s.all_nodes or s.node_selector is not None:
            relevant = node_matches(node, s.node_name, s.all_nodes, s.node_selector)
        elif s.per_device:
            relevant = any(
                node_matches(node, d.node_name, d.all_nodes, d.node_selector) for d in s.devices
            )
        else:
            continue  # some future, unknown way of node selection
        if relevant:
            _add_slice(touched, s)
    built = index.built_for(features)
    result: list[Pool] = []
    with_binding: list[Pool] = []
    for key, (pool, binds) in index.always_built(features).items():
        if pool is not None and key not in touched:
            (with_binding if binds else result).append(pool)
    for key, own in touched.items():
        shared = always_pools.get(key)
        for_pool = own if shared is None else index.merged(own, shared)
        memo = (key, tuple(map(id, for_pool)))
        found = built.get(memo)
        if found is None:
            found = built[memo] = _pool_of(key, for_pool, features, index)
        pool, binds = found
        if pool is not None:
            (with_binding if binds else result).append(pool)
    result.sort(key=_pool_id)  # cheap: the always-gathered pools come in order
    with_binding.sort(key=_pool_id)
    return result + with_binding


def _pool_id(pool: Pool) -> tuple[str, str]:
    return (pool.driver, pool.pool)


def _pool_of(
    key: PoolKey, for_pool: list[ReadSlice], features: Features, index: SliceIndex
) -> Built:
    """The pool of these slices (None: obsolete) and whether it has binding conditions."""
    driver, name = key
    head = for_pool[0]
    if len(for_pool) == head.slice_count:
        pool = build_pool(driver, name, for_pool, features, None)
    else:
        obsolete, all_for_pool = _check_slices_in_pool(
            index.by_pool.get((driver, name), ()), head.generation
        )
        if _ignores_groups(features):
            all_for_pool = [s for s in all_for_pool if not s.compatibility_groups]
        if obsolete:
            return None, False  # the driver is replacing this generation
        if len(all_for_pool) != head.slice_count:
            return Pool(driver, name, incomplete=True), False
        pool = build_pool(driver, name, for_pool, features, all_for_pool)
    return pool, _has_binding_conditions(pool)


def _always_relevant(s: ReadSlice, features: Features) -> bool:
    """A slice every node gathers whatever its node selection: up to 1.36, one with shared
    counters (needed to use its pool's devices from any node)."""
    if features.since_137 or not s.shared_counters or not features.partitionable_devices:
        return False
    return not (_ignores_groups(features) and s.compatibility_groups)


def _ignores_groups(features: Features) -> bool:
    """1.37 with DRADeviceCompatibilityGroups off: slices whose devices name compatibility
    groups are ignored (the allocator cannot check them), which leaves their pool incomplete."""
    return features.since_137 and not features.compatibility_groups


def _check_slices_in_pool(
    slices: Sequence[ReadSlice], generation: int
) -> tuple[bool, list[ReadSlice]]:
    """checkSlicesInPool over the pool's own slices (in the order of all slices): (a newer
    generation exists, all slices of this generation)."""
    found = []
    for s in slices:
        if s.generation == generation:
            found.append(s)
        elif s.generation > generation:
            return True, []
    return False, found


def _has_binding_conditions(pool: Pool) -> bool:
    """poolHasBindingConditions: such pools are tried last."""
    return any(d.binding_conditions for s in pool.slices_targeting_node for d in s.devices)


@dataclass(frozen=True)
class SliceIndex:
    """NewAllocator's split of the slices: those of each node, and those every node gathers
    (no nodeName, or shared counters). Made once per snapshot, not once per pod."""

    all: tuple[ReadSlice, ...]
    on_node: Mapping[str, tuple[ReadSlice, ...]]
    shared: tuple[ReadSlice, ...]
    by_pool: Mapping[PoolKey, tuple[ReadSlice, ...]]
    # Where each slice comes in a node's walk: (in `shared`, place in `all`).
    rank: Mapping[int, tuple[bool, int]]
    # What gather_pools built, per features: pools by their slices, and the slices every node
    # gathers with their pools. The index's own, dropped with it.
    _built: dict[Features, dict[Any, Built]] = field(default_factory=dict, compare=False)
    _always: dict[Features, Always] = field(default_factory=dict, compare=False)

    def built_for(self, features: Features) -> dict[Any, Built]:
        return self._built.setdefault(features, {})

    def always_relevant(
        self, features: Features
    ) -> tuple[frozenset[int], Mapping[PoolKey, list[ReadSlice]]]:
        """(ids of the slices every node gathers, their pools as _add_slice leaves them)."""
        return self._always_of(features)[:2]

    def always_built(self, features: Features) -> Mapping[PoolKey, Built]:
        """The pools of the slices every node gathers, built, in pool order."""
        return self._always_of(features)[2]

    def _always_of(self, features: Features) -> Always:
        found = self._always.get(features)
        if found is None:
            chosen = [s for s in self.shared if _always_relevant(s, features)]
            pools: dict[PoolKey, list[ReadSlice]] = {}
            for s in chosen:
                _add_slice(pools, s)
            built = self.built_for(features)
            made: dict[PoolKey, Built] = {}
            for key in sorted(pools):
                memo = (key, tuple(map(id, pools[key])))
                if memo not in built:
                    built[memo] = _pool_of(key, pools[key], features, self)
                made[key] = built[memo]
            found = self._always[features] = (frozenset(map(id, chosen)), pools, made)
        return found

    def merged(self, own: list[ReadSlice], always: list[ReadSlice]) -> list[ReadSlice]:
        """What _add_slice leaves from both lists walked in a node's order: the newest
        generation's slices, in the order the node meets them."""
        newest = max(own[0].generation, always[0].generation)
        kept = [s for s in (*own, *always) if s.generation == newest]
        return sorted(kept, key=lambda s: self.rank[id(s)])

    @classmethod
    def of(cls, slices: Sequence[ReadSlice], counters_everywhere: bool = False) -> SliceIndex:
        """`counters_everywhere`: up to 1.36 a slice with shared counters goes to every node."""
        on_node: dict[str, list[ReadSlice]] = {}
        shared: list[ReadSlice] = []
        by_pool: dict[PoolKey, list[ReadSlice]] = {}
        rank: dict[int, tuple[bool, int]] = {}
        for place, s in enumerate(slices):
            by_pool.setdefault((s.driver, s.pool), []).append(s)
            in_shared = not s.node_name or (counters_everywhere and s.shared_counters)
            (shared if in_shared else on_node.setdefault(s.node_name, [])).append(s)
            rank[id(s)] = (bool(in_shared), place)
        return cls(
            tuple(slices),
            {k: tuple(v) for k, v in on_node.items()},
            tuple(shared),
            {k: tuple(v) for k, v in by_pool.items()},
            rank,
        )
