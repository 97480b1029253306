"""Why a pod does not fit: for each node the first stage that failed, and for a failed
allocation what on that node stood in the way, grouped over nodes.

The verdict (fits or not, where) is the search's (scheduler.py); this only explains it. On a
node where the search found no allocation, each request's candidates are sorted by what
keeps them away, in the allocator's own order of checks: held by another claim, counters
used up, a taint not tolerated, too little capacity left. When every request alone has
enough, the search is run again without the claims' constraints: if it then succeeds, a
constraint is the blocker; else the requests compete for the same devices or counters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gsb_tui.dra.alloc.candidates import Sorted, sort_devices
from gsb_tui.dra.alloc.gather import gather_pools
from gsb_tui.dra.alloc.nodes import NodeFacts
from gsb_tui.dra.alloc.pools import ReadSlice, SliceDevice
from gsb_tui.dra.alloc.requests import ClaimInput, Req
from gsb_tui.dra.alloc.results import AllocError, NodeFailure, Undecided
from gsb_tui.dra.alloc.scheduler import Inputs, PodJudgement
from gsb_tui.dra.alloc.search import Allocator
from gsb_tui.dra.model import DeviceId

MAX_NODE_NAMES = 10
MAX_DEVICES = 20
# node-level stages in the order the scheduler runs them; a node has the first that failed
NODE_CODES = (
    "node-unschedulable",
    "node-taint",
    "node-selector",
    "node-resources",
    "claim-node",
    "binding",
)


@dataclass(frozen=True)
class NodeBlocker:
    """One reason on one node."""

    code: str  # the catalog key is blocker.<key>
    key: str
    claim: str = ""
    request: str = ""
    devices: tuple[str, ...] = ()
    holders: tuple[str, ...] = ()
    detail: str = ""
    need: int = 0
    have: int = 0
    free: tuple[str, ...] = ()  # the request's candidates on the node (device names)


@dataclass
class Blocker:
    """A reason grouped over the nodes it applies to."""

    code: str
    key: str
    claim: str = ""
    request: str = ""
    devices: list[str] = field(default_factory=list)
    holders: list[str] = field(default_factory=list)
    detail: str = ""
    need: int = 0
    have: int = 0
    free: list[str] = field(default_factory=list)  # candidates (on one node: by name)
    node_names: list[str] = field(default_factory=list)
    nodes: int = 0
    # Every device's id over all nodes by its name (`devices` keeps 20 ids): nodes alike have
    # devices of the same names, and the words name each once; a device every node reaches
    # (no nodeName) is one device, counted once.
    named: dict[str, set[str]] = field(default_factory=dict)

    def values(self, within: str = "") -> dict[str, object]:
        """The catalog's placeholders; `within`: the claim the words are shown under (its
        requests are then named alone)."""
        request = self.request if self.claim == within else f"{self.claim} {self.request}"
        return {
            "claim": self.claim,
            "request": request.strip(),
            "devices": self._device_names(),
            "holders": _short_list(self.holders) or "-",
            "detail": self.detail,
            "need": self.need,
            "have": self.have,
            "nodes": self.nodes,
            "where": _short_list(self.node_names, total=self.nodes) or "-",
            "free": f" ({_short_list(self.free, limit=8)})"
            if self.free and self.nodes == 1
            else "",
        }

    def _device_names(self, limit: int = 6) -> str:
        """Up to `limit` device names, each once, then how many devices (of any node) carry
        none of them."""
        shown = list(self.named)[:limit]
        rest = sum(len(ids) for name, ids in self.named.items() if name not in shown)
        return ", ".join(shown) + (f", +{rest}" if rest else "")


def _short_list(items: Sequence[str], limit: int = 4, total: int | None = None) -> str:
    total = len(items) if total is None else total
    shown = ", ".join(items[:limit])
    return f"{shown}, +{total - min(limit, len(items))}" if total > limit else shown


def natural_key(name: str) -> list[object]:
    """lab-node-2 before lab-node-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def blockers(judgement: PodJudgement, inputs: Inputs) -> list[Blocker]:
    """Every reason the pod does not fit, one per code, claim and request, over nodes."""
    if judgement.fits:
        return []
    if judgement.pod_code:
        return [
            Blocker(
                judgement.pod_code,
                judgement.pod_code,
                detail=judgement.pod_text,
                claim=_claim_of(judgement.pod_text),
            )
        ]
    if judgement.error:
        return [Blocker(judgement.error_code, judgement.error_code, detail=judgement.error)]
    if not inputs.nodes:
        return [Blocker("no-node", "no-node")]
    per_node: list[tuple[str, list[NodeBlocker]]] = []
    by_name = {n.name: n for n in inputs.nodes}  # one lookup a node: a scan each was O(nodes²)
    for name, verdict in judgement.per_node.items():
        if not verdict.stage:
            continue
        node = by_name[name]
        per_node.append(
            (
                name,
                node_blockers(
                    judgement, inputs, node, verdict.stage, verdict.detail, list(verdict.made)
                ),
            )
        )
    return group(per_node)


