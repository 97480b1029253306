"""The ledger (lab step 8's report) against the recorded claims and pods."""

from __future__ import annotations

import pytest

from gsb_tui.dra.ledger import compute_ledger
from gsb_tui.dra.model import DeviceId
from gsb_tui.kube.recording import marks
from gsb_tui.snapshot import Kind
from tests.recorded import RECORDING, snap, view

ALL_MARKS = marks(RECORDING)  # the steps, the two mistakes and the cleanup
NS = "dra-lab"


def recorded_results(mark: str) -> list[DeviceId]:
    out = []
    for raw in snap(mark).items(Kind.CLAIMS):
        alloc = (raw.get("status") or {}).get("allocation") or {}
        for r in (alloc.get("devices") or {}).get("results") or []:
            if not r.get("adminAccess"):
                out.append(DeviceId(r["driver"], r["pool"], r["device"]))
    return out


def recorded_pending(mark: str, namespace: str) -> tuple[str, ...]:
    return tuple(
        sorted(
            p["metadata"]["name"]
            for p in snap(mark).items(Kind.PODS)
            if p["metadata"]["namespace"] == namespace
            and (p.get("status") or {}).get("phase") == "Pending"
            and not (p.get("spec") or {}).get("nodeName")
        )
    )


@pytest.mark.parametrize("mark", ALL_MARKS)
def test_ledger_matches_recorded_objects(mark: str) -> None:
    ledger = view(mark).ledger(namespace=NS)
    total = sum(len(s["spec"]["devices"]) for s in snap(mark).items(Kind.SLICES))
    assert ledger.total == total
    assert ledger.allocated == frozenset(recorded_results(mark))
    assert ledger.free == total - len(set(recorded_results(mark)))
    assert ledger.pending_pods == recorded_pending(mark, NS)


def test_step8_report() -> None:
    v = view("step-8")
    results = recorded_results("step-8")
    ledger = compute_ledger(v, driver=v.devices[0].id.driver, namespace=NS)
    # The shared claim's device appears once although two pods use it.
    assert len(ledger.allocated) == len(set(results))
    shared = v.claims[(NS, "shared")]
    assert set(shared.devices) <= ledger.allocated
    assert len(v.occupancy[shared.devices[0]].consumers) == 2
    assert ledger.free == ledger.total - len(set(results))
    assert ledger.pending_pods == recorded_pending("step-8", NS) == ("dra-big",)
    # dra-big's claims hold nothing.
    for claim in v.claims_of_pod(v.pods[(NS, "dra-big")]):
        assert not claim.allocated
        assert not set(claim.devices) & ledger.allocated


def test_driver_and_namespace_filters() -> None:
    v = view("step-8")
    assert v.ledger(driver="no.such.driver").total == 0
    assert v.ledger(driver="no.such.driver").allocated == frozenset()
    assert v.ledger(namespace="no-such-namespace").pending_pods == ()
    everywhere = v.ledger()
    assert f"{NS}/dra-big" in everywhere.pending_pods
    assert everywhere.total == v.ledger(namespace=NS).total
