"""The allocator's inputs from one DraView (its snapshot's raw objects, every generation).

Slices are read from the view's own parses; a session (verdicts.AllocatorSession) keeps each
read slice while the view hands out the very same parsed Slice (dra/parsed.py reuses it while
the object is unchanged) and no DeviceTaintRule changed: at 10,000 devices a claim coming or
going reads no slice again.
The features are those of the server's release (features_for), the default one while unknown.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from dataclasses import replace

from gsb_tui.dra.alloc.features import Features, features_for
from gsb_tui.dra.alloc.pools import ReadSlice, read_slice
from gsb_tui.dra.alloc.scheduler import Inputs, prepare
from gsb_tui.dra.alloc.state import rule_taints
from gsb_tui.dra.model import Slice, TaintRule
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Obj

# Slices as the allocator read them, by id of the parsed Slice (kept with it, so no id is
# another object's): a session's own (verdicts.AllocatorSession), dropped with it.
ReadCache = dict[int, tuple[Slice, tuple[TaintRule, ...], ReadSlice]]


def stored_gates(features: Features, read: list[ReadSlice], claims: Sequence[Obj] = ()) -> Features:
    """What the stored objects say of the cluster's gates: the API server drops
    compatibilityGroups unless DRADeviceCompatibilityGroups is on (derivedAttributes unless
    DRADerivedAttributes is), so a stored slice (claim) with them means the gate is on, and
    the scheduler runs the allocator this package does not mirror for them: those answers
    are "not decided", never a guess."""
    if not features.since_137:
        return features
    if any(s.compatibility_groups for s in read):
        features = replace(features, compatibility_groups=True)
    if any(_derives(c) for c in claims):
        features = replace(features, derived_attributes=True)
    return features


def _derives(claim: Obj) -> bool:
    for request in _l(_d(_d(claim.get("spec")).get("devices")).get("requests")):
        request = _d(request)
        subs = [_d(request.get("exactly")), *map(_d, _l(request.get("firstAvailable")))]
        if any(_l(sub.get("derivedAttributes")) for sub in subs):
            return True
    return False


def inputs_of(
    view: DraView, read_before: ReadCache | None = None, lock: threading.Lock | None = None
) -> Inputs:
    """The allocator's inputs; `read_before` (guarded by `lock`): the slices a session read
    for earlier views, taken again where the view hands out the same parsed Slice and no
    DeviceTaintRule changed, and updated."""
    snap = view.snapshot
    rules = tuple(view.taint_rules)
    parsed = list(view.slices) + list(view.stale_slices)
    raws = [s.raw for s in parsed]
    taints = rule_taints(rules, raws) if rules else {}
    cache: ReadCache = {} if read_before is None else read_before
    with lock or contextlib.nullcontext():
        if len(cache) > 2 * len(parsed) + 64:
            cache.clear()  # slices gone: what they were read into goes too
        read: list[ReadSlice] = []
        for s in parsed:
            found = cache.get(id(s))
            if found is None or found[0] is not s or found[1] != rules:
                found = (s, rules, read_slice(s.raw, taints, s))
                cache[id(s)] = found
            read.append(found[2])
    claims = list(snap.items(Kind.CLAIMS))
    return prepare(
        slices=raws,
        classes=list(snap.items(Kind.CLASSES)),
        claims=claims,
        nodes=list(snap.items(Kind.NODES)),
        rules=rules,
        features=stored_gates(features_for(snap.server_version), read, claims),
        read=read,
        cel=view.memo.cel,
    )
