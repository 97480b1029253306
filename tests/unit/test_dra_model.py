"""Typed views over recorded objects: STATE of every claim at every step, and Events."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

import pytest

from gsb_tui.dra.model import parse_claim, parse_event, parse_pod, parse_slice
from gsb_tui.kube.recording import marks
from gsb_tui.snapshot import Kind
from tests.recorded import RECORDING, snap

STEPS = [f"step-{i}" for i in range(9)]


def all_marks() -> list[str]:
    return marks(RECORDING)


def test_recording_has_every_lab_mark() -> None:
    assert set(STEPS) <= set(all_marks())


def _kubectl_state(raw: dict[str, Any]) -> str:
    # The printer's rule, read off the raw object field by field (dra-reference.md section 4).
    meta, status = raw.get("metadata") or {}, raw.get("status") or {}
    parts = ["deleted"] if meta.get("deletionTimestamp") else []
    if status.get("allocation") is None:
        if not meta.get("deletionTimestamp"):
            parts.append("pending")
    else:
        parts.append("allocated")
        if status.get("reservedFor"):
            parts.append("reserved")
    return ",".join(parts)


@pytest.mark.parametrize("mark", STEPS)
def test_claim_state_at_each_step(mark: str) -> None:
    raws = snap(mark).items(Kind.CLAIMS)
    for raw in raws:
        assert parse_claim(raw).state == _kubectl_state(dict(raw)), raw["metadata"]["name"]
    if mark in ("step-0", "step-1", "step-2"):
        assert raws == []  # nothing applied yet


@pytest.mark.parametrize("mark", [m for m in STEPS if int(m[-1]) >= 3])
def test_running_pods_claims_are_allocated_and_reserved(mark: str) -> None:
    s = snap(mark)
    claims = {(c.namespace, c.name): c for c in map(parse_claim, s.items(Kind.CLAIMS))}
    for pod in map(parse_pod, s.items(Kind.PODS)):
        if pod.phase != "Running":
            continue
        for entry in pod.claims:
            claim = claims[(pod.namespace, entry.resolved_claim)]
            assert claim.state == "allocated,reserved", (pod.name, claim.name)
            assert pod.name in {c.name for c in claim.reserved_for}


def test_dra_big_claim_is_pending_at_step_8() -> None:
    s = snap("step-8")
    pod = parse_pod(next(p for p in s.items(Kind.PODS) if p["metadata"]["name"] == "dra-big"))
    assert pod.pending
    for entry in pod.claims:
        name = entry.resolved_claim
        if not name:  # the controller may not have recorded the generated name yet
            continue
        raw = s.get(Kind.CLAIMS, pod.namespace, name)
        assert raw is not None
        assert parse_claim(raw).state == "pending"


@pytest.mark.parametrize("mark", STEPS)
def test_slice_devices_match_raw(mark: str) -> None:
    for raw in snap(mark).items(Kind.SLICES):
        sl = parse_slice(raw)
        names = [d["name"] for d in raw["spec"]["devices"]]
        assert [d.name for d in sl.devices] == names
        assert all(d.id.pool == raw["spec"]["pool"]["name"] for d in sl.devices)
        for dev, dev_raw in zip(sl.devices, raw["spec"]["devices"], strict=True):
            assert dev.attribute("index") == dev_raw["attributes"]["index"]["int"]


def _recorded_events() -> list[dict[str, Any]]:
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for mark in all_marks():
        for raw in snap(mark).items(Kind.EVENTS):
            seen[(raw["metadata"]["namespace"], raw["metadata"]["name"])] = dict(raw)
    return list(seen.values())


def test_recorded_events_parse() -> None:
    events = _recorded_events()
    assert events, "the recording should hold some events"
    for raw in events:
        ev = parse_event(raw)
        involved = raw.get("involvedObject") or {}
        assert (ev.object_kind, ev.object_name) == (involved.get("kind"), involved.get("name"))
        assert ev.object_namespace == (involved.get("namespace") or "")
        assert ev.type in ("Normal", "Warning")
        assert ev.reason == raw.get("reason")
        assert ev.count >= 1
        assert ev.source, raw
        datetime.fromisoformat(ev.last_seen)  # a real timestamp, whichever field gave it


def test_event_series_and_fallbacks() -> None:
    # Derived from a recorded event: the newer events.k8s.io shape, repeated as a series.
    raw = copy.deepcopy(_recorded_events()[0])
    for key in ("lastTimestamp", "firstTimestamp", "count"):
        raw.pop(key, None)
    raw["eventTime"] = "2030-01-01T00:00:00.000001Z"
    raw["series"] = {"count": 5, "lastObservedTime": "2030-01-01T00:05:00.000001Z"}
    raw["reportingComponent"] = ""
    raw["source"] = {"component": "the-source"}
    ev = parse_event(raw)
    assert ev.count == 5
    assert ev.last_seen == raw["series"]["lastObservedTime"]
    assert ev.source == "the-source"
    del raw["series"]
    assert parse_event(raw).last_seen == raw["eventTime"]
    del raw["eventTime"]
    assert parse_event(raw).last_seen == raw["metadata"].get("creationTimestamp", "")
