"""The allocator's inputs from one DraView (its snapshot's raw objects, every generation).

Slices are read from the view's own parses, and each read slice is kept while the view hands
out the very same parsed Slice (dra/parsed.py reuses it while the object is unchanged) and
no DeviceTaintRule changed: at 10,000 devices a claim coming or going reads no slice again.
The features are those of the server's release (features_for), the default one while unknown.
"""

from __future__ import annotations

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

_read: dict[int, tuple[Slice, tuple[TaintRule, ...], ReadSlice]] = {}
_lock = threading.Lock()


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


def inputs_of(view: DraView) -> Inputs:
    snap = view.snapshot
    rules = tuple(view.taint_rules)
    parsed = list(view.slices) + list(view.stale_slices)
    raws = [s.raw for s in parsed]
    taints = rule_taints(rules, raws) if rules else {}
    read: list[ReadSlice] = []
    with _lock:
        if len(_read) > 2 * len(parsed) + 64:
            _read.clear()  # slices gone: what they were read into goes too
        for s in parsed:
            found = _read.get(id(s))
            if found is None or found[0] is not s or found[1] != rules:
                found = (s, rules, read_slice(s.raw, taints, s))
                _read[id(s)] = found
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
    )