def _claim_of(text: str) -> str:
    found = re.search(r"claim (\S+/\S+)", text)
    return found.group(1) if found else ""


def group(per_node: Sequence[tuple[str, Sequence[NodeBlocker]]]) -> list[Blocker]:
    out: dict[tuple[str, str, str, str], Blocker] = {}
    # Each group's node names and holders as sets too: list lookups were O(nodes²) at 6,250.
    seen: dict[tuple[str, str, str, str], tuple[set[str], set[str]]] = {}
    for node, found in per_node:
        for b in found:
            k = (b.key, b.claim, b.request, b.detail if b.code in NODE_CODES else "")
            g = out.get(k)
            if g is None:
                g = out[k] = Blocker(
                    b.code, b.key, b.claim, b.request, detail=b.detail, need=b.need, have=b.have
                )
                seen[k] = (set(), set())
            names, holders = seen[k]
            g.nodes += 1
            if node not in names:
                names.add(node)
                g.node_names.append(node)
            g.have = max(g.have, b.have)
            for d in b.devices:
                if d not in g.devices and len(g.devices) < MAX_DEVICES:
                    g.devices.append(d)
                g.named.setdefault(d.rsplit("/", 1)[-1], set()).add(d)
            for h in b.holders:
                if h not in holders:
                    holders.add(h)
                    g.holders.append(h)
            if g.nodes == 1:
                g.free = list(b.free)
    result = sorted(out.values(), key=lambda g: (-g.nodes, g.code, g.claim, g.request))
    for g in result:
        g.node_names = sorted(g.node_names, key=natural_key)[:MAX_NODE_NAMES]
    return result


def node_blockers(
    judgement: PodJudgement,
    inputs: Inputs,
    node: NodeFacts,
    stage: str,
    detail: str,
    made: list[ClaimInput] | None = None,
) -> list[NodeBlocker]:
    """`made`: the claim the node's filter made for the pod's extended resources."""
    claims = judgement.to_allocate + (made or [])
    if stage in NODE_CODES:
        claim = detail if stage in ("claim-node", "binding") else ""
        return [NodeBlocker(stage, stage, claim=claim, detail=detail)]
    if stage == "invalid-pool":  # said when the search failed: what failed it, and the pools
        pools = _pool_blockers(judgement, inputs, node) or [
            NodeBlocker("invalid-pool", "invalid-pool")
        ]
        return pools + [
            b for b in _allocation_blockers(claims, inputs, node) if b.code != "incomplete-pool"
        ]
    if stage == "undecided":
        return [NodeBlocker("undecided", "undecided", detail=detail)]
    if stage != "allocate":
        return [NodeBlocker("error", "error", detail=detail)]
    return _allocation_blockers(claims, inputs, node)


def _pool_blockers(judgement: PodJudgement, inputs: Inputs, node: NodeFacts) -> list[NodeBlocker]:
    allocator = Allocator(
        inputs.features, inputs.state, inputs.classes, inputs.index, None, inputs.cel
    )
    pools = gather_pools(allocator.slices_for(node), node, inputs.features, inputs.index)
    out = []
    for pool in pools:
        if pool.incomplete:
            out.append(NodeBlocker("incomplete-pool", "incomplete-pool", detail=pool.id))
        elif pool.invalid:
            out.append(
                NodeBlocker(
                    "invalid-pool", "invalid-pool", detail=pool.id, holders=(pool.invalid_reason,)
                )
            )
    return out


def _ids(devices: Sequence[SliceDevice]) -> tuple[str, ...]:
    return tuple(str(d.id) for d in devices)


def _holders(devices: Sequence[SliceDevice], inputs: Inputs) -> tuple[str, ...]:
    out: list[str] = []
    for d in devices:
        for h in inputs.state.holders.get(d.id, ()):
            if h not in out:
                out.append(h)
    return tuple(out)


def _slices_of_pools(pools: set[tuple[str, str]], inputs: Inputs) -> list[ReadSlice]:
    """The slices of these pools, in the order of all slices: a pool's devices consume only
    its own counter sets, so no other slice can matter."""
    found = [s for key in pools for s in inputs.index.by_pool.get(key, ())]
    return sorted(found, key=lambda s: inputs.index.rank[id(s)][1])


def _counter_holders(devices: Sequence[SliceDevice], inputs: Inputs) -> tuple[tuple[str, ...], str]:
    """Who holds devices consuming the same counter sets, and the sets' names."""
    sets = {(d.id.driver, d.id.pool, name) for d in devices for name, _ in d.consumes}
    holders: list[str] = []
    for s in _slices_of_pools({(driver, pool) for driver, pool, _ in sets}, inputs):
        for d in s.devices:
            if any((d.id.driver, d.id.pool, name) in sets for name, _ in d.consumes):
                for h in inputs.state.holders.get(d.id, ()):
                    if h not in holders:
                        holders.append(h)
    return tuple(holders), ", ".join(sorted({name for _, _, name in sets}))


