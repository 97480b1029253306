"""DraView over the recorded lab: joins between pods, claims, devices, events and slices."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

import pytest

from gsb_tui.dra.builder import ViewBuilder, build_view
from gsb_tui.dra.model import DeviceId, parse_pod
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot, obj_key
from tests.recorded import snap, view

STEPS = [f"step-{i}" for i in range(9)]
NS = "dra-lab"


def with_objects(base: Snapshot, kind: Kind, objs: dict[ObjKey, Obj]) -> Snapshot:
    objects = dict(base.objects)
    objects[kind] = objs
    return Snapshot(objects=objects, states=base.states, revision=base.revision + 1)


def raw_pod(mark: str, name: str) -> dict[str, Any]:
    raw = snap(mark).get(Kind.PODS, NS, name)
    assert raw is not None, f"{name} not in {mark}"
    return dict(raw)


def generated_claim_name(pod_raw: dict[str, Any]) -> str:
    (status,) = pod_raw["status"]["resourceClaimStatuses"]
    return str(status["resourceClaimName"])


def result_ids(claim_raw: Obj) -> list[DeviceId]:
    return [
        DeviceId(r["driver"], r["pool"], r["device"])
        for r in claim_raw["status"]["allocation"]["devices"]["results"]
    ]


@pytest.mark.parametrize("mark", STEPS)
def test_devices_are_the_recorded_slices_devices(mark: str) -> None:
    v = view(mark)
    raw_slices = snap(mark).items(Kind.SLICES)
    assert len(v.devices) == sum(len(s["spec"]["devices"]) for s in raw_slices)
    assert v.stale_slices == ()  # the recording never has two generations of one pool
    for raw in raw_slices:
        for d in raw["spec"]["devices"]:
            dev_id = DeviceId(raw["spec"]["driver"], raw["spec"]["pool"]["name"], d["name"])
            device = v.device(dev_id)
            assert device is not None and device.raw == d
    keys = [(d.node, d.id.pool, d.slice_name) for d in v.devices]
    assert keys == sorted(keys)


def test_step0_everything_free() -> None:
    v = view("step-0")
    assert v.devices
    assert {o.status for o in v.occupancy.values()} == {"free"}
    assert all(o.holders == () for o in v.occupancy.values())
    assert v.orphan_results == ()


def test_step3_dra1_claim_and_device() -> None:
    v = view("step-3")
    pod_raw = raw_pod("step-3", "dra-1")
    claim_name = generated_claim_name(pod_raw)
    pod = v.pods[(NS, "dra-1")]
    (claim,) = v.claims_of_pod(pod)
    assert claim.name == claim_name
    assert v.pods_of_claim(claim) == (pod,)
    claim_raw = snap("step-3").get(Kind.CLAIMS, NS, claim_name)
    assert claim_raw is not None
    (device_id,) = result_ids(claim_raw)
    occ = v.occupancy[device_id]
    assert occ.status == "reserved"
    assert occ.consumers == (f"{NS}/dra-1",)
    assert occ.claims == (claim,)
    assert occ.holders == (claim,)
    others = [o for k, o in v.occupancy.items() if k != device_id]
    assert all(o.status == "free" for o in others)


def test_claims_of_pod_falls_back_to_owner_and_annotation() -> None:
    # Derived: dra-1 as it looks before the controller records the generated claim name.
    base = snap("step-3")
    pod_raw = copy.deepcopy(raw_pod("step-3", "dra-1"))
    claim_name = generated_claim_name(pod_raw)
    pod_raw["status"]["resourceClaimStatuses"] = []
    pods = dict(base.objects[Kind.PODS])
    pods[obj_key(pod_raw)] = pod_raw
    v = build_view(with_objects(base, Kind.PODS, pods))
    pod = v.pods[(NS, "dra-1")]
    assert pod.claims[0].resolved_claim == ""
    assert [c.name for c in v.claims_of_pod(pod)] == [claim_name]
    # A pod of the same name but another uid does not own that claim.
    other = copy.deepcopy(pod_raw)
    other["metadata"]["uid"] = "another-incarnation"
    pods[obj_key(other)] = other
    v2 = build_view(with_objects(base, Kind.PODS, pods))
    assert v2.claims_of_pod(v2.pods[(NS, "dra-1")]) == ()


def test_step5_pick_seven_gets_index_seven() -> None:
    v = view("step-5")
    claim = v.claims[(NS, "pick-seven")]
    (device_id,) = claim.devices
    device = v.device(device_id)
    assert device is not None and device.attribute("index") == 7
    assert v.occupancy[device_id].consumers == (f"{NS}/dra-7",)
    assert [p.name for p in v.pods_of_claim(claim)] == ["dra-7"]


def test_step6_shared_device() -> None:
    v = view("step-6")
    claim_raw = snap("step-6").get(Kind.CLAIMS, NS, "shared")
    assert claim_raw is not None
    (device_id,) = result_ids(claim_raw)
    occ = v.occupancy[device_id]
    assert occ.status == "shared"
    assert occ.consumers == (f"{NS}/share-a", f"{NS}/share-b")
    assert [c.key for c in occ.holders] == [(NS, "shared")]
    claim = v.claims[(NS, "shared")]
    assert [p.name for p in v.pods_of_claim(claim)] == ["share-a", "share-b"]
    for name in ("share-a", "share-b"):
        assert v.claims_of_pod(v.pods[(NS, name)]) == (claim,)


def test_step7_two_devices_for_dra2x() -> None:
    v = view("step-7")
    (claim,) = v.claims_of_pod(v.pods[(NS, "dra-2x")])
    assert claim.name == generated_claim_name(raw_pod("step-7", "dra-2x"))
    assert len(set(claim.devices)) == 2
    for device_id in claim.devices:
        assert v.occupancy[device_id].consumers == (f"{NS}/dra-2x",)


def test_newer_pool_generation_hides_older_slice() -> None:
    base = snap("step-3")
    raw = copy.deepcopy(dict(base.items(Kind.SLICES)[0]))
    old_name = raw["metadata"]["name"]
    raw["metadata"]["name"] = old_name + "-next"
    raw["spec"]["pool"]["generation"] += 1
    raw["spec"]["devices"] = raw["spec"]["devices"][:-1]  # the new generation drops one device
    slices = dict(base.objects[Kind.SLICES])
    slices[obj_key(raw)] = raw
    v = build_view(with_objects(base, Kind.SLICES, slices))
    assert [s.name for s in v.stale_slices] == [old_name]
    assert raw["metadata"]["name"] in [s.name for s in v.slices]
    assert old_name not in [s.name for s in v.slices]
    assert {d.slice_name for d in v.devices} >= {raw["metadata"]["name"]}
    assert old_name not in {d.slice_name for d in v.devices}
    before = view("step-3")
    assert len(v.devices) == len(before.devices) - 1
    assert v.ledger().total == before.ledger().total - 1


def test_orphan_result_is_kept_aside() -> None:
    base = snap("step-6")
    claim_raw = copy.deepcopy(dict(base.get(Kind.CLAIMS, NS, "shared") or {}))
    result = claim_raw["status"]["allocation"]["devices"]["results"][0]
    result["device"] = "not-published"
    claims = dict(base.objects[Kind.CLAIMS])
    claims[obj_key(claim_raw)] = claim_raw
    v = build_view(with_objects(base, Kind.CLAIMS, claims))
    orphan = DeviceId(result["driver"], result["pool"], "not-published")
    assert [(c.name, d) for c, d in v.orphan_results] == [("shared", orphan)]
    assert orphan not in v.occupancy


def test_events_for_pod_are_its_events_newest_last() -> None:
    v = view("step-8")
    raw_events = snap("step-8").items(Kind.EVENTS)
    about_pods = {
        e["involvedObject"]["name"]
        for e in raw_events
        if e["involvedObject"].get("kind") == "Pod" and e["involvedObject"].get("namespace") == NS
    }
    assert about_pods
    for name in about_pods:
        events = v.events_for("Pod", NS, name)
        expected = {
            e["metadata"]["name"]
            for e in raw_events
            if e["involvedObject"].get("kind") == "Pod" and e["involvedObject"]["name"] == name
        }
        assert {e.name for e in events} == expected
        stamps = [datetime.fromisoformat(e.last_seen) for e in events]
        assert stamps == sorted(stamps)
    assert v.events_for("Pod", NS, "no-such-pod") == ()


def test_dra_big_has_the_schedulers_reason() -> None:
    v = view("step-8")
    pod = v.pods[(NS, "dra-big")]
    raw = raw_pod("step-8", "dra-big")
    assert pod.pending and raw["status"]["phase"] == "Pending"
    reasons = {e.reason for e in v.events_for("Pod", NS, "dra-big")}
    assert "FailedScheduling" in reasons
    assert "cannot allocate all claims" in pod.unschedulable_message


def test_nodes_and_allocatable() -> None:
    v = view("step-2")
    node_names = {n["metadata"]["name"] for n in snap("step-2").items(Kind.NODES)}
    slice_nodes = {s["spec"].get("nodeName") for s in snap("step-2").items(Kind.SLICES)}
    assert set(v.nodes()) == node_names | (slice_nodes - {None, ""})
    for node in node_names:
        raw = snap("step-2").get(Kind.NODES, "", node)
        assert raw is not None
        assert dict(v.node_allocatable(node)) == raw["status"]["allocatable"]
        # DRA devices are not node numbers: no driver name among the allocatable resources.
        drivers = {d.id.driver for d in v.devices}
        assert not any(drv in key for key in v.node_allocatable(node) for drv in drivers)
    assert dict(v.node_allocatable("no-such-node")) == {}


@pytest.mark.parametrize("mark", STEPS)
def test_every_claim_using_pod_resolves(mark: str) -> None:
    v = view(mark)
    for raw in snap(mark).items(Kind.PODS):
        pod = parse_pod(raw)
        names = {e.resolved_claim for e in pod.claims if e.resolved_claim}
        got = {c.name for c in v.claims_of_pod(v.pods[pod.key])}
        assert got == {n for n in names if (pod.namespace, n) in v.claims}
        for claim in v.claims_of_pod(v.pods[pod.key]):
            assert pod.name in [p.name for p in v.pods_of_claim(claim)]


def test_rebuild_reuses_unchanged_objects_and_sees_changed_ones() -> None:
    base, builder = snap("step-6"), ViewBuilder()
    first = builder.build(base)
    changed = copy.deepcopy(raw_pod("step-6", "share-b"))
    changed["status"]["phase"] = "Failed"
    pods = dict(base.objects[Kind.PODS])
    pods[obj_key(changed)] = changed
    second = builder.build(with_objects(base, Kind.PODS, pods))
    assert second.pods[(NS, "share-b")].phase == "Failed"
    assert second.pods[(NS, "share-a")] is first.pods[(NS, "share-a")]
    assert build_view(base).pods[(NS, "share-a")] is not first.pods[(NS, "share-a")]  # afresh
    assert (
        builder.build(base).pods[(NS, "share-b")].phase
        == raw_pod("step-6", "share-b")["status"]["phase"]
    )
