"""Where the allocator of 1.36 (v1.36.5) and of 1.37 (v1.37.2) decide differently, gsb-tui
decides as each: every case is judged by both releases' oracles (upstream's own allocator built
from each release's modules) and by gsb_tui/dra/alloc with that release's features; the verdict,
the nodes and the allocator's error text must be the oracle's, and the two releases must differ
on the case (so each case shows a version difference, not just agreement).

The objects are the practice cluster's shapes (tests/unit/test_alloc_oracle.py), one node, with
the one field each difference turns on.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from gsb_tui.cluster.releases import RELEASES
from tests.alloc_oracle import for_release, judge_all, run_oracle
from tests.unit.test_alloc_oracle import (
    DRIVER,
    NS,
    allocated,
    claim,
    device_class,
    node,
    pod,
    resource_slice,
)

NODE = "node-a"


def _snap(
    slices: list[dict[str, Any]], claims: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {
        "slices": slices,
        "classes": [device_class()],
        "claims": claims,
        "nodes": [node(NODE)],
        "pods": [pod("p", "wanted")],
        **extra,
    }


def _request(obj: dict[str, Any]) -> dict[str, Any]:
    exactly: dict[str, Any] = obj["spec"]["devices"]["requests"][0]["exactly"]
    return exactly


def _counter_slice(units: str) -> dict[str, Any]:
    """node-a's pool's counter set (a slice of its own, as the API wants it)."""
    obj = resource_slice(NODE, devices=0)
    obj["metadata"]["name"] = "counters-slice"
    obj["spec"].pop("devices")
    obj["spec"]["pool"]["resourceSliceCount"] = 2
    obj["spec"]["sharedCounters"] = [{"name": "gpu-set", "counters": {"units": {"value": units}}}]
    return obj


def _consumes(device: dict[str, Any], **extra: Any) -> None:
    device["consumesCounters"] = [
        {"counterSet": "gpu-set", "counters": {"units": {"value": "1"}}, **extra}
    ]


def _shared_slice(capacity: dict[str, Any]) -> dict[str, Any]:
    """node-a's pool with one device shared by many claims (allowMultipleAllocations)."""
    obj = resource_slice(NODE, devices=1)
    device = obj["spec"]["devices"][0]
    device["allowMultipleAllocations"] = True
    device["capacity"] = capacity
    return obj


def _share(holder: str, consumed: dict[str, str] | None) -> dict[str, Any]:
    """A claim already holding a share of node-a's gpu-0."""
    obj = allocated(claim(holder, 1), NODE, ["gpu-0"], pod=f"{holder}-pod")
    result = obj["status"]["allocation"]["devices"]["results"][0]
    result["shareID"] = f"5a6e{len(holder):04d}-0000-4000-8000-000000000001"
    if consumed is not None:
        result["consumedCapacity"] = consumed
    return obj


def all_with_a_used_up_share() -> dict[str, Any]:
    """An All request: 1.36 leaves out a shared device whose capacity is used up (and fits
    with the others), 1.37 keeps it in the list (and fails)."""
    plain = resource_slice(NODE, devices=2)
    plain["spec"]["pool"]["resourceSliceCount"] = 2
    shared = _shared_slice({"links": {"value": "2"}})
    shared["metadata"]["name"] = "shared-slice"
    shared["spec"]["pool"]["resourceSliceCount"] = 2
    shared["spec"]["devices"][0]["name"] = "gpu-9"
    held = _share("holder", {"links": "2"})
    held["status"]["allocation"]["devices"]["results"][0]["device"] = "gpu-9"
    wanted = claim("wanted", 1)
    _request(wanted).update(allocationMode="All")
    _request(wanted).pop("count")
    return _snap([plain, shared], [wanted, held])


def distinct_within_one_request() -> dict[str, Any]:
    """distinctAttribute over three devices of one request: 1.36 compares each device with the
    request's last one only (0, 1, 0 passes), 1.37 with all of them."""
    obj = resource_slice(NODE, devices=3)
    for device, numa in zip(obj["spec"]["devices"], (0, 1, 0), strict=True):
        device["attributes"]["numa"] = {"int": numa}
    wanted = claim("wanted", 3)
    wanted["spec"]["devices"]["constraints"] = [{"distinctAttribute": f"{DRIVER}/numa"}]
    return _snap([obj], [wanted])


