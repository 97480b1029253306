"""The node half of DRA, as dra/ decides it: device health from the pods' allocatedResourcesStatus
(dra/health.py), what holds a placed pod (dra/node_side.py: the kubelet's
FailedPrepareDynamicResources, an image it cannot pull, containers being created) and a pool
whose driver went away from its node.

Objects: RECORDED on a real node (tests/fixtures/realnode/lab.jsonl) and on kwok (the lab,
tests/fixtures/lab.jsonl, where no kubelet field is ever written); the states the real-node
recording cannot show are DERIVED from it in tests/unit/node_half_objects.py (`not_registered`,
`creating`, `unmatched`, `driver_gone`). Expected values are read off the recorded objects.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from gsb_tui.dra.builder import ViewBuilder, build_view
from gsb_tui.dra.device_rows import device_rows, summary
from gsb_tui.dra.health import RANK, compute_health, match_device, results_for
from gsb_tui.dra.model import DeviceId, Pod, parse_pod
from gsb_tui.dra.node_side import kubelet_blocker, vanished_pools
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import marks
from gsb_tui.snapshot import Kind, KindState, Snapshot
from tests.recorded import view as lab_view
from tests.unit import node_half_objects as objects

NS = objects.NAMESPACE
LAB_MARKS = ("step-3", "step-6", "step-7", "step-8", "mistake-1", "mistake-2")
REAL_MARKS = tuple(marks(objects.REALNODE))


def _pod(view: DraView, name: str) -> Pod:
    return view.pods[(NS, name)]


def _device(snapshot: Snapshot, pod_name: str, entry: str = "gpu") -> DeviceId:
    claim = objects.claim_of(snapshot, pod_name, entry)
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    return DeviceId(result["driver"], result["pool"], result["device"])


# ---- parsing --------------------------------------------------------------------------------


def test_the_kubelet_fields_are_parsed_as_recorded() -> None:
    snapshot = objects.unhealthy()
    said = _pod(build_view(snapshot), "dra-1").resource_health
    assert [(h.container, h.entry, h.request) for h in said] == [("ctr", "gpu", "")]
    assert [(h.resource_id, h.health, h.message) for h in said] == [
        (r["resourceID"], r["health"], r.get("message", ""))
        for r in objects.reported(snapshot, "dra-1")
    ]
    assert said[0].health == "Unhealthy" and said[0].message  # the practice driver's words
    assert said[0].resource_id.startswith(f"{objects.CDI_KIND}=")  # its first CDI device ID
    for reason in ("ErrImagePull", "ImagePullBackOff"):
        pulled = objects.image_pull(reason)
        raw = objects.waiting(pulled, objects.NO_IMAGE_POD)
        waits = _pod(build_view(pulled), objects.NO_IMAGE_POD).waiting
        assert [(w.container, w.reason, w.message, w.init) for w in waits] == [
            ("ctr", reason, raw["message"], False)
        ]


@pytest.mark.parametrize("mark", LAB_MARKS)
def test_kwok_pods_carry_no_kubelet_fields(mark: str) -> None:
    """The lab recorded on kwok: no health, no waiting container, no blocker, no health on any
    device row, no pool gone."""
    view = lab_view(mark)
    assert all(not p.resource_health and not p.waiting for p in view.pods.values())
    assert not view.health.devices and not view.health.unmatched
    assert all(kubelet_blocker(view, p) is None for p in view.pods.values())
    rows = device_rows(view)
    assert {(r.health, r.health_message, r.health_said_by) for r in rows} == {(None, None, None)}
    assert (summary(view, rows).unhealthy, summary(view, rows).health_unknown) == (0, 0)
    assert vanished_pools(view) == ()


def test_odd_kubelet_fields_are_read_as_absent_or_unknown() -> None:
    raw = copy.deepcopy(objects.pod(objects.unhealthy(), "dra-1"))
    (status,) = raw["status"]["containerStatuses"]
    resources = status["allocatedResourcesStatus"][0]["resources"]
    message = resources[0].get("message", "")
    resources[0]["health"] = "PermanentlyBroken"  # a value this release does not know
    resources += [{"resourceID": 7, "health": "Healthy"}, "x", {"health": "Healthy"}]
    status["allocatedResourcesStatus"] += [
        {"name": "example.com/foo", "resources": [{"resourceID": "a", "health": "Healthy"}]},
        {"name": "claim:gpu/other", "resources": "nope"},
        None,
    ]
    status["state"] = {"waiting": {"reason": 3, "message": ["x"]}}
    pod = parse_pod(raw)
    assert [(h.resource_id, h.health, h.message) for h in pod.resource_health] == [
        (resources[0]["resourceID"], "Unknown", message)
    ]
    assert [(w.reason, w.message) for w in pod.waiting] == [("", "")]


# ---- resourceID → device ----------------------------------------------------------------------


@pytest.mark.parametrize("mark", REAL_MARKS)
def test_every_recorded_resource_id_names_its_claims_device(mark: str) -> None:
    """On the real node every report is matched, to the device its CDI ID ends with."""
    view = build_view(objects.recorded(mark))
    assert view.health.unmatched == ()
    for key, reports in view.health.by_pod.items():
        for report in reports:
            assert report.claim is not None and report.device is not None, (key, report)
            assert report.device in view.claims[report.claim].devices
            assert report.resource_id.endswith(f"-{report.device.device}")


def test_a_resource_id_is_matched_to_its_device_by_each_rule() -> None:
    snapshot = objects.recorded("step-7")
    claim = build_view(snapshot).claims[
        (NS, objects.claim_of(snapshot, "dra-2x", "gpus")["metadata"]["name"])
    ]
    first, second = claim.devices  # the recorded claim of two devices
    results = claim.results
    assert match_device(str(second), results) == second  # <driver>/<pool>/<device>
    assert match_device(f"{objects.CDI_KIND}={claim.uid}-{first.device}", results) == first
    assert match_device(f"{objects.CDI_KIND}={second.device}", results) == second  # the name
    assert match_device(f"{objects.CDI_KIND}={claim.uid}-gpu-99", results) is None  # neither
    assert match_device(f"{first.driver}/{first.pool}/{first.device}x", results) is None
    # exactly one device in the (request's) results: that one, whatever the ID says
    one = results[:1]
    assert match_device("vendor.example/thing=whatever", one) == first


def test_the_longest_device_name_wins_a_cdi_id() -> None:
    """gpu-1 and gpu-11 (recorded results renamed): "…-gpu-11" ends with "-gpu-11" only, and a
    device named "1" loses to gpu-11 for "…-gpu-11"."""
    snapshot = objects.recorded("step-7")
    first, second = (
        build_view(snapshot)
        .claims[(NS, objects.claim_of(snapshot, "dra-2x", "gpus")["metadata"]["name"])]
        .results
    )
    renamed = [
        replace(first, id=first.id._replace(device="gpu-1")),
        replace(second, id=second.id._replace(device="gpu-11")),
        replace(second, id=second.id._replace(device="1")),
    ]
    assert match_device(f"{objects.CDI_KIND}=uid-gpu-11", renamed).device == "gpu-11"  # type: ignore[union-attr]
    assert match_device(f"{objects.CDI_KIND}=uid-gpu-1", renamed).device == "gpu-1"  # type: ignore[union-attr]


def test_a_status_naming_a_request_matches_only_that_requests_results() -> None:
    snapshot = objects.recorded("step-7")
    claim = build_view(snapshot).claims[
        (NS, objects.claim_of(snapshot, "dra-2x", "gpus")["metadata"]["name"])
    ]
    a, b = claim.results
    split = replace(claim, results=(replace(a, request="gpus/big"), replace(b, request="other")))
    assert [r.id for r in results_for(split, "gpus")] == [a.id]  # a firstAvailable result
    assert results_for(split, "") == split.results
    assert match_device("anything", results_for(split, "other")) == b.id  # one left: that one


# ---- health per device ------------------------------------------------------------------------


def _worst_by_hand(view: DraView) -> dict[DeviceId, str]:
    """Each device's worst health over the running pods' raw statuses, worked out apart."""
    worst: dict[DeviceId, str] = {}
    for pod in view.pods.values():
        if pod.phase in ("Succeeded", "Failed"):
            continue
        for status in pod.raw["status"].get("containerStatuses") or ():
            for entry in status.get("allocatedResourcesStatus") or ():
                name = entry["name"].removeprefix("claim:")
                (claim,) = [
                    c for e in pod.claims if e.name == name for c in view.claims_of_entry(pod, e)
                ]
                for resource in entry["resources"]:
                    (device,) = [
                        d for d in claim.devices if resource["resourceID"].endswith(f"-{d.device}")
                    ]
                    health = resource.get("health", "Unknown")
                    if RANK[health] >= RANK[worst.get(device, "Healthy")]:
                        worst[device] = health
    return worst


@pytest.mark.parametrize("mark", ["health-unhealthy", "health-healthy", "prepare-failed"])
def test_each_device_gets_the_worst_health_its_pods_report(mark: str) -> None:
    view = build_view(objects.recorded(mark))
    assert {d: h.health for d, h in view.health.devices.items()} == _worst_by_hand(view)
    for found in view.health.devices.values():  # worst first, and the worst is who said it
        assert [RANK[r.health] for r in found.reports] == sorted(
            (RANK[r.health] for r in found.reports), reverse=True
        )
        assert (found.pod, found.container) == (found.reports[0].pod, found.reports[0].container)


def test_the_unhealthy_device_says_the_drivers_message_and_who_reported_it() -> None:
    snapshot = objects.unhealthy()
    view = build_view(snapshot)
    device = _device(snapshot, "dra-1")
    found = view.health.devices[device]
    (raw,) = objects.reported(snapshot, "dra-1")
    assert (found.health, found.message) == ("Unhealthy", raw["message"])
    assert found.said_by == f"{NS}/dra-1/ctr"
    assert view.health.counts() == (1, 0)
    back = build_view(objects.recorded("health-healthy"))  # the driver said Healthy again
    assert back.health.devices[device].health == "Healthy" and back.health.counts() == (0, 0)


def test_one_pod_unhealthy_among_healthy_ones_makes_the_device_unhealthy() -> None:
    """share-a and share-b (recorded, one device) with share-b's report turned Unhealthy."""
    view = build_view(objects.recorded("health-healthy"))
    pods = [
        replace(
            p,
            resource_health=tuple(
                replace(h, health="Unhealthy", message="bad") for h in p.resource_health
            ),
        )
        if p.name == "share-b"
        else p
        for p in view.pods.values()
    ]
    found = compute_health(pods, lambda pod, entry: _claim(view, pod, entry))
    device = view.health.by_pod[(NS, "share-b")][0].device
    assert device is not None
    shared = found.devices[device]
    assert (shared.health, shared.message, shared.pod) == ("Unhealthy", "bad", (NS, "share-b"))
    assert [(r.pod[1], r.health) for r in shared.reports] == [
        ("share-b", "Unhealthy"),
        ("share-a", "Healthy"),
    ]


