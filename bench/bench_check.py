"""`gsb-tui check` over the full lab, beside kubectl reading the same kinds.

The lab is performed on the cluster (LabRunner), then a temporary lab directory gets the
answer files the way a learner makes them: the shipped example manifests and the shipped
step scripts (step1.sh, step2.sh, step4.sh, step8.sh) run against this cluster.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import profiles
from harness import GSB_TUI, Figures, kubectl_args, log, wall_time

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.lab_run import LabRunner, example, kubectl

MANIFESTS = ("one.yaml", "pick.yaml", "shared.yaml", "two.yaml")
SCRIPTS = ("step1.sh", "step2.sh", "step4.sh", "step8.sh")


def perform_lab(cp: ControlPlane) -> float:
    started = time.monotonic()
    LabRunner(cp, log=lambda _m: None).perform(lambda _label: None, settle=0.2)
    return time.monotonic() - started


def write_answers(cp: ControlPlane, lab_dir: Path) -> list[str]:
    """Answer files into lab_dir; returns the scripts that failed (the check says why)."""
    lab_dir.mkdir(parents=True, exist_ok=True)
    for name in MANIFESTS:
        (lab_dir / name).write_text(example(name), encoding="utf-8")
    env = {
        **os.environ,
        "KUBECONFIG": str(cp.kubeconfig),
        "LAB_DIR": str(lab_dir),
        "PATH": f"{Path(kubectl()).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    failed = []
    for script in SCRIPTS:
        proc = subprocess.run(
            ["bash", "-c", example(script)], env=env, capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            failed.append(f"{script}: {proc.stderr.strip()[:200]}")
    return failed


def run(
    cp: ControlPlane, figures: Figures, runs: int, profile: bool = False
) -> list[profiles.Hotspots]:
    """Time `gsb-tui check`; with profile, also one pyinstrument pass over the whole process."""
    hot: list[profiles.Hotspots] = []
    log("check: performing the lab")
    figures.note("check", f"lab performed in {perform_lab(cp):.1f} s")
    with tempfile.TemporaryDirectory(prefix="gsb-bench-lab-") as tmp:
        lab_dir = Path(tmp) / "gsb-dra"
        for problem in write_answers(cp, lab_dir):
            figures.note("check", f"answer script failed: {problem}")
        cmd = [str(GSB_TUI), "check", f"--kubeconfig={cp.kubeconfig}", f"--lab-dir={lab_dir}"]
        log(f"check: timing `gsb-tui check`, {runs} runs")
        took, code = wall_time(cmd, runs)
        figures.add("check_s", took, "s", f"exit {code} (0: all eight steps green)")
        figures.add("check_exit", float(code), "code")
        if code != 0:
            out = subprocess.run(cmd, capture_output=True, text=True, check=False)
            red = [line for line in out.stdout.splitlines() if line.strip()][:12]
            figures.note("check", "verdicts: " + " | ".join(red))
        kinds = (
            "resourceslices,deviceclasses,resourceclaims,resourceclaimtemplates,pods,events,nodes"
        )
        kube_s, kube_code = wall_time(kubectl_args(cp, "get", kinds, "-o", "json"), runs)
        figures.add("kubectl_get_lab_kinds_s", kube_s, "s", f"exit {kube_code}")
        if profile:
            found = profiles.profile_process(
                "gsb-tui check, whole process (lab cluster)", ["-m", "gsb_tui.cli", *cmd[1:]]
            )
            hot += [found] if found else []
        shutil.rmtree(lab_dir, ignore_errors=True)
    return hot