def share_without_capacity_and_counters() -> dict[str, Any]:
    """A shared device whose existing share consumed no capacity: 1.36 charges its counters
    again (none left: refused), 1.37 counts the device in use and does not."""
    held = _share("holder", None)
    shared = _shared_slice({})
    shared["spec"]["pool"]["resourceSliceCount"] = 2
    _consumes(shared["spec"]["devices"][0])
    return _snap([shared, _counter_slice("1")], [claim("wanted", 1), held])


def fractional_range() -> dict[str, Any]:
    """A range of 0.5 steps: 1.36 rounds a request of 1.2 up to 2 (after making integers of
    it), and so does 1.37 by default; with DRAFractionalCapacityRange on (beta, but off on a
    1.37 binary) to 1.5, which still fits beside a share of 2.5."""
    policy = {"default": "1", "validRange": {"min": "500m", "step": "500m"}}
    held = _share("holder", {"mem": "2500m"})
    wanted = claim("wanted", 1)
    _request(wanted)["capacity"] = {"requests": {"mem": "1200m"}}
    return _snap([_shared_slice({"mem": {"value": "4", "requestPolicy": policy}})], [wanted, held])


def compatibility_groups() -> dict[str, Any]:
    """A device naming compatibility groups: 1.37 with DRADeviceCompatibilityGroups off ignores
    its slice (the pool is then incomplete), 1.36 does not know the field."""
    obj = resource_slice(NODE, devices=2)
    obj["spec"]["pool"]["resourceSliceCount"] = 2
    for device in obj["spec"]["devices"]:
        _consumes(device, compatibilityGroups=["full"])
    return _snap([obj, _counter_slice("2")], [claim("wanted", 1)])


def derived_attributes() -> dict[str, Any]:
    """A request with derivedAttributes: refused by 1.37's allocator (the feature is alpha and
    off), a field 1.36 does not know."""
    wanted = claim("wanted", 1)
    _request(wanted)["derivedAttributes"] = [
        {"name": "group", "expression": "device.attributes['" + DRIVER + "'].index / 2"}
    ]
    return _snap([resource_slice(NODE, devices=2)], [wanted])


def runtime_error_words() -> dict[str, Any]:
    """A selector failing at run time: 1.37 names the device and hints at optional chaining."""
    wanted = claim("wanted", 1)
    _request(wanted)["selectors"] = [
        {"cel": {"expression": f"device.attributes['{DRIVER}'].missing == 1"}}
    ]
    return _snap([resource_slice(NODE, devices=1)], [wanted])


def claim_limit_words() -> dict[str, Any]:
    """Two requests of 20: over the claim limit of 32, said per request from v1.36.5 (both
    releases; the words are checked against each)."""
    wanted = claim("wanted", 20)
    second = copy.deepcopy(wanted["spec"]["devices"]["requests"][0])
    second["name"] = "more"
    wanted["spec"]["devices"]["requests"].append(second)
    return _snap([resource_slice(NODE, devices=2)], [wanted])


CASES: dict[str, tuple[Callable[[], dict[str, Any]], bool]] = {
    # name: (snapshot, whether the releases' verdicts or words must differ)
    "all-with-a-used-up-share": (all_with_a_used_up_share, True),
    "distinct-within-one-request": (distinct_within_one_request, True),
    "share-without-capacity-and-counters": (share_without_capacity_and_counters, True),
    "fractional-range": (fractional_range, False),  # the gate's case: below
    "compatibility-groups": (compatibility_groups, True),
    "derived-attributes": (derived_attributes, True),
    "runtime-error-words": (runtime_error_words, True),
    "claim-limit-words": (claim_limit_words, False),
}