def _claim(view: DraView, pod: Pod, entry: str) -> Any:
    found = [c for e in pod.claims if e.name == entry for c in view.claims_of_entry(pod, e)]
    return found[0] if found else None


def test_a_finished_pods_last_report_does_not_count() -> None:
    view = build_view(objects.unhealthy())
    done = [replace(p, phase="Succeeded") if p.name == "dra-1" else p for p in view.pods.values()]
    found = compute_health(done, lambda pod, entry: _claim(view, pod, entry))
    assert _device(objects.unhealthy(), "dra-1") not in found.devices
    assert found.counts() == (0, 0)


def test_a_report_naming_no_device_is_kept_with_its_claim() -> None:
    view = build_view(objects.unmatched())
    (report,) = view.health.unmatched
    (claim,) = view.claims_of_pod(_pod(view, "dra-2x"))
    assert report.claim == claim.key and report.device is None
    assert report.health == "Unhealthy" and report.pod == (NS, "dra-2x")
    assert view.health.unmatched_of(claim.key) == view.health.of_claim(claim.key) == (report,)
    assert not any(d in view.health.devices for d in claim.devices)  # never guessed


def test_the_health_is_kept_while_pods_and_claims_are_the_same() -> None:
    builder = ViewBuilder()
    first = builder.build(objects.unhealthy())
    assert builder.build(first.snapshot).health is first.health


