"""The profile recordings (tests/fixtures/profiles/*.jsonl, `gsb-tui cluster record-profile`):
what dra/availability.py derives from what the real scheduler and controllers did.

Every device, pool, claim and pod is found in the recording (the slices, the claims' states and
results), never named here; the marks are the ones the scenario code in
gsb_tui/cluster/profile_scenarios.py says it performs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gsb_tui.cli import demo_names, demo_recording, main
from gsb_tui.cluster import profile_scenarios, profiles
from gsb_tui.dra.model import Claim, Device, DeviceId, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import compact, marks, snapshot_at
from gsb_tui.snapshot import Kind
from tests.recorded import PROFILE_RECORDINGS, profile_recording, profile_snap, profile_view

FEATURE_PROFILES = [name for name in profiles.PROFILES if name != "lab"]
RECORDINGS = [*FEATURE_PROFILES, "binding-fail"]
# Recordings of a whole cluster rather than one feature (tests/unit/test_operator_recording.py).
CLUSTER_RECORDINGS = ["operator"]
MAX_BYTES = 400_000


# ---- finding things in a recorded view -----------------------------------------------------


def allocated(view: DraView) -> list[Claim]:
    return [c for c in view.claims.values() if c.allocated]


def unallocated(view: DraView) -> list[Claim]:
    return [c for c in view.claims.values() if not c.allocated]


def one(items: list[Claim]) -> Claim:
    assert len(items) == 1, [c.name for c in items]
    return items[0]


def device_of(view: DraView, claim: Claim) -> Device:
    (found,) = claim.devices
    device = view.device(found)
    assert device is not None, found
    return device


def pod_using(view: DraView, claim: Claim) -> Pod:
    (pod,) = view.pods_of_claim(claim)
    return pod


def counter_sets(device: Device) -> set[str]:
    return {use.counter_set for use in device.consumes}


def siblings(view: DraView, device: Device) -> list[Device]:
    """Other devices of the pool drawing on the same counter sets."""
    return [
        d
        for d in view.devices
        if d.id != device.id
        and d.id[:2] == device.id[:2]
        and counter_sets(d) & counter_sets(device)
    ]


# ---- every recording -----------------------------------------------------------------------


@pytest.mark.parametrize("name", RECORDINGS)
def test_each_recording_is_small_and_replays_the_scenario_marks(name: str) -> None:
    path = profile_recording(name)
    assert path.is_file(), f"record it: gsb-tui cluster record-profile {name} {path}"
    assert path.stat().st_size < MAX_BYTES
    profile = name.removesuffix("-fail")
    start = profile_snap(name, "start")
    published = profile_scenarios.Published(
        tuple(start.items(Kind.SLICES)), tuple(start.items(Kind.CLASSES))
    )
    recipe = profile_scenarios.RECIPES[profile]
    steps = (
        profile_scenarios.binding(published, fail=True)
        if name == "binding-fail"
        else recipe.scenario(published)
    )
    assert marks(path) == [s.mark for s in steps] + ["cleanup"]
    view = profile_view(name, "cleanup")
    assert not view.claims and not view.pods  # the scenario cleaned up after itself


def test_the_profile_recordings_ship_in_the_wheel_and_replay_by_name() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert shipped["tests/fixtures/profiles"] == "gsb_tui/data/profiles"
    assert demo_names()[0] == "lab"
    assert set(RECORDINGS + CLUSTER_RECORDINGS) <= set(demo_names())
    for name in RECORDINGS + CLUSTER_RECORDINGS:
        assert demo_recording(name).resolve() == profile_recording(name).resolve()
    assert demo_recording().name == "lab.jsonl"
    found = {p.stem for p in PROFILE_RECORDINGS.glob("*.jsonl")}
    assert found == set(RECORDINGS + CLUSTER_RECORDINGS)


def test_demo_says_what_it_takes_when_the_name_is_neither(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["--demo", "no-such-profile", "--lang", "en"]) == 1
    said = capsys.readouterr().err
    assert "'no-such-profile' is neither a recording file nor a demo name" in said
    assert all(name in said for name in RECORDINGS)
    missing = tmp_path / "gone.jsonl"
    assert main(["--demo", str(missing), "--lang", "en"]) == 1
    assert f"no recording at {missing}" in capsys.readouterr().err


# ---- partitions ----------------------------------------------------------------------------


def test_partitions_a_held_full_gpu_blocks_its_partitions_by_counters() -> None:
    view = profile_view("partitions", "full-held")
    full = device_of(view, one(allocated(view)))
    assert full.consumes and full.attribute("full") is True
    parts = siblings(view, full)
    assert parts and all(p.attribute("partition") is not None for p in parts)
    for part in parts:
        found = view.availability[part.id]
        assert found.state == "blocked"
        assert found.blocked_by == (full.id,)
        assert view.why_not(part.id) == "counters"
    others = [d for d in view.devices if d.consumes and d not in parts and d != full]
    assert others and {view.state(d.id) for d in others} == {"free"}


def test_partitions_the_pending_partition_claim_is_kept_out_by_counters() -> None:
    view = profile_view("partitions", "partition-pending")
    full = device_of(view, one(allocated(view)))
    pending = one(unallocated(view))
    (request,) = pending.requests
    parts = siblings(view, full)
    for part in parts:
        assert view.state(part.id) == "blocked"
        assert view.availability[part.id].blocked_by == (full.id,)
        assert view.why_not(part.id, request) == "counters"
    groups = view.blocker_groups([p.id for p in parts], view.blockers(request))
    assert [(g.reason, g.cause) for g in groups] == [("counters", (full.name,))]
    said = view.scheduler_said(pod_using(view, pending))
    assert said is not None and said.reason in ("FailedScheduling", "PodScheduled=False")


def test_partitions_deleting_the_full_gpu_lets_a_partition_in() -> None:
    before = profile_view("partitions", "partition-pending")
    full = device_of(before, one(allocated(before)))
    view = profile_view("partitions", "partition-allocated")
    claim = one(allocated(view))
    assert claim.key == one(unallocated(before)).key  # the claim that waited
    part = device_of(view, claim)
    assert part in siblings(view, full)
    assert view.state(full.id) == "blocked"
    assert view.availability[full.id].blocked_by == (part.id,)
    assert pod_using(view, claim).phase == "Running"


# ---- shared (consumable capacity) ----------------------------------------------------------


def test_shared_claims_share_a_device_until_it_is_full() -> None:
    view = profile_view("shared", "one-share")
    device = device_of(view, one(allocated(view)))
    assert device.multiple
    found = view.availability[device.id]
    assert found.state == "shared" and len(found.shares) == 1

    view = profile_view("shared", "full")
    holders = allocated(view)
    assert len(holders) == 2 and {device_of(view, c).id for c in holders} == {device.id}
    found = view.availability[device.id]
    assert found.state == "full"
    assert len({s.share_id for s in found.shares}) == 2
    assert all(s.consumed.get("memory") for s in found.shares)
    assert found.capacity_left["memory"] == 0  # two halves of the published memory


def test_shared_a_third_claim_waits_for_capacity() -> None:
    view = profile_view("shared", "share-pending")
    device = device_of(view, allocated(view)[0])
    pending = one(unallocated(view))
    (request,) = pending.requests
    assert request.capacity.get("memory")
    assert view.state(device.id) == "full"
    assert view.why_not(device.id, request) == "capacity"
    assert pod_using(view, pending).phase == "Pending"


# ---- taints --------------------------------------------------------------------------------


def test_taints_blocking_taints_make_devices_tainted_and_none_does_not() -> None:
    view = profile_view("taints", "start")
    tainted = [d for d in view.devices if d.taints]
    assert tainted
    for device in tainted:
        blocks = any(t["effect"] in ("NoSchedule", "NoExecute") for t in device.raw["taints"])
        assert view.state(device.id) == ("tainted" if blocks else "free"), device.id
    assert {view.state(d.id) for d in view.devices if not d.taints} == {"free"}


def test_taints_an_untolerated_claim_waits_and_a_tolerating_one_gets_the_device() -> None:
    view = profile_view("taints", "untolerated-pending")
    pending = one(unallocated(view))
    (request,) = pending.requests
    assert not request.tolerations
    refused = {d for d, reason in view.blockers(request).items() if reason == "tainted"}
    assert refused and refused == {d.id for d in view.devices if view.state(d.id) == "tainted"}

    view = profile_view("taints", "tolerated-allocated")
    holder = one(allocated(view))
    device = device_of(view, holder)
    (request,) = holder.requests
    assert request.tolerations
    assert all(any(tol.tolerates(t) for tol in request.tolerations) for t in device.taints)
    assert view.state(device.id) in ("allocated", "reserved")
    assert pod_using(view, holder).phase == "Running"
    assert one(unallocated(view)).key == pending.key  # still waiting


def test_taints_the_allocation_result_carries_the_tolerations() -> None:
    view = profile_view("taints", "tolerated-allocated")
    holder = one(allocated(view))
    (request,) = holder.requests
    (result,) = holder.results
    assert result.tolerations == request.tolerations


def test_taints_a_noexecute_rule_evicts_the_tolerating_pod() -> None:
    before = profile_view("taints", "tolerated-allocated")
    holder = one(allocated(before))
    device = device_of(before, holder)
    evicted = pod_using(before, holder)
    view = profile_view("taints", "evicted")
    assert evicted.key not in view.pods
    reasons = {e.reason for e in view.events_for("Pod", evicted.namespace, evicted.name)}
    assert "DeviceTaintManagerEviction" in reasons
    rules = profile_snap("taints", "evicted").items(Kind("devicetaintrules"))
    (rule,) = rules
    selector = rule["spec"]["deviceSelector"]
    assert (selector["pool"], selector["device"]) == (device.id.pool, device.id.device)
    assert rule["spec"]["taint"]["effect"] == "NoExecute"
    conditions = {c["type"]: c["status"] for c in rule["status"]["conditions"]}
    assert conditions["EvictionInProgress"] == "True"


# ---- binding conditions --------------------------------------------------------------------


def test_binding_the_device_is_binding_until_the_driver_says_ready() -> None:
    view = profile_view("binding", "binding-waiting")
    claim = one(allocated(view))
    device = device_of(view, claim)
    found = view.availability[device.id]
    assert found.state == "binding"
    assert found.binding_pending == device.binding_conditions and device.binding_conditions
    assert not pod_using(view, claim).node  # reserved, not bound

    view = profile_view("binding", "bound")
    found = view.availability[device.id]
    assert found.state != "binding" and not found.binding_pending
    assert found.state in ("allocated", "reserved")
    assert pod_using(view, one(allocated(view))).phase == "Running"


def test_binding_fail_the_failure_condition_makes_the_scheduler_give_it_back() -> None:
    view = profile_view("binding-fail", "binding-failed")
    claim = one(allocated(view))
    device = device_of(view, claim)
    found = view.availability[device.id]
    assert found.state == "binding-failed"
    assert found.binding_failed and set(found.binding_failed) <= set(
        device.binding_failure_conditions
    )
    view = profile_view("binding-fail", "given-back")
    pod = view.pods[claim.key]
    messages = [e.message for e in view.pod_events(pod, "FailedScheduling")]
    assert any("binding failed" in m and claim.name in m for m in messages)
    assert not pod.node


# ---- extended resources --------------------------------------------------------------------


def test_extended_the_scheduler_makes_a_claim_for_the_pods_limits() -> None:
    view = profile_view("extended", "extended-running")
    (cls,) = [c for c in view.classes.values() if c.extended_resource_name]
    (pod,) = view.pods.values()
    (container,) = pod.raw["spec"]["containers"]
    assert cls.extended_resource_name in container["resources"]["limits"]
    claim = view.claims[(pod.namespace, pod.extended_claim)]
    assert claim.extended and claim.owner_pod == pod.name
    assert [r.device_class for r in claim.requests] == [cls.name]
    assert view.state(device_of(view, claim).id) in ("allocated", "reserved")
    assert pod.phase == "Running"
    assert not profile_view("extended", "start").claims


# ---- network-attached devices --------------------------------------------------------------


def test_network_a_claim_from_an_all_nodes_pool_is_not_tied_to_a_node() -> None:
    view = profile_view("network", "fabric-allocated")
    claim = one(allocated(view))
    device = device_of(view, claim)
    (home,) = [s for s in view.slices if device in s.devices]
    assert home.where == "all-nodes" and not home.node
    assert view.state(device.id) == "shared" and device.multiple
    assert not claim.allocated_node


def test_network_a_port_chosen_per_device_ties_its_claim_to_the_ports_node() -> None:
    before = {c.key for c in allocated(profile_view("network", "fabric-allocated"))}
    view = profile_view("network", "port-allocated")
    (claim,) = [c for c in allocated(view) if c.key not in before]
    device = device_of(view, claim)
    (home,) = [s for s in view.slices if device in s.devices]
    assert home.where == "per-device"
    assert device.raw.get("nodeName") and claim.allocated_node == device.raw["nodeName"]
    assert view.state(device.id) in ("allocated", "reserved")


def test_device_ids_come_from_the_recording() -> None:
    """The tests above find devices through claims and slices; the ids are what was published."""
    for name in RECORDINGS:
        view = profile_view(name, "start")
        published = {
            DeviceId(s["spec"]["driver"], s["spec"]["pool"]["name"], d["name"])
            for s in profile_snap(name, "start").items(Kind.SLICES)
            for d in s["spec"].get("devices") or []
        }
        assert {d.id for d in view.devices} == published


def test_workloads_a_podgroup_holds_its_claim_for_its_pods() -> None:
    """Recorded on 1.37.2 (DRAWorkloadResourceClaims): the claim is reserved for the PodGroup,
    not for either pod; gsb-tui names the group as the consumer, lists the group's pods as
    the device's pods and warns of nothing (no leak, no ghost consumer)."""
    from gsb_tui.dra.device_rows import device_rows
    from gsb_tui.dra.warnings import find_warnings

    view = profile_view("workloads", "group-running")
    assert view.snapshot.server_version.startswith("v1.37.")
    claim = one(allocated(view))
    (consumer,) = claim.reserved_for
    assert consumer.pod_group and consumer.resource == "podgroups"
    members = sorted(p.name for p in view.pods.values() if p.pod_group == consumer.name)
    assert len(members) >= 2
    assert [p.name for p in view.pods_of_claim(claim)] == members
    assert view.state(claim.devices[0]) == "reserved"
    (row,) = [r for r in device_rows(view, find_warnings(view), None) if r.claims]
    assert row.groups == (f"{claim.namespace}/{consumer.name}",)
    assert row.pods == tuple(f"{claim.namespace}/{m}" for m in members)
    assert not find_warnings(view)


