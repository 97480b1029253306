"""`gsb-tui devices --json` rows carry the kubelet's health, `gsb-tui why POD` names what holds a
placed pod in the kubelet's words and the health of a running pod's devices, both keeping
their JSON shape (fields added, none changed).

Objects: RECORDED on a real node (tests/fixtures/realnode/lab.jsonl) and on kwok (the lab); the
few states that recording cannot show DERIVED from it (tests/unit/node_half_objects.py).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from gsb_tui import devices_cli, why_cli
from gsb_tui.dra.builder import build_view
from gsb_tui.snapshot import Kind, Snapshot
from gsb_tui.why_cli import answer
from gsb_tui.words import text
from tests.recorded import snap
from tests.unit import node_half_objects as objects

NS = objects.NAMESPACE
WHY_KEYS = {
    "pod",
    "found",
    "bound",
    "fits",
    "nodes",
    "nodes_total",
    "allocation",
    "blockers",
    "scheduler",
    "gates",
    "notes",
    "kubelet",
    "health",
    "warnings",
    "malformed",  # objects with a field of the wrong type (dra/model/malformed.py)
    "text",
}


def _devices(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    snapshot: Snapshot,
    lang: str = "en",
    as_json: bool = True,
) -> Any:
    async def fetched(_target: Any, _kinds: Any) -> Snapshot:
        return snapshot

    monkeypatch.setattr(devices_cli, "fetch_snapshot", fetched)
    args = argparse.Namespace(node=None, json=as_json)
    assert devices_cli.run_devices(args, None, lang) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    return json.loads(out) if as_json else out


def test_devices_json_health_is_null_where_no_kubelet_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _devices(monkeypatch, capsys, snap("step-7"))  # kwok: no kubelet ever reported
    assert {(d["health"], d["health_message"]) for d in out["devices"]} == {(None, None)}
    assert out["summary"]["unhealthy"] == out["summary"]["health_unknown"] == 0
    assert out["vanished_pools"] == []


def test_devices_json_health_as_the_kubelet_reports_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = objects.unhealthy()
    out = _devices(monkeypatch, capsys, snapshot)
    rows = {d["device"]: d for d in out["devices"]}
    bad = objects.devices_of(objects.claim_of(snapshot, "dra-1"))[0]
    (raw,) = objects.reported(snapshot, "dra-1")
    assert (rows[bad]["health"], rows[bad]["health_message"]) == ("Unhealthy", raw["message"])
    assert rows[bad]["health_reported_by"] == f"{NS}/dra-1/ctr"
    fine = objects.devices_of(objects.claim_of(snapshot, "dra-7"))[0]
    assert (rows[fine]["health"], rows[fine]["health_message"]) == ("Healthy", None)
    assert {r["health"] for r in rows.values()} <= {"Healthy", "Unhealthy", "Unknown", None}
    assert None in {r["health"] for r in rows.values()}  # free devices: nobody reported
    assert (out["summary"]["unhealthy"], out["summary"]["health_unknown"]) == (1, 0)
    unknown = _devices(monkeypatch, capsys, objects.prepare_failed())  # the plugin stopped
    counted = sum(1 for d in unknown["devices"] if d["health"] == "Unknown")
    assert unknown["summary"]["health_unknown"] == counted


def test_devices_text_adds_a_health_column_only_where_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _devices(monkeypatch, capsys, snap("step-7"), as_json=False)
    assert "HEALTH" not in plain.splitlines()[0]
    snapshot = objects.unhealthy()
    shown = _devices(monkeypatch, capsys, snapshot, "ko", as_json=False)
    assert shown.splitlines()[0].split()[-1] == "HEALTH"
    assert text("ko", "devices.summary.health", unhealthy=1, health_unknown=0) in shown
    (raw,) = objects.reported(snapshot, "dra-1")
    assert raw["message"] in shown


def test_devices_say_a_driver_gone_from_its_node(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = objects.driver_gone()
    node = objects.node_of(snapshot, "dra-1")
    out = _devices(monkeypatch, capsys, snapshot)
    (pool,) = out["vanished_pools"]
    assert (pool["driver"], pool["pool"], pool["node"]) == (objects.DRIVER, node, node)
    held = sorted(
        d
        for c in snapshot.items(Kind.CLAIMS)
        if c.get("status", {}).get("allocation")
        for d in objects.devices_of(c)
    )
    assert sorted(pool["devices"]) == held
    assert pool["text"][0].startswith(f"node {node}: driver {objects.DRIVER}")
    shown = _devices(monkeypatch, capsys, snapshot, as_json=False)  # no device row at all
    assert pool["text"][0] in shown


@pytest.mark.parametrize("pod", ["dra-1", "dra-2x", "dra-big"])
def test_why_keeps_its_shape_on_the_recorded_lab(pod: str) -> None:
    out = answer(build_view(snap("step-8")), NS, pod, "en")  # kwok
    assert set(out) == WHY_KEYS
    assert out["kubelet"] is None and out["health"] == []


def test_why_says_mistake_1_on_the_running_pod() -> None:
    out = answer(build_view(snap("mistake-1")), NS, "no-claim-ref", "en")
    (warning,) = out["warnings"]
    assert warning["code"] == "claim-not-in-container"
    assert "never reaches the container" in warning["text"] and "GPU_DEVICE_" in warning["text"]
    assert answer(build_view(snap("mistake-1")), NS, "dra-1", "en")["warnings"] == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_why_names_a_prepare_failure_in_the_kubelets_words(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = objects.prepare_failed()
    node = objects.node_of(snapshot, objects.ORPHAN_POD)
    (event,) = objects.events_of(snapshot, objects.ORPHAN_POD, "FailedPrepareDynamicResources")
    out = answer(build_view(snapshot), NS, objects.ORPHAN_POD, lang)
    assert set(out) == WHY_KEYS
    assert out["bound"] == node and out["fits"] is True  # scheduled: exit 0 as before
    said = out["kubelet"]
    assert said["code"] == "prepare-failed" and said["reason"] == "FailedPrepareDynamicResources"
    assert (said["message"], said["count"]) == (event["message"], event["count"])
    problem = "not-registered" if "is not registered" in event["message"] else "unreachable"
    assert said["hint"] == text(lang, f"kubelet.hint.{problem}", driver=objects.DRIVER, node=node)
    pod = f"{NS}/{objects.ORPHAN_POD}"
    assert out["text"] == text(lang, "why.bound-blocked", pod=pod, node=node)
    why_cli._print_text(out, lang)
    assert event["message"] in capsys.readouterr().out


def test_why_says_a_plugin_that_unregistered(capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = objects.not_registered()
    out = answer(build_view(snapshot), NS, objects.ORPHAN_POD, "en")
    node = objects.node_of(snapshot, objects.ORPHAN_POD)
    assert out["kubelet"]["message"] == objects.NOT_REGISTERED
    hint = text("en", "kubelet.hint.not-registered", driver=objects.DRIVER, node=node)
    assert out["kubelet"]["hint"] == hint
    why_cli._print_text(out, "en")
    assert f"×{objects.PREPARE_COUNT}" in capsys.readouterr().out


@pytest.mark.parametrize("reason", ["ErrImagePull", "ImagePullBackOff"])
def test_why_names_an_image_the_node_cannot_pull(reason: str) -> None:
    snapshot = objects.image_pull(reason)
    out = answer(build_view(snapshot), NS, objects.NO_IMAGE_POD, "en")
    said = out["kubelet"]
    assert (said["code"], said["reason"], said["container"]) == ("image-pull", reason, "ctr")
    assert said["message"] == objects.waiting(snapshot, objects.NO_IMAGE_POD)["message"]
    assert said["hint"] == text("en", "kubelet.hint.image")
    # its devices were prepared: the kubelet reports their health already
    assert [r["health"] for r in out["health"]] == [
        r["health"] for r in objects.reported(snapshot, objects.NO_IMAGE_POD)
    ]


def test_why_says_containers_being_created() -> None:
    made = answer(build_view(objects.creating()), NS, objects.ORPHAN_POD, "en")
    assert made["kubelet"]["code"] == "creating" and made["kubelet"]["message"] is None


def test_why_says_the_health_of_a_running_pods_devices(capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = objects.unhealthy()
    node = objects.node_of(snapshot, "dra-1")
    view = build_view(snapshot)
    out = answer(view, NS, "dra-1", "en")
    assert out["kubelet"] is None
    assert out["text"] == text("en", "why.bound", pod=f"{NS}/dra-1", node=node)
    (row,) = out["health"]
    (raw,) = objects.reported(snapshot, "dra-1")
    claim = objects.claim_of(snapshot, "dra-1")
    device = objects.devices_of(claim)[0]
    assert (row["device"], row["health"], row["message"]) == (device, "Unhealthy", raw["message"])
    assert row["claim"] == f"{NS}/{claim['metadata']['name']}" and row["container"] == "ctr"
    assert row["resource_id"] == raw["resourceID"]
    why_cli._print_text(out, "en")
    assert f"{objects.DRIVER}/{node}/{device}: Unhealthy" in capsys.readouterr().out
    healthy = answer(view, NS, "dra-7", "en")
    why_cli._print_text(healthy, "en")
    assert [r["health"] for r in healthy["health"]] == ["Healthy"]
    assert "Healthy" not in capsys.readouterr().out  # said only when not Healthy


def test_why_says_an_unmatched_resource_and_a_driver_gone() -> None:
    out = answer(build_view(objects.unmatched()), NS, "dra-2x", "en")
    (row,) = out["health"]
    assert row["device"] is None and row["resource_id"].endswith("=some-other-id")
    gone = answer(build_view(objects.driver_gone()), NS, "dra-1", "en")
    assert [n["code"] for n in gone["notes"]] == ["driver-gone"]


def test_the_derived_objects_differ_from_the_recording_only_where_they_say() -> None:
    """unmatched: only dra-2x's allocatedResourcesStatus; driver_gone: only the slices gone;
    not_registered: only the kubelet event's words, count and time; creating: that event gone."""
    base = objects.recorded("step-7")
    derived = objects.unmatched()
    for kind in (Kind.CLAIMS, Kind.SLICES, Kind.CLASSES, Kind.EVENTS):
        assert dict(derived.objects[kind]) == dict(base.objects[kind])
    for key, pod in derived.objects[Kind.PODS].items():
        recorded = base.objects[Kind.PODS][key]
        assert pod["spec"] == recorded["spec"] and pod["metadata"] == recorded["metadata"]
        if key != (NS, "dra-2x"):
            assert pod == recorded
    gone = objects.driver_gone()
    assert not gone.objects[Kind.SLICES]
    assert {k: dict(v) for k, v in gone.objects.items() if k != Kind.SLICES} == {
        k: dict(v) for k, v in base.objects.items() if k != Kind.SLICES
    }
    failed = objects.prepare_failed()
    assert set(objects.creating().objects[Kind.EVENTS]) < set(failed.objects[Kind.EVENTS])
    (event,) = objects.events_of(
        objects.not_registered(), objects.ORPHAN_POD, "FailedPrepareDynamicResources"
    )
    (recorded_event,) = objects.events_of(
        failed, objects.ORPHAN_POD, "FailedPrepareDynamicResources"
    )
    changed = {k for k in event if event[k] != recorded_event[k]}
    assert changed == {"message", "count", "lastTimestamp"}
