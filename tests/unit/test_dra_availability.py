"""dra/availability.py: blocked by counters, tainted, full shared capacity, binding conditions.

The objects are the recorded lab's (tests/fixtures/lab.jsonl) with the DRA 1.36 fields added
the way the API server serves them (field names from k8s.io/api v0.36 resource/v1); the
scheduler's own behaviour on such objects is proven in tests/e2e/test_profiles.py.
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction
from typing import Any

import pytest

from gsb_tui.dra.availability import format_quantity, quantity, share_for
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.model import DeviceId, parse_requests
from gsb_tui.dra.model.features import DeviceTaint, RequestPolicy, Toleration
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot, obj_key
from tests.recorded import snap

GI = 2**30


def _with(base: Snapshot, **kinds: list[Obj]) -> Snapshot:
    objects = dict(base.objects)
    for name, objs in kinds.items():
        kind = Kind[name]
        merged: dict[ObjKey, Obj] = dict(objects.get(kind, {}))
        merged.update({obj_key(o): o for o in objs})
        objects[kind] = merged
    return Snapshot(objects=objects, states=base.states, revision=base.revision + 1)


def _slice(base: Snapshot) -> dict[str, Any]:
    (raw,) = base.items(Kind.SLICES)
    return copy.deepcopy(dict(raw))


def _held(base: Snapshot) -> tuple[dict[str, Any], str]:
    """A recorded allocated claim and the device it holds."""
    claim = next(c for c in base.items(Kind.CLAIMS) if c.get("status", {}).get("allocation"))
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    return copy.deepcopy(dict(claim)), str(result["device"])


def _partitioned(base: Snapshot, held: str) -> tuple[Snapshot, list[str]]:
    """The pool's devices consume one counter set: the held one all of it, two others half."""
    device_slice = _slice(base)
    devices = device_slice["spec"]["devices"]
    others = [d["name"] for d in devices if d["name"] != held][:2]
    for device in devices:
        if device["name"] == held:
            amount = "80Gi"
        elif device["name"] in others:
            amount = "40Gi"
        else:
            continue
        device["consumesCounters"] = [
            {"counterSet": "gpu-counters", "counters": {"memory": {"value": amount}}}
        ]
    spec = device_slice["spec"]
    # Two slices now: the pool says so, or the scheduler treats it as incomplete.
    spec["pool"] = {**spec["pool"], "resourceSliceCount": 2}
    counters = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": device_slice["metadata"]["name"] + "-counters"},
        "spec": {
            "driver": spec["driver"],
            "pool": spec["pool"],
            "nodeName": spec["nodeName"],
            "sharedCounters": [{"name": "gpu-counters", "counters": {"memory": {"value": "80Gi"}}}],
        },
    }
    return _with(base, SLICES=[device_slice, counters]), others


def test_a_held_full_device_blocks_the_partitions_that_share_its_counters() -> None:
    base = snap("step-3")
    _, held = _held(base)
    partitioned, partitions = _partitioned(base, held)
    v = build_view(partitioned)
    driver = v.lab_driver()
    pool = next(d.id.pool for d in v.devices if d.name == held)
    for name in partitions:
        found = v.availability[DeviceId(driver, pool, name)]
        assert found.state == "blocked"
        assert [d.device for d in found.blocked_by] == [held]
        assert found.short_counters == ("gpu-counters/memory",)
        assert v.why_not(found.device) == "counters"
    (ledger,) = v.counters.values()
    assert ledger.left("memory") == 0 and [d.device for d in ledger.users] == [held]
    # What can be allocated is not what is published: the blocked partitions are not free.
    count = v.ledger()
    assert count.free == count.total - len(count.allocated) - len(partitions)
    assert {d.device for d in count.unavailable} == set(partitions)