def test_workloads_the_claim_stays_with_the_group_when_its_pods_go() -> None:
    """The pods deleted: the claim is still reserved for the group (no leak: it has a
    consumer); the group deleted: the controller gives the devices back."""
    from gsb_tui.dra.device_rows import device_rows
    from gsb_tui.dra.warnings import find_warnings

    view = profile_view("workloads", "pods-gone")
    claim = one(allocated(view))
    assert claim.reserved_for and claim.reserved_for[0].pod_group
    assert not view.pods and view.pods_of_claim(claim) == ()
    (row,) = [r for r in device_rows(view, find_warnings(view), None) if r.claims]
    assert row.pods == () and row.groups
    assert not find_warnings(view)
    after = profile_view("workloads", "group-gone")
    assert not allocated(after)
    assert all(after.state(d.id) == "free" for d in after.devices)


# ---- compaction (record-profile operator keeps each object's last update between marks) ----


def _contents(snap: object) -> dict[str, list[str]]:
    return {str(k): sorted(map(repr, snap.items(k))) for k in Kind}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["shared", "taints"])
def test_compaction_keeps_every_marks_snapshot_and_drops_status_steps(
    name: str, tmp_path: Path
) -> None:
    """A recorded pod passes through several status updates between two marks; compaction
    keeps the last, so each mark (and the end) shows the very same objects."""
    source = profile_recording(name)
    copy = tmp_path / source.name
    copy.write_bytes(source.read_bytes())
    labels = marks(copy)
    before = {m: _contents(snapshot_at(copy, m)) for m in labels}
    end = _contents(snapshot_at(copy))
    lines, kept = compact(copy)
    assert kept < lines  # the recording had updates to drop
    assert marks(copy) == labels
    assert {m: _contents(snapshot_at(copy, m)) for m in labels} == before
    assert _contents(snapshot_at(copy)) == end
    assert compact(copy) == (kept, kept)  # already compact


def test_every_recording_fits_the_repository(tmp_path: Path) -> None:
    """Tracked files stay under 2 MiB: the operator's recording is compacted to do so."""
    for path in PROFILE_RECORDINGS.glob("*.jsonl"):
        assert path.stat().st_size < 2 * 1024 * 1024, path.name
    copy = tmp_path / "operator.jsonl"
    copy.write_bytes(profile_recording("operator").read_bytes())
    lines, kept = compact(copy)
    assert kept == lines  # as record-profile wrote it: nothing left to drop
