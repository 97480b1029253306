"""Warnings on the recorded lab: the clean steps raise none, the mistakes and derived faults do."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.warnings import DraWarning, find_warnings
from gsb_tui.snapshot import REQUIRED_KINDS, Kind, KindState, Obj, ObjKey, Snapshot, obj_key
from tests.recorded import snap

STEPS = [f"step-{i}" for i in range(9)]
NS = "dra-lab"


def replaced(base: Snapshot, kind: Kind, objs: dict[ObjKey, Obj]) -> Snapshot:
    objects = dict(base.objects)
    objects[kind] = objs
    return Snapshot(objects=objects, states=base.states, revision=base.revision + 1)


def warnings_of(s: Snapshot, code: str) -> list[DraWarning]:
    return [w for w in find_warnings(build_view(s)) if w.code == code]


@pytest.mark.parametrize("mark", STEPS)
def test_clean_lab_steps_raise_nothing(mark: str) -> None:
    s = snap(mark)
    # Every kind was synced when the mark was written, so the absence rules did judge.
    assert all(s.state(k).usable for k in REQUIRED_KINDS)
    assert find_warnings(build_view(s)) == ()


def _mistake_pods(s: Snapshot) -> list[Obj]:
    # Lab mistake 1 read straight off the raw pods: claim entries, yet no container lists any.
    out = []
    for p in s.items(Kind.PODS):
        spec = p.get("spec") or {}
        containers = (spec.get("containers") or []) + (spec.get("initContainers") or [])
        listed = [rc for c in containers for rc in (c.get("resources") or {}).get("claims") or []]
        if spec.get("resourceClaims") and not listed:
            out.append(p)
    return out


def test_mistake1_claim_not_in_container() -> None:
    s = snap("mistake-1")
    mistakes = _mistake_pods(s)
    assert mistakes, "mistake-1 should hold a pod whose container lacks resources.claims"
    found = warnings_of(s, "claim-not-in-container")
    assert {w.subject for w in found} == {
        f"{p['metadata']['namespace']}/{p['metadata']['name']}" for p in mistakes
    }
    for w in found:
        assert "never reaches the container" in w.message


def _pods_without(base: Snapshot, name: str) -> dict[ObjKey, Obj]:
    return {k: v for k, v in base.objects[Kind.PODS].items() if k != (NS, name)}


def test_ghost_consumer_only_when_pods_are_synced() -> None:
    base = snap("step-6")
    gone = replaced(base, Kind.PODS, _pods_without(base, "share-b"))
    ghosts = warnings_of(gone, "ghost-consumer")
    assert [(w.subject, "share-b" in w.message) for w in ghosts] == [(f"{NS}/shared", True)]
    # While pods are still being listed, a missing pod proves nothing.
    states = dict(gone.states)
    states[Kind.PODS] = KindState(phase="connecting")
    listing = Snapshot(objects=gone.objects, states=states)
    assert warnings_of(listing, "ghost-consumer") == []
    # A watch of another namespace cannot judge claims in dra-lab.
    states[Kind.PODS] = KindState(phase="synced", scope="namespace elsewhere")
    assert warnings_of(Snapshot(objects=gone.objects, states=states), "ghost-consumer") == []


def test_ghost_consumer_for_recreated_pod() -> None:
    base = snap("step-5")
    pod = copy.deepcopy(dict(base.objects[Kind.PODS][(NS, "dra-7")]))
    pod["metadata"]["uid"] = "a-new-incarnation"
    pods = dict(base.objects[Kind.PODS])
    pods[obj_key(pod)] = pod
    ghosts = warnings_of(replaced(base, Kind.PODS, pods), "ghost-consumer")
    assert [w.subject for w in ghosts] == [f"{NS}/pick-seven"]


def test_missing_claim_and_template() -> None:
    base = snap("step-7")
    claims = {k: v for k, v in base.objects[Kind.CLAIMS].items() if k != (NS, "shared")}
    missing = warnings_of(replaced(base, Kind.CLAIMS, claims), "missing-claim")
    assert sorted(w.subject for w in missing) == [f"{NS}/share-a", f"{NS}/share-b"]
    templates = {k: v for k, v in base.objects[Kind.TEMPLATES].items() if k != (NS, "two-gpus")}
    no_template = warnings_of(replaced(base, Kind.TEMPLATES, templates), "missing-template")
    assert [w.subject for w in no_template] == [f"{NS}/dra-2x"]
    # Not judged before the kind is synced.
    states = dict(base.states)
    states[Kind.CLAIMS] = KindState(phase="reconnecting")
    half = Snapshot(objects={**base.objects, Kind.CLAIMS: claims}, states=states)
    assert warnings_of(half, "missing-claim") == []


def test_leak_when_allocated_claim_has_no_consumer() -> None:
    base = snap("step-5")
    raw: dict[str, Any] = copy.deepcopy(dict(base.objects[Kind.CLAIMS][(NS, "pick-seven")]))
    raw["status"]["reservedFor"] = []
    claims = dict(base.objects[Kind.CLAIMS])
    claims[obj_key(raw)] = raw
    leaks = warnings_of(replaced(base, Kind.CLAIMS, claims), "leak")
    assert [w.subject for w in leaks] == [f"{NS}/pick-seven"]
    assert "reserved by no one" in leaks[0].message
    # A new object, not an edit: snapshots' objects are never mutated in place.
    deleting = copy.deepcopy(raw)
    deleting["metadata"]["deletionTimestamp"] = "2030-01-01T00:00:00Z"
    claims[obj_key(deleting)] = deleting
    assert warnings_of(replaced(base, Kind.CLAIMS, claims), "leak") == []


def test_stale_slice_and_orphan_result() -> None:
    base = snap("step-5")
    sl = copy.deepcopy(dict(base.items(Kind.SLICES)[0]))
    old_name = sl["metadata"]["name"]
    sl["metadata"]["name"] = old_name + "-next"
    sl["spec"]["pool"]["generation"] += 1
    # pick-seven's device disappears in the new generation.
    claim = base.objects[Kind.CLAIMS][(NS, "pick-seven")]
    held = claim["status"]["allocation"]["devices"]["results"][0]["device"]
    sl["spec"]["devices"] = [d for d in sl["spec"]["devices"] if d["name"] != held]
    slices = dict(base.objects[Kind.SLICES])
    slices[obj_key(sl)] = sl
    s = replaced(base, Kind.SLICES, slices)
    assert [w.subject for w in warnings_of(s, "stale-slice")] == [old_name]
    orphans = warnings_of(s, "orphan-result")
    assert [w.subject for w in orphans] == [f"{NS}/pick-seven"]
    assert held in orphans[0].message