def test_device_rows_carry_the_health_and_the_summary_counts_it() -> None:
    snapshot = objects.unhealthy()
    view = build_view(snapshot)
    rows = {r.id: r for r in device_rows(view)}
    bad = rows[_device(snapshot, "dra-1")]
    (raw,) = objects.reported(snapshot, "dra-1")
    assert (bad.health, bad.health_message, bad.health_said_by) == (
        "Unhealthy",
        raw["message"],
        f"{NS}/dra-1/ctr",
    )
    fine = rows[_device(snapshot, "dra-7")]
    assert (fine.health, fine.health_message) == ("Healthy", None)
    held = {d for c in view.claims.values() for d in c.devices}
    assert all(r.health is None for d, r in rows.items() if d not in held)  # nobody reported
    # no-claim-ref's device: the claim is allocated, no container lists it (lab mistake 1)
    assert rows[_device(snapshot, "no-claim-ref")].health is None
    totals = summary(view, list(rows.values()))
    assert (totals.unhealthy, totals.health_unknown) == (1, 0)


# ---- after scheduling -------------------------------------------------------------------------


@pytest.mark.parametrize("mark", REAL_MARKS)
def test_a_blocker_is_said_exactly_for_the_placed_pods_not_running(mark: str) -> None:
    view = build_view(objects.recorded(mark))
    blocked = {p.name for p in view.pods.values() if kubelet_blocker(view, p) is not None}
    placed = {p.name for p in view.pods.values() if p.phase == "Pending" and p.node}
    assert blocked == placed


