"""Occupancy from recorded claims: who holds each device, who consumes it, and what it shows."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gsb_tui.dra.model import Claim, DeviceId, parse_claim, parse_slice
from gsb_tui.dra.occupancy import PATCH_LIMIT, compute_occupancy, patch_occupancy
from gsb_tui.kube.recording import marks
from gsb_tui.snapshot import Kind
from tests.recorded import RECORDING, snap

ALL_MARKS = marks(RECORDING)  # the steps, the two mistakes and the cleanup


def parsed(mark: str) -> tuple[list[Any], list[Claim]]:
    s = snap(mark)
    devices = [d for raw in s.items(Kind.SLICES) for d in parse_slice(raw).devices]
    return devices, [parse_claim(raw) for raw in s.items(Kind.CLAIMS)]


def holders_from_raw(mark: str) -> dict[DeviceId, set[str]]:
    out: dict[DeviceId, set[str]] = {}
    for raw in snap(mark).items(Kind.CLAIMS):
        alloc = (raw.get("status") or {}).get("allocation") or {}
        for r in (alloc.get("devices") or {}).get("results") or []:
            dev = DeviceId(r["driver"], r["pool"], r["device"])
            out.setdefault(dev, set()).add(raw["metadata"]["name"])
    return out


@pytest.mark.parametrize("mark", ALL_MARKS)
def test_occupancy_follows_recorded_results(mark: str) -> None:
    devices, claims = parsed(mark)
    occ = compute_occupancy(devices, claims)
    assert set(occ) == {d.id for d in devices}
    holders = holders_from_raw(mark)
    for dev_id, o in occ.items():
        assert {c.name for c in o.claims} == holders.get(dev_id, set())
        pods = {
            f"{c.namespace}/{r.name}"
            for c in o.claims
            for r in c.reserved_for
            if r.resource == "pods"
        }
        assert o.consumers == tuple(sorted(pods))
        if not o.claims:
            assert o.status == "free" and o.holders == ()
        elif len(o.claims) > 1 or len(pods) > 1:
            assert o.status == "shared"
        elif pods:
            assert o.status == "reserved" and len(o.consumers) == 1 and len(o.holders) == 1
        else:
            assert o.status == "allocated"


def test_unreserved_claim_shows_allocated() -> None:
    # Derived from step-5: pick-seven after its pod is gone but before deallocation.
    devices, claims = parsed("step-5")
    pick = next(c for c in claims if c.name == "pick-seven")
    raw = copy.deepcopy(dict(pick.raw))
    raw["status"]["reservedFor"] = []
    unreserved = parse_claim(raw)
    occ = compute_occupancy(devices, [c for c in claims if c.name != "pick-seven"] + [unreserved])
    (dev_id,) = pick.devices
    assert occ[dev_id].status == "allocated"
    assert occ[dev_id].consumers == ()
    assert [c.key for c in occ[dev_id].holders] == [(pick.namespace, "pick-seven")]


def test_admin_access_result_is_listed_but_not_allocating() -> None:
    devices, claims = parsed("step-5")
    pick = next(c for c in claims if c.name == "pick-seven")
    (dev_id,) = pick.devices
    free = next(d.id for d in devices if d.id not in {i for c in claims for i in c.devices})
    # Derived: a monitoring claim with adminAccess on a free device and on pick-seven's device.
    raw = copy.deepcopy(dict(pick.raw))
    raw["metadata"]["name"] = "monitor"
    raw["metadata"]["uid"] = "monitor-uid"
    result = raw["status"]["allocation"]["devices"]["results"][0]
    raw["status"]["allocation"]["devices"]["results"] = [
        {**result, "device": free.device, "adminAccess": True},
        {**result, "adminAccess": True},
    ]
    monitor = parse_claim(raw)
    occ = compute_occupancy(devices, [*claims, monitor])
    assert occ[free].status == "free"
    assert occ[free].claims == (monitor,)
    assert occ[free].admin_claims == (monitor,)
    assert occ[free].consumers == ()
    assert occ[dev_id].status == "reserved"  # the monitor does not make it shared
    assert [c.name for c in occ[dev_id].holders] == ["pick-seven"]  # it only watches
    assert {c.name for c in occ[dev_id].claims} == {"pick-seven", "monitor"}
    assert occ[dev_id].consumers == tuple(
        sorted(f"{pick.namespace}/{r.name}" for r in pick.reserved_for)
    )


def test_two_claims_on_one_device_is_shared() -> None:
    devices, claims = parsed("step-3")
    (held,) = [c for c in claims if c.allocated]
    twin_raw = copy.deepcopy(dict(held.raw))
    twin_raw["metadata"]["name"] = held.name + "-twin"
    twin_raw["status"]["reservedFor"] = []
    twin = parse_claim(twin_raw)
    occ = compute_occupancy(devices, [held, twin])
    o = occ[held.devices[0]]
    assert o.status == "shared"
    assert len(o.claims) == 2
    assert {c.name for c in o.holders} == {held.name, twin.name}


def _by_key(claims: list[Claim]) -> dict[tuple[str, str], Claim]:
    return {c.key: c for c in claims}


def _same_answer(got: dict[DeviceId, Any], want: dict[DeviceId, Any]) -> None:
    assert list(got) == list(want)
    for device_id, occ in want.items():
        assert got[device_id] == occ, device_id


def test_patched_and_lent_occupancy_equal_a_whole_compute_from_step_to_step() -> None:
    """Each recorded step after the one before: patch_occupancy (only the devices the
    changed claims name) and compute_occupancy with the last answer lent give exactly what a
    whole compute gives; unchanged claims keep their parsed object, as dra/view.py does."""
    parsed_once: dict[str, Claim] = {}

    def claims_at(mark: str) -> list[Claim]:
        out = []
        for raw in snap(mark).items(Kind.CLAIMS):
            text = repr(raw)
            out.append(parsed_once.setdefault(text, parse_claim(raw)))
        return out

    before_devices, _ = parsed(ALL_MARKS[0])
    before = claims_at(ALL_MARKS[0])
    last = compute_occupancy(before_devices, before)
    for mark in ALL_MARKS[1:]:
        devices, _ = parsed(mark)
        devices = [next((b for b in before_devices if b == d), d) for d in devices]
        now = claims_at(mark)
        whole = compute_occupancy(devices, now)
        lent = compute_occupancy(devices, now, last)
        _same_answer(lent, whole)
        for device_id, occ in lent.items():
            old = last.get(device_id)
            if old is not None and old == occ and not occ.admin_claims:
                assert occ is old  # unchanged: the very same entry, so panes can use `is`
        if [d.id for d in devices] == [d.id for d in before_devices]:
            patched = patch_occupancy(last, _by_key(before), _by_key(now))
            assert patched is not None
            _same_answer(patched, whole)
        before_devices, before, last = devices, now, lent


def test_patch_follows_admin_access_and_removals() -> None:
    devices, claims = parsed("step-5")
    pick = next(c for c in claims if c.name == "pick-seven")
    (dev_id,) = pick.devices
    raw = copy.deepcopy(dict(pick.raw))
    raw["metadata"]["name"] = "monitor"
    result = raw["status"]["allocation"]["devices"]["results"][0]
    raw["status"]["allocation"]["devices"]["results"] = [{**result, "adminAccess": True}]
    monitor = parse_claim(raw)
    start = compute_occupancy(devices, claims)
    steps = [
        [*claims, monitor],  # a monitor joins
        [c for c in claims if c.name != "pick-seven"] + [monitor],  # the holder leaves
        [c for c in claims if c.name != "pick-seven"],  # and the monitor
    ]
    last, before = start, claims
    for now in steps:
        patched = patch_occupancy(last, _by_key(before), _by_key(now))
        assert patched is not None
        _same_answer(patched, compute_occupancy(devices, now))
        last, before = patched, now
    assert last[dev_id].status == "free" and last[dev_id].claims == ()


def test_patch_gives_up_on_many_changes() -> None:
    devices, claims = parsed("step-5")
    last = compute_occupancy(devices, claims)
    many = {("x", f"c{i}"): claims[0] for i in range(PATCH_LIMIT + 1)}
    assert patch_occupancy(last, _by_key(claims), many) is None