def test_freeing_the_full_device_frees_its_partitions() -> None:
    base = snap("step-3")
    claim, held = _held(base)
    partitioned, partitions = _partitioned(base, held)
    without = dict(partitioned.objects)
    without[Kind.CLAIMS] = {
        k: c for k, c in partitioned.objects[Kind.CLAIMS].items() if k != obj_key(claim)
    }
    v = build_view(Snapshot(objects=without, states=partitioned.states))
    states = {d.name: v.state(d.id) for d in v.devices if d.name in (*partitions, held)}
    assert states == dict.fromkeys((*partitions, held), "free")
    assert v.ledger().free == v.ledger().total


def _tainted(base: Snapshot, effect: str) -> tuple[DraView, DeviceId]:
    device_slice = _slice(base)
    held = {d for c in base.items(Kind.CLAIMS) for d in _results(c)}
    device = next(d for d in device_slice["spec"]["devices"] if d["name"] not in held)
    device["taints"] = [
        {"key": "example.com/broken", "value": "xid-79", "effect": effect, "timeAdded": "x"}
    ]
    v = build_view(_with(base, SLICES=[device_slice]))
    return v, next(d.id for d in v.devices if d.name == device["name"])


def _results(claim: Obj) -> list[str]:
    allocation = (claim.get("status") or {}).get("allocation") or {}
    return [r["device"] for r in allocation.get("devices", {}).get("results", [])]


@pytest.mark.parametrize("effect", ["NoSchedule", "NoExecute"])
def test_an_untolerated_taint_is_never_free(effect: str) -> None:
    v, device = _tainted(snap("step-3"), effect)
    assert v.state(device) == "tainted"
    assert v.why_not(device) == "tainted"
    assert device not in v.allocatable() and device in v.ledger().unavailable
    (request,) = parse_requests(
        {
            "devices": {
                "requests": [
                    {
                        "name": "gpu",
                        "exactly": {
                            "deviceClassName": v.lab_driver(),
                            "tolerations": [{"key": "example.com/broken", "operator": "Exists"}],
                        },
                    }
                ]
            }
        }
    )
    assert v.why_not(device, request) is None  # a request that tolerates it may have it
    assert device in v.allocatable(request)


def test_a_taint_with_effect_none_only_informs() -> None:
    v, device = _tainted(snap("step-3"), "None")
    assert v.state(device) == "free" and v.why_not(device) is None
    assert [str(t) for t in v.availability[device].taints] == ["example.com/broken=xid-79:None"]


def _shared(base: Snapshot, consumed: list[str]) -> tuple[DraView, DeviceId]:
    """One device allowing multiple allocations, held in shares by copies of a claim."""
    device_slice = _slice(base)
    claim, held = _held(base)
    device = next(d for d in device_slice["spec"]["devices"] if d["name"] == held)
    device["allowMultipleAllocations"] = True
    device["capacity"]["memory"]["requestPolicy"] = {
        "default": "10Gi",
        "validRange": {"min": "1Gi", "step": "1Gi"},
    }
    claims = []
    for i, amount in enumerate(consumed):
        share = copy.deepcopy(claim)
        if i:  # the first share is the recorded claim itself
            share["metadata"]["name"] = f"share-{i}"
            share["metadata"]["uid"] = f"uid-{i}"
        (result,) = share["status"]["allocation"]["devices"]["results"]
        result["shareID"] = f"{i:08d}-0000-0000-0000-000000000000"
        result["consumedCapacity"] = {"memory": amount}
        claims.append(share)
    v = build_view(_with(base, SLICES=[device_slice], CLAIMS=claims))
    return v, next(d.id for d in v.devices if d.name == held)


def test_shares_of_a_device_and_what_is_left() -> None:
    v, device = _shared(snap("step-3"), ["40Gi", "20Gi"])
    found = v.availability[device]
    assert found.state == "shared"
    assert sorted(s.consumed["memory"] for s in found.shares) == ["20Gi", "40Gi"]
    total = quantity(v.device(device).capacity["memory"]) or Fraction(0)
    used = sum((quantity(s.consumed.get("memory", "0")) or 0) for s in found.shares)
    assert found.capacity_left["memory"] == total - used
    (request,) = parse_requests(
        {
            "devices": {
                "requests": [
                    {
                        "name": "gpu",
                        "exactly": {
                            "deviceClassName": v.lab_driver(),
                            "capacity": {"requests": {"memory": format_quantity(total - used)}},
                        },
                    }
                ]
            }
        }
    )
    assert v.why_not(device, request) is None  # exactly what is left fits
    bigger = dataclasses.replace(request, capacity={"memory": format_quantity(total - used + GI)})
    assert v.why_not(device, bigger) == "capacity"