def test_a_prepare_failure_is_the_blocker_in_the_kubelets_words() -> None:
    snapshot = objects.prepare_failed()
    view = build_view(snapshot)
    found = kubelet_blocker(view, _pod(view, objects.ORPHAN_POD))
    (event,) = objects.events_of(snapshot, objects.ORPHAN_POD, "FailedPrepareDynamicResources")
    assert found is not None and found.code == "prepare-failed"
    assert (found.reason, found.message, found.count) == (
        event["reason"],
        event["message"],
        event["count"],
    )
    assert (found.node, found.source) == (objects.node_of(snapshot, objects.ORPHAN_POD), "kubelet")
    assert found.last_seen == event["lastTimestamp"]
    problem = "not-registered" if "is not registered" in event["message"] else "unreachable"
    assert found.plugin_down == (problem, objects.DRIVER)


def test_a_plugin_that_unregistered_is_said_by_name() -> None:
    view = build_view(objects.not_registered())
    found = kubelet_blocker(view, _pod(view, objects.ORPHAN_POD))
    assert found is not None and found.message == objects.NOT_REGISTERED
    assert found.count == objects.PREPARE_COUNT
    assert found.plugin_down == ("not-registered", objects.DRIVER)


def test_containers_being_created_with_nothing_said_yet() -> None:
    view = build_view(objects.creating())
    found = kubelet_blocker(view, _pod(view, objects.ORPHAN_POD))
    assert found is not None
    assert (found.code, found.reason, found.container) == ("creating", "ContainerCreating", "ctr")
    assert found.plugin_down == ("", "")


