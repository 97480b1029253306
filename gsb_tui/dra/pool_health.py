"""Pools the scheduler allocates nothing from: incomplete (fewer slices of the current
generation than `resourceSliceCount`) or invalid (a device name twice, a counter set named
twice, a device consuming a counter set or counter its pool does not have).

The same checks as GatherPools / buildPool (gsb_tui/dra/alloc/pools.py, upstream's
pools_incubating.go), made once over every slice of the current generations, so the grid,
the ledger and `gsb-tui devices` never count such a pool's devices as free. The allocator
itself still judges per node, as upstream does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Literal

from gsb_tui.dra.model import Slice

Problem = tuple[Literal["incomplete-pool", "invalid-pool"], str]  # (state, upstream's reason)


def pool_problems(current: Iterable[Slice]) -> Mapping[tuple[str, str], Problem]:
    """(driver, pool) → its problem, for the pools that have one."""
    pools: dict[tuple[str, str], list[Slice]] = {}
    for s in current:
        pools.setdefault((s.driver, s.pool), []).append(s)
    out: dict[tuple[str, str], Problem] = {}
    for key, slices in pools.items():
        if len(slices) != slices[0].slice_count:
            have, want = len(slices), slices[0].slice_count
            out[key] = ("incomplete-pool", f"{have} of {want} slices published")
            continue
        reason = _invalid(sorted(slices, key=lambda s: s.name))
        if reason:
            out[key] = ("invalid-pool", reason)
    return MappingProxyType(out)


def _invalid(slices: list[Slice]) -> str:
    names: set[str] = set()
    for s in slices:
        if s.shared_counters:
            continue  # a counter-set slice: its devices are not the pool's
        for d in s.devices:
            if d.name in names:
                return f"duplicate device name {d.name}"
            names.add(d.name)
    sets: dict[str, frozenset[str]] = {}
    for s in slices:
        for counter_set in s.shared_counters:
            if counter_set.name in sets:
                return f"duplicate counter set name {counter_set.name}"
            sets[counter_set.name] = frozenset(counter_set.counters)
    for s in slices:
        for d in s.devices:
            for use in d.consumes:
                found = sets.get(use.counter_set)
                if found is None:
                    return f"counter set {use.counter_set} not found"
                for counter in use.counters:
                    if counter not in found:
                        return f"counter {counter} not found in counter set {use.counter_set}"
    return ""