def test_a_device_whose_capacity_is_used_up_is_full() -> None:
    v, device = _shared(snap("step-3"), ["40Gi", "40Gi"])
    found = v.availability[device]
    assert found.state == "full" and found.capacity_left["memory"] <= 0
    assert v.why_not(device) == "capacity"  # even the policy's default share does not fit


def _binding(base: Snapshot, condition_status: str | None, failed: bool = False) -> DraView:
    claim, held = _held(base)
    (result,) = claim["status"]["allocation"]["devices"]["results"]
    result["bindingConditions"] = ["example.com/ready"]
    result["bindingFailureConditions"] = ["example.com/failed"]
    if condition_status is not None:
        conditions = [{"type": "example.com/ready", "status": condition_status}]
        if failed:
            conditions.append({"type": "example.com/failed", "status": "True"})
        claim["status"]["devices"] = [
            {
                "driver": result["driver"],
                "pool": result["pool"],
                "device": result["device"],
                "conditions": conditions,
            }
        ]
    device_slice = _slice(base)
    for device in device_slice["spec"]["devices"]:
        if device["name"] == held:
            device["bindingConditions"] = ["example.com/ready"]
            device["bindingFailureConditions"] = ["example.com/failed"]
            device["bindsToNode"] = True
    return build_view(_with(base, SLICES=[device_slice], CLAIMS=[claim]))


def test_binding_conditions_pending_met_and_failed() -> None:
    base = snap("step-3")
    _, held = _held(base)

    def state(v: DraView) -> str:
        return v.state(next(d.id for d in v.devices if d.name == held))

    waiting = _binding(base, None)
    assert state(waiting) == "binding"
    (found,) = [a for a in waiting.availability.values() if a.binding_pending]
    assert found.binding_pending == ("example.com/ready",)
    assert state(_binding(base, "True")) != "binding"
    assert state(_binding(base, "False", failed=True)) == "binding-failed"


def test_tolerations_match_as_core_tolerations_do() -> None:
    taint = DeviceTaint("example.com/broken", "xid-79", "NoSchedule")
    assert Toleration("example.com/broken", "Equal", "xid-79", "").tolerates(taint)
    assert not Toleration("example.com/broken", "Equal", "other", "").tolerates(taint)
    assert Toleration("example.com/broken", "Exists", "", "NoSchedule").tolerates(taint)
    assert not Toleration("example.com/broken", "Exists", "", "NoExecute").tolerates(taint)
    assert Toleration("", "Exists", "", "").tolerates(taint)
    assert not Toleration("", "Equal", "", "").tolerates(taint)


@pytest.mark.parametrize(
    ("policy", "asked", "taken"),
    [
        (RequestPolicy(default="10Gi", valid_min="1Gi", valid_step="1Gi"), "", 10 * GI),
        (RequestPolicy(default="10Gi", valid_min="1Gi", valid_step="1Gi"), "1536Mi", 2 * GI),
        (RequestPolicy(valid_min="4Gi"), "1Gi", 4 * GI),
        (RequestPolicy(valid_min="1Gi", valid_max="8Gi"), "9Gi", None),
        (RequestPolicy(valid_values=("10Gi", "20Gi", "40Gi")), "11Gi", 20 * GI),
        (RequestPolicy(valid_values=("10Gi", "20Gi")), "41Gi", None),
        (None, "3Gi", 3 * GI),
    ],
)
def test_what_a_share_takes_under_its_policy(
    policy: RequestPolicy | None, asked: str, taken: int | None
) -> None:
    assert share_for(policy, asked) == (None if taken is None else Fraction(taken))


