"""The allocator's inputs from one DraView (its snapshot's raw objects, every generation)."""

from __future__ import annotations

from gsb_tui.dra.alloc.scheduler import Inputs, prepare
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind


def inputs_of(view: DraView) -> Inputs:
    snap = view.snapshot
    return prepare(
        slices=list(snap.items(Kind.SLICES)),
        classes=list(snap.items(Kind.CLASSES)),
        claims=list(snap.items(Kind.CLAIMS)),
        nodes=list(snap.items(Kind.NODES)),
        rules=view.taint_rules,
    )
