"""The eight step checks on the recorded lab (tests/fixtures/lab.jsonl, a real control plane).

Answer files are written into tmp dirs from the recorded objects themselves (the slice's driver,
device count, node and model; the served selector; the generated claim and its device; the
ledger counted from the claims), so nothing here hard-codes what the cluster said.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import read_changes
from gsb_tui.kube.store import Store
from gsb_tui.lab import checks, evaluate, example_text, findings, to_json, to_text
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.steps import SNIPPETS, STEPS, example_for
from gsb_tui.lab.verdict import Verdict
from gsb_tui.snapshot import Kind, KindState, Snapshot

SnapAt = Callable[[str], Snapshot]
NS = "dra-lab"
YAML_STEPS = {3: "one.yaml", 5: "pick.yaml", 6: "shared.yaml", 7: "two.yaml"}


# ---------------------------------------------------------------- answers from recorded objects


def objs(snap: Snapshot, kind: Kind) -> list[dict[str, Any]]:
    return [dict(o) for o in snap.items(kind)]


def slices_answer(snap: Snapshot) -> dict[str, str]:
    (slice_obj,) = objs(snap, Kind.SLICES)
    spec = slice_obj["spec"]
    devices = sum(len(s["spec"]["devices"]) for s in objs(snap, Kind.SLICES))
    return {
        "driver": spec["driver"],
        "devices": str(devices),
        "node": spec["nodeName"],
        "model": spec["devices"][0]["attributes"]["model"]["string"],
    }


def class_answer(snap: Snapshot) -> dict[str, str]:
    driver = slices_answer(snap)["driver"]
    cls = snap.get(Kind.CLASSES, "", driver)
    assert cls is not None
    return {"deviceclass": driver, "selector": cls["spec"]["selectors"][0]["cel"]["expression"]}


def claim_answer(snap: Snapshot) -> dict[str, str]:
    pod = snap.get(Kind.PODS, NS, "dra-1")
    assert pod is not None
    name = pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"]
    claim = snap.get(Kind.CLAIMS, NS, name)
    assert claim is not None
    device = claim["status"]["allocation"]["devices"]["results"][0]["device"]
    number = re.fullmatch(r"gpu-(\d+)", device)
    assert number is not None
    return {"claim": name, "device": device, "env_var": f"GPU_DEVICE_{number.group(1)}"}


def ledger_answer(snap: Snapshot) -> dict[str, Any]:
    total = sum(len(s["spec"]["devices"]) for s in objs(snap, Kind.SLICES))
    allocated = {
        (r["driver"], r["pool"], r["device"])
        for c in objs(snap, Kind.CLAIMS)
        for r in (c.get("status") or {}).get("allocation", {}).get("devices", {}).get("results", [])
    }
    pending = [
        p["metadata"]["name"]
        for p in objs(snap, Kind.PODS)
        if p["status"].get("phase") == "Pending" and not p["spec"].get("nodeName")
    ]
    return {
        "allocated_devices": len(allocated),
        "free_devices": total - len(allocated),
        "pending_pods": pending,
    }


def kv(values: dict[str, str]) -> str:
    return "".join(f"{k}={v}\n" for k, v in values.items())


def write_answers(lab: Path, snap: Snapshot, steps: Iterator[int] | range) -> None:
    for n in steps:
        if n == 1:
            (lab / "slices.txt").write_text(kv(slices_answer(snap)))
        elif n == 2:
            (lab / "class.txt").write_text(kv(class_answer(snap)))
        elif n == 4:
            (lab / "claim.json").write_text(json.dumps(claim_answer(snap)))
        elif n == 8:
            (lab / "report.json").write_text(json.dumps(ledger_answer(snap)))
        else:
            (lab / YAML_STEPS[n]).write_text(example_text(YAML_STEPS[n]))


def check(n: int, snap: Snapshot, lab: Path) -> Verdict:
    return checks.CHECKS[n](build_view(snap), LabFiles(lab))


def failing(v: Verdict) -> tuple[str, str]:
    """(sub-check name, message key) of the first failing sub-check."""
    sub = next(s for s in v.subchecks if s.ok is False)
    return sub.name, sub.reason.key


def snapshot_when(recording: Path, ready: Callable[[DraView], bool]) -> Snapshot:
    """The first recorded moment (not only a MARK) at which `ready` holds."""
    store = Store()
    for _, change in read_changes(recording):
        if store.apply(change):
            snap = store.snapshot()
            if ready(build_view(snap)):
                return snap
    raise AssertionError("the recording never reaches that state")


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    d = tmp_path / "gsb-dra"
    d.mkdir()
    return d


# ---------------------------------------------------------------- green, not started, in progress


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8])
def test_each_step_green_at_its_mark(n: int, lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot(f"step-{n}")
    write_answers(lab, snap, [n])
    v = check(n, snap, lab)
    assert v.ok and v.status == "green", (v.reason, [(s.name, s.reason) for s in v.subchecks])
    assert v.reason == ""


def test_all_green_at_the_end_and_in_order(lab: Path, lab_snapshot: SnapAt) -> None:
    for n in range(1, 9):
        snap = lab_snapshot(f"step-{n}")
        write_answers(lab, snap, [n])
        verdicts = evaluate(build_view(snap), lab)
        assert [v.step for v in verdicts if v.ok] == list(range(1, n + 1)), n
    out = to_json(evaluate(build_view(lab_snapshot("step-8")), lab))
    assert out["ok"] is True and [s["step"] for s in out["steps"]] == list(range(1, 9))


def test_nothing_started_on_the_seeded_cluster(lab: Path, lab_snapshot: SnapAt) -> None:
    verdicts = evaluate(build_view(lab_snapshot("step-0")), lab)
    assert [v.status for v in verdicts] == ["not-started"] * 8
    assert verdicts[0].reason.key == "file.missing"
    assert not any(s.ok is False for v in verdicts for s in v.subchecks)


def test_cluster_done_but_file_missing_is_in_progress(lab: Path, lab_snapshot: SnapAt) -> None:
    v = check(3, lab_snapshot("step-3"), lab)
    assert v.status == "in-progress"
    assert v.reason.key == "file.missing" and "one.yaml" in v.reason
    assert [s.ok for s in v.subchecks if s.name.startswith("cluster:")] == [True, True, True]


def test_file_written_before_apply_is_in_progress(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-2")
    write_answers(lab, snap, [3])
    v = check(3, snap, lab)
    assert v.status == "in-progress"
    assert v.hint == f"kubectl apply -n dra-lab -f {lab / 'one.yaml'}"
    assert v.reason == "ResourceClaimTemplate one-gpu is not in namespace dra-lab yet"


@pytest.mark.parametrize("kind", [Kind.PODS, Kind.CLAIMS])
def test_unsynced_or_forbidden_kind_cannot_judge(
    kind: Kind, lab: Path, lab_snapshot: SnapAt
) -> None:
    snap = lab_snapshot("step-3")
    write_answers(lab, snap, [3, 4])
    for state, word in (
        (KindState("connecting"), "still being listed"),
        (KindState("forbidden", "pods is forbidden: User cannot list"), "forbidden"),
    ):
        blind = replace(snap, states={**snap.states, kind: state})
        for n in (3, 4):
            v = check(n, blind, lab)
            assert v.status == "cannot-judge" and not v.ok, (n, v.reason)
            assert word in v.reason
            assert not any(s.ok is False for s in v.subchecks)


def test_lab_dir_is_never_written(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    write_answers(lab, snap, range(1, 9))
    (lab / "notes").mkdir()
    before = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in lab.rglob("*")}
    lab.chmod(0o555)
    try:
        evaluate(build_view(snap), lab)
    finally:
        lab.chmod(0o755)
    assert {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in lab.rglob("*")} == before


# ---------------------------------------------------------------- step 1 and 2: wrong values


def test_slices_wrong_values_are_named(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-1")
    right = slices_answer(snap)
    cases = {
        "driver": ({"driver": right["driver"] + ".typo"}, "s1.driver"),
        "devices": ({"devices": str(int(right["devices"]) + 1)}, "s1.devices"),
        "node": ({"node": right["node"] + "-x"}, "s1.node"),
        "model": ({"model": right["model"].lower()}, "s1.model"),
    }
    for key, (change, message) in cases.items():
        (lab / "slices.txt").write_text(kv({**right, **change}))
        v = check(1, snap, lab)
        assert v.status == "broken"
        assert failing(v) == (key, message)
        assert change[key] in v.reason
        others = [s.ok for s in v.subchecks if s.name not in (key,)]
        assert all(others), key


def test_slices_format_problems(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-1")
    right = slices_answer(snap)
    path = lab / "slices.txt"
    path.write_text(kv({k: v for k, v in right.items() if k != "model"}) + "modle=x\n")
    assert failing(check(1, snap, lab)) == ("model", "kv.missing_close")
    path.write_text(kv(right) + f"driver={right['driver']}x\n")
    assert failing(check(1, snap, lab)) == ("slices.txt", "kv.duplicate")
    path.write_text(kv(right) + f"driver={right['driver']}\n")  # same value twice: harmless
    assert check(1, snap, lab).ok
    path.write_text(kv({**right, "devices": right["devices"] + " devices"}))
    assert failing(check(1, snap, lab)) == ("devices", "s1.devices_not_number")
    path.write_text("driver: " + right["driver"] + "\n")
    v = check(1, snap, lab)
    assert failing(v) == ("slices.txt", "kv.bad_line") and "line 1" in v.reason
    path.write_bytes(("\ufeff" + kv(right).replace("\n", "\r\n") + "   \n").encode())
    assert check(1, snap, lab).ok


def test_slices_with_no_slices_published_yet(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-1")
    write_answers(lab, snap, [1])
    empty = replace(snap, objects={**snap.objects, Kind.SLICES: {}})
    v = check(1, empty, lab)
    assert v.status == "in-progress" and v.reason.key == "slices.none"


def test_class_selector_tolerance_and_mistakes(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-2")
    right = class_answer(snap)
    path = lab / "class.txt"
    for ok in (f'"{right["selector"]}"', f"   {right['selector']}   "):
        path.write_text(kv({**right, "selector": ok}))
        assert check(2, snap, lab).ok, ok
    path.write_text(kv({**right, "selector": "expression: " + right["selector"]}))
    assert failing(check(2, snap, lab)) == ("selector", "s2.selector_prefix")
    path.write_text(kv({**right, "selector": right["selector"].replace(" ", "")}))
    assert failing(check(2, snap, lab)) == ("selector", "s2.selector_spaces")
    path.write_text(kv({**right, "selector": right["selector"].replace("'", '"')}))
    assert failing(check(2, snap, lab)) == ("selector", "s2.selector")
    path.write_text(kv({**right, "deviceclass": "gpu.example"}))
    assert failing(check(2, snap, lab)) == ("deviceclass", "s2.no_such_class")


def test_class_green_hint_points_at_node_allocatable(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-2")
    write_answers(lab, snap, [2])
    v = check(2, snap, lab)
    node = slices_answer(snap)["node"]
    assert v.ok and f"kubectl get node {node}" in v.hint
    view = build_view(snap)
    assert not any(class_answer(snap)["deviceclass"] in k for k in view.node_allocatable(node))


# ---------------------------------------------------------------- step 3: one.yaml


def one_yaml(edit: Callable[[str], str]) -> str:
    text = example_text("one.yaml")
    changed = edit(text)
    assert changed != text
    return changed


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        # common mistake 1: the container does not point at the claim entry
        (
            lambda s: re.sub(r"    resources:\n      claims:\n      - name: gpu[^\n]*\n", "", s),
            "one.yaml: dra-1",
            "mistake.no_container_claim",
        ),
        (
            lambda s: s.replace("resourceClaimTemplateName: one-gpu", "resourceClaimName: one-gpu"),
            "one.yaml: dra-1",
            "pod.claim_for_template",
        ),
        (
            lambda s: s.replace(
                "resourceClaimTemplateName: one-gpu", "resourceClaimTemplateName: one-gpus"
            ),
            "one.yaml: dra-1",
            "pod.ref_typo",
        ),
        (
            lambda s: s.replace("name: one-gpu", "name: one-gpus", 1),
            "one.yaml: one-gpu",
            "yaml.name_typo",
        ),
        (
            lambda s: s.replace("namespace: dra-lab", "namespace: default", 1),
            "one.yaml: one-gpu",
            "yaml.namespace",
        ),
        (
            lambda s: s.replace(
                "deviceClassName: gpu.example.com",
                'deviceClassName: gpu.example.com\n          count: "1"',
            ),
            "one.yaml: one-gpu",
            "yaml.count_type",
        ),
        (
            lambda s: s.replace(
                "        exactly:\n          deviceClassName", "        deviceClassName"
            ),
            "one.yaml: one-gpu",
            "yaml.flat_request",
        ),
        (
            lambda s: s.replace(
                "apiVersion: resource.k8s.io/v1\n", "apiVersion: resource.k8s.io/v1beta1\n"
            ),
            "one.yaml: one-gpu",
            "yaml.api_version",
        ),
        (
            lambda s: s + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\n",
            "one.yaml",
            "yaml.extra",
        ),
        (
            lambda s: s.replace("  name: dra-1\n", "  name: dra-1\n  name: dra-2\n"),
            "one.yaml",
            "yaml.syntax",
        ),
    ],
)
def test_one_yaml_mistakes_are_named(
    edit: Callable[[str], str], where: str, message: str, lab: Path, lab_snapshot: SnapAt
) -> None:
    (lab / "one.yaml").write_text(one_yaml(edit))
    v = check(3, lab_snapshot("step-3"), lab)
    assert v.status == "broken"
    assert failing(v) == (where, message), v.reason


def test_one_yaml_namespace_file_is_tolerated(lab: Path, lab_snapshot: SnapAt) -> None:
    text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: dra-lab}\n---\n"
    (lab / "one.yaml").write_text(
        text + example_text("one.yaml").replace("  namespace: dra-lab\n", "")
    )
    assert check(3, lab_snapshot("step-3"), lab).ok


def test_wrong_namespace_on_the_cluster(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-5")
    write_answers(lab, snap, [5])
    claims = dict(snap.objects[Kind.CLAIMS])
    moved = dict(claims.pop((NS, "pick-seven")))
    moved["metadata"] = {**moved["metadata"], "namespace": "default"}
    claims[("default", "pick-seven")] = moved
    v = check(5, replace(snap, objects={**snap.objects, Kind.CLAIMS: claims}), lab)
    assert failing(v) == ("cluster: pick-seven", "cluster.wrong_namespace")
    assert "namespace default, not dra-lab" in v.reason


# ---------------------------------------------------------------- step 4: claim.json


def test_claim_json_wrong_values_and_types(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-4")
    right = claim_answer(snap)
    path = lab / "claim.json"
    cases: list[tuple[dict[str, Any], tuple[str, str]]] = [
        ({"claim": "one-gpu"}, ("claim", "s4.claim_is_template")),
        ({"claim": right["claim"][:-1]}, ("claim", "s4.claim_unknown")),
        ({"claim": [right["claim"]]}, ("claim", "json.not_string")),
        ({"device": right["device"] + "0"}, ("device", "s4.device")),
        ({"env_var": right["env_var"] + "_X"}, ("env_var", "s4.env_var")),
        ({"env_var": 7}, ("env_var", "json.not_string")),
    ]
    for change, expected in cases:
        path.write_text(json.dumps({**right, **change}))
        assert failing(check(4, snap, lab)) == expected, change
    path.write_text(
        json.dumps({k: v for k, v in right.items() if k != "env_var"} | {"envvar": "x"})
    )
    assert failing(check(4, snap, lab)) == ("env_var", "json.missing_close")
    path.write_text('{"claim": "a", "claim": "b"}')
    assert failing(check(4, snap, lab)) == ("claim.json", "json.duplicate")
    path.write_text('["claim"]')
    assert failing(check(4, snap, lab)) == ("claim.json", "json.not_object")
    # tolerated: key order, whitespace, CRLF, "VAR=value"
    env = f"{right['env_var']}={right['device']}"
    reordered = {"env_var": env, "device": right["device"], "claim": right["claim"]}
    path.write_text(json.dumps(reordered, indent=2).replace("\n", "\r\n"))
    assert check(4, snap, lab).ok


def test_claim_json_env_var_is_derived_from_the_device(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-4")
    right = claim_answer(snap)
    other = int(right["env_var"].rsplit("_", 1)[1]) + 1
    (lab / "claim.json").write_text(json.dumps({**right, "env_var": f"GPU_DEVICE_{other}"}))
    assert failing(check(4, snap, lab)) == ("env_var", "s4.env_var")


# ---------------------------------------------------------------- step 5, 6, 7


def test_mistake_2_selector_without_domain(lab: Path, lab_snapshot: SnapAt) -> None:
    # The lab's mistake 2, written where a learner writes it; on the cluster (recorded) the API
    # server refused the claim, so after step 4 there is still no pick-seven.
    bad = example_text("pick.yaml").replace(
        "device.attributes['gpu.example.com'].index == 7", "device.attributes.index == 7"
    )
    (lab / "pick.yaml").write_text(bad)
    snap = lab_snapshot("mistake-2")
    assert (NS, "pick-seven-wrong") not in snap.objects[Kind.CLAIMS]
    v = check(5, lab_snapshot("step-4"), lab)
    assert failing(v) == ("pick.yaml: pick-seven", "mistake.attr_no_domain")
    assert "device.attributes['gpu.example.com'].index" in v.reason
    assert "rejects this expression" in v.reason and "never created" in v.reason
    cluster = next(s for s in v.subchecks if s.name == "cluster: pick-seven")
    assert cluster.ok is False and cluster.reason.key == "mistake.rejected"
    assert "드라이버 이름 아래" in v.reason.lang("ko") and "거절" in v.reason.lang("ko")
    assert v.subchecks[1].hint.key == "hint.s5_selector"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("index == 7", "index == '7'", "cel.quoted_int"),
        ("attributes['gpu.example.com'].index", "attributes['index']", "mistake.attr_no_domain"),
        # Evaluated on the recorded devices (selectors.judge): `['index'].index` and a wrong
        # domain compile, then fail with "no such key"; `== 6` picks another device.
        ("['gpu.example.com']", "['index']", "cel.runtime_error"),
        ("['gpu.example.com']", "['example.com']", "cel.runtime_error"),
        ("index == 7", "index == 6", "cel.picks_other"),
        (
            "resourceClaimName: pick-seven",
            "resourceClaimTemplateName: pick-seven",
            "pod.template_for_claim",
        ),
        ("resourceClaimName: pick-seven", "resourceClaimName: pick-sevn", "pod.ref_typo"),
    ],
)
def test_pick_yaml_mistakes(
    old: str, new: str, message: str, lab: Path, lab_snapshot: SnapAt
) -> None:
    text = example_text("pick.yaml")
    assert old in text
    (lab / "pick.yaml").write_text(text.replace(old, new))
    v = check(5, lab_snapshot("step-5"), lab)
    assert v.status == "broken" and failing(v)[1] == message, v.reason


def test_pick_device_comes_from_the_index_attribute(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-5")
    write_answers(lab, snap, [5])
    claim = snap.get(Kind.CLAIMS, NS, "pick-seven")
    assert claim is not None
    got = claim["status"]["allocation"]["devices"]["results"][0]["device"]
    # Renumber the recorded device's index: the check must notice it no longer is index 7.
    slices = dict(snap.objects[Kind.SLICES])
    key, sl = next(iter(slices.items()))
    devices = [
        {**d, "attributes": {**d["attributes"], "index": {"int": 70}}} if d["name"] == got else d
        for d in sl["spec"]["devices"]
    ]
    slices[key] = {**sl, "spec": {**sl["spec"], "devices": devices}}
    v = check(5, replace(snap, objects={**snap.objects, Kind.SLICES: slices}), lab)
    assert failing(v)[1] in ("s5.no_index7", "s5.wrong_device")


def test_shared_with_template_is_diagnosed(lab: Path, lab_snapshot: SnapAt) -> None:
    text = example_text("shared.yaml").replace(
        "resourceClaimName: shared", "resourceClaimTemplateName: shared"
    )
    (lab / "shared.yaml").write_text(text)
    v = check(6, lab_snapshot("step-6"), lab)
    assert failing(v) == ("shared.yaml: share-a", "pod.template_for_claim")
    assert "stamps a new claim per pod" in v.reason


def test_shared_reserved_for_both_pods(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-6")
    write_answers(lab, snap, [6])
    claim = snap.get(Kind.CLAIMS, NS, "shared")
    assert claim is not None
    status = dict(claim["status"])
    status["reservedFor"] = [r for r in status["reservedFor"] if r["name"] != "share-b"]
    claims = {**snap.objects[Kind.CLAIMS], (NS, "shared"): {**claim, "status": status}}
    v = check(6, replace(snap, objects={**snap.objects, Kind.CLAIMS: claims}), lab)
    sub = next(s for s in v.subchecks if s.name == "cluster: reservedFor")
    assert sub.ok is None and "share-b" in sub.reason


def test_transient_scheduler_message_is_quoted_not_red(lab: Path, lab_recording: Path) -> None:
    # Recorded: share-b briefly waited while the shared claim was being allocated.
    def share_b_waiting(view: DraView) -> bool:
        pod = view.pods.get((NS, "share-b"))
        return bool(
            pod
            and pod.pending
            and any(e.reason == "FailedScheduling" for e in view.events_for("Pod", NS, "share-b"))
        )

    snap = snapshot_when(lab_recording, share_b_waiting)
    write_answers(lab, snap, [6])
    v = check(6, snap, lab)
    sub = next(s for s in v.subchecks if s.name == "cluster: share-b")
    assert sub.ok is None and "the scheduler says" in sub.reason
    assert "in the process of being allocated" in sub.reason


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("          allocationMode: ExactCount\n", "", "yaml.mode_missing"),
        ("count: 2", 'count: "2"', "yaml.count_type"),
        ("count: 2", "count: 3", "yaml.count_wrong"),
        ("allocationMode: ExactCount", "allocationMode: All", "yaml.mode_all"),
    ],
)
def test_two_yaml_mistakes(
    old: str, new: str, message: str, lab: Path, lab_snapshot: SnapAt
) -> None:
    text = example_text("two.yaml")
    assert old in text
    (lab / "two.yaml").write_text(text.replace(old, new))
    v = check(7, lab_snapshot("step-7"), lab)
    assert failing(v) == ("two.yaml: two-gpus", message), v.reason


def test_two_requests_instead_of_count(lab: Path, lab_snapshot: SnapAt) -> None:
    text = example_text("two.yaml").replace(
        "          allocationMode: ExactCount\n          count: 2\n",
        "      - name: gpus2\n        exactly:\n          deviceClassName: gpu.example.com\n",
    )
    (lab / "two.yaml").write_text(text)
    v = check(7, lab_snapshot("step-7"), lab)
    assert failing(v) == ("two.yaml: two-gpus", "yaml.split_requests")


def test_two_gpus_claim_has_two_results(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-7")
    view = build_view(snap)
    pod = view.pods[(NS, "dra-2x")]
    (claim,) = view.claims_of_pod(pod)
    assert len({r.id for r in claim.results}) == 2  # the recording itself
    write_answers(lab, snap, [7])
    assert check(7, snap, lab).ok


# ---------------------------------------------------------------- step 8: dra-big and the ledger


def test_report_matches_the_ledger_in_any_order(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    right = ledger_answer(snap)
    view = build_view(snap)
    ledger = view.ledger(driver=slices_answer(snap)["driver"], namespace=NS)
    assert right["allocated_devices"] == len(ledger.allocated)
    assert sorted(right["pending_pods"]) == sorted(ledger.pending_pods)
    (lab / "report.json").write_text(
        json.dumps({**right, "pending_pods": right["pending_pods"][::-1]})
    )
    assert check(8, snap, lab).ok


def test_report_shared_device_counted_once(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    right = ledger_answer(snap)
    # Counting per pod (share-a and share-b each holding "a" device) overcounts by one.
    shared = snap.get(Kind.CLAIMS, NS, "shared")
    assert shared is not None and len(shared["status"]["reservedFor"]) == 2
    naive = sum(
        len((c.get("status") or {}).get("allocation", {}).get("devices", {}).get("results", []))
        for c in objs(snap, Kind.CLAIMS)
    )
    assert naive == right["allocated_devices"]  # one claim, one result: already counted once
    path = lab / "report.json"
    path.write_text(json.dumps({**right, "allocated_devices": right["allocated_devices"] + 1}))
    assert failing(check(8, snap, lab)) == ("allocated_devices", "s8.allocated")
    path.write_text(json.dumps({**right, "free_devices": right["free_devices"] - 1}))
    assert failing(check(8, snap, lab)) == ("free_devices", "s8.free")


def test_report_counting_each_result_twice_is_explained(lab: Path, lab_snapshot: SnapAt) -> None:
    # Give the shared device to a second claim too (as two claims sharing one device would):
    # counting results then overcounts, and the reason says a shared device counts once.
    snap = lab_snapshot("step-8")
    shared = snap.get(Kind.CLAIMS, NS, "shared")
    assert shared is not None
    twin = {**shared, "metadata": {**shared["metadata"], "name": "shared-twin", "uid": "twin"}}
    claims = {**snap.objects[Kind.CLAIMS], (NS, "shared-twin"): twin}
    twinned = replace(snap, objects={**snap.objects, Kind.CLAIMS: claims})
    right = ledger_answer(twinned)
    path = lab / "report.json"
    path.write_text(json.dumps({**right, "allocated_devices": right["allocated_devices"] + 1}))
    v = check(8, twinned, lab)
    assert failing(v) == ("allocated_devices", "s8.counted_twice")


def test_report_types_and_pending_pods(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    right = ledger_answer(snap)
    path = lab / "report.json"
    cases: list[tuple[dict[str, Any], tuple[str, str]]] = [
        (
            {"allocated_devices": str(right["allocated_devices"])},
            ("allocated_devices", "json.number_as_string"),
        ),
        ({"free_devices": True}, ("free_devices", "json.not_number")),
        ({"free_devices": [right["free_devices"]]}, ("free_devices", "json.not_number")),
        ({"pending_pods": right["pending_pods"][0]}, ("pending_pods", "s8.pending_string")),
        ({"pending_pods": right["pending_pods"] * 2}, ("pending_pods", "s8.pending_dup")),
        ({"pending_pods": [*right["pending_pods"], "share-a"]}, ("pending_pods", "s8.pending_not")),
        (
            {"pending_pods": [*right["pending_pods"], "nobody"]},
            ("pending_pods", "s8.pending_unknown"),
        ),
        ({"pending_pods": []}, ("pending_pods", "s8.pending_missing")),
    ]
    for change, expected in cases:
        path.write_text(json.dumps({**right, **change}))
        assert failing(check(8, snap, lab)) == expected, change
    path.write_text(json.dumps({**right, "allocated_devices": float(right["allocated_devices"])}))
    assert check(8, snap, lab).ok


def test_report_pending_order_free_with_two_pending(lab: Path, lab_recording: Path) -> None:
    # Recorded: for a moment share-a and share-b were both Pending and unscheduled.
    def both_pending(view: DraView) -> bool:
        return all((p := view.pods.get((NS, n))) and p.pending for n in ("share-a", "share-b"))

    snap = snapshot_when(lab_recording, both_pending)
    right = ledger_answer(snap)
    assert len(right["pending_pods"]) == 2
    for order in (right["pending_pods"], right["pending_pods"][::-1]):
        (lab / "report.json").write_text(json.dumps({**right, "pending_pods": order}))
        v = check(8, snap, lab)
        assert all(s.ok for s in v.subchecks if s.name != "cluster: dra-big"), v.reason


def test_dra_big_quotes_the_scheduler(lab_snapshot: SnapAt) -> None:
    from gsb_tui.lab import cluster

    view = build_view(lab_snapshot("step-8"))
    pod = view.pods[(NS, "dra-big")]
    event = [e for e in view.events_for("Pod", NS, "dra-big") if e.reason == "FailedScheduling"]
    assert event
    sub = cluster.pod_running(view, "x", pod)
    assert sub.ok is False and event[-1].message in sub.reason
    assert sub.hint.key == "hint.no_device"
    count, takes_all = cluster.requested_count(view, pod)
    template = lab_snapshot("step-8").get(Kind.TEMPLATES, NS, "four-gpus")
    assert template is not None and not takes_all
    assert count == template["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"]


def test_dra_big_running_is_not_the_lesson(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    write_answers(lab, snap, [8])
    pod = snap.get(Kind.PODS, NS, "dra-1")
    big = snap.get(Kind.PODS, NS, "dra-big")
    assert pod is not None and big is not None
    running = {
        **big,
        "spec": {**big["spec"], "nodeName": pod["spec"]["nodeName"]},
        "status": {**big["status"], "phase": "Running"},
    }
    pods = {**snap.objects[Kind.PODS], (NS, "dra-big"): running}
    v = check(8, replace(snap, objects={**snap.objects, Kind.PODS: pods}), lab)
    assert failing(v) == ("cluster: dra-big", "s8.not_pending")


# ---------------------------------------------------------------- mistake 1 on the cluster


def test_mistake_1_found_on_the_cluster(lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("mistake-1")
    view = build_view(snap)
    found = findings(view)
    assert [(f.code, f.subject) for f in found] == [("no-container-claim", f"{NS}/no-claim-ref")]
    assert "the device never reaches the container" in found[0].reason
    # The recorded pod's claim really was allocated: the API did not catch it.
    (claim,) = view.claims_of_pod(view.pods[(NS, "no-claim-ref")])
    assert claim.allocated
    assert findings(build_view(lab_snapshot("step-8"))) == ()


def test_mistake_1_on_a_step_pod_breaks_the_step(lab: Path, lab_snapshot: SnapAt) -> None:
    # The recorded no-claim-ref pod's container, put in dra-1's place: what the cluster shows
    # when a learner applied one.yaml without resources.claims.
    snap = lab_snapshot("mistake-1")
    write_answers(lab, snap, [3])
    bad = snap.get(Kind.PODS, NS, "no-claim-ref")
    dra1 = snap.get(Kind.PODS, NS, "dra-1")
    assert bad is not None and dra1 is not None
    spec = {**dra1["spec"], "containers": bad["spec"]["containers"]}
    pods = {**snap.objects[Kind.PODS], (NS, "dra-1"): {**dra1, "spec": spec}}
    v = check(3, replace(snap, objects={**snap.objects, Kind.PODS: pods}), lab)
    assert failing(v) == ("cluster: dra-1", "mistake.no_container_claim")
    assert "the device never reaches the container" in v.reason


# ---------------------------------------------------------------- rendering and data


def test_json_and_text_rendering(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("mistake-1")
    write_answers(lab, snap, [1, 2])
    (lab / "claim.json").write_text("{")
    view = build_view(snap)
    verdicts = evaluate(view, lab, steps=[4, 1, 2])
    assert [v.step for v in verdicts] == [1, 2, 4]
    out = to_json(verdicts, findings=findings(view))
    assert json.loads(json.dumps(out)) == out
    assert out["ok"] is False
    one, _, four = out["steps"]
    assert one == {**one, "ok": True, "reason": ""}
    assert all(s["ok"] and s["reason"] == "" for s in one["subchecks"])
    assert four["ok"] is False and four["reason"].startswith("claim.json is not valid JSON")
    assert set(four) >= {"step", "ok", "reason", "hint", "subchecks"}
    assert out["findings"][0]["subject"] == f"{NS}/no-claim-ref"
    ko = to_json(verdicts, lang="ko")
    assert "올바른 JSON 이 아닙니다" in ko["steps"][2]["reason"]
    text_en = to_text(verdicts, "en", findings=findings(view))
    text_ko = to_text(verdicts, "ko")
    assert "Read the devices the driver publishes" in text_en and "no-claim-ref" in text_en
    assert "드라이버가 공개한 장치 목록을 읽는다" in text_ko and "2/3 단계 완료" in text_ko
    with pytest.raises(KeyError):
        evaluate(view, lab, steps=[9])


def test_steps_data_and_examples() -> None:
    assert [s.id for s in STEPS] == list(range(1, 9))
    for s in STEPS:
        assert s.title_ko and s.title_en and s.goal_ko and s.goal_en and s.files
        assert s.example in SNIPPETS[s.id]
        text = example_for(s.id)
        assert text.strip()
        for name in SNIPPETS[s.id]:
            assert f"--- {name} ---" in text
    assert "busybox:1.36" in example_text("big.yaml") and "dra-big" in example_text("big.yaml")
    assert "report.json" in example_for(8)


_ANSWER_FILES = (
    "slices.txt",
    "class.txt",
    "one.yaml",
    "claim.json",
    "pick.yaml",
    "shared.yaml",
    "two.yaml",
    "report.json",
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(contents=st.lists(st.binary(max_size=300), min_size=8, max_size=8))
def test_arbitrary_bytes_in_every_answer_file(
    contents: list[bytes], tmp_path: Path, lab_snapshot: SnapAt
) -> None:
    lab = tmp_path / "fuzz"
    lab.mkdir(exist_ok=True)
    for name, data in zip(_ANSWER_FILES, contents, strict=True):
        (lab / name).write_bytes(data)
    verdicts = evaluate(build_view(lab_snapshot("step-8")), lab)
    assert len(verdicts) == 8
    for v in verdicts:
        assert v.ok or v.reason  # never silent about what is wrong
    json.dumps(to_json(verdicts))


_ODD = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _put(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: _put(node[head], rest, value)}
    copy = list(node)
    copy[head] = _put(copy[head], rest, value)
    return copy


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_manifests_with_odd_values_never_crash(
    data: st.DataObject, tmp_path: Path, lab_snapshot: SnapAt
) -> None:
    import yaml

    n = data.draw(st.sampled_from(sorted(YAML_STEPS)))
    name = YAML_STEPS[n]
    docs = list(yaml.safe_load_all(example_text(name)))
    index = data.draw(st.integers(0, len(docs) - 1))
    path = data.draw(st.sampled_from(_paths(docs[index])))
    docs[index] = _put(docs[index], path, data.draw(_ODD))
    lab = tmp_path / "odd"
    lab.mkdir(exist_ok=True)
    (lab / name).write_text(yaml.safe_dump_all(docs))
    v = checks.CHECKS[n](build_view(lab_snapshot(f"step-{n}")), LabFiles(lab))
    assert v.ok or v.reason


def test_big_but_allowed_answer_files_stay_quick(lab: Path, lab_snapshot: SnapAt) -> None:
    snap = lab_snapshot("step-8")
    right = ledger_answer(snap)
    names = [f"pod-{i}" for i in range(80_000)]  # ~0.9 MiB: under the cap, so it is read
    (lab / "report.json").write_text(json.dumps({**right, "pending_pods": names + names[:1]}))
    assert failing(check(8, snap, lab)) == ("pending_pods", "s8.pending_dup")
    (lab / "report.json").write_text("[" * 200_000 + "]" * 200_000)
    assert failing(check(8, snap, lab))[0] == "report.json"