def test_quantities_read_and_print_exactly() -> None:
    assert quantity("80Gi") == 80 * GI and quantity("1500m") == Fraction(3, 2)
    assert quantity("not a quantity") is None
    assert format_quantity(Fraction(40 * GI)) == "40Gi" and format_quantity(Fraction(3)) == "3"


def test_a_device_taint_rule_taints_the_devices_it_selects() -> None:
    """A DeviceTaintRule (v1beta2) taints devices from outside their slice: they are not free,
    and an eviction in progress is read from the rule's status."""
    base = snap("step-3")
    held = {d for c in base.items(Kind.CLAIMS) for d in _results(c)}
    v0 = build_view(base)
    target = next(d.id for d in v0.devices if d.name not in held)
    rule = {
        "apiVersion": "resource.k8s.io/v1beta2",
        "kind": "DeviceTaintRule",
        "metadata": {"name": "broken-one"},
        "spec": {
            "deviceSelector": {
                "driver": target.driver,
                "pool": target.pool,
                "device": target.device,
            },
            "taint": {"key": "example.com/broken", "value": "xid-79", "effect": "NoExecute"},
        },
        "status": {"conditions": [{"type": "EvictionInProgress", "status": "True"}]},
    }
    v = build_view(_with(base, TAINT_RULES=[rule]))
    (found,) = v.taint_rules
    assert found.eviction_in_progress and found.selects(target)
    assert v.state(target) == "tainted" and v.why_not(target) == "tainted"
    assert [str(t) for t in v.availability[target].taints] == [
        "example.com/broken=xid-79:NoExecute"
    ]
    others = [d.id for d in v.devices if d.id != target and d.name not in held]
    assert all(v.state(d) == "free" for d in others)
    assert v.ledger().free == v0.ledger().free - 1


def _request(driver: str, **exactly: Any) -> Any:
    (request,) = parse_requests(
        {
            "devices": {
                "requests": [{"name": "gpu", "exactly": {"deviceClassName": driver, **exactly}}]
            }
        }
    )
    return request


def test_capacity_asked_of_a_device_that_is_not_shared_must_fit_it() -> None:
    """The scheduler checks capacity requests on every device (tests/e2e/test_capacity_oracle)."""
    v = build_view(snap("step-0"))  # the lab's shape: no 1.36 feature on any device
    device = v.devices[0]
    memory = quantity(device.capacity["memory"]) or Fraction(0)
    fits = _request(v.lab_driver(), capacity={"requests": {"memory": format_quantity(memory)}})
    more = dataclasses.replace(fits, capacity={"memory": format_quantity(memory + GI)})
    other = dataclasses.replace(fits, capacity={"links": "1"})
    assert v.why_not(device.id, fits) is None
    assert v.why_not(device.id, more) == v.why_not(device.id, other) == "capacity"
    assert set(v.blockers(more).values()) == {"capacity"} and not v.allocatable(more)


def test_a_capacity_without_a_default_is_taken_whole_when_not_asked() -> None:
    whole = Fraction(80 * GI)
    assert share_for(None, "", whole) == share_for(RequestPolicy(), "", whole) == whole
    assert share_for(None, "3Gi", whole) == 3 * GI  # asked: what is asked
    assert share_for(RequestPolicy(default="10Gi"), "", whole) == 10 * GI


def test_admin_access_gets_a_held_device_unless_its_counters_are_used() -> None:
    base = snap("step-3")
    _, held = _held(base)
    plain = build_view(base)
    device = next(d.id for d in plain.devices if d.name == held)
    admin = _request(plain.lab_driver(), adminAccess=True)
    assert plain.why_not(device) == "held" and plain.why_not(device, admin) is None
    partitioned, _ = _partitioned(base, held)
    v = build_view(partitioned)
    found = v.availability[device]
    assert found.state != "blocked" and found.short_counters == ()
    assert found.again_short == ("gpu-counters/memory",)
    assert v.why_not(device, admin) == "counters"  # its own use left no counters for it