def _answers(make: Callable[[], dict[str, Any]], release: str) -> tuple[Any, Any]:
    snap = for_release(make(), release)
    want = run_oracle(snap, release=release)["pods"][f"{NS}/p"]
    _inputs, judged = judge_all(snap, release)
    return want, judged[f"{NS}/p"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_release_is_decided_as_its_own_allocator_decides(case: str) -> None:
    make, differs = CASES[case]
    seen = {}
    for release in RELEASES:
        want, got = _answers(make, release)
        assert (got.fits, sorted(got.nodes)) == (want["fits"], want["nodes"]), (release, got)
        assert (got.error or None) == want["error"], release
        seen[release] = (want["fits"], want["error"])
    if differs:
        assert len(set(seen.values())) == len(seen), seen


def test_slices_stored_with_compatibility_groups_make_the_answer_not_decided() -> None:
    """The API server keeps compatibilityGroups only with DRADeviceCompatibilityGroups on; then
    the scheduler runs the allocator variant not mirrored here: "not decided", never a guess."""
    from gsb_tui.dra.alloc.features import features_for
    from gsb_tui.dra.alloc.from_view import stored_gates
    from gsb_tui.dra.alloc.pools import read_slice
    from gsb_tui.dra.alloc.scheduler import judge_pod, prepare

    snap = compatibility_groups()
    read = [read_slice(s, {}) for s in snap["slices"]]
    assert stored_gates(features_for("v1.36.5"), read).compatibility_groups is False
    features = stored_gates(features_for("v1.37.2"), read)
    assert features.compatibility_groups is True
    inputs = prepare(
        snap["slices"], snap["classes"], snap["claims"], snap["nodes"], features=features
    )
    judged = judge_pod(snap["pods"][0], inputs)
    assert judged.fits is None
    verdict = judged.per_node[NODE]
    assert verdict.stage == "undecided" and "DRADeviceCompatibilityGroups" in verdict.detail
    # without groups the same cluster is decided as before
    plain = _snap([resource_slice(NODE, devices=2)], [claim("wanted", 1)])
    inputs = prepare(
        plain["slices"], plain["classes"], plain["claims"], plain["nodes"], features=features
    )
    assert judge_pod(plain["pods"][0], inputs).fits is True


def test_claims_stored_with_derived_attributes_make_the_answer_not_decided() -> None:
    """derivedAttributes survive admission only with DRADerivedAttributes on: the scheduler
    then computes them in the allocator not mirrored here (with it off, 1.37's incubating
    allocator refuses the request, as the oracle says above)."""
    from gsb_tui.dra.alloc.features import features_for
    from gsb_tui.dra.alloc.from_view import stored_gates
    from gsb_tui.dra.alloc.scheduler import judge_pod, prepare

    snap = derived_attributes()
    plain = runtime_error_words()
    assert stored_gates(features_for("v1.37.2"), [], plain["claims"]).derived_attributes is False
    assert stored_gates(features_for("v1.36.5"), [], snap["claims"]).derived_attributes is False
    features = stored_gates(features_for("v1.37.2"), [], snap["claims"])
    assert features.derived_attributes is True
    inputs = prepare(
        snap["slices"], snap["classes"], snap["claims"], snap["nodes"], features=features
    )
    judged = judge_pod(snap["pods"][0], inputs)
    assert judged.fits is None
    assert "DRADerivedAttributes" in judged.per_node[NODE].detail


def test_a_fractional_range_in_milli_units_with_the_gate_on() -> None:
    """1.37 with DRAFractionalCapacityRange on: the oracle and the mirror round in milli units
    (the share fits), where the same release with the gate off refuses it."""
    from dataclasses import replace

    from gsb_tui.dra.alloc.features import features_for

    snap = for_release(fractional_range(), "1.37")
    on = replace(features_for("v1.37.2"), fractional_capacity_range=True)
    gated = {**snap, "features": {"FractionalCapacityRange": True}}
    want = run_oracle(gated, release="1.37")["pods"][f"{NS}/p"]
    _inputs, judged = judge_all(snap, "1.37", on)
    got = judged[f"{NS}/p"]
    assert (got.fits, sorted(got.nodes), got.error or None) == (
        want["fits"],
        want["nodes"],
        want["error"],
    )
    off = run_oracle(snap, release="1.37")["pods"][f"{NS}/p"]
    assert want["fits"] is True and off["fits"] is False
