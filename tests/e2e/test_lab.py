"""The lab performed for real: kubectl apply of the shipped example manifests, step by step,
and what the real scheduler and resourceclaim controller did at each step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.lab_run import NS, LabOutcome, LabRunner, example, kubectl

Seen = dict[str, dict[str, Any]]


def answer_and_check(cluster: ControlPlane, lab_dir: Path, step: int) -> dict[str, Any]:
    """Write step's answer as a learner would (the shipped example or snippet), then check it."""
    env = {
        **os.environ,
        "KUBECONFIG": str(cluster.kubeconfig),
        "LAB_DIR": str(lab_dir),
        "PATH": f"{Path(kubectl()).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    yaml_file = {3: "one.yaml", 5: "pick.yaml", 6: "shared.yaml", 7: "two.yaml"}.get(step)
    if yaml_file:
        (lab_dir / yaml_file).write_text(example(yaml_file))
    elif step in (1, 2, 4, 8):
        proc = subprocess.run(
            ["bash", "-e", "-c", example(f"step{step}.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "gsb_tui.cli",
            "check",
            "--kubeconfig",
            str(cluster.kubeconfig),
            "--lab-dir",
            str(lab_dir),
            "--step",
            str(step),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    result: dict[str, Any] = json.loads(check.stdout)
    result["exit"] = check.returncode
    return result


@pytest.fixture(scope="module")
def lab(
    cluster: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Seen, LabOutcome, dict[str, Any]]:
    rest = cluster.rest()
    seen: Seen = {}
    lab_dir = tmp_path_factory.mktemp("gsb-dra")
    checks: dict[int, dict[str, Any]] = {}

    def mark(label: str) -> None:
        if label.startswith("step-") and label != "step-0":
            step = int(label.split("-")[1])
            checks[step] = answer_and_check(cluster, lab_dir, step)
        seen[label] = {
            "claims": {
                c["metadata"]["name"]: c
                for c in rest.get(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims")[
                    "items"
                ]
            },
            "pods": {
                p["metadata"]["name"]: p for p in rest.get(f"/api/v1/namespaces/{NS}/pods")["items"]
            },
            "events": rest.get(f"/api/v1/namespaces/{NS}/events")["items"],
        }

    runner = LabRunner(cluster, log=print)
    outcome = runner.perform(mark, settle=0.2)
    slices = rest.get("/apis/resource.k8s.io/v1/resourceslices")["items"]
    runner.cleanup(mark)
    return seen, outcome, {"slices": slices, "checks": checks}


def devices_published(slices: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {d["name"]: d for s in slices for d in s["spec"]["devices"]}


def results(claim: dict[str, Any]) -> list[dict[str, Any]]:
    return claim.get("status", {}).get("allocation", {}).get("devices", {}).get("results", [])


def generated_claim(pod: dict[str, Any], entry: str) -> str:
    for status in pod.get("status", {}).get("resourceClaimStatuses", []):
        if status["name"] == entry:
            return str(status["resourceClaimName"])
    raise AssertionError(f"pod {pod['metadata']['name']} has no resourceClaimStatuses[{entry}]")


def test_step3_dra1_running_with_one_result(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    seen = lab[0]["step-3"]
    pod = seen["pods"]["dra-1"]
    assert pod["status"]["phase"] == "Running"
    claim_name = generated_claim(pod, "gpu")
    assert claim_name.startswith("dra-1-gpu-")
    claim = seen["claims"][claim_name]
    assert len(results(claim)) == 1
    assert [r["name"] for r in claim["status"]["reservedFor"]] == ["dra-1"]


def test_step5_pick_seven_gets_index_7(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    seen, _, extra = lab
    by_index = {
        d["attributes"]["index"]["int"]: name
        for name, d in devices_published(extra["slices"]).items()
    }
    claim = seen["step-5"]["claims"]["pick-seven"]
    assert [r["device"] for r in results(claim)] == [by_index[7]]
    assert seen["step-5"]["pods"]["dra-7"]["status"]["phase"] == "Running"


def test_step6_shared_claim_two_pods_one_device(
    lab: tuple[Seen, LabOutcome, dict[str, Any]],
) -> None:
    seen = lab[0]["step-6"]
    claim = seen["claims"]["shared"]
    assert len(results(claim)) == 1
    assert sorted(r["name"] for r in claim["status"]["reservedFor"]) == ["share-a", "share-b"]
    for pod in ("share-a", "share-b"):
        assert seen["pods"][pod]["status"]["phase"] == "Running"
        # Named claims get no resourceClaimStatuses entry: only template entries do.
        assert not seen["pods"][pod]["status"].get("resourceClaimStatuses")


def test_step7_two_results(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    seen = lab[0]["step-7"]
    claim = seen["claims"][generated_claim(seen["pods"]["dra-2x"], "gpus")]
    devices = [r["device"] for r in results(claim)]
    assert len(devices) == 2 and len(set(devices)) == 2
    request = claim["spec"]["devices"]["requests"][0]["exactly"]
    assert request["allocationMode"] == "ExactCount" and request["count"] == 2


def test_step8_dra_big_pending_and_ledger(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    seen, _, extra = lab
    step8 = seen["step-8"]
    pod = step8["pods"]["dra-big"]
    assert pod["status"]["phase"] == "Pending" and not pod["spec"].get("nodeName")
    failed = [
        e
        for e in step8["events"]
        if e["involvedObject"]["name"] == "dra-big" and e["reason"] == "FailedScheduling"
    ]
    assert failed and "cannot allocate all claims" in failed[0]["message"]
    big_claim = step8["claims"][generated_claim(pod, "gpus")]
    assert "allocation" not in big_claim.get("status", {})
    allocated = {
        (r["driver"], r["pool"], r["device"]) for c in step8["claims"].values() for r in results(c)
    }
    total = len(devices_published(extra["slices"]))
    # dra-1 1 + pick-seven 1 + shared 1 (two pods, counted once) + dra-2x 2
    assert len(allocated) == 1 + 1 + 1 + 2
    needed = big_claim["spec"]["devices"]["requests"][0]["exactly"]["count"]
    assert total - len(allocated) < needed
    pending = sorted(
        p["metadata"]["name"] for p in step8["pods"].values() if p["status"]["phase"] == "Pending"
    )
    assert pending == ["dra-big"]


def test_mistake1_claim_allocated_without_container_reference(
    lab: tuple[Seen, LabOutcome, dict[str, Any]],
) -> None:
    seen = lab[0]["mistake-1"]
    pod = seen["pods"]["no-claim-ref"]
    assert pod["status"]["phase"] == "Running"
    assert not pod["spec"]["containers"][0].get("resources", {}).get("claims")
    claim = seen["claims"][generated_claim(pod, "gpu")]
    assert len(results(claim)) == 1  # allocated: the API does not catch this mistake


def test_mistake2_rejected_at_admission(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    seen, outcome, _ = lab
    assert outcome.mistake_2_exit != 0
    assert "compilation failed" in outcome.mistake_2_stderr
    assert "no matching overload for '_==_'" in outcome.mistake_2_stderr
    assert "pick-seven-wrong" not in seen["mistake-2"]["claims"]
    print(f"\n[mistake-2] {outcome.mistake_2_stderr}")


def test_cleanup_frees_every_device(lab: tuple[Seen, LabOutcome, dict[str, Any]]) -> None:
    assert lab[0]["cleanup"]["claims"] == {}


@pytest.mark.parametrize("step", range(1, 9))
def test_shipped_examples_pass_their_own_step(
    lab: tuple[Seen, LabOutcome, dict[str, Any]], step: int
) -> None:
    result = lab[2]["checks"][step]
    (verdict,) = result["steps"]
    assert verdict["ok"], json.dumps(verdict, ensure_ascii=False, indent=1)
    assert result["exit"] == 0
