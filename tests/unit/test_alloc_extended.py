"""Extended resources backed by DRA, judged with the claim the scheduler would make, on the
recorded `extended` profile (a DeviceClass with extendedResourceName, a pod running on one
device through the claim the scheduler made for it)."""

from __future__ import annotations

import copy
from typing import Any

from gsb_tui.dra.alloc.extended import class_for, pod_extended
from gsb_tui.dra.alloc.from_view import inputs_of
from gsb_tui.dra.alloc.scheduler import judge_pod
from gsb_tui.dra.builder import build_view
from gsb_tui.snapshot import Kind, Snapshot, obj_key
from gsb_tui.why_cli import answer
from tests.recorded import profile_snap

BASE = profile_snap("extended", "extended-running")


def _running() -> dict[str, Any]:
    (pod,) = [p for p in BASE.items(Kind.PODS) if (p.get("spec") or {}).get("nodeName")]
    return copy.deepcopy(dict(pod))


def _with(*objs: dict[str, Any], nodes: list[dict[str, Any]] | None = None) -> Snapshot:
    objects = {k: dict(v) for k, v in BASE.objects.items()}
    for obj in objs:
        objects[Kind.PODS][obj_key(obj)] = obj
    if nodes is not None:
        objects[Kind.NODES] = {obj_key(n): n for n in nodes}
    return Snapshot(objects=objects, states=BASE.states)


def _pending(name: str) -> dict[str, Any]:
    pod = _running()
    pod["spec"].pop("nodeName")
    pod["metadata"] = {**pod["metadata"], "name": name, "uid": f"uid-{name}"}
    pod["status"] = {"phase": "Pending"}
    return pod


def test_a_pending_pod_gets_the_claim_the_scheduler_would_make() -> None:
    running = _running()
    (resource,) = running["spec"]["containers"][0]["resources"]["requests"]
    view = build_view(_with(_pending("more")))
    classes = {c.name: c.raw for c in view.classes.values()}
    assert class_for(resource, classes)  # the recorded class maps the recorded resource
    said = answer(view, running["metadata"]["namespace"], "more", "en")
    assert said["fits"] is True
    (row,) = said["allocation"]
    # the name the scheduler gave the recorded pod's request (extendedResourceClaimStatus)
    (mapping,) = running["status"]["extendedResourceClaimStatus"]["requestMappings"]
    assert row["request"] == mapping["requestName"]
    held = {
        r["device"]
        for c in BASE.items(Kind.CLAIMS)
        for r in ((c.get("status") or {}).get("allocation") or {})
        .get("devices", {})
        .get("results", [])
    }
    assert row["device"] not in held


def test_a_node_offering_the_resource_itself_needs_no_claim() -> None:
    pending = _pending("plugin")
    (resource,) = pending["spec"]["containers"][0]["resources"]["requests"]
    nodes = [copy.deepcopy(dict(n)) for n in BASE.items(Kind.NODES)]
    for node in nodes:
        node.setdefault("status", {}).setdefault("allocatable", {})[resource] = "4"
    on_dra = judge_pod(pending, inputs_of(build_view(_with(pending))))
    assert [len(r) for v in on_dra.per_node.values() for r in v.results] == [1]
    view = build_view(_with(pending, nodes=nodes))
    judged = judge_pod(pending, inputs_of(view))
    assert judged.fits is True
    assert all(v.results == () for v in judged.per_node.values())  # a device plugin's, not DRA


def test_init_containers_reuse_what_long_lived_ones_ask() -> None:
    pending = _pending("init")
    (resource,) = pending["spec"]["containers"][0]["resources"]["requests"]
    init = copy.deepcopy(pending["spec"]["containers"][0])
    init["name"] = "setup"
    init["resources"] = {"requests": {resource: "1"}, "limits": {resource: "1"}}
    pending["spec"]["initContainers"] = [init]
    view = build_view(_with(pending))
    classes = {c.name: c.raw for c in view.classes.values()}
    assert pod_extended(pending, classes) == {resource: 1}
    said = answer(view, pending["metadata"]["namespace"], "init", "en")
    # the init container's need is met by the long-lived container's request (index 1)
    assert [r["request"] for r in said["allocation"]] == ["container-1-request-0"]


def test_a_claim_from_an_earlier_attempt_is_refused_as_the_scheduler_does() -> None:
    running = _running()
    pending = _pending("again")
    claim_name = running["status"]["extendedResourceClaimStatus"]["resourceClaimName"]
    claim = copy.deepcopy(
        dict(next(c for c in BASE.items(Kind.CLAIMS) if c["metadata"]["name"] == claim_name))
    )
    claim["metadata"]["name"] = "again-extended-resources-x"
    for ref in claim["metadata"]["ownerReferences"]:
        ref["uid"], ref["name"] = pending["metadata"]["uid"], "again"
    claim.pop("status", None)
    snap = _with(pending)
    snap.objects[Kind.CLAIMS][obj_key(claim)] = claim  # type: ignore[index]
    judged = judge_pod(pending, inputs_of(build_view(snap)))
    assert judged.fits is False and judged.pod_code == "extended-claim"
    said = answer(build_view(snap), pending["metadata"]["namespace"], "again", "ko")
    assert [b["code"] for b in said["blockers"]] == ["extended-claim"] and said["blockers"][0][
        "text"
    ]


def test_a_pod_whose_resource_has_no_free_device_is_told_who_holds_them() -> None:
    pending = _pending("wait")
    held = {
        (r["pool"], r["device"])
        for c in BASE.items(Kind.CLAIMS)
        for r in ((c.get("status") or {}).get("allocation") or {})
        .get("devices", {})
        .get("results", [])
    }
    snap = _with(pending)
    for key, s in list(snap.objects[Kind.SLICES].items()):  # only the held devices stay
        s = copy.deepcopy(dict(s))
        pool = s["spec"]["pool"]["name"]
        s["spec"]["devices"] = [d for d in s["spec"]["devices"] if (pool, d["name"]) in held]
        snap.objects[Kind.SLICES][key] = s  # type: ignore[index]
    said = answer(build_view(snap), pending["metadata"]["namespace"], "wait", "en")
    assert said["fits"] is False
    (blocker,) = said["blockers"]
    assert blocker["code"] == "held" and blocker["request"] == "container-0-request-0"
    assert {tuple(d.split("/")[1:]) for d in blocker["devices"]} == held
