"""What reaches a repaint (gsb_tui/ui/pacing.py): node heartbeats and retries that say the same
are dropped, every change the screen can show is kept; the panes wait for the first lists only
at scale and only for a while; the collector is held and given back."""

from __future__ import annotations

import gc
from typing import Any

from gsb_tui.kube.store import Change
from gsb_tui.snapshot import REQUIRED_KINDS, Kind, KindState
from gsb_tui.ui.pacing import (
    FIRST_LISTS_HOLD_S,
    HOLD_OBJECTS,
    ChangeFilter,
    FirstLists,
    GcHold,
)


def node(name: str, heartbeat: str = "t0", **changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "uid": f"uid-{name}", "labels": {"type": "kwok"}},
        "status": {
            "allocatable": {"cpu": "4", "memory": "8Gi"},
            "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": heartbeat}],
        },
    }
    for key, value in changes.items():
        section = "metadata" if key in ("labels", "uid") else "status"
        obj[section] = {**obj[section], key: value}
    return obj


def test_a_node_heartbeat_is_dropped_and_what_the_screen_reads_is_kept() -> None:
    f = ChangeFilter()
    assert not f.unseen(Change(Kind.NODES, "SYNCED", items=(node("a"), node("b"))))
    assert f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("a", "t1")))
    assert f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("b", "t2")))
    # allocatable, labels and a new uid are what DraView reads: kept
    assert not f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("a", allocatable={"cpu": "8"})))
    assert f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("a", "t3", allocatable={"cpu": "8"})))
    assert not f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("b", labels={"gpu": "yes"})))
    assert not f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("b", uid="other")))
    # a node the filter has not seen, an added one and a deleted one always go through
    assert not f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("c")))
    assert not f.unseen(Change(Kind.NODES, "ADDED", obj=node("c")))
    assert not f.unseen(Change(Kind.NODES, "DELETED", obj=node("c")))
    assert not f.unseen(Change(Kind.NODES, "MODIFIED", obj=node("c", "t9")))


def test_other_kinds_are_never_dropped() -> None:
    f = ChangeFilter()
    pod = {"metadata": {"name": "p", "namespace": "dra-lab"}}
    for _ in range(2):
        assert not f.unseen(Change(Kind.PODS, "MODIFIED", obj=pod))


def test_a_retry_that_says_the_same_is_dropped_a_new_count_to_show_is_not() -> None:
    f = ChangeFilter()

    def state(phase: Any, attempts: int, message: str = "m") -> Change:
        return Change(Kind.TAINT_RULES, "STATE", state=KindState(phase, message, attempts))

    assert not f.unseen(state("not-served", 1))
    assert f.unseen(state("not-served", 2))  # "not served" again: nothing new to say
    assert f.unseen(state("not-served", 3))
    assert not f.unseen(state("not-served", 4, "another message"))
    assert not f.unseen(state("forbidden", 5))
    assert f.unseen(state("forbidden", 6))
    # "reconnecting n" shows the count, and an error's count ranks the banner: both kept
    assert not f.unseen(state("reconnecting", 7))
    assert not f.unseen(state("reconnecting", 8))
    assert not f.unseen(state("error", 9))
    assert not f.unseen(state("error", 10))


def test_loading_until_every_required_kind_answered_and_the_size() -> None:
    f = ChangeFilter()
    assert f.loading(REQUIRED_KINDS)
    for kind in REQUIRED_KINDS[:-1]:
        f.unseen(Change(kind, "SYNCED", items=({"metadata": {"name": "x"}},)))
        f.unseen(Change(kind, "STATE", state=KindState("synced")))
    assert f.loading(REQUIRED_KINDS)
    f.unseen(Change(REQUIRED_KINDS[-1], "STATE", state=KindState("forbidden", "no")))
    assert not f.loading(REQUIRED_KINDS)  # failed counts as answered
    assert f.size == len(REQUIRED_KINDS) - 1
    f.unseen(Change(Kind.PODS, "ADDED", obj={"metadata": {"name": "y"}}))
    f.unseen(Change(Kind.CLAIMS, "DELETED", obj={"metadata": {"name": "x"}}))
    assert f.size == len(REQUIRED_KINDS) - 1


def test_first_lists_hold_only_at_scale_and_only_for_a_while() -> None:
    small = FirstLists()
    assert small.step(True, 10, 0.0) == "paint"
    assert small.step(False, 10, 0.1) == "in"
    assert small.step(False, 10, 0.2) == "paint"

    large = FirstLists()
    assert large.step(True, 10, 0.0) == "paint"  # the first changes: little to paint
    assert large.step(True, HOLD_OBJECTS, 1.0) == "hold"
    assert large.left(1.0) == FIRST_LISTS_HOLD_S - 1.0
    assert large.step(False, 3 * HOLD_OBJECTS, 2.0) == "in"  # every kind in: paint at once
    assert large.step(True, 3 * HOLD_OBJECTS, 3.0) == "paint"  # never held again

    stuck = FirstLists()
    assert stuck.step(True, HOLD_OBJECTS, 0.0) == "hold"
    assert stuck.step(True, HOLD_OBJECTS, FIRST_LISTS_HOLD_S) == "in"  # a kind never answers


def test_gc_hold_gives_the_collector_back() -> None:
    assert gc.isenabled()
    hold = GcHold()
    try:
        hold.hold()
        assert not gc.isenabled()
        hold.release(freeze=False)
        assert gc.isenabled() and not hold.frozen
        hold.release(freeze=False)  # twice is harmless
        assert gc.isenabled()
    finally:
        gc.enable()
    already_off = GcHold()
    gc.disable()
    try:
        already_off.hold()  # someone else turned it off: not ours to turn on
        already_off.release(freeze=False)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_polled_re_list_that_says_the_same_is_dropped() -> None:
    f = ChangeFilter()
    assert not f.unseen(Change(Kind.NODES, "SYNCED", items=(node("a"), node("b"))))
    # the next poll: heartbeats moved, nothing the screen reads did
    assert f.unseen(Change(Kind.NODES, "SYNCED", items=(node("a", "t1"), node("b", "t1"))))
    assert not f.unseen(Change(Kind.NODES, "SYNCED", items=(node("a"),)))  # b went away
    assert not f.unseen(Change(Kind.NODES, "SYNCED", items=(node("a", labels={"x": "1"}),)))
    assert not f.unseen(Change(Kind.NODES, "SYNCED", items=()))  # none left: said


def test_a_polled_kind_says_so_in_the_header() -> None:
    from gsb_tui.ui.panes.header import phase_text

    assert phase_text(KindState("synced", every=60.0)) == "synced ↻60s"
    assert phase_text(KindState("synced")) == "synced"
