"""A field of the wrong type (a string, a list, NaN where an integer belongs) is read as
absent: the view, the ledger, the allocator and `why` answer, nothing raises."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.device_rows import device_rows, summary
from gsb_tui.snapshot import Kind, Snapshot, obj_key
from gsb_tui.why_cli import answer
from tests.recorded import snap

WRONG: list[Any] = ["v2", ["x"], math.nan, {"a": 1}, 1.5, True]


def _replaced(kind: Kind, change: Any) -> Snapshot:
    base = snap("step-8")
    objects = {k: dict(v) for k, v in base.objects.items()}
    for key, obj in list(objects[kind].items()):
        obj = copy.deepcopy(dict(obj))
        change(obj)
        objects[kind][key] = obj
    return Snapshot(objects=objects, states=base.states)


def _pending_pod(s: Snapshot) -> tuple[str, str]:
    (pod,) = [p for p in s.items(Kind.PODS) if not (p.get("spec") or {}).get("nodeName")]
    return obj_key(pod)


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_a_claim_count_of_the_wrong_type(value: Any) -> None:
    def change(claim: dict[str, Any]) -> None:
        for request in claim["spec"]["devices"]["requests"]:
            request["exactly"]["count"] = value

    s = _replaced(Kind.CLAIMS, change)
    view = build_view(s)
    assert view.ledger().total == len(view.devices)
    said = answer(view, *_pending_pod(s), "en")
    assert said["found"] and isinstance(said["fits"], bool)


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_a_pool_generation_or_count_of_the_wrong_type(value: Any) -> None:
    def change(slice_: dict[str, Any]) -> None:
        slice_["spec"]["pool"]["generation"] = value
        slice_["spec"]["pool"]["resourceSliceCount"] = value

    s = _replaced(Kind.SLICES, change)
    view = build_view(s)
    rows = device_rows(view)
    # a pool whose resourceSliceCount is not a number is not complete: nothing is free in it
    # (the held devices stay held; the others are the incomplete pool's)
    totals = summary(view, rows)
    assert totals.free == 0 and totals.incomplete_pool == len(rows) - totals.in_use > 0
    said = answer(view, *_pending_pod(s), "ko")
    assert said["fits"] is False and {b["code"] for b in said["blockers"]} & {
        "incomplete-pool",
        "held",
        "count",
        "selector",
    }