def _request_blockers(
    claim: ClaimInput, name: str, req: Req, found: Sorted, inputs: Inputs
) -> list[NodeBlocker]:
    free = tuple(d.id.device for d in found.candidates)

    def blocker(code: str, devices: Sequence[SliceDevice] = (), **facts: Any) -> NodeBlocker:
        if devices and "holders" not in facts:
            facts["holders"] = _holders(devices, inputs)
        return NodeBlocker(
            code,
            code,
            claim=claim.ref,
            request=name,
            need=found.need,
            have=len(found.candidates),
            free=free,
            devices=_ids(devices),
            **facts,
        )

    out = []
    if found.held:
        out.append(blocker("held", found.held))
    if found.counters:
        holders, sets = _counter_holders(found.counters, inputs)
        out.append(blocker("counters", found.counters, holders=holders, detail=sets))
    if found.tainted:
        taints = sorted({str(t) for d in found.tainted for t in d.taints if t.blocks})
        out.append(blocker("tainted", found.tainted, holders=(), detail=", ".join(taints)))
    if found.capacity:
        out.append(blocker("capacity", found.capacity))
    if found.left_out and not found.selectable:
        out.append(blocker("capacity", found.left_out))
    if found.selectable and found.selectable < found.need:
        out.insert(0, blocker("count"))  # too few even if every one were free: the first reason
    if not out:
        out.append(blocker("selector" if not found.selectable else "count"))
    return out


def _allocation_blockers(
    to_allocate: list[ClaimInput], inputs: Inputs, node: NodeFacts
) -> list[NodeBlocker]:
    allocator = Allocator(
        inputs.features, inputs.state, inputs.classes, inputs.index, None, inputs.cel
    )
    pools = gather_pools(allocator.slices_for(node), node, inputs.features, inputs.index)
    out: list[NodeBlocker] = []
    for pool in pools:
        if pool.incomplete:
            out.append(NodeBlocker("incomplete-pool", "incomplete-pool", detail=pool.id))
    short = False
    need_total = 0
    candidates: set[DeviceId] = set()
    shared_counters = False
    for claim in to_allocate:
        for request in claim.requests:
            alternatives = request.first_available or (
                (request.exactly,) if request.exactly else ()
            )
            sorted_alts = []
            for req in alternatives:
                name = f"{request.name}/{req.name}" if request.first_available else request.name
                found = sort_devices(req, pools, inputs, node)
                sorted_alts.append((name, req, found))
            if not sorted_alts:
                continue
            if all(len(f.candidates) < f.need for _, _, f in sorted_alts):
                short = True
                for name, req, found in sorted_alts:
                    out.extend(_request_blockers(claim, name, req, found, inputs))
            else:
                name, req, found = next(a for a in sorted_alts if len(a[2].candidates) >= a[2].need)
                need_total += found.need
                candidates.update(d.id for d in found.candidates)
                shared_counters |= any(d.consumes for d in found.candidates)
    if short:
        return out
    joint = _joint_blocker(to_allocate, inputs, node)
    if joint is not None:
        return [*out, joint]
    if shared_counters:
        in_pools = {(d.driver, d.pool) for d in candidates}
        sets = sorted(
            {
                name
                for s in _slices_of_pools(in_pools, inputs)
                for d in s.devices
                if d.id in candidates
                for name, _ in d.consumes
            }
        )
        return [
            *out,
            NodeBlocker(
                "counters",
                "counters-joint",
                request=", ".join(r.name for c in to_allocate for r in c.requests),
                detail=", ".join(sets),
            ),
        ]
    return [*out, NodeBlocker("count", "count-joint", need=need_total, have=len(candidates))]


def _joint_blocker(
    to_allocate: list[ClaimInput], inputs: Inputs, node: NodeFacts
) -> NodeBlocker | None:
    """A constraint, when the search succeeds without the claims' constraints."""
    constrained = [c for c in to_allocate if c.constraints]
    if not constrained:
        return None
    relaxed = [replace(c, constraints=()) for c in to_allocate]
    allocator = Allocator(
        inputs.features, inputs.state, inputs.classes, inputs.index, None, inputs.cel
    )
    try:
        found = allocator.allocate(node, relaxed)
    except (AllocError, NodeFailure, Undecided):
        return None
    if found is None:
        return None
    claim = constrained[0]
    words = "; ".join(
        f"{c.kind} {c.attribute}" + (f" over {', '.join(sorted(c.requests))}" if c.requests else "")
        for c in claim.constraints
    )
    return NodeBlocker("constraint", "constraint", claim=claim.ref, detail=words)


def _allocator(inputs: Inputs) -> Allocator:
    """An allocator over the inputs, without a deadline, evaluating in their CEL session."""
    return Allocator(inputs.features, inputs.state, inputs.classes, inputs.index, None, inputs.cel)