@pytest.mark.parametrize("reason", ["ErrImagePull", "ImagePullBackOff"])
def test_an_image_the_node_cannot_pull(reason: str) -> None:
    snapshot = objects.image_pull(reason)
    view = build_view(snapshot)
    found = kubelet_blocker(view, _pod(view, objects.NO_IMAGE_POD))
    raw = objects.waiting(snapshot, objects.NO_IMAGE_POD)
    assert found is not None and found.code == "image-pull"
    assert (found.reason, found.message, found.container) == (reason, raw["message"], "ctr")
    assert kubelet_blocker(view, _pod(view, "dra-1")) is None  # Running


def _with_pod(snapshot: Snapshot, obj: dict[str, Any]) -> Snapshot:
    objs = {k: dict(v) for k, v in snapshot.objects.items()}
    objs[Kind.PODS][(NS, obj["metadata"]["name"])] = obj
    return Snapshot(objects=objs, states=snapshot.states)


def test_the_containers_state_now_comes_before_an_older_prepare_event() -> None:
    """Prepared at last, then the image fails: the kubelet's event stays, the state is now."""
    failed = objects.prepare_failed()
    pod = copy.deepcopy(objects.pod(failed, objects.ORPHAN_POD))
    waits = objects.waiting(objects.image_pull(), objects.NO_IMAGE_POD)
    pod["status"]["containerStatuses"][0]["state"] = {"waiting": waits}
    view = build_view(_with_pod(failed, pod))
    found = kubelet_blocker(view, _pod(view, objects.ORPHAN_POD))
    assert found is not None and (found.code, found.reason) == ("image-pull", "ErrImagePull")


def test_no_blocker_for_a_deleting_pod_nor_from_an_earlier_pods_event() -> None:
    failed = objects.prepare_failed()
    pod = copy.deepcopy(objects.pod(failed, objects.ORPHAN_POD))
    pod["metadata"]["deletionTimestamp"] = "2026-12-02T06:59:00Z"
    view = build_view(_with_pod(failed, pod))
    assert kubelet_blocker(view, _pod(view, objects.ORPHAN_POD)) is None
    # the event names another uid: an earlier pod of the name, so only ContainerCreating now
    pod = copy.deepcopy(objects.pod(failed, objects.ORPHAN_POD))
    pod["metadata"]["uid"] = "another-uid"
    view = build_view(_with_pod(failed, pod))
    found = kubelet_blocker(view, _pod(view, objects.ORPHAN_POD))
    assert found is not None and found.code == "creating"


# ---- a driver gone from its node --------------------------------------------------------------


def test_a_pool_no_slice_publishes_while_claims_hold_its_devices() -> None:
    snapshot = objects.driver_gone()
    view = build_view(snapshot)
    (pool,) = vanished_pools(view)
    node = objects.node_of(snapshot, "dra-1")
    assert (pool.driver, pool.pool, pool.node) == (objects.DRIVER, node, node)
    allocated = {c.key: c for c in view.claims.values() if c.devices}
    assert set(pool.claims) == set(allocated)
    assert sorted(pool.devices) == sorted(d for c in allocated.values() for d in c.devices)


@pytest.mark.parametrize("mark", REAL_MARKS)
def test_no_pool_is_gone_while_the_driver_publishes(mark: str) -> None:
    assert vanished_pools(build_view(objects.recorded(mark))) == ()


def test_a_vanished_pool_is_judged_only_while_the_slices_are_listed() -> None:
    gone = objects.driver_gone()
    states = dict(gone.states)
    states[Kind.SLICES] = KindState("reconnecting", "connection refused", 2)
    assert vanished_pools(build_view(Snapshot(objects=gone.objects, states=states))) == ()
